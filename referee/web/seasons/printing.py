"""A season's table on paper (ReportLab, as the score sheets and an evening's standings), A4 or
Letter landscape, in the season's language: the club and the season, its dates and its rule in
words, then a line per player (place, name with the movement since the last club night, total,
a column per club night, club nights played), a dropped club night in brackets and grey, an
absent one a dot; the key under the table on every page. More club nights than fit a page at
`MIN_NIGHT_WIDTH` each go on further pages, each with the places, names and totals again (as a
spreadsheet prints a wide table), the club nights shared out evenly among them. From the
shared PDF cache, keyed by what it shows (a round saved at a club night moves the table and so
the key).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from fractions import Fraction

from flask_babel import format_date, gettext
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from referee.engine.seasons import SeasonRow
from referee.web.plumbing.i18n import in_language
from referee.web.printing.cache import Cached, pdf_cache
from referee.web.printing.pdfs import Built, etag_of
from referee.web.printing.sheet_words import fit
from referee.web.printing.sheets import (
    FONT,
    FONT_BOLD,
    INK,
    PAPERS,
    draw_small_print,
    register_fonts,
)

from .presenting import movement_sign, points_text, rule_sentence
from .service import Table

MARGIN = 36.0
MUTED = (0.42, 0.42, 0.42)  # lighter than a sheet's: a dropped club night greyed
ROW_SIZE = 10.0
LABEL_SIZE = 8.0
ROW_STEP = 16.0
PLACE_WIDTH = 28.0
NAME_WIDTH = 150.0  # a 24-letter name at 10 pt, smaller where longer (never cut)
#: The narrowest a club night's column gets ("05.09.26*" at 8 pt, "12,5" at 10 pt).
MIN_NIGHT_WIDTH = 34.0


@dataclass(frozen=True)
class SeasonPdf:
    cached: Cached
    filename: str


def season_pdf(shown: Table, club_name: str, lang: str, paper: str) -> SeasonPdf:
    """The season's table as it stands, landscape."""
    table = shown.table
    key = (
        "season_table", shown.stored.id, club_name, repr(table.season),
        tuple((e.key, e.date) for e in table.evenings), repr(table.rows), lang, paper,
    )  # fmt: skip
    cached = pdf_cache().get_or_build(key, lambda: render(shown, club_name, lang, paper).body)
    return SeasonPdf(cached, f"season-{lang}-{paper}.pdf")


@in_language
def render(shown: Table, club_name: str, lang: str, paper: str) -> Built:
    register_fonts()
    buffer = io.BytesIO()
    height, width = PAPERS[paper]  # landscape
    season = shown.table.season
    canvas = Canvas(buffer, pagesize=(width, height), invariant=1, lang=lang, pageCompression=1)
    canvas.setTitle(f"{season.name} · {club_name}")
    canvas.setAuthor("Rummy Referee")
    canvas.setCreator("Rummy Referee")
    key = _key_lines(shown, width)
    rows: list[SeasonRow | None] = list(shown.table.rows) or [None]
    pages = 0
    for layout in _Layout.bands(shown, width):
        y = 0.0
        for index, row in enumerate(rows):
            if index == 0 or y < MARGIN + 11 * len(key) + ROW_STEP:
                if pages:
                    draw_small_print(canvas, key, left=MARGIN, bottom=MARGIN, colour=MUTED)
                    canvas.showPage()
                pages += 1
                y = _head(canvas, shown, club_name, layout, width, height)
            if row is None:
                canvas.setFont(FONT, ROW_SIZE)
                said = gettext("No club night of this season has a result yet.")
                canvas.drawString(MARGIN, y, said)
                break
            _row(canvas, row, layout, y)
            y -= ROW_STEP
    draw_small_print(canvas, key, left=MARGIN, bottom=MARGIN, colour=MUTED)
    canvas.showPage()
    canvas.save()
    body = buffer.getvalue()
    return Built(body=body, etag=etag_of(body), pages=pages)


