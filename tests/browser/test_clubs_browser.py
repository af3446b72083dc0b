"""Clubs by thumb in headless Chromium at 360 px, in English and German: found a club, start a
game by tapping members, and read the club page (stats, ladder, chart, head to head) without
anything spilling sideways, without a console error or a CSP violation."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from club_fixture import FIXTURE, new_club, play_in_club
from flask import Flask
from playwright.sync_api import Page, expect
from table_phones import sideways


def _no_sideways_scroll(page: Page) -> None:
    # Chromium under phone emulation widens innerWidth to an overflowing page: `sideways`
    # compares against the document's client width (MACHINE.md), once the page has loaded.
    wide = sideways(page)
    assert wide <= 0, f"the page is {wide}px wider than the phone"


def _clean(page: Page, console_errors: list[str]) -> None:
    assert page.evaluate("window.__cspViolations") == []
    assert console_errors == []


def _populated(app: Flask) -> dict[str, Any]:
    client = app.test_client()
    club = new_club(client, "Donnerstagsrunde")
    club["games"] = [play_in_club(client, club, *game) for game in FIXTURE]
    return club


def test_found_a_club_and_start_a_game_by_tapping_members(
    page: Page, live_server: str, screenshot_dir: Path, console_errors: list[str]
) -> None:
    page.goto(live_server + "/clubs?lang=en")
    _no_sideways_scroll(page)
    page.screenshot(path=str(screenshot_dir / "clubs-index.png"), full_page=True)
    page.get_by_label("Name of the club").fill("Thursday table")
    page.get_by_role("button", name="Found the club").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Thursday table")
    for index, name in enumerate(["Ann", "Bo", "Cy"]):
        page.locator(f"#new_names-{index}").fill(name)
    page.get_by_role("button", name="Start the game").tap()
    expect(page).to_have_url(re.compile(r"/games/[^/]+/edit/"))
    expect(page.get_by_text("Counts for the club:")).to_be_visible()
    # Back on the club: the three are members now; tap two of them and add Di.
    page.get_by_role("link", name="Thursday table").tap()
    chips = page.locator(".club-new-game .member-pick")
    expect(chips).to_have_count(3)
    for chip in chips.all():  # the last table is picked already: start from nobody
        if chip.locator("input").is_checked():
            chip.tap()
    page.locator(".club-new-game .member-pick", has_text="Cy").tap()
    page.locator(".club-new-game .member-pick", has_text="Ann").tap()
    expect(
        page.locator(".club-new-game .member-pick", has_text="Ann").locator("input")
    ).to_be_checked()
    expect(
        page.locator(".club-new-game .member-pick", has_text="Bo").locator("input")
    ).not_to_be_checked()
    page.locator("#new_names-0").fill("Di")
    _no_sideways_scroll(page)
    page.locator(".club-new-game").screenshot(path=str(screenshot_dir / "clubs-new-game.png"))
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#round-form .player-name bdi")).to_have_text(["Ann", "Cy", "Di"])
    _clean(page, console_errors)


def test_the_club_page_at_360_px_in_english(
    page: Page, app: Flask, live_server: str, screenshot_dir: Path, console_errors: list[str]
) -> None:
    club = _populated(app)
    edit = club["edit_url"].replace("http://localhost", live_server)
    page.goto(edit + "?lang=en")
    expect(page.get_by_role("heading", name="Stats")).to_be_visible()
    expect(page.locator(".ladder li")).to_have_count(4)
    expect(page.locator("#ratings-chart svg")).to_have_count(0)  # one game night: no chart
    expect(page.get_by_role("button", name="Play again")).to_be_visible()
    _no_sideways_scroll(page)
    page.screenshot(path=str(screenshot_dir / "clubs-edit-en.png"), full_page=True)
    # The stats table scrolls inside its box, the names staying in view.
    page.locator(".club-stats .table-scroll").evaluate("box => box.scrollLeft = 400")
    page.locator(".club-stats").screenshot(path=str(screenshot_dir / "clubs-stats-scrolled.png"))
    tab = page.locator(".variant-tabs").get_by_role("link", name="Rummy", exact=True)
    tab.tap()
    expect(tab).to_have_attribute("aria-current", "page")
    expect(page.locator(".stats-table tbody tr")).to_have_count(2)
    _clean(page, console_errors)


def test_the_club_page_and_a_game_chart_in_german(
    page: Page, app: Flask, live_server: str, screenshot_dir: Path, console_errors: list[str]
) -> None:
    club = _populated(app)
    # A second game night, so the ratings chart has two points.
    with app.app_context():
        from datetime import UTC, datetime

        from sqlalchemy import update

        from referee.web.clubs.models import club_games
        from referee.web.plumbing.database import database

        with database().writing() as conn:
            conn.execute(
                update(club_games)
                .where(club_games.c.game_id == club["games"][0]["id"])
                .values(played_at=datetime(2026, 11, 26, 20, tzinfo=UTC), version=0)
            )
    page.goto(club["view_url"].replace("http://localhost", live_server) + "?lang=de")
    expect(page.get_by_role("heading", name="Statistik")).to_be_visible()
    expect(page.get_by_role("heading", name="Rangliste")).to_be_visible()
    chart = page.locator("#ratings-chart")
    expect(chart.locator("svg.chart")).to_be_visible()
    chart.get_by_text("Die Zahlen des Diagramms").tap()
    expect(chart.locator("table tbody tr")).to_have_count(2)
    expect(page.get_by_role("button", name="Noch eine Partie")).to_have_count(0)  # view link
    _no_sideways_scroll(page)
    page.screenshot(path=str(screenshot_dir / "clubs-view-de.png"), full_page=True)
    chart.screenshot(path=str(screenshot_dir / "clubs-ratings-chart-de.png"))
    # A finished game of the club: its running totals drawn under the score table.
    game = club["games"][0]
    page.goto(game["view_url"].replace("http://localhost", live_server) + "?lang=de")
    totals = page.locator("#totals-chart")
    expect(totals.locator("figcaption")).to_have_text("Zwischensummen, Runde für Runde")
    expect(totals.locator("polyline")).to_have_count(3)
    _no_sideways_scroll(page)
    totals.screenshot(path=str(screenshot_dir / "games-totals-chart-de.png"))
    page.screenshot(path=str(screenshot_dir / "games-finished-chart-de.png"), full_page=True)
    # A dark page (as a dark theme sets it): the chart's words and axis take the page's ink.
    page.evaluate(
        """() => { const root = document.documentElement.style;
        root.setProperty('--ink', '#eeeeee'); root.setProperty('--paper', '#121212');
        root.setProperty('--line', '#777777'); document.body.style.color = '#eeeeee';
        document.body.style.background = '#121212'; }"""
    )
    label = totals.locator(".chart-labels text").first
    assert label.evaluate("t => getComputedStyle(t).fill") == "rgb(238, 238, 238)"
    totals.screenshot(path=str(screenshot_dir / "games-totals-chart-dark.png"))
    _clean(page, console_errors)


# -- a new game says who it starts with and who the variant is played by (issue 22 item 10) -----

NEW_GAME_WORDS = {
    "en": {
        "ticked": "The last table is ticked",
        "contract": "Contract Rummy: 3 to 8 players.",
        "shanghai": "Shanghai Rummy: 3 to 6 players.",
        "few": "At the table: 2, fewer than Contract Rummy needs.",
        "many": "At the table: 7, more than Shanghai Rummy allows.",
        "ok": "At the table: 4.",
        "start": "Start the game",
    },
    "de": {
        "ticked": "Die letzte Runde am Tisch ist angehakt",
        "contract": "Kontrakt-Rommé: 3 bis 8 Spieler.",
        "shanghai": "Shanghai-Rommé: 3 bis 6 Spieler.",
        "few": "Am Tisch: 2, zu wenige für Kontrakt-Rommé.",
        "many": "Am Tisch: 7, zu viele für Shanghai-Rommé.",
        "ok": "Am Tisch: 4.",
        "start": "Spiel beginnen",
    },
}


@pytest.mark.parametrize("lang", list(NEW_GAME_WORDS))
def test_a_new_club_game_says_the_last_table_is_ticked_and_the_variants_players_before_start(
    page: Page, app: Flask, live_server: str, lang: str, console_errors: list[str]
) -> None:
    words = NEW_GAME_WORDS[lang]
    client = app.test_client()
    club = new_club(client, "Donnerstag")
    five = ["Ann", "Bo", "Cy", "Di", "Ed"]
    play_in_club(client, club, "contract", five, [(0, {1: 10, 2: 20, 3: 5, 4: 15})])
    page.goto(club["edit_url"].replace("http://localhost", live_server) + f"?lang={lang}")
    form = page.locator(".club-new-game")
    expect(form.locator(".picked-last")).to_contain_text(words["ticked"])
    expect(form.locator("#player-limit")).to_have_text(words["contract"])
    chips = form.locator(".member-pick")
    for name in ("Ann", "Bo", "Cy"):  # taps take the last table's players out
        chips.filter(has_text=name).tap()
    count = form.locator("#players-count")
    expect(count).to_have_text(words["few"])
    form.locator("select[name=variant]").select_option("shanghai")
    expect(form.locator("#player-limit")).to_have_text(words["shanghai"])
    for name in ("Ann", "Bo", "Cy"):
        chips.filter(has_text=name).tap()
    form.locator("#new_names-0").fill("Flo")
    form.locator("#new_names-1").fill("Gus")
    expect(count).to_have_text(words["many"])
    # said before Start, in view beside it
    start = page.get_by_role("button", name=words["start"])
    start.scroll_into_view_if_needed()
    assert count.evaluate("(el) => el.getBoundingClientRect().top >= 0")
    chips.filter(has_text="Ed").tap()
    form.locator("#new_names-1").fill("")
    form.locator("#new_names-0").fill("")
    expect(count).to_have_text(words["ok"])
    _no_sideways_scroll(page)
    start.tap()
    expect(page.locator("#round-form .player-name bdi")).to_have_text(["Ann", "Bo", "Cy", "Di"])
    _clean(page, console_errors)


# -- the stats explain themselves, key columns first (issue 22 item 11) ---------------------------

STATS_WORDS = {
    "en": (
        ["Player", "Wins", "Games", "Win rate"],
        "0 for a round they went out",
        "Only finished games are rated, and every place counts, not only wins",
    ),
    "de": (
        ["Spieler", "Siege", "Spiele", "Siegquote"],
        "0, wenn er hinausgegangen ist",
        "Nur beendete Spiele zählen für die Wertung, und jeder Platz zählt, nicht nur Siege",
    ),
}


@pytest.mark.parametrize("lang", list(STATS_WORDS))
def test_the_club_stats_explain_best_round_and_ratings_with_their_key_columns_in_view(
    page: Page, app: Flask, live_server: str, lang: str, console_errors: list[str]
) -> None:
    heads, best, ratings = STATS_WORDS[lang]
    club = _populated(app)
    page.goto(club["view_url"].replace("http://localhost", live_server) + f"?lang={lang}")
    stats = page.locator(".club-stats")
    expect(stats.locator(".table-key")).to_contain_text(best)
    expect(page.locator(".club-ratings .ratings-why")).to_contain_text(ratings)
    cells = stats.locator(".stats-table thead th")
    expect(cells.first).to_be_visible()
    # A header's soft hyphens (formats.hyphenated) are where it may break: not text.
    texts = [text.replace("\xad", "") for text in cells.all_inner_texts()]
    assert texts[:4] == heads, texts
    box = stats.locator(".table-scroll").bounding_box()
    assert box is not None
    for cell in cells.all()[:4]:  # the key columns in view, without scrolling the table
        cell_box = cell.bounding_box()
        assert cell_box is not None and cell_box["x"] + cell_box["width"] <= box["x"] + box["width"]
    # the winner-collects tab alone: its best round is not the lowest, and nothing says it is
    page.locator('.variant-tabs a[href*="variant=rummy"]').tap()
    # a link: wait for the new page, or the old one's table could be read as it goes
    expect(page.locator('.variant-tabs a[aria-current="page"]')).to_have_attribute(
        "href", re.compile("variant=rummy")
    )
    expect(stats.locator(".table-key")).not_to_contain_text(best)
    _no_sideways_scroll(page)
    _clean(page, console_errors)
