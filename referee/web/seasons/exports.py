"""A season as files: its table as CSV (a line per player, a column per club night, in the
season's language, through the codebase's one CSV writer `core.spreadsheets`) and as JSON (the
API's answer)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from flask_babel import format_date, gettext

from referee.web.core.spreadsheets import csv_text
from referee.web.plumbing.formats import decimal_sign
from referee.web.plumbing.i18n import in_language

from .presenting import movement_sign
from .service import Table


def _cell(value: Fraction | None) -> int | str:
    """Tournament points as a cell: a whole number stays a number; a share is written with the
    language's decimal sign, never as a fraction ("3/2" reads as a date)."""
    if value is None:
        return ""
    if value.denominator == 1:
        return int(value)
    text = f"{float(value):.2f}".rstrip("0")
    return text.replace(".", decimal_sign())


@in_language
def to_csv(shown: Table, lang: str) -> str:
    """Place, player, total, a cell per club night (its date), club nights played, the club
    nights dropped (their dates) and the movement since the last club night, in `lang`."""
    dates = [
        format_date(e.date, "short")
        + (f" ({gettext('Club games')})" if e.kind == "club_games" else "")
        for e in shown.counted
    ]
    header = [
        gettext("Place"), gettext("Player"), gettext("Total"), *dates,
        gettext("Club nights played"), gettext("Dropped"), gettext("Movement"),
    ]  # fmt: skip
    rows: list[list[Any]] = [header]
    for row in shown.table.rows:
        rows.append([
            "" if row.place is None else row.place, row.name, _cell(row.total),
            *(_cell(c) for c in row.cells), row.played,
            ", ".join(dates[i] for i in row.dropped), movement_sign(row.movement),
        ])  # fmt: skip
    delimiter = ";" if decimal_sign() == "," else ","
    return csv_text(rows, delimiter=delimiter)
