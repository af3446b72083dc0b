"""An evening on paper, in the evening's language (ReportLab, as the score sheets): one PDF per
series with a table card per table (its number, the players in seat order, who deals first, a QR
of its game's edit page) and a blank score sheet with the table's names; and the standings.
Both come from the shared PDF cache (`printing.cache`), keyed by what they show.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import format_date, gettext
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from referee.engine.events import Event, Series
from referee.engine.tournament import Standings, StandingsRow
from referee.web import words
from referee.web.house_rules import table_rules
from referee.web.i18n import in_language
from referee.web.printing.cache import Cached, pdf_cache
from referee.web.printing.pdfs import Built, etag_of
from referee.web.printing.sheet_extras import draw_qr
from referee.web.printing.sheet_words import fit, shorten
from referee.web.printing.sheets import (
    FONT,
    FONT_BOLD,
    PAPERS,
    blank_sheet,
    draw_sheet,
    register_fonts,
)

from .presenting import points_text, ranking_sentence

MARGIN = 42.0
INK = (0.07, 0.07, 0.07)
MUTED = (0.3, 0.3, 0.3)
ACCENT = (0.043, 0.31, 0.66)
QR_SIZE = 170.0


@dataclass(frozen=True)
class Pdf:
    cached: Cached
    filename: str


def _cached(key: tuple[Any, ...], build: Callable[[], bytes]) -> Cached:
    return pdf_cache().get_or_build(key, build)


def _canvas(buffer: io.BytesIO, paper: str, lang: str, title: str) -> Canvas:
    register_fonts()
    canvas = Canvas(
        buffer,
        pagesize=PAPERS[paper],
        invariant=1,
        lang=lang,
        pageCompression=1,
        initialFontName=FONT,  # type: ignore[arg-type]  # a font's name, as in sheets.py
        initialFontSize=10,
    )
    canvas.setTitle(title)
    canvas.setAuthor("Rummy Referee")
    canvas.setCreator("Rummy Referee")
    return canvas


# -- the table cards of a series ------------------------------------------------------------------


def table_cards(
    event_id: str, event: Event, number: int, links: Mapping[int, str], lang: str, paper: str
) -> Pdf:
    """Series `number`'s cards and sheets, one card and one sheet per table; `links`: table
    number -> its game's edit link (a table without one prints without a QR)."""
    drawn = event.series[number - 1]
    shown = tuple(
        (t.number, t.seats, t.first_dealer, links.get(t.number, "")) for t in drawn.tables
    )
    key = ("event_cards", event_id, number, shown, event.name, event.date, lang, paper)
    cached = _cached(key, lambda: render_table_cards(event, drawn, links, lang, paper).body)
    return Pdf(cached, f"evening-series-{number}-tables-{lang}-{paper}.pdf")


@in_language
def render_table_cards(
    event: Event, drawn: Series, links: Mapping[int, str], lang: str, paper: str
) -> Built:
    """The series' PDF: for each table its card, then its blank sheet."""
    buffer = io.BytesIO()
    title = gettext("Series %(number)s", number=drawn.number)
    canvas = _canvas(buffer, paper, lang, f"{event.name} · {title}")
    rules = table_rules(event.variant.id, event.table_house_rules)
    day = format_date(event.date, format="long")
    for table in drawn.tables:
        _draw_card(canvas, event, drawn, table.number, table.seats, table.first_dealer, day, paper,
                   links.get(table.number, ""))  # fmt: skip
        canvas.showPage()
        sheet = blank_sheet(rules, lang, paper, list(table.seats))
        sheet.title = (
            f"{sheet.title} · {title} · {gettext('Table %(number)s', number=table.number)}"
        )
        sheet.date = day
        draw_sheet(canvas, sheet)
        canvas.showPage()
    canvas.save()
    body = buffer.getvalue()
    return Built(body=body, etag=etag_of(body), pages=2 * len(drawn.tables))


