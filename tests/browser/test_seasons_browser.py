"""Issue 31, point 1, in headless Chromium: a host makes a season on a 360 px phone by thumb
(German, the club's plain forms), and a member at home reads its table by the club's view link
(German at 360 px, French at 320 px with large text): 17 players, five of them with 24-letter
names, the place, the name (whole, never cut) and the total in sight and pinned while the club
nights scroll inside their box, dropped club nights greyed, movement marked; the table takes a
club night's round as it is saved (the club's stream); axe clean in light and dark, nothing
sideways. Screenshots: test-artifacts/screenshots/season-*.png."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import WATCH_CSP
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from season_fixture import (
    EVENINGS,
    club_with_evenings,
    play_club_game,
    play_evenings,
    play_rounds,
    play_table,
    tables_of,
)
from table_phones import sideways
from test_accessibility_browser import _in_both_schemes

#: The fixture's five busiest players under the longest names a club takes (24 letters).
LONG = {"Ann": "Maximiliane von Falkenau", "Bo": "Bartholomäus Kirchhoffer",
        "Cy": "Christabella Vandenbergh", "Di": "Dominique Lefèvre-Dubois",
        "Ed": "Evangelina Montgomeryson"}  # fmt: skip
LONG_EVENINGS = [
    (day, {LONG.get(n, n): band for n, band in bands.items()}) for day, bands in EVENINGS
]
PHONE = {"device_scale_factor": 1, "is_mobile": True, "has_touch": True}

#: Each row's place, name and total inside the screen; no name cut, broken inside a word or
#: right-aligned.
PINNED_IN_SIGHT = """() => {
  const width = document.documentElement.clientWidth, wrong = [];
  for (const row of document.querySelectorAll(".season-table tbody tr")) {
    const name = row.querySelector("th"), total = row.querySelector(".col-total");
    for (const cell of [name, total]) {
      const box = cell.getBoundingClientRect();
      if (box.left < 0 || box.right > width + 0.5) wrong.push("out of sight: " + cell.innerText);
    }
    if (name.scrollWidth > name.clientWidth + 1) wrong.push("cut: " + name.innerText);
    const words = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
    for (let text = words.nextNode(); text; text = words.nextNode()) {
      for (const word of text.data.matchAll(/[^\\s-]+/g)) {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        if (range.getClientRects().length > 1) wrong.push("word broken: " + word[0]);
      }
    }
    const align = getComputedStyle(name).textAlign;
    if (align !== "left" && align !== "start") wrong.push("right: " + name.innerText);
    if (total.getBoundingClientRect().left < name.getBoundingClientRect().right - 0.5)
      wrong.push("total under the name: " + name.innerText);
  }
  return wrong;
}"""


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Any]:
    """`open_page(width, height, lang, scheme)`: a phone of its own, the CSP watched."""
    contexts = []

    def opened(width: int, height: int, lang: str, scheme: str) -> Page:
        context = browser.new_context(
            viewport={"width": width, "height": height}, locale=lang,
            color_scheme=scheme, bypass_csp=True, **PHONE,  # type: ignore[arg-type]
        )  # fmt: skip
        contexts.append(context)
        page = context.new_page()
        page.add_init_script(WATCH_CSP)
        return page

    yield opened
    for context in contexts:
        context.close()


def _clean(page: Page) -> None:
    assert sideways(page) == 0
    assert _in_both_schemes(page) == {"light": [], "dark": []}
    assert page.evaluate("window.__cspViolations") == []


def _shots(page: Page, screenshot_dir: Path, name: str) -> None:
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(screenshot_dir / f"season-{name}-{scheme}.png"), full_page=True)
    page.emulate_media(color_scheme="light")


def _table_in_sight(page: Page, players: int) -> None:
    rows = page.locator(".season-table tbody tr")
    expect(rows).to_have_count(players)
    # Measured once the page's stylesheets are in: after a tap, the table can be found before
    # seasons.css is (CI found the French table bare on a busy machine), as sideways() waits.
    page.wait_for_load_state("load")
    assert page.evaluate(PINNED_IN_SIGHT) == []
    # Scrolled to the last club night, the place, name and total stay where they were.
    page.locator(".season-scroll").evaluate("e => e.scrollLeft = e.scrollWidth")
    assert page.evaluate(PINNED_IN_SIGHT) == []
    page.locator(".season-scroll").evaluate("e => e.scrollLeft = 0")


def test_a_host_makes_a_season_by_thumb_and_its_table_takes_each_round_as_saved(
    app: Flask, live_server: str, open_page: Any, screenshot_dir: Path
) -> None:
    club_id, token, event_ids = club_with_evenings(
        app, LONG_EVENINGS, name="Donnerstagsrunde am Markt", lang="de"
    )
    play_evenings(app, event_ids, 3, LONG_EVENINGS)
    page = open_page(360, 740, "de", "light")
    page.goto(f"{live_server}/clubs/{club_id}/edit/{token}")
    page.get_by_role("link", name="Saisons: Clubabende zusammengezählt").tap()
    expect(page.locator("h1")).to_have_text("Saisons")
    _clean(page)
    page.screenshot(path=str(screenshot_dir / "season-new-de.png"), full_page=True)
    page.get_by_label("Name der Saison").fill("Herbstsaison 2026")
    page.get_by_label("Erster Tag").fill("2026-09-01")
    page.get_by_label("Letzter Tag").fill("2026-09-30")
    page.get_by_role("radio", name=re.compile("besten Clubabende jedes Spielers")).tap()
    page.get_by_label("Beste Clubabende, die zählen").fill("5")
    page.get_by_role("button", name="Saison speichern").tap()
    # Best 5 of the 4 club nights within the dates: said on the form, what was typed kept.
    expect(page.locator(".form-errors")).to_contain_text("Die besten 5 von 4 Clubabenden")
    expect(page.get_by_label("Name der Saison")).to_have_value("Herbstsaison 2026")
    page.screenshot(path=str(screenshot_dir / "season-form-refused-de.png"), full_page=True)
    page.get_by_label("Beste Clubabende, die zählen").fill("2")
    with page.expect_navigation():
        page.get_by_role("button", name="Saison speichern").tap()
    expect(page.locator("h1")).to_have_text("Herbstsaison 2026")
    # The settings page lists the club nights within the dates, each ticked.
    counted = page.get_by_role("group", name="Clubabende, die zählen").locator("input")
    expect(counted).to_have_count(4)
    expect(counted.nth(3)).to_be_checked()
    _clean(page)
    # Deleting asks first: the first tap only opens the question.
    page.get_by_text("Saison löschen…").tap()
    expect(page.get_by_role("button", name="Ja, Saison löschen")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "season-settings-de.png"), full_page=True)

    page.get_by_role("link", name="Die Saisontabelle").tap()
    expect(page.locator(".season-rule")).to_contain_text("2")
    _table_in_sight(page, 17)
    # A column for each club night within the dates; the fourth, not yet played, all absent.
    expect(page.locator(".season-table thead .col-evening")).to_have_count(4)
    absent = page.locator(".season-table td.absent")
    before = absent.count()
    assert before >= 17
    expect(page.locator(".season-table .dropped").first).to_be_visible()
    expect(page.locator(".season-table .move").first).to_be_visible()
    _shots(page, screenshot_dir, "de-360")
    _clean(page)

    # The fourth club night's tables save their round: the table follows without a reload.
    for table in range(tables_of(app, event_ids[3])):
        play_table(app, event_ids[3], table, LONG_EVENINGS[3][1])
    page.wait_for_function(
        f"document.querySelectorAll('.season-table td.absent').length <= {before - 15}",
        timeout=15_000,
    )  # the fourth night's 15 players now have points there
    _table_in_sight(page, 17)


def test_a_member_reads_the_season_from_the_clubs_page_in_french_with_large_text(
    app: Flask, live_server: str, open_page: Any, screenshot_dir: Path
) -> None:
    club_id, token, event_ids = club_with_evenings(
        app, LONG_EVENINGS, name="Les Jeudis du Rami", lang="fr"
    )
    play_evenings(app, event_ids, 4, LONG_EVENINGS)
    client = app.test_client()
    season = {"name": "Saison d’automne", "starts": "2026-09-01", "ends": "2026-09-30",
              "rule": "average", "min_evenings": 2}  # fmt: skip
    auth = {"Authorization": f"Bearer {token}"}
    made = client.post(f"/api/v1/clubs/{club_id}/seasons", headers=auth, json=season)
    assert made.status_code == 201, made.get_json()
    page = open_page(320, 700, "fr", "dark")
    page.goto(f"{live_server}/text/large")
    page.goto(f"{live_server}/clubs/{club_id}")
    page.get_by_role("link", name=re.compile("Saison d’automne")).tap()
    expect(page.locator("h1")).to_have_text("Saison d’automne")
    _table_in_sight(page, 17)
    expect(page.locator(".season-table tbody tr.unranked").first).to_be_visible()
    _shots(page, screenshot_dir, "fr-320-large")
    _clean(page)


@pytest.mark.parametrize(
    ("width", "height", "lang", "scheme"), [(1920, 1080, "de", "dark"), (1280, 720, "en", "light")]
)
def test_the_room_board_ends_the_evening_with_the_seasons_first_five(
    app: Flask, live_server: str, open_page: Any, width: int, height: int, lang: str,
    scheme: str, screenshot_dir: Path,
) -> None:  # fmt: skip
    """The fourth club night's board once its tables finish: the evening's podium, and under
    it the season's first five, every long name whole, the whole board on the screen."""
    club_id, token, event_ids = club_with_evenings(app, LONG_EVENINGS, lang=lang)
    play_evenings(app, event_ids, 3, LONG_EVENINGS)
    season = {"name": "Herbstsaison 2026", "starts": "2026-09-01", "ends": "2026-09-30",
              "rule": "best", "best": 3}  # fmt: skip
    auth = {"Authorization": f"Bearer {token}"}
    made = app.test_client().post(f"/api/v1/clubs/{club_id}/seasons", headers=auth, json=season)
    assert made.status_code == 201
    page = open_page(width, height, lang, scheme)
    board = f"{live_server}/clubs/{club_id}/events/{event_ids[3]}/board"
    page.goto(board + ("?light=1" if scheme == "light" else ""))
    expect(page.locator(".board-season")).to_have_count(0)  # the tables are playing
    for table in range(tables_of(app, event_ids[3])):
        play_table(app, event_ids[3], table, LONG_EVENINGS[3][1])
    expect(page.locator(".board-podium li")).not_to_have_count(0, timeout=15_000)
    rows = page.locator(".board-season-rows li")
    expect(rows).to_have_count(5)
    expect(page.locator(".board-season h2")).to_contain_text("Herbstsaison 2026")
    expect(rows.first).to_contain_text("Maximiliane von Falkenau")
    for name in page.locator(".board-season .board-name").all():
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), name.inner_text()
    page.screenshot(
        path=str(screenshot_dir / f"season-board-{width}-{lang}-{scheme}.png"), full_page=True
    )
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    _clean(page)


