"""Score sheets as PDF, drawn with ReportLab: blank for a table that plays on paper, or filled
from a game.

A row per round names its contract and the cards dealt; a column per player holds the round's
score and the running total; the card values stand in the right margin; the date and the
winner have their lines at the foot. Many players turn the page to landscape. DejaVu Sans is
embedded so that ♣♦♥♠ and every accent print.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from flask_babel import force_locale, gettext, ngettext
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from referee.engine.game import Game
from referee.engine.variants import Variant
from referee.web.games.queries import totals_chart
from referee.web.plumbing.charts import LineChart
from referee.web.plumbing.i18n import in_language
from referee.web.vocabulary import words
from referee.web.vocabulary.house_rules import TableRules
from referee.web.vocabulary.rulebook import card_values

from .pdfs import Built, etag_of, font_file
from .sheet_extras import draw_chart, draw_link
from .sheet_words import draw_label, fit, shorten

FONT = "RefereeSans"
FONT_BOLD = "RefereeSans-Bold"
PAPERS = {"a4": A4, "letter": LETTER}

MARGIN = 28.0
BAND = 74.0  # the card values in the right margin
ROUND_COL = 22.0
DEALT_COL = 34.0
MIN_PLAYER_COL = 54.0
INK = (0.07, 0.07, 0.07)
ACCENT = (0.043, 0.31, 0.66)
SHADE = (0.93, 0.95, 0.98)
RULE = (0.55, 0.55, 0.55)
MUTED = (0.3, 0.3, 0.3)
#: What a column's parts are called (round, total) and who dealt: dark enough to read at once.
HINT = (0.2, 0.2, 0.2)
SUIT_RED = (0.75, 0.0, 0.09)  # as .pc-red on the rule card

_font_lock = threading.Lock()


def draw_small_print(
    canvas: Canvas,
    lines: Sequence[str],
    *,
    left: float,
    bottom: float,
    colour: tuple[float, float, float] = MUTED,
) -> None:
    """`lines` in 9-pt print, 11 pt apart, the last standing on `bottom`: the key or footer
    at the foot of a standings' or season's page. The ink is black again after."""
    canvas.setFont(FONT, 9)
    canvas.setFillColorRGB(*colour)
    y = bottom + 11 * (len(lines) - 1)
    for line in lines:
        canvas.drawString(left, y, line)
        y -= 11
    canvas.setFillColorRGB(*INK)


def register_fonts() -> None:
    """Register DejaVu Sans with ReportLab once (FontMissingError if it is not installed)."""
    with _font_lock:
        if FONT in pdfmetrics.getRegisteredFontNames():
            return
        pdfmetrics.registerFont(TTFont(FONT, str(font_file("regular"))))
        pdfmetrics.registerFont(TTFont(FONT_BOLD, str(font_file("bold"))))


@dataclass
class SheetRow:
    label: str
    contract: str = ""
    dealt: str = ""
    dealer: str = ""
    scores: list[int | None] = field(default_factory=list)
    totals: list[int | None] = field(default_factory=list)
    went_out: str | None = None
    buys: list[str] = field(default_factory=list)  # each seat's buys in words ("" for none)


@dataclass
class Sheet:
    """A score sheet in words and numbers, ready to draw."""

    title: str
    subtitle: str
    lang: str
    paper: str
    players: list[str]
    rows: list[SheetRow]
    has_contracts: bool
    values: tuple[tuple[str, str], ...]
    labels: dict[str, str]
    date: str = ""
    winner: str = ""
    totals: list[int | None] = field(default_factory=list)
    link: str = ""  # a filled sheet's QR code: the game's view link
    chart: LineChart | None = None  # a filled sheet's running totals


def _labels(variant: Variant) -> dict[str, str]:
    return {
        "score": gettext("Round") if variant.has_contracts else gettext("Deal"),
        "contract": gettext("Contract"),
        "dealt": gettext("Cards"),
        "total": gettext("Total"),
        "values": gettext("Card values"),
        "date": gettext("Date"),
        "winner": gettext("Winner"),
        "dealer": gettext("Dealer"),
        "out": gettext("out"),
        "title": gettext("Score sheet"),
        "scan": gettext("Scan to follow the game"),
    }


def _subtitle(variant: Variant, players: int) -> str:
    shoe = variant.shoe_for(players)
    parts = [words.players_text(players), words.shoe_text(shoe.decks, shoe.jokers)]
    if variant.target is not None and not variant.has_contracts:
        parts.append(words.target_text(variant.target))
    parts.append(words.winning_text(variant))
    return " · ".join(parts)


#: Deals printed on a blank sheet of a game without rounds (it runs to a target score).
OPEN_DEALS = 14


@in_language
def blank_sheet(table: TableRules, lang: str, paper: str, players: Sequence[str]) -> Sheet:
    """A sheet to fill in by hand in `lang`; `players` are names or empty strings (unnamed
    columns)."""
    variant = table.variant
    count = len(players)
    variant.check_players(count)
    rows: list[SheetRow] = []
    if variant.has_contracts:
        # The rounds a game plays: a club night's series of 3 prints its first 3 rounds.
        played = variant.contracts[: variant.game_rounds]
        for number, contract in enumerate(played, start=1):
            rows.append(
                SheetRow(
                    label=str(number),
                    contract=words.contract_text(contract),
                    dealt=str(variant.cards_dealt(number, count)),
                )
            )
    else:
        dealt = str(variant.cards_dealt(1, count))
        deals = min(OPEN_DEALS, variant.game_rounds or OPEN_DEALS)
        rows = [SheetRow(label=str(n), dealt=dealt) for n in range(1, deals + 1)]
    return Sheet(
        title=words.variant_name(variant),
        subtitle=_subtitle(variant, count),
        lang=lang,
        paper=paper,
        players=list(players),
        rows=rows,
        has_contracts=variant.has_contracts,
        values=card_values(variant),
        labels=_labels(variant),
    )


@in_language
def game_sheet(game: Game, lang: str, paper: str, date: str = "", link: str = "") -> Sheet:
    """A sheet filled from a game, in `lang`: every round played so far, the rest still to play, the
    buys of each round where buying is on, the running totals as a chart, and a QR code of
    `link` (the game's view link) when given."""
    variant = game.variant
    players = list(game.players)
    # A game without rounds runs to a target: a few open deals below the last one played.
    rounds = variant.game_rounds  # a club night's series: its rounds, not the variant's
    last = rounds if rounds is not None else max(OPEN_DEALS, len(game.rounds) + 2)
    rows = []
    running = game.running_totals()
    for number in range(1, last + 1):
        deal = game.deal(number)
        row = SheetRow(
            label=str(number),
            contract=words.contract_text(deal.contract) if deal.contract is not None else "",
            dealt=str(deal.cards),
        )
        if number <= len(game.rounds):
            played = game.rounds[number - 1]
            row.dealer = players[deal.dealer]
            row.scores = list(played.scores)
            row.totals = list(running[number - 1])
            row.went_out = None if played.went_out is None else players[played.went_out]
            if variant.buying_played:
                row.buys = [_buys_text(r.buys) for r in played.results]
        rows.append(row)
    return Sheet(
        title=words.variant_name(variant),
        subtitle=_subtitle(variant, len(players)),
        lang=lang,
        paper=paper,
        players=players,
        rows=rows,
        has_contracts=variant.has_contracts,
        values=card_values(variant),
        labels=_labels(variant),
        date=date,
        winner=", ".join(players[seat] for seat in game.winners),
        totals=list(game.standings.totals),
        link=link,
        chart=totals_chart(game),
    )


def _buys_text(buys: int) -> str:
    return ngettext("%(num)s buy", "%(num)s buys", buys) if buys else ""


# -- drawing ------------------------------------------------------------------------------------


def page_size(sheet: Sheet) -> tuple[float, float]:
    """Portrait if every player gets a comfortable column, landscape otherwise."""
    width, height = PAPERS[sheet.paper]
    contract_col = _contract_width(width, sheet)
    room = width - 2 * MARGIN - BAND - ROUND_COL - DEALT_COL - contract_col
    if room / max(1, len(sheet.players)) < MIN_PLAYER_COL:
        return landscape((width, height))
    return width, height


def _contract_width(page_width: float, sheet: Sheet) -> float:
    if not sheet.has_contracts:
        return 0.0
    return 118.0 if page_width < 700 else 150.0


def render_sheet(sheet: Sheet) -> Built:
    """The sheet as a one-page PDF (its numbers written as `sheet.lang` writes them)."""
    with force_locale(sheet.lang):
        return _render_sheet(sheet)


def draw_sheet(canvas: Canvas, sheet: Sheet) -> None:
    """`sheet` as the next page of a document of several (an evening's table cards and
    sheets): the page sized as `render_sheet` sizes it. The caller forces the language."""
    register_fonts()
    width, height = page_size(sheet)
    canvas.setPageSize((width, height))
    _draw(canvas, sheet, width, height)


def _render_sheet(sheet: Sheet) -> Built:
    register_fonts()
    width, height = page_size(sheet)
    buffer = io.BytesIO()
    canvas = Canvas(
        buffer,
        pagesize=(width, height),
        invariant=1,
        lang=sheet.lang,
        pageCompression=1,
        # The page's first font; otherwise ReportLab names an unembedded Helvetica in the PDF.
        # (types-reportlab types it as a float, but ReportLab takes the font's name.)
        initialFontName=FONT,  # type: ignore[arg-type]
        initialFontSize=10,
    )
    canvas.setTitle(f"{sheet.title} · {sheet.labels['title']}")
    canvas.setAuthor("Rummy Referee")
    canvas.setSubject(sheet.subtitle)
    canvas.setCreator("Rummy Referee")
    _draw(canvas, sheet, width, height)
    canvas.showPage()
    canvas.save()
    body = buffer.getvalue()
    return Built(body=body, etag=etag_of(body), pages=1)


@dataclass(frozen=True)
class _Grid:
    """Where the grid's columns and rows fall on the page."""

    left: float
    right: float
    top: float
    contract: float  # width of the contract column (0 without contracts)
    player: float  # width of a player's column
    score: float  # width of the round-score part of it
    head: float
    sub: float
    row: float
    total: float
    rows: int
    chart: bool  # a chart of the running totals under the winner's line

    @property
    def header_bottom(self) -> float:
        return self.top - self.head - self.sub

    @property
    def rows_bottom(self) -> float:
        return self.header_bottom - self.row * self.rows

    @property
    def low(self) -> float:
        """The bottom of the grid, under the totals row."""
        return self.rows_bottom - self.total

    def total_x(self, seat: int) -> float:
        """The middle of a player's running-total strip."""
        return self.column(seat) + self.score + (self.player - self.score) / 2

    @property
    def x_contract(self) -> float:
        return self.left + ROUND_COL

    @property
    def x_dealt(self) -> float:
        return self.x_contract + self.contract

    @property
    def x_players(self) -> float:
        return self.x_dealt + DEALT_COL

    def column(self, seat: int) -> float:
        return self.x_players + seat * self.player


def _grid(sheet: Sheet, width: float, height: float) -> _Grid:
    left = MARGIN
    right = width - MARGIN - BAND - 8
    top = height - MARGIN - 42
    contract = _contract_width(width, sheet)
    player = (right - left - ROUND_COL - contract - DEALT_COL) / max(1, len(sheet.players))
    head, sub, total = 30.0, 13.0, 24.0
    room = top - (MARGIN + 40) - head - sub - total
    rows = len(sheet.rows)
    # The chart takes its band only where the rows stay tall enough to write in by hand.
    chart = sheet.chart is not None and (room - CHART_BAND) / max(1, rows) >= MIN_ROW_BESIDE_CHART
    if chart:
        room -= CHART_BAND
    row = min(MAX_ROW_HEIGHT, room / max(1, rows))
    return _Grid(
        left, right, top, contract, player, player * 0.56, head, sub, row, total, rows, chart
    )


#: Rows never grow taller than this: a few lines for notes stay below the grid.
MAX_ROW_HEIGHT = 72.0
#: The band a filled sheet's chart takes under the winner's line, and the least row height
#: that leaves for the rounds.
CHART_BAND = 132.0
MIN_ROW_BESIDE_CHART = 20.0


def _draw(canvas: Canvas, sheet: Sheet, width: float, height: float) -> None:
    grid = _grid(sheet, width, height)
    _draw_title(canvas, sheet, width, height)
    _draw_fills(canvas, sheet, grid)
    _draw_header(canvas, sheet, grid)
    for index, row in enumerate(sheet.rows):
        _draw_row(canvas, sheet, grid, index, row)
    _draw_totals(canvas, sheet, grid)
    _draw_lines(canvas, sheet, grid)
    # Under the grid: the winner, and a filled sheet's chart.
    _write_line(canvas, grid.left, grid.low - 26, 280, sheet.labels["winner"], sheet.winner)
    if grid.chart and sheet.chart is not None:
        top = grid.low - 38
        height = CHART_BAND - 10
        draw_chart(
            canvas, sheet.chart, grid.left, top - height, grid.right - grid.left, height, FONT
        )
    values_bottom = _draw_values(canvas, sheet, width - MARGIN - BAND, grid.top)
    if sheet.link:
        caption = sheet.labels["scan"]
        draw_link(canvas, sheet.link, caption, width - MARGIN - BAND, MARGIN, values_bottom, BAND)


def _draw_title(canvas: Canvas, sheet: Sheet, width: float, height: float) -> None:
    """Title, subtitle and the date line."""
    top = height - MARGIN
    canvas.setFillColorRGB(*INK)
    title = f"{sheet.title} — {sheet.labels['title']}"
    canvas.setFont(FONT_BOLD, fit(title, FONT_BOLD, 17, width - 2 * MARGIN - 190))
    canvas.drawString(MARGIN, top - 14, title)
    canvas.setFont(FONT, 8.5)
    canvas.setFillColorRGB(*MUTED)
    canvas.drawString(MARGIN, top - 27, sheet.subtitle)
    canvas.setFillColorRGB(*INK)
    _write_line(canvas, width - MARGIN - 180, top - 14, 180, sheet.labels["date"], sheet.date)


def _draw_fills(canvas: Canvas, sheet: Sheet, grid: _Grid) -> None:
    """Fills first: the header band, the running-total strips, the totals row."""
    canvas.setFillColorRGB(*SHADE)
    width = grid.right - grid.left
    canvas.rect(grid.left, grid.header_bottom, width, grid.head + grid.sub, 0, 1)
    canvas.rect(grid.left, grid.low, width, grid.total, 0, 1)
    strip = grid.header_bottom - grid.rows_bottom
    for seat in range(len(sheet.players)):
        left = grid.column(seat) + grid.score
        canvas.rect(left, grid.rows_bottom, grid.player - grid.score, strip, 0, 1)


def _draw_header(canvas: Canvas, sheet: Sheet, grid: _Grid) -> None:
    """The column labels and each player's name (or a line to write one on)."""
    labels = sheet.labels
    canvas.setFillColorRGB(*INK)
    label_y = grid.header_bottom + 4
    canvas.setFont(FONT_BOLD, 7.5)
    canvas.drawCentredString(grid.left + ROUND_COL / 2, label_y, "#")
    if grid.contract:
        width = grid.contract - 8
        draw_label(
            canvas,
            labels["contract"],
            FONT_BOLD,
            7.5,
            width,
            grid.x_contract + 4,
            label_y,
            left=True,
        )
    middle = grid.x_dealt + DEALT_COL / 2
    draw_label(canvas, labels["dealt"], FONT_BOLD, 7.5, DEALT_COL - 3, middle, label_y)
    for seat, name in enumerate(sheet.players):
        left = grid.column(seat)
        if name:
            _draw_name(canvas, name, left + grid.player / 2, grid.top - 19, grid.player - 6)
        else:
            canvas.setStrokeColorRGB(*RULE)
            canvas.setLineWidth(0.5)
            canvas.line(left + 5, grid.top - 22, left + grid.player - 5, grid.top - 22)
        canvas.setFillColorRGB(*HINT)
        middle = left + grid.score / 2
        draw_label(canvas, labels["score"], FONT, 7.5, grid.score - 2, middle, label_y)
        strip = grid.player - grid.score - 2
        draw_label(canvas, labels["total"], FONT, 7.5, strip, grid.total_x(seat), label_y)
        canvas.setFillColorRGB(*INK)


#: The smallest a name at the head of its column is set on one line; smaller, it takes two.
NAME_ONE_LINE = 8.5


def _draw_name(canvas: Canvas, name: str, middle: float, y: float, width: float) -> None:
    """A player's name over their column, whole: on one line where it fits at a readable
    size, else over two lines ("Christabella / Vandenbergh")."""
    size = fit(name, FONT_BOLD, 11, width)
    first, _, rest = name.partition(" ")
    if size >= NAME_ONE_LINE or not rest:
        canvas.setFont(FONT_BOLD, size)
        canvas.drawCentredString(middle, y, name)
        return
    size = min(fit(first, FONT_BOLD, 10, width), fit(rest, FONT_BOLD, 10, width))
    canvas.setFont(FONT_BOLD, size)
    canvas.drawCentredString(middle, y + 5, first)
    canvas.drawCentredString(middle, y - size + 4, rest)


def _draw_row(canvas: Canvas, sheet: Sheet, grid: _Grid, index: int, row: SheetRow) -> None:
    """One round: its number, contract, cards dealt, and each player's score and total."""
    bottom = grid.header_bottom - grid.row * (index + 1)
    middle = bottom + grid.row / 2
    canvas.setFont(FONT_BOLD, 11)
    canvas.drawCentredString(grid.left + ROUND_COL / 2, middle - 4, row.label)
    if grid.contract:
        _draw_contract(canvas, grid, row, middle, sheet.labels)
    canvas.setFont(FONT, 10)
    canvas.drawCentredString(grid.x_dealt + DEALT_COL / 2, middle - 3.5, row.dealt)
    for seat, name in enumerate(sheet.players):
        left = grid.column(seat)
        score = row.scores[seat] if seat < len(row.scores) else None
        total = row.totals[seat] if seat < len(row.totals) else None
        if score is not None:
            canvas.setFont(FONT_BOLD, 12)
            canvas.drawCentredString(left + grid.score / 2, middle - 4, str(score))
        if total is not None:
            canvas.setFont(FONT, 10)
            canvas.drawCentredString(grid.total_x(seat), middle - 3.5, str(total))
        buys = row.buys[seat] if seat < len(row.buys) else ""
        if buys:
            canvas.setFont(FONT, fit(buys, FONT, 6, grid.score - 4))
            canvas.setFillColorRGB(*ACCENT)
            canvas.drawRightString(left + grid.score - 2, bottom + grid.row - 7, buys)
            canvas.setFillColorRGB(*INK)
        if name and row.went_out == name:
            canvas.setFont(FONT, 6.5)
            canvas.setFillColorRGB(*ACCENT)
            canvas.drawString(left + 3, bottom + 3, "★ " + sheet.labels["out"])
            canvas.setFillColorRGB(*INK)


def _draw_totals(canvas: Canvas, sheet: Sheet, grid: _Grid) -> None:
    canvas.setFont(FONT_BOLD, 9)
    x = grid.x_contract + 4 if grid.contract else grid.left + 3
    canvas.drawString(x, grid.low + 8, sheet.labels["total"])
    for seat, total in enumerate(sheet.totals[: len(sheet.players)]):
        if total is not None:
            canvas.setFont(FONT_BOLD, 12)
            canvas.drawCentredString(grid.column(seat) + grid.player / 2, grid.low + 8, str(total))


def _draw_lines(canvas: Canvas, sheet: Sheet, grid: _Grid) -> None:
    """Lines last, over the fills."""
    canvas.setStrokeColorRGB(*RULE)
    canvas.setLineWidth(0.5)
    for index in range(1, len(sheet.rows)):
        y = grid.header_bottom - grid.row * index
        canvas.line(grid.left, y, grid.right, y)
    for seat in range(len(sheet.players)):
        x = grid.column(seat) + grid.score
        canvas.line(x, grid.rows_bottom, x, grid.top - grid.head)
    canvas.setStrokeColorRGB(*INK)
    canvas.setLineWidth(0.8)
    dividers = [grid.x_contract, grid.x_dealt, grid.x_players]
    for x in dividers if grid.contract else [grid.x_contract, grid.x_players]:
        canvas.line(x, grid.low, x, grid.top)
    canvas.setLineWidth(1.2)
    for seat in range(1, len(sheet.players)):
        x = grid.column(seat)
        canvas.line(x, grid.low, x, grid.top)
    canvas.line(grid.left, grid.header_bottom, grid.right, grid.header_bottom)
    canvas.line(grid.left, grid.rows_bottom, grid.right, grid.rows_bottom)
    canvas.rect(grid.left, grid.low, grid.right - grid.left, grid.top - grid.low, 1, 0)


def _draw_contract(
    canvas: Canvas, grid: _Grid, row: SheetRow, middle: float, labels: Mapping[str, str]
) -> None:
    """The round's contract, wrapped to its column, and the dealer under it if known."""
    lines = simpleSplit(row.contract, FONT_BOLD, 8, grid.contract - 8)[:3]
    block = len(lines) * 9.5 + (9 if row.dealer else 0)
    y = middle + block / 2 - 7.5
    canvas.setFont(FONT_BOLD, 8)
    for line in lines:
        canvas.drawString(grid.x_contract + 4, y, line)
        y -= 9.5
    if row.dealer:
        canvas.setFont(FONT, 7.5)
        canvas.setFillColorRGB(*HINT)
        text = f"{labels['dealer']}: {row.dealer}"
        canvas.drawString(grid.x_contract + 4, y + 1, shorten(text, grid.contract - 8, 7.5, FONT))
        canvas.setFillColorRGB(*INK)


def _draw_values(canvas: Canvas, sheet: Sheet, left: float, top: float) -> float:
    """The card values in the right margin; returns where they end, going down."""
    canvas.setFillColorRGB(*ACCENT)
    canvas.setFont(FONT_BOLD, 8)
    heading = simpleSplit(sheet.labels["values"], FONT_BOLD, 8, BAND)[:2]
    y = top - 10
    for line in heading:
        canvas.drawString(left, y, line)
        y -= 9.5
    canvas.setStrokeColorRGB(*ACCENT)
    canvas.setLineWidth(0.8)
    canvas.line(left, y + 5.5, left + BAND, y + 5.5)
    canvas.setFillColorRGB(*INK)
    y -= 9
    for cards, points in sheet.values:
        # Cards on the left, points on the right of the same line when both fit ("A  15");
        # otherwise the cards get lines of their own and the points a line under them
        # ("2–10" / "valor de face"), so that the two never overprint each other.
        points_width = pdfmetrics.stringWidth(points, FONT, 9)
        cards_width = pdfmetrics.stringWidth(cards, FONT_BOLD, 9)
        canvas.setFont(FONT_BOLD, 9)
        if cards_width + points_width + 6 <= BAND:
            canvas.drawString(left, y, cards)
            canvas.setFont(FONT, 9)
            canvas.drawRightString(left + BAND, y, points)
            y -= 15.5
        else:
            for line in simpleSplit(cards, FONT_BOLD, 9, BAND)[:3]:
                canvas.drawString(left, y, line)
                y -= 10.5
            canvas.setFont(FONT, fit(points, FONT, 9, BAND))
            canvas.drawRightString(left + BAND, y, points)
            y -= 15
        canvas.setStrokeColorRGB(*RULE)
        canvas.setLineWidth(0.3)
        canvas.line(left, y + 6, left + BAND, y + 6)
        y -= 6
    # The four suits in their colours, as a reminder of the symbols the sheet uses.
    canvas.setFont(FONT, 10)
    x = left
    for symbol, red in (("♣", False), ("♦", True), ("♥", True), ("♠", False)):
        canvas.setFillColorRGB(*(SUIT_RED if red else INK))
        canvas.drawString(x, y - 6, symbol)
        x += pdfmetrics.stringWidth(symbol + " ", FONT, 10)
    canvas.setFillColorRGB(*INK)
    return y - 12


def _write_line(canvas: Canvas, x: float, y: float, width: float, label: str, value: str) -> None:
    """ "Label: ________" with the value written on the line if there is one."""
    canvas.setFont(FONT_BOLD, 9)
    canvas.drawString(x, y, label + ":")
    start = x + pdfmetrics.stringWidth(label + ":", FONT_BOLD, 9) + 5
    canvas.setStrokeColorRGB(*INK)
    canvas.setLineWidth(0.6)
    canvas.line(start, y - 2, x + width, y - 2)
    if value:
        canvas.setFont(FONT, fit(value, FONT, 11, x + width - start - 4))
        canvas.drawString(start + 3, y + 1, value)