def _draw_card(
    canvas: Canvas,
    event: Event,
    drawn: Series,
    table: int,
    seats: Sequence[str],
    dealer: int,
    day: str,
    paper: str,
    link: str,
) -> None:
    width, height = PAPERS[paper]
    canvas.setPageSize((width, height))
    top = height - MARGIN
    canvas.setFillColorRGB(*MUTED)
    head = f"{event.name} · {day} · {words.variant_name(event.variant)}"
    canvas.setFont(FONT, fit(head, FONT, 12, width - 2 * MARGIN))
    canvas.drawString(MARGIN, top - 12, head)
    canvas.setFillColorRGB(*ACCENT)
    canvas.setFont(FONT_BOLD, 22)
    canvas.drawString(MARGIN, top - 48, gettext("Series %(number)s", number=drawn.number))
    canvas.setFillColorRGB(*INK)
    label = gettext("Table %(number)s", number=table)
    canvas.setFont(FONT_BOLD, fit(label, FONT_BOLD, 64, width - 2 * MARGIN))
    canvas.drawString(MARGIN, top - 120, label)
    y = top - 180
    canvas.setFont(FONT, 11)
    canvas.setFillColorRGB(*MUTED)
    canvas.drawString(MARGIN, y, gettext("Seat order (clockwise):"))
    y -= 34
    for seat, name in enumerate(seats, start=1):
        canvas.setFillColorRGB(*INK)
        canvas.setFont(FONT_BOLD, 22)
        canvas.drawString(MARGIN, y, f"{seat}.")
        canvas.drawString(MARGIN + 40, y, shorten(name, width - 2 * MARGIN - 200, 22, FONT_BOLD))
        if seat - 1 == dealer:
            canvas.setFont(FONT, 13)
            canvas.setFillColorRGB(*ACCENT)
            canvas.drawRightString(width - MARGIN, y + 2, gettext("deals first"))
        y -= 36
    if link:
        bottom = MARGIN + 30
        draw_qr(canvas, link, MARGIN, bottom, QR_SIZE)
        canvas.setFont(FONT, 11)
        canvas.setFillColorRGB(*MUTED)
        scan = gettext("Scan to enter this table's rounds on a phone.")
        left = MARGIN + QR_SIZE + 16
        y = bottom + QR_SIZE / 2
        for line in simpleSplit(scan, FONT, 11, width - MARGIN - left):
            canvas.drawString(left, y, line)
            y -= 14


# -- the standings --------------------------------------------------------------------------------


def standings_pdf(event_id: str, event: Event, lang: str, paper: str) -> Pdf:
    """The evening's standings as they are (final once every table finished)."""
    key = ("event_standings", event_id, event.version, lang, paper)
    cached = _cached(key, lambda: render_standings(event, lang, paper).body)
    return Pdf(cached, f"evening-standings-{lang}-{paper}.pdf")


@in_language
def render_standings(event: Event, lang: str, paper: str) -> Built:
    buffer = io.BytesIO()
    title = gettext("Standings of the evening")
    canvas = _canvas(buffer, paper, lang, f"{event.name} · {title}")
    board = event.standings(unfinished=True)
    pages = _draw_standings(canvas, event, board, paper)
    canvas.save()
    body = buffer.getvalue()
    return Built(body=body, etag=etag_of(body), pages=pages)


def _draw_standings(canvas: Canvas, event: Event, board: Standings, paper: str) -> int:
    width, height = PAPERS[paper]
    day = format_date(event.date, format="long")
    columns = [
        (gettext("Place"), MARGIN, False), (gettext("Player"), MARGIN + 44, False),
        (gettext("Tournament points"), width - MARGIN - 190, True),
        (gettext("Points"), width - MARGIN - 110, True),
        (gettext("Rounds"), width - MARGIN - 55, True),
        (gettext("Tables won"), width - MARGIN, True),
    ]  # fmt: skip
    rows: list[StandingsRow | None] = list(board.rows) or [None]
    pages, y = 0, 0.0
    for index, row in enumerate(rows):
        if index == 0 or y < MARGIN + 40:
            if pages:
                canvas.showPage()
            pages += 1
            y = _standings_head(canvas, event, day, width, height, columns)
        if row is None:
            canvas.drawString(MARGIN, y, gettext("No table has a result yet."))
            break
        cells = [str(row.place), row.name, points_text(row.tournament_points), str(row.points),
                 str(row.rounds), str(row.tables_won)]  # fmt: skip
        canvas.setFont(FONT_BOLD if index < 3 else FONT, 11)
        for (_, x, right), text in zip(columns, cells, strict=True):
            if right:
                canvas.drawRightString(x, y, text)
            else:
                canvas.drawString(x, y, shorten(text, width - 2 * MARGIN - 250, 11, FONT))
        y -= 18
    canvas.setFont(FONT, 9)
    canvas.setFillColorRGB(*MUTED)
    canvas.drawString(MARGIN, MARGIN, shorten(ranking_sentence(board), width - 2 * MARGIN, 9, FONT))
    canvas.showPage()
    return pages


def _standings_head(
    canvas: Canvas, event: Event, day: str, width: float, height: float,
    columns: Sequence[tuple[str, float, bool]],
) -> float:  # fmt: skip
    top = height - MARGIN
    canvas.setFillColorRGB(*INK)
    title = f"{event.name} — {gettext('Standings of the evening')}"
    canvas.setFont(FONT_BOLD, fit(title, FONT_BOLD, 18, width - 2 * MARGIN))
    canvas.drawString(MARGIN, top - 16, title)
    canvas.setFont(FONT, 10)
    canvas.setFillColorRGB(*MUTED)
    canvas.drawString(MARGIN, top - 32, f"{day} · {words.variant_name(event.variant)}")
    canvas.setFont(FONT_BOLD, 9)
    y = top - 60
    for label, x, right in columns:
        (canvas.drawRightString if right else canvas.drawString)(x, y, label)
    canvas.setFillColorRGB(*INK)
    return y - 20
