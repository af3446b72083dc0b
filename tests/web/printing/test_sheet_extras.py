"""Score sheets: a filled sheet's QR code (read back from the squares drawn), its buys and its
chart; a club's blank sheet with the members' names; column labels never cut short."""

from __future__ import annotations

import io
import re

import pytest
import segno
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale, gettext
from pypdf import PdfReader

from referee.engine.game import Game, SeatResult
from referee.engine.variants import VARIANTS
from referee.web.printing.sheets import BAND, MARGIN, blank_sheet, game_sheet, render_sheet
from referee.web.vocabulary.house_rules import table_rules

OUT = SeatResult(went_out=True)
LINK = "http://localhost/games/abcdefghijklmnopqrstuv"


def _text(body: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)


def _game(rounds: int = 3, *, buying: bool = True) -> Game:
    game = Game.start("contract", ["Ann", "Bo", "Cy"], house_rules={"buying": buying})
    plays = [
        [OUT, SeatResult(penalty=25, buys=2 if buying else 0), SeatResult(penalty=30)],
        [SeatResult(penalty=45, buys=1 if buying else 0), OUT, SeatResult(penalty=5)],
        [SeatResult(penalty=10), SeatResult(penalty=20), OUT],
    ]
    for number in range(1, rounds + 1):
        game = game.enter_round(number, plays[number - 1]).game
    return game


def _qr_from_page(body: bytes, width: float) -> list[list[bool]]:
    """The QR code's modules as the page draws them: its rectangles in the margin's foot."""
    page = PdfReader(io.BytesIO(body)).pages[0]
    stream = page.get_contents().get_data().decode("latin-1")  # type: ignore[union-attr]
    number = r"(-?\d+(?:\.\d+)?)"
    rects = [
        tuple(float(v) for v in match)
        for match in re.findall(rf"{number} {number} {number} {number} re", stream)
    ]
    left = width - MARGIN - BAND
    inside = [r for r in rects if r[0] >= left - 0.01 and MARGIN - 0.01 <= r[1] <= MARGIN + BAND]
    square = max(inside, key=lambda r: r[2] * r[3])  # the white ground, BAND points square
    dark = [r for r in inside if r is not square]
    step = min(r[3] for r in dark)
    size = round(square[2] / step)
    grid = [[False] * size for _ in range(size)]
    for x, y, w, _h in dark:
        row = size - 1 - round((y - square[1]) / step)
        first = round((x - square[0]) / step)
        for col in range(first, first + round(w / step)):
            grid[row][col] = True
    return [row[2:-2] for row in grid[2:-2]]  # the quiet zone off


def test_a_filled_sheet_carries_the_games_view_link_as_a_qr_code(app: Flask) -> None:
    with app.test_request_context("/?lang=en"):
        body = render_sheet(game_sheet(_game(), "en", "a4", "2 December 2026", LINK)).body
        scan = gettext("Scan to follow the game")
    drawn = _qr_from_page(body, 595.2756)
    expected = [[bool(m) for m in row] for row in segno.make(LINK, error="m").matrix]
    assert drawn == expected
    assert scan.split()[0] in _text(body)


def test_a_sheet_without_a_link_has_no_qr_code(app: Flask) -> None:
    with app.test_request_context("/?lang=en"):
        body = render_sheet(game_sheet(_game(), "en", "a4")).body
    assert "Scan" not in _text(body)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_filled_sheet_says_each_rounds_buys(app: Flask, lang: str) -> None:
    with app.test_request_context(f"/?lang={lang}"):
        text = _text(render_sheet(game_sheet(_game(), lang, "a4", "", LINK)).body)
        plain = _text(render_sheet(game_sheet(_game(buying=False), lang, "a4", "", LINK)).body)
    two, one = ("2 buys", "1 buy") if lang == "en" else ("2 Käufe", "1 Kauf")
    assert two in text and one in text
    assert "buy" not in plain and "Kauf" not in plain


def test_a_filled_sheet_draws_the_running_totals(app: Flask) -> None:
    with app.test_request_context("/?lang=en"):
        charted = _text(render_sheet(game_sheet(_game(3), "en", "a4", "", LINK)).body)
        early = _text(render_sheet(game_sheet(_game(1), "en", "a4", "", LINK)).body)
    # The chart: its legend (the players again) and its axes' words; one round draws none.
    legend = "Ann\nBo\nCy\nTotal\nRound"
    assert legend in charted and legend not in early
    assert "\n20\n40\n60\n" in charted  # the y axis: round steps up to Ann's 55 and more


def test_the_filled_sheet_download_has_the_link(client: FlaskClient) -> None:
    created = client.post(
        "/api/v1/games", json={"variant": "contract", "players": ["Ann", "Bo", "Cy"]}
    ).get_json()
    answer = client.get(f"/games/{created['id']}/sheet.pdf?lang=en")
    drawn = _qr_from_page(answer.data, 595.2756)
    expected = segno.make(f"http://localhost/games/{created['id']}", error="m").matrix
    assert drawn == [[bool(m) for m in row] for row in expected]


@pytest.mark.parametrize("lang", ["en", "de", "nl", "pt", "fr", "es"])
def test_column_labels_are_never_cut_short(app: Flask, lang: str) -> None:
    """ "Kaarten", never "Kaart…": every variant, the fewest and the most players."""
    for variant in VARIANTS.values():
        for players in sorted({variant.min_players, variant.max_players}):
            with app.test_request_context(f"/?lang={lang}"), force_locale(lang):
                sheet = blank_sheet(table_rules(variant.id), lang, "a4", [""] * players)
                text = _text(render_sheet(sheet).body)
                labels = [sheet.labels[key] for key in ("dealt", "score", "total")]
            assert "…" not in text, (variant.id, players)
            words = text.split()
            for label in labels:
                assert label in words, (variant.id, players, label)
