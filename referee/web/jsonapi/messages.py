"""What is wrong with a request body of /api/v1 (and of the command line), in words: not JSON,
not an object, a field missing or of the wrong type, too many entries, too large, a language
we do not speak. Registered with `vocabulary.messages`."""

from __future__ import annotations

from flask_babel import gettext, ngettext

from referee.web.vocabulary.messages import Message, plural_count, register

SENTENCES: dict[str, Message] = {
    "bad_json": lambda p: gettext("The request body is not valid JSON."),
    "not_an_object": lambda p: gettext(
        'The request body must be a JSON object, like {"variant": "contract"}.'
    ),
    "missing_field": lambda p: gettext("“%(field)s” is missing.", **p),
    "wrong_type": lambda p: gettext("“%(field)s” must be %(expected)s.", **p),
    "bad_language": lambda p: gettext(
        "“%(lang)s” is not a language we speak; use en, de, nl, pt, fr or es.", **p
    ),
    "too_many_entries": lambda p: ngettext(
        "“%(field)s” may hold at most %(num)d entry.",
        "“%(field)s” may hold at most %(num)d entries.",
        plural_count(p["limit"]),
        field=p["field"],
    ),
    "payload_too_large": lambda p: gettext(
        "The request is too large: at most %(limit)s bytes.", **p
    ),
}

register(SENTENCES)
