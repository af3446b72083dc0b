"""The referee's calls' own codes in words (too many melds, a discard without going out, a
game of another variant, a house rule typed on the command line), registered with
`vocabulary.messages` beside the service."""

from __future__ import annotations

from flask_babel import gettext, ngettext

from referee.web.vocabulary.messages import Message, plural_count, register

SENTENCES: dict[str, Message] = {
    "too_many_melds": lambda p: ngettext(
        "That is too many melds: at most %(num)d at once.",
        "That is too many melds: at most %(num)d at once.",
        plural_count(p["limit"]),
    ),
    "house_rule_syntax": lambda p: gettext(
        "Write a house rule as name=value, like max_jokers_per_meld=2, not “%(input)s”.", **p
    ),
    "discard_needs_going_out": lambda p: gettext(
        "A last discard is given only when going out (“going_out”: true)."
    ),
    "game_variant_differs": lambda p: gettext(
        "That game is played as %(game_variant)s, not %(variant)s: leave “variant” out or "
        "name the game’s.",
        **p,
    ),
}

register(SENTENCES)
