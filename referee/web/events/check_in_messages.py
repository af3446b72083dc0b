"""The check-in link's codes in words (registered with `vocabulary.messages`)."""

from __future__ import annotations

from flask_babel import gettext

from referee.web.vocabulary.messages import Message, register

SENTENCES: dict[str, Message] = {
    "check_in_closed": lambda p: gettext(
        "The host has closed check-in for this evening: ask the host to check you in or out."
    ),
    "not_your_check_in": lambda p: gettext(
        "This phone can only check out the player it checked in."
    ),
    "no_check_in_to_undo": lambda p: gettext(
        "%(name)s did not check in or out on their own phone: there is nothing to undo.", **p
    ),
}

register(SENTENCES)
