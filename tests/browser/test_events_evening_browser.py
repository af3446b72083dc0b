"""Issue 29's "Done when": a club night played through the pages only, in headless Chromium —
the host's phone at 360 px in German (dark), the tables' phones at 360 px in English (light) —
from founding the club and checking 12 players in to the final podium: a move before series 1
starts, a leaver and a latecomer before series 2, a swap in series 2, series 2 drawn mixed and
series 3 by standings. Each table's round goes in on its own phone through the link the host's
page gives. At the end every player's club wins, rating and stats have moved as the evening's
standings say (read back by the API only to check)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Locator, Page, expect
from table_phones import sideways
from test_accessibility_browser import _in_both_schemes

NAMES = [
    "Maximiliane von Falkenau", "Bartholomäus", "Christabella", "Dominique", "Evangelina",
    "Friedemann", "Gwendolyn", "Hildegard", "Ingrid", "Jo", "Kit", "Lu",
]  # fmt: skip
LATE = "Ned"


def _post(host: Page, button: Locator, anchor: str) -> None:
    """A form posted by thumb, and the page it comes back to, open at `anchor`."""
    with host.expect_navigation():
        button.tap()
    host.wait_for_url(re.compile(f"#{anchor}$"))


def _found_club_and_evening(host: Page, base: str) -> None:
    """The host founds a club and makes an evening of 3 series of 1 round, all by tap."""
    host.goto(f"{base}/clubs")
    host.locator("form[action$='/clubs'] #name").fill("Donnerstagsrunde")
    host.locator("form[action$='/clubs'] #lang").select_option("de")
    host.locator("form[action$='/clubs'] [type=submit]").tap()
    host.locator("a[href$='/events/new']").tap()
    # "Rounds a series" shows only once a series ends after a number of rounds.
    expect(host.locator("#series_rounds")).to_be_hidden()
    assert sideways(host) == 0
    assert _in_both_schemes(host) == {"light": [], "dark": []}
    host.emulate_media(color_scheme="dark")
    host.locator("#series").fill("3")
    host.locator("input[name=ends][value=rounds]").check()
    expect(host.locator("#series_rounds")).to_be_visible()
    host.locator("#series_rounds").fill("1")
    host.locator("#create").tap()
    expect(host.locator("h1")).to_have_text("Clubabend")


def _check_in(host: Page, names: list[str], *, here: int = 0) -> None:
    """Newcomers by name, four at a time (`here`: players checked in before)."""
    for start in range(0, len(names), 4):
        for index, name in enumerate(names[start : start + 4]):
            host.locator(f"#new_names-{index}").fill(name)
        _post(host, host.locator("button[name=check_in]"), "players")
        expect(host.locator("#players .player-list li")).to_have_count(
            here + min(start + 4, len(names))
        )


def _draw(host: Page, method: str | None = None) -> None:
    if method is not None:
        host.locator(f".draw-form input[name=method][value={method}]").check()
    _post(host, host.locator(".draw-form button[type=submit]"), "draw")
    expect(host.locator(".swap-form")).to_be_visible()


def _start(host: Page, number: int) -> list[str]:
    """Start the series drawn; each table's game link, from the host's page."""
    _post(host, host.locator(".draw-actions form").first.locator("button"), f"series-{number}")
    links = host.locator(f"#series-{number} .table-links a")
    expect(links.first).to_be_visible()
    return [str(link.get_attribute("href")) for link in links.all()]


def _play(table: Page, link: str, base: str, spread: int) -> None:
    """The table's phone opens its game and enters the series' one round: seat 1 goes out,
    the others hold 5 × (seat + spread) points, so that no two totals tie."""
    table.goto(link if link.startswith("http") else base + link)
    seats = table.locator("#round-form .player").count()
    table.locator("label.out-toggle:has(#went-out-0)").tap()
    for seat in range(1, seats):
        table.locator(f"#seat-{seat}-penalty").fill(str(5 * (seat + spread)))
    table.locator("#save-bar button[type=submit]").tap()
    expect(table.locator(".series-over")).to_be_visible()


def test_a_club_night_through_the_pages_moves_every_players_club_stats(
    app: Flask, live_server: str, browser: Browser, browser_context_args: dict[str, Any],
    screenshot_dir: Path,
) -> None:  # fmt: skip
    phone = {**browser_context_args, "viewport": {"width": 360, "height": 740}}
    host_context = browser.new_context(**phone, locale="de-DE", color_scheme="dark",
                                       bypass_csp=True)  # fmt: skip
    table_context = browser.new_context(**phone, locale="en-GB", color_scheme="light")
    try:
        host, table = host_context.new_page(), table_context.new_page()
        _found_club_and_evening(host, live_server)
        _check_in(host, NAMES)
        # Series 1 at random: 12 at 3 tables of 4; one player moves to another table first.
        _draw(host)
        mover = host.locator(".move-form select[name=name] option").nth(1).get_attribute("value")
        host.locator(".move-form select[name=name]").select_option(str(mover))
        host.locator(".move-form select[name=table]").select_option("2")
        _post(host, host.locator(".move-form button[type=submit]"), "draw")
        expect(host.locator("#draw .event-table").nth(1).locator(".seat-name").last).to_have_text(
            str(mover)
        )
        for spread, link in enumerate(_start(host, 1)):
            _play(table, link, live_server, spread)
        # The host's page heard the tables: series 2 can be drawn, without a reload.
        expect(host.locator(".draw-form")).to_be_visible(timeout=15_000)
        host.screenshot(path=str(screenshot_dir / "evening-between-de-dark.png"))
        # Before series 2: one leaves (asked first), one arrives late.
        leaving = host.locator("#players .player-list li").filter(has_text=NAMES[3])
        leaving.locator("summary").tap()
        _post(host, leaving.locator("button[name=leave]"), "players")
        expect(host.locator("#players .gone")).to_contain_text(NAMES[3])
        _check_in(host, [LATE], here=len(NAMES) - 1)
        # Series 2 mixed (the evening's way), a swap before it starts.
        _draw(host, "mix")
        first = host.locator(".swap-form select[name=first]")
        second = host.locator(".swap-form select[name=second]")
        a, b = (
            str(first.locator("option").nth(0).get_attribute("value")),
            str(second.locator("option").nth(5).get_attribute("value")),
        )
        first.select_option(a)
        second.select_option(b)
        _post(host, host.locator(".swap-form button[type=submit]"), "draw")
        seats = host.locator("#draw .event-table").nth(0).locator(".seat-name").all_inner_texts()
        assert b in seats and a not in seats
        for spread, link in enumerate(_start(host, 2)):
            _play(table, link, live_server, spread + 1)
        # Series 3 by standings: the strongest together.
        expect(host.locator(".draw-form")).to_be_visible(timeout=15_000)
        _draw(host, "standings")
        for spread, link in enumerate(_start(host, 3)):
            _play(table, link, live_server, spread + 2)
        # The end: the podium, final standings, no check-in and no leaving any more.
        expect(host.locator(".event-over")).to_be_visible(timeout=15_000)
        expect(host.locator("#standings-title")).to_have_text("Endstand der Rangliste")
        assert host.locator("#check-in, details.leave").count() == 0
        assert sideways(host) == 0
        host.screenshot(path=str(screenshot_dir / "evening-over-de-dark.png"), full_page=True)
        assert _in_both_schemes(host) == {"light": [], "dark": []}
        _club_moved_as_the_standings_say(host, live_server)
    finally:
        host_context.close()
        table_context.close()


def _club_moved_as_the_standings_say(host: Page, base: str) -> None:
    """Each player's club stats, read back by the API: a game and a rated, finished game for
    every series played, a win for every table won, the rounds of the evening."""
    club_link = str(host.locator(".event-club a").get_attribute("href"))
    club_id = club_link.split("/clubs/")[1].split("/")[0]
    evening = host.url.split("/events/")[1].split("/")[0]
    standings = host.request.get(f"{base}/api/v1/clubs/{club_id}/events/{evening}/standings")
    rows = {row["name"]: row for row in standings.json()["rows"]}
    stats = host.request.get(f"{base}/api/v1/clubs/{club_id}/stats").json()["players"]
    assert {p["name"] for p in stats} == {*NAMES, LATE} == set(rows)
    for player in stats:
        row = rows[player["name"]]
        assert player["games"] == player["finished"] == row["series_played"], player
        assert player["wins"] == row["tables_won"], player
        assert player["rating"]["ordinal"] != 0, player
    assert rows[NAMES[3]]["series_played"] == 1 and rows[LATE]["series_played"] == 2
    games = host.request.get(f"{base}/api/v1/clubs/{club_id}").json()["games"]
    assert len(games) == 9 and all(g["finished"] and g["series"] for g in games)
