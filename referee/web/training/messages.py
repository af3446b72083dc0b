"""The drills' own codes in words (a kind, level or count the trainer has not, a table with too
few different questions, an answer the trainer's pages cannot read), registered with
`vocabulary.messages` beside the service."""

from __future__ import annotations

from flask_babel import gettext

from referee.web.vocabulary.messages import Message, register

SENTENCES: dict[str, Message] = {
    "unknown_drill_kind": lambda p: gettext(
        "There is no drill called “%(kind)s”; ask for one of %(kinds)s.", **p
    ),
    "bad_drill_level": lambda p: gettext("A level is 1, 2 or 3, not %(level)s.", **p),
    "bad_drill_count": lambda p: gettext("A pack holds 1 to %(max)s drills, not %(count)s.", **p),
    "no_drills_of_kind": lambda p: gettext(
        "%(variant)s has no joker swaps to practise: none of its jokers may be swapped.", **p
    ),
    "too_few_drills": lambda p: gettext(
        "This table has only %(count)s different questions of this kind: ask for fewer.", **p
    ),
    # The trainer's pages: an answer that cannot be judged.
    "no_answer_chosen": lambda p: gettext("Choose one of the answers first."),
    "points_not_a_number": lambda p: gettext("Type the points as a whole number, such as 35."),
    "no_melds_typed": lambda p: gettext(
        "Type the melds you would lay down, one per line (at most 8 melds)."
    ),
}

register(SENTENCES)
