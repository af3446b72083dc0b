"""Form fields that read what people type as the API reads it: `WholeNumberField` is WTForms'
`IntegerField` with `plumbing.numbers.whole_number` and its bounds, so a form refuses exactly
what the API refuses, and says why in the page's language.
"""

from __future__ import annotations

from typing import Any

from wtforms import IntegerField
from wtforms.widgets import TextInput

from referee.engine.errors import RefereeError
from referee.web.plumbing.numbers import whole_number
from referee.web.vocabulary.messages import describe


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
