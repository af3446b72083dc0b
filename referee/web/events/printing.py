"""An evening on paper, in the evening's language (ReportLab, as the score sheets): one PDF per
series with a table card per table (its number, the players in seat order, who deals first, a QR
of its game's edit page) and a blank score sheet with the table's names; the check-in poster;
and the standings.
Both come from the shared PDF cache (`printing.cache`), keyed by what they show.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from flask_babel import format_date, gettext
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from referee.engine.events import Event, Series
from referee.engine.tournament import Standings, StandingsRow
from referee.web.plumbing.i18n import in_language
from referee.web.printing.cache import Cached, pdf_cache
from referee.web.printing.pdfs import Built, etag_of
from referee.web.printing.sheet_extras import draw_qr
from referee.web.printing.sheet_words import fit
from referee.web.printing.sheets import (
    ACCENT,
    FONT,
    FONT_BOLD,
    INK,
    MUTED,
    PAPERS,
    blank_sheet,
    draw_sheet,
    draw_small_print,
    register_fonts,
)
from referee.web.vocabulary import words
from referee.web.vocabulary.house_rules import table_rules

from .presenting import points_text, ranking_sentence

MARGIN = 42.0
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
        # The whole name, smaller where it is long (a 24-letter name is never cut).
        canvas.setFont(FONT_BOLD, fit(name, FONT_BOLD, 22, width - 2 * MARGIN - 160))
        canvas.drawString(MARGIN + 40, y, name)
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


# -- the check-in poster --------------------------------------------------------------------------

POSTER_QR = 330.0  # points: a phone's camera reads it from two or three metres


def check_in_poster(event_id: str, event: Event, link: str, lang: str, paper: str) -> Pdf:
    """One page for the door or the wall: the evening, a large QR of its check-in link, what a
    player does with it, and the link written out for a phone without a camera."""
    key = ("event_check_in", event_id, event.name, event.date, link, lang, paper)
    cached = _cached(key, lambda: render_check_in_poster(event, link, lang, paper).body)
    return Pdf(cached, f"evening-check-in-{lang}-{paper}.pdf")


@in_language
def render_check_in_poster(event: Event, link: str, lang: str, paper: str) -> Built:
    buffer = io.BytesIO()
    title = gettext("Players check themselves in")
    canvas = _canvas(buffer, paper, lang, f"{event.name} · {title}")
    width, height = PAPERS[paper]
    inner = width - 2 * MARGIN
    top = height - MARGIN
    canvas.setFillColorRGB(*MUTED)
    head = f"{format_date(event.date, format='long')} · {words.variant_name(event.variant)}"
    canvas.setFont(FONT, fit(head, FONT, 14, inner))
    canvas.drawCentredString(width / 2, top - 14, head)
    canvas.setFillColorRGB(*INK)
    canvas.setFont(FONT_BOLD, fit(event.name, FONT_BOLD, 40, inner))
    canvas.drawCentredString(width / 2, top - 62, event.name)
    canvas.setFillColorRGB(*ACCENT)
    canvas.setFont(FONT_BOLD, fit(title, FONT_BOLD, 30, inner))
    canvas.drawCentredString(width / 2, top - 110, title)
    qr_top = top - 140
    draw_qr(canvas, link, (width - POSTER_QR) / 2, qr_top - POSTER_QR, POSTER_QR)
    canvas.setFillColorRGB(*INK)
    say = gettext(
        "Players open this link or scan the QR on their own phone, tap their name or type a new "
        "one, and play from the next series drawn."
    )
    y = qr_top - POSTER_QR - 40
    for line in simpleSplit(say, FONT, 18, inner):
        canvas.setFont(FONT, 18)
        canvas.drawCentredString(width / 2, y, line)
        y -= 24
    canvas.setFillColorRGB(*MUTED)
    y -= 12
    for line in _split_link(link, FONT, 12, inner):
        canvas.setFont(FONT, 12)
        canvas.drawCentredString(width / 2, y, line)
        y -= 16
    canvas.showPage()
    canvas.save()
    body = buffer.getvalue()
    return Built(body=body, etag=etag_of(body), pages=1)


def _split_link(link: str, font: str, size: float, room: float) -> list[str]:
    """A link has no spaces to break at: break it wherever the line is full."""
    lines, line = [], ""
    for char in link:
        if line and pdfmetrics.stringWidth(line + char, font, size) > room:
            lines.append(line)
            line = ""
        line += char
    return [*lines, line]


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


@dataclass(frozen=True)
class _Column:
    label: str
    width: float
    right: bool = True  # figures: right-aligned


#: The type of the standings' rows and of their column labels.
ROW_SIZE = 10.5
LABEL_SIZE = 8.0
ROW_STEP = 17.0


def _standings_columns(event: Event, page_width: float) -> list[_Column]:
    """Place, player, each series' tournament points, then the evening's tournament points,
    points, rounds and tables won: the figures as wide as their labels need (wrapped over up
    to three lines), the name taking the rest."""
    drawn = [s.number for s in event.series]
    figures = [
        *(gettext("Series %(number)s", number=n) for n in drawn),
        gettext("Tournament points"),
        gettext("Points"),
        gettext("Rounds"),
        gettext("Tables won"),
    ]
    columns = [_Column(gettext("Place"), 30.0, right=False), _Column(gettext("Player"), 0.0, False)]
    for label in figures:
        longest = max(pdfmetrics.stringWidth(w, FONT_BOLD, LABEL_SIZE) for w in label.split())
        columns.append(_Column(label, max(34.0, longest + 8.0)))
    name = page_width - 2 * MARGIN - sum(c.width for c in columns)
    columns[1] = replace(columns[1], width=max(110.0, name))
    return columns


def _draw_standings(canvas: Canvas, event: Event, board: Standings, paper: str) -> int:
    width, height = _standings_page(event, paper)
    canvas.setPageSize((width, height))
    day = format_date(event.date, format="long")
    columns = _standings_columns(event, width)
    footer = _standings_footer(event, board, width)
    rows: list[StandingsRow | None] = list(board.rows) or [None]
    pages, y = 0, 0.0
    for index, row in enumerate(rows):
        if index == 0 or y < MARGIN + 14 * len(footer) + ROW_STEP:
            if pages:
                draw_small_print(canvas, footer, left=MARGIN, bottom=MARGIN)
                canvas.showPage()
                canvas.setPageSize((width, height))
            pages += 1
            y = _standings_head(canvas, event, day, width, height, columns)
        if row is None:
            canvas.setFont(FONT, ROW_SIZE)
            canvas.drawString(MARGIN, y, gettext("No table has a result yet."))
            break
        _draw_standings_row(canvas, event, row, columns, y, bold=index < 3)
        y -= ROW_STEP
    draw_small_print(canvas, footer, left=MARGIN, bottom=MARGIN)
    canvas.showPage()
    return pages


def _standings_page(event: Event, paper: str) -> tuple[float, float]:
    """Portrait, or landscape where the series' columns leave a name too little room."""
    width, height = PAPERS[paper]
    columns = _standings_columns(event, width)
    return (height, width) if columns[1].width <= 110.0 else (width, height)