#: The scroll box scrolled until the first day of club games stands beside the pinned columns.
SCROLL_TO_THE_DAY = """box => {
  const day = box.querySelector("thead .col-kind").closest("th");
  const pinned = box.querySelector("thead .col-total").getBoundingClientRect().right;
  box.scrollLeft += day.getBoundingClientRect().left - pinned;
}"""


def test_a_host_counts_the_clubs_other_games_by_thumb_and_a_day_of_them_is_a_column(
    app: Flask, live_server: str, open_page: Any, screenshot_dir: Path
) -> None:
    """Issue 31, point 1's "which ordinary club games count": the host (German, 360 px) ticks
    the club's other games, sees each finished one listed by its day and players, unticks one;
    the table (German, then Dutch in the dark at 320 px) has a column per day of games, marked
    under its date, and takes a game's last round as it is saved."""
    club_id, token, event_ids = club_with_evenings(
        app, LONG_EVENINGS[:2], name="Donnerstagsrunde am Markt", lang="de"
    )
    play_evenings(app, event_ids, 2, LONG_EVENINGS[:2])
    ann, bo, cy, di, ed = LONG.values()
    first = {ann: 5, bo: 15, cy: 25, di: 50}
    second = {bo: 5, ann: 15, ed: 25}
    play_club_game(app, club_id, "2026-09-05", first)
    play_club_game(app, club_id, "2026-09-05", second, at="21:00")
    late = play_club_game(app, club_id, "2026-09-12", first, rounds=3)
    auth = {"Authorization": f"Bearer {token}"}
    season = {"name": "Herbstsaison 2026", "starts": "2026-09-01", "ends": "2026-09-30"}
    made = app.test_client().post(f"/api/v1/clubs/{club_id}/seasons", headers=auth, json=season)
    assert made.status_code == 201, made.get_json()
    page = open_page(360, 740, "de", "light")
    page.goto(f"{live_server}/clubs/{club_id}/edit/{token}/seasons/{made.get_json()['id']}")
    expect(page.get_by_text("Clubspiele, die zählen")).to_have_count(0)
    page.get_by_label("Die anderen Clubspiele zählen auch").tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Saison speichern").tap()
    games = page.get_by_role("group", name="Clubspiele, die zählen").locator("input")
    expect(games).to_have_count(2)  # the third is still being played
    expect(page.get_by_text(f"{bo}, {ann}, {ed}")).to_be_visible()
    _clean(page)
    page.screenshot(path=str(screenshot_dir / "season-club-games-form-de.png"), full_page=True)
    page.get_by_label(re.compile(re.escape(f"{bo}, {ann}, {ed}"))).tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Saison speichern").tap()
    expect(games.nth(1)).not_to_be_checked()

    page.get_by_role("link", name="Die Saisontabelle").tap()
    expect(page.locator(".season-rule")).to_contain_text("Die anderen Clubspiele zählen auch")
    expect(page.locator(".season-table thead .col-evening")).to_have_count(3)
    expect(page.locator(".season-table thead .col-kind")).to_have_text(["Clubspiele"])
    _table_in_sight(page, 16)
    _shots(page, screenshot_dir, "club-games-de-360")
    _clean(page)
    page.locator(".season-scroll").evaluate(SCROLL_TO_THE_DAY)
    page.locator(".season-scroll").screenshot(
        path=str(screenshot_dir / "season-club-games-de-360-day.png")
    )
    # The game still being played finishes: its day becomes a column without a reload.
    play_rounds(app, late, first, range(4, 8))
    expect(page.locator(".season-table thead .col-kind")).to_have_count(2, timeout=15_000)
    _table_in_sight(page, 16)

    dutch = open_page(320, 700, "nl", "dark")
    dutch.goto(f"{live_server}/clubs/{club_id}/seasons/{made.get_json()['id']}?lang=nl")
    expect(dutch.locator(".season-table thead .col-kind")).to_have_text(
        ["Clubspellen", "Clubspellen"]
    )
    expect(dutch.locator(".season-rule")).to_contain_text("De andere clubspellen tellen ook mee")
    _table_in_sight(dutch, 16)
    _shots(dutch, screenshot_dir, "club-games-nl-320")
    _clean(dutch)
    box = dutch.locator(".season-scroll")
    box.evaluate("e => e.scrollLeft = e.scrollWidth")
    box.screenshot(path=str(screenshot_dir / "season-club-games-nl-320-scrolled.png"))
