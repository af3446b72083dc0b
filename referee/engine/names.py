"""Players' names: cleaned as the table sees them, compared by their letters, and checked.

One rule for every name the engine keeps: a game's players, a club's members, an evening's
players. A name is cleaned (`clean_name`: invisible and direction-changing characters out,
whitespace collapsed), compared by `name_key` ("ANN" is Ann), and refused when empty or longer
than `MAX_NAME`; a table's names must differ (`read_names`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final

from .errors import Reason, reason

#: The longest player name, in characters.
MAX_NAME: Final = 24

#: Characters a name never keeps: they are invisible, or turn the text around them (a name
#: that reverses the score table's row). Zero-width joiners stay: emoji and some scripts need them.
_INVISIBLE: Final = frozenset(
    "\u00ad\u061c\u180e\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff"
)


def _name_char(char: str) -> bool:
    if char in _INVISIBLE:
        return False
    category = unicodedata.category(char)
    # Controls (but whitespace, collapsed below), unassigned, private use and surrogates.
    return char.isspace() or category not in ("Cc", "Cn", "Co", "Cs")


class _NameChars(dict[int, int | None]):
    """`str.translate`'s table for a name: each character kept or dropped (None), worked out
    the first time it is seen, so a name is cleaned at the speed of a lookup per character
    (a 64 KB one in milliseconds). Only so many are kept: any text at all may be sent."""

    def __missing__(self, code: int) -> int | None:
        kept = code if _name_char(chr(code)) else None
        if len(self) < 4096:
            self[code] = kept
        return kept


_NAME_CHARS: Final = _NameChars()


def clean_name(raw: str) -> str:
    """A name as the table sees it: controls, zero-width and direction-changing characters
    taken out, inner whitespace collapsed, ends trimmed; "" when nothing visible is left."""
    name = " ".join(raw.translate(_NAME_CHARS).split())
    visible = any(unicodedata.category(char)[0] not in ("C", "M", "Z") for char in name)
    return name if visible else ""


@lru_cache(maxsize=4096)  # a club's board compares the same few names thousands of times
def name_key(name: str) -> str:
    """What two names are compared by: the same letters, whatever their case, form, width or
    invisible joiners ("Ａnn", "ANN" and "An\u200dn" are all "ann")."""
    folded = unicodedata.normalize("NFKC", clean_name(name)).casefold()
    return "".join(char for char in folded if unicodedata.category(char) != "Cf")


def read_name(raw: Any, *, seat: int, field: str) -> tuple[str | None, Reason | None]:
    """One name cleaned (None: not text at all), and the reason it cannot be a player's, said
    of `seat` and `field`; whether it is another's name too is the caller's to ask."""
    if not isinstance(raw, str):
        return None, reason("bad_input", player=seat, field=field)
    name = clean_name(raw)
    if not name:
        return name, reason("empty_name", player=seat, field=field)
    if len(name) > MAX_NAME:
        too_long = {"name": name[:MAX_NAME], "max": MAX_NAME}
        return name, reason("name_too_long", player=seat, field=field, **too_long)
    return name, None


def read_names(players: Sequence[Any]) -> tuple[tuple[str, ...], list[Reason]]:
    """The names cleaned, and every reason they cannot be a table's players."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        return (), [reason("bad_input", field="players")]
    names: list[str] = []
    reasons: list[Reason] = []
    seen: set[str] = set()
    for seat, raw in enumerate(players):
        name, wrong = read_name(raw, seat=seat, field="players")
        if name is None:
            reasons.append(wrong or reason("bad_input", player=seat, field="players"))
            continue
        if wrong is None and name_key(name) in seen:
            wrong = reason("duplicate_name", player=seat, field="players", name=name)
        if wrong is not None:
            reasons.append(wrong)
        seen.add(name_key(name))
        names.append(name)
    return tuple(names), reasons


def is_read_name(name: str) -> bool:
    """Whether `name` could have come from `read_names` (a kept game's players always did)."""
    return (
        isinstance(name, str) and bool(name) and clean_name(name) == name and len(name) <= MAX_NAME
    )