def _row_cells(event: Event, row: StandingsRow) -> list[str]:
    name = row.name if row.present else f"{row.name} ({gettext('left')})"
    marked = "*" if row.provisional else ""
    per_series = []
    for drawn in event.series:
        score = row.score_in(drawn.number)
        per_series.append(
            "–"
            if score is None
            else points_text(score.tournament_points) + ("" if score.finished else "*")
        )
    return [
        str(row.place), name, *per_series, points_text(row.tournament_points) + marked,
        str(row.points) + marked, str(row.rounds), str(row.tables_won),
    ]  # fmt: skip


def _draw_standings_row(
    canvas: Canvas, event: Event, row: StandingsRow, columns: Sequence[_Column], y: float, *,
    bold: bool,
) -> None:  # fmt: skip
    font = FONT_BOLD if bold else FONT
    canvas.setFillColorRGB(*(MUTED if not row.present else INK))
    x = MARGIN
    for column, text in zip(columns, _row_cells(event, row), strict=True):
        canvas.setFont(font, ROW_SIZE)
        if column.right:
            canvas.drawRightString(x + column.width - 4, y, text)
        else:
            size = fit(text, font, ROW_SIZE, column.width - 6)  # a long name smaller, whole
            canvas.setFont(font, size)
            canvas.drawString(x, y, text)
        x += column.width
    canvas.setFillColorRGB(*INK)


def _standings_footer(event: Event, board: Standings, width: float) -> list[str]:
    """The ranking in words (and what a * means), wrapped to the page: never cut."""
    said = ranking_sentence(board)
    if any(row.provisional for row in board.rows):
        said = f"{gettext('* A table of theirs is still playing: provisional.')} {said}"
    return list(simpleSplit(said, FONT, 9, width - 2 * MARGIN))


def _standings_head(
    canvas: Canvas, event: Event, day: str, width: float, height: float,
    columns: Sequence[_Column],
) -> float:  # fmt: skip
    top = height - MARGIN
    canvas.setFillColorRGB(*INK)
    which = gettext("Final standings") if event.finished else gettext("Standings of the evening")
    title = f"{event.name} — {which}"
    canvas.setFont(FONT_BOLD, fit(title, FONT_BOLD, 18, width - 2 * MARGIN))
    canvas.drawString(MARGIN, top - 16, title)
    canvas.setFont(FONT, 10)
    canvas.setFillColorRGB(*MUTED)
    canvas.drawString(MARGIN, top - 32, f"{day} · {words.variant_name(event.variant)}")
    # Each label wrapped to its column (up to three lines), set on the same baseline.
    wrapped = [simpleSplit(c.label, FONT_BOLD, LABEL_SIZE, c.width - 6)[:3] for c in columns]
    lines = max(len(w) for w in wrapped)
    bottom = top - 52 - (lines - 1) * 9.5
    canvas.setFont(FONT_BOLD, LABEL_SIZE)
    x = MARGIN
    for column, label in zip(columns, wrapped, strict=True):
        y = bottom + (len(label) - 1) * 9.5
        for line in label:
            if column.right:
                canvas.drawRightString(x + column.width - 4, y, line)
            else:
                canvas.drawString(x, y, line)
            y -= 9.5
        x += column.width
    canvas.setStrokeColorRGB(*MUTED)
    canvas.setLineWidth(0.5)
    canvas.line(MARGIN, bottom - 5, width - MARGIN, bottom - 5)
    canvas.setFillColorRGB(*INK)
    return bottom - 20