@dataclass(frozen=True)
class _Layout:
    """Where each column starts and how wide the club nights' columns are, for the club nights
    one band of pages shows (`columns`: indexes into the table's; `of`: how many there are)."""

    columns: tuple[int, ...]
    dates: tuple[str, ...]
    of: int
    night_width: float
    nights_x: float
    right: float  # the right margin, where the club nights played end

    @classmethod
    def bands(cls, shown: Table, width: float) -> list[_Layout]:
        """One layout, or several where the club nights do not fit one page's width."""
        dates = tuple(
            format_date(e.date, "short") + ("*" if e.kind == "club_games" else "")
            for e in shown.counted
        )
        nights_x = MARGIN + PLACE_WIDTH + NAME_WIDTH + 46.0  # the total's column before them
        played_width = max(40.0, _label_width(gettext("Played")) + 8.0)
        room = width - MARGIN - played_width - nights_x
        fits = max(1, int(room // MIN_NIGHT_WIDTH))
        count = len(dates)
        size = math.ceil(count / math.ceil(count / fits)) if count else 1
        out = []
        for first in range(0, max(count, 1), size):
            columns = tuple(range(first, min(first + size, count)))
            night_width = min(54.0, room / max(1, len(columns)))
            picked = tuple(dates[i] for i in columns)
            out.append(cls(columns, picked, count, night_width, nights_x, width - MARGIN))
        return out


def _label_width(text: str) -> float:
    return max(pdfmetrics.stringWidth(word, FONT_BOLD, LABEL_SIZE) for word in text.split())


def _head(
    canvas: Canvas, shown: Table, club_name: str, layout: _Layout, width: float, height: float
) -> float:
    season = shown.table.season
    top = height - MARGIN
    canvas.setFillColorRGB(*INK)
    title = f"{season.name} — {club_name}"
    canvas.setFont(FONT_BOLD, fit(title, FONT_BOLD, 18, width - 2 * MARGIN))
    canvas.drawString(MARGIN, top - 16, title)
    canvas.setFillColorRGB(*MUTED)
    canvas.setFont(FONT, 10)
    days = f"{format_date(season.starts, 'long')} – {format_date(season.ends, 'long')}"
    canvas.drawString(MARGIN, top - 32, days)
    y = top - 46
    said = [rule_sentence(season)]
    if 0 < len(layout.columns) < layout.of:
        said.append(
            gettext(
                "Club nights %(first)d to %(last)d of %(count)d.",
                first=layout.columns[0] + 1,
                last=layout.columns[-1] + 1,
                count=layout.of,
            )
        )
    canvas.setFont(FONT, 9)  # the size the lines are measured at
    for line in simpleSplit(" ".join(said), FONT, 9, width - 2 * MARGIN):
        canvas.drawString(MARGIN, y, line)
        y -= 11
    y -= 10
    canvas.setFillColorRGB(*INK)
    canvas.setFont(FONT_BOLD, LABEL_SIZE)
    canvas.drawString(MARGIN, y, gettext("Place"))
    canvas.drawString(MARGIN + PLACE_WIDTH, y, gettext("Player"))
    canvas.drawRightString(layout.nights_x - 4, y, gettext("Total"))
    for position, day in enumerate(layout.dates):
        right = layout.nights_x + layout.night_width * (position + 1) - 4
        canvas.setFont(FONT_BOLD, fit(day, FONT_BOLD, LABEL_SIZE, layout.night_width - 4))
        canvas.drawRightString(right, y, day)
    canvas.setFont(FONT_BOLD, LABEL_SIZE)
    canvas.drawRightString(layout.right, y, gettext("Played"))
    canvas.setLineWidth(0.6)
    canvas.line(MARGIN, y - 5, width - MARGIN, y - 5)
    return y - 5 - ROW_STEP


def _row(canvas: Canvas, row: SeasonRow, layout: _Layout, y: float) -> None:
    ranked = row.place is not None
    canvas.setFillColorRGB(*(INK if ranked else MUTED))
    canvas.setFont(FONT, ROW_SIZE)
    canvas.drawString(MARGIN, y, str(row.place) if ranked else "–")
    font = FONT_BOLD if row.place is not None and row.place <= 3 else FONT
    moved = movement_sign(row.movement)
    name = f"{row.name} {moved}" if moved else row.name
    canvas.setFont(font, fit(name, font, ROW_SIZE, NAME_WIDTH - 6))
    canvas.drawString(MARGIN + PLACE_WIDTH, y, name)
    canvas.setFont(FONT_BOLD, ROW_SIZE)
    canvas.drawRightString(layout.nights_x - 4, y, points_text(row.total))
    for position, index in enumerate(layout.columns):
        right = layout.nights_x + layout.night_width * (position + 1) - 4
        text, muted = _cell(row.cells[index], dropped=index in row.dropped)
        canvas.setFont(FONT, ROW_SIZE)
        canvas.setFillColorRGB(*(MUTED if muted or not ranked else INK))
        canvas.drawRightString(right, y, text)
    canvas.setFillColorRGB(*(INK if ranked else MUTED))
    canvas.setFont(FONT, ROW_SIZE)
    canvas.drawRightString(layout.right, y, str(row.played))
    canvas.setFillColorRGB(*INK)


def _cell(value: Fraction | None, *, dropped: bool) -> tuple[str, bool]:
    """A club night's points, and whether grey: a dropped one in brackets, an absent a dot."""
    if value is None:
        return "·", True
    if dropped:
        return f"({points_text(value)})", True
    return points_text(value), False


def _key_lines(shown: Table, width: float) -> list[str]:
    rows = shown.table.rows
    said = []
    if any(row.dropped for row in rows):
        said.append(gettext("(12): a dropped club night, not counted in the total."))
    if any(row.place is None for row in rows):
        said.append(gettext("–: not enough club nights yet to be ranked."))
    if any(column.kind == "club_games" for column in shown.counted):
        said.append(gettext("*: the club’s other games of that day, counted as a club night."))
    if rows:
        said.append(gettext("▲ ▼: places moved since the table before the last club night."))
    return [line for text in said for line in simpleSplit(text, FONT, 9, width - 2 * MARGIN)]
