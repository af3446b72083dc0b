"""Reading numbers people type: one reader for the JSON API and every form field.

A number is ASCII digits with an optional minus, at most `MAX_DIGITS` of them: `str.isdigit()`
and `int()` also take "²" or "٣", which show as another number than they read as, and a
400-digit number would only cost time. `WholeNumberField` is WTForms' `IntegerField` with
this reader and its bounds, so a form refuses exactly what the API refuses.
"""

from __future__ import annotations

import re
from typing import Any, Final

from wtforms import IntegerField
from wtforms.widgets import TextInput

from referee.engine.errors import RefereeError
from referee.web.vocabulary.messages import describe

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


class WholeNumberField(IntegerField):
    """An optional whole number between `low` and `high`, read as the API reads one.

    Drawn as a text field with a number pad, not `type="number"`: the app says what is wrong
    with a number, in the page's language and beside every other problem at once, and what was
    typed stays as typed ("1x7" is not quietly sent as 17, nor -5 stopped by a bubble in the
    browser's language). `data-high` is for the steppers a page adds.
    """

    widget = TextInput()

    def __init__(self, label: Any = None, *, low: int, high: int, **kwargs: Any) -> None:
        render_kw = {"inputmode": "numeric", "data-high": high}
        render_kw.update(kwargs.pop("render_kw", {}))
        super().__init__(label, render_kw=render_kw, **kwargs)
        self.low, self.high = low, high

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.data = None
        if not valuelist or not str(valuelist[0]).strip():
            return
        try:
            self.data = whole_number(valuelist[0], low=self.low, high=self.high)
        except RefereeError as error:
            raise ValueError(describe(error.code, error.params)) from None
