"""The clubs API's bodies and answers as JSON Schema (2020-12, as OpenAPI 3.1 takes them),
and the one reader of request bodies that follows them.

`read_body(body, schema)` checks a body against the top level of its schema (required fields,
each field's type) and gives every reason at once, each naming its field; what a value means
(a club's name: not empty, not too long) the store checks with reasons of its own. The same
dicts can go into the OpenAPI description as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from referee.engine.game import GameRefused, Reason, reason
from referee.web.i18n import LANGUAGES

from .store import MAX_CLUB_NAME

Schema = Mapping[str, Any]

LANG: Final[Schema] = {
    "type": "string",
    "description": f"the answer's language: {', '.join(LANGUAGES)} (another value is ignored)",
}

#: POST /api/v1/clubs
NEW_CLUB: Final[Schema] = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": MAX_CLUB_NAME},
        "lang": LANG,
    },
}

#: What POST /api/v1/games reads beside a game's fields, to file the game in a club (with the
#: club's edit token as `Authorization: Bearer …`).
GAME_IN_CLUB: Final[Schema] = {
    "type": "object",
    "properties": {"club": {"type": "string", "description": "the club's id"}},
}

RATING: Final[Schema] = {
    "type": "object",
    "required": ["mu", "sigma", "ordinal"],
    "properties": {
        "mu": {"type": "number"},
        "sigma": {"type": "number"},
        "ordinal": {"type": "number", "description": "mu - 3 sigma: what the ladder sorts by"},
    },
}

_NAMES: Final[Schema] = {"type": "array", "items": {"type": "string"}}

CLUB_GAME: Final[Schema] = {
    "type": "object",
    "required": ["id", "variant", "players", "finished", "winner", "winners", "date"],
    "properties": {
        "id": {"type": "string"},
        "variant": {"type": "string"},
        "players": _NAMES,
        "finished": {"type": "boolean"},
        "winner": {"type": ["string", "null"]},
        "winners": _NAMES,
        "date": {"type": "string", "format": "date-time"},
    },
}

#: GET /api/v1/clubs/<id>
CLUB: Final[Schema] = {
    "type": "object",
    "required": ["id", "name", "members", "games"],
    "properties": {
        "id": {"type": "string"},
        "name": {"type": "string"},
        "lang": {"type": "string"},
        "members": _NAMES,
        "games": {"type": "array", "items": CLUB_GAME},
        "version": {"type": "integer"},
        "view_url": {"type": "string", "format": "uri"},
    },
}

#: 201 of POST /api/v1/clubs: the club, its token and links.
CLUB_CREATED: Final[Schema] = {
    "allOf": [
        CLUB,
        {
            "type": "object",
            "required": ["edit_token", "view_url", "edit_url"],
            "properties": {
                "edit_token": {"type": "string"},
                "view_url": {"type": "string", "format": "uri"},
                "edit_url": {"type": "string", "format": "uri"},
            },
        },
    ]
}

_COUNT: Final[Schema] = {"type": "integer", "minimum": 0}
_MAYBE_NUMBER: Final[Schema] = {"type": ["number", "null"]}

#: The fields SPEC.md names for each player of GET /api/v1/clubs/<id>/stats.
_SPEC_STATS: Final = (
    "name", "games", "finished", "wins", "win_rate", "average_round_penalty", "rounds_out",
    "rating",
)  # fmt: skip

PLAYER_STATS: Final[Schema] = {
    "type": "object",
    "required": list(_SPEC_STATS),
    "properties": {
        "name": {"type": "string"},
        "games": _COUNT,
        "finished": _COUNT,
        "wins": _COUNT,
        "win_rate": _MAYBE_NUMBER,
        "average_round_penalty": _MAYBE_NUMBER,
        "rounds_out": _COUNT,
        "rating": RATING,
        "rounds": _COUNT,
        "best_round": {"type": ["integer", "null"]},
        "worst_round": {"type": ["integer", "null"]},
        "longest_streak": _COUNT,
    },
}

#: GET /api/v1/clubs/<id>/stats
CLUB_STATS: Final[Schema] = {
    "type": "object",
    "required": ["club", "variant", "players"],
    "properties": {
        "club": {"type": "string"},
        "variant": {"type": ["string", "null"]},
        "players": {"type": "array", "items": PLAYER_STATS},
        "head_to_head": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["player", "opponent", "ahead", "behind", "level"],
                "properties": {
                    "player": {"type": "string"},
                    "opponent": {"type": "string"},
                    "ahead": _COUNT,
                    "behind": _COUNT,
                    "level": _COUNT,
                },
            },
        },
    },
}

_PYTHON_TYPES: Final[Mapping[str, tuple[type, ...]]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


def _type_fits(value: Any, kind: str) -> bool:
    if isinstance(value, bool) and kind in ("integer", "number"):
        return False
    return isinstance(value, _PYTHON_TYPES[kind])


def _field_reasons(name: str, value: Any, spec: Schema) -> list[Reason]:
    kind = spec.get("type")
    if isinstance(kind, str) and not _type_fits(value, kind):
        return [reason("wrong_type", field=name, expected=kind)]
    return []


def read_body(body: Any, schema: Schema) -> dict[str, Any]:
    """The body's fields that the schema names, checked (GameRefused with every reason)."""
    if not isinstance(body, dict):
        raise GameRefused([reason("not_an_object", field="body")])
    reasons = [
        reason("missing_field", field=name)
        for name in schema.get("required", ())
        if body.get(name) is None
    ]
    fields = {}
    for name, spec in schema.get("properties", {}).items():
        value = body.get(name)
        if value is None:
            continue
        found = _field_reasons(name, value, spec)
        reasons.extend(found)
        if not found:
            fields[name] = value
    if reasons:
        raise GameRefused(reasons)
    return fields
