"""Reading numbers people type: one reader for the JSON API, every form field
(`vocabulary.fields.WholeNumberField`) and every count in a query (a version, a series).

A number is ASCII digits with an optional minus, at most `MAX_DIGITS` of them: `str.isdigit()`
and `int()` also take "²" or "٣", which show as another number than they read as, and a
400-digit number would only cost time. What is refused is a `RefereeError` with a code
(`not_a_number`, `out_of_range`); the words are the caller's (`vocabulary.messages`).
"""

from __future__ import annotations

import re
from typing import Any, Final

from referee.engine.errors import RefereeError

MAX_DIGITS: Final = 6
_WHOLE: Final = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")
_DIGITS: Final = re.compile(r"[0-9]+")


def whole_number(value: Any, *, low: int | None = None, high: int | None = None) -> int:
    """`value` (an int, or its digits as text) as an int within [low, high].

    RefereeError `not_a_number` when it is not a whole number, `out_of_range` (with `low` and
    `high`) when it is one outside the bounds.
    """
    if isinstance(value, bool):
        raise RefereeError("not_a_number", value=str(value).lower())
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        number = int(value.strip())
    else:
        raise RefereeError("not_a_number", value=str(value)[:20])
    if (low is not None and number < low) or (high is not None and number > high):
        raise RefereeError("out_of_range", value=number, low=low, high=high)
    return number


def plain_count(text: str | None, *, digits: int = MAX_DIGITS) -> int | None:
    """`text` as a count (a version, a series, a page) when it is ASCII digits only, at most
    `digits` of them; None for anything else, which the caller takes as "not given".

    Not `str.isdigit()`: it takes "¹" or "٣", which `int()` then refuses or reads otherwise.
    """
    if text is None or len(text) > digits or not _DIGITS.fullmatch(text):
        return None
    return int(text)
