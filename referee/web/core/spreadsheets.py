"""CSV as every download of the app writes it (a game's rounds, a club's games): one writer,
and one escaper for cells a spreadsheet would run as a formula (OWASP, "CSV Injection"), in
any width the spreadsheet folds to the plain characters."""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any, Final

#: What a spreadsheet reads as the start of a formula.
_FORMULA_STARTS: Final = frozenset("=+-@\t\r\n")


def _runs(text: str) -> bool:
    """Whether a spreadsheet could read `text` as a formula: its first character is one that
    starts one, in any width or form a spreadsheet folds to it (the fullwidth `＝＋－＠` of an
    East Asian keyboard, the small `﹦﹢﹣﹫`: NFKC makes each the plain one), also after
    spaces a spreadsheet may trim."""
    first = text.lstrip(" \u00a0\u3000")[:1]
    return bool(text) and (
        text[0] in _FORMULA_STARTS or unicodedata.normalize("NFKC", first) in _FORMULA_STARTS
    )


def csv_cell(value: Any) -> Any:
    """A cell as written: text that a spreadsheet would run as a formula gets a `'` in front.

    Numbers stay numbers (a negative score is a number, not a formula).
    """
    if isinstance(value, str) and _runs(value):
        return "'" + value
    return value


def csv_text(rows: Iterable[Sequence[Any]], *, delimiter: str = ",") -> str:
    """The rows as CSV text, every cell through `csv_cell`; `delimiter` ";" where the
    language writes decimals with a comma (as its spreadsheets read CSV)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter)
    writer.writerows([csv_cell(cell) for cell in row] for row in rows)
    return buffer.getvalue()
