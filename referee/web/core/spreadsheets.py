"""CSV as every download of the app writes it (a game's rounds, a club's games): one writer,
and one escaper for cells a spreadsheet would run as a formula (OWASP, "CSV Injection")."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any, Final

#: What a spreadsheet reads as the start of a formula.
_FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A cell as written: text that a spreadsheet would run as a formula gets a `'` in front.

    Numbers stay numbers (a negative score is a number, not a formula).
    """
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(rows: Iterable[Sequence[Any]], *, delimiter: str = ",") -> str:
    """The rows as CSV text, every cell through `csv_cell`; `delimiter` ";" where the
    language writes decimals with a comma (as its spreadsheets read CSV)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter)
    writer.writerows([csv_cell(cell) for cell in row] for row in rows)
    return buffer.getvalue()
