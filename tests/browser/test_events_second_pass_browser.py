"""Issue 29's points in headless Chromium, each at its size, in German and one other language,
light and dark (each language in one scheme, each scheme in one language), axe clean, nothing
sideways: the host's page at 360 px (the swap and the move by their forms, a name too long said
as it is typed, leaving asked first, back where the host was, the page following the tables),
the standings and the club's stats with 24-letter names (large text too), the room's board at
1920×1080 and 1280×720 (type by the screen, who sits where and deals, provisional figures, the
podium), a series game's phone at 320 and 360 px (its head, its last round, its end) and a new
club's page (nothing said against it before anything is typed)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from club_fixture import results_json
from conftest import WATCH_CSP
from flask import Flask
from flask.testing import FlaskClient
from playwright.sync_api import Browser, Locator, Page, expect
from table_phones import in_view, sideways
from test_accessibility_browser import _in_both_schemes

LONG = [
    "Maximiliane von Falkenau", "Bartholomäus Kirchhoffer", "Christabella Vandenbergh",
    "Dominique Lefèvre-Dubois", "Evangelina Montgomeryson", "Friedemann", "Gwendolyn",
    "Hildegard", "Ingrid", "Jo", "Kit", "Lu", "Max", "Ned",
]  # fmt: skip
WORDS = {
    "en": {"over": "2 letters too many", "left": "Left the evening:", "deals": "deals",
           "head": "Round 2 of 3 · Series 1", "last": "Last round (3 of 3)",
           "done": "Series 1 is over at this table."},
    "de": {"over": "2 Zeichen zu viel", "left": "Haben den Abend verlassen:", "deals": "gibt",
           "head": "Runde 2 von 3 · Serie 1", "last": "Letzte Runde (3 von 3)",
           "done": "Serie 1 ist an diesem Tisch vorbei."},
}  # fmt: skip


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _evening(
    client: FlaskClient, names: list[str], *, lang: str, rounds: int = 2, series: int = 2
) -> dict[str, Any]:
    club = client.post("/api/v1/clubs", json={"name": "Donnerstagsrunde", "lang": lang}).get_json()
    api = f"/api/v1/clubs/{club['id']}/events"
    made = client.post(api, json={"name": "Clubabend März", "variant": "contract", "seed": 2024,
                                  "series": series, "series_rounds": rounds, "lang": lang},
                       headers=_auth(club["edit_token"])).get_json()  # fmt: skip
    api = f"{api}/{made['id']}"
    if names:
        client.post(f"{api}/players", json={"names": names}, headers=_auth(club["edit_token"]))
    page = f"/clubs/{club['id']}/events/{made['id']}"
    return {"club": club, "api": api, "page": page, "host": f"{page}/edit/{club['edit_token']}"}


def _series(client: FlaskClient, evening: dict[str, Any], body: dict[str, Any]) -> Any:
    answer = client.post(f"{evening['api']}/series", json=body,
                         headers=_auth(evening["club"]["edit_token"]))  # fmt: skip
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def _enter(client: FlaskClient, table: dict[str, Any], number: int, spread: int = 0) -> None:
    seats = table["seats"]
    penalties = {seat: 5 * (seat + spread + number) for seat in range(1, len(seats))}
    body = {"round": number, "results": results_json(seats, 0, penalties)}
    token = table["edit_url"].rsplit("/", 1)[-1]
    answer = client.post(f"/api/v1/games/{table['game']}/rounds", json=body, headers=_auth(token))
    assert answer.status_code == 200, answer.get_json()


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Any]:
    """`open_page(width, height, lang, scheme)`: a page in a context of its own that collects
    what the console and the CSP complain of (`page.complaints`)."""
    contexts = []

    def opened(width: int, height: int, lang: str, scheme: str, **more: Any) -> Page:
        context = browser.new_context(
            viewport={"width": width, "height": height}, locale=lang,
            color_scheme=scheme, bypass_csp=True, **more,  # type: ignore[arg-type]
        )  # fmt: skip
        contexts.append(context)
        page = context.new_page()
        complaints: list[str] = []
        page.on("console", lambda m: complaints.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: complaints.append(str(error)))
        page.add_init_script(WATCH_CSP)
        page.complaints = complaints  # type: ignore[attr-defined]
        return page

    yield opened
    for context in contexts:
        context.close()


PHONE = {"device_scale_factor": 1, "is_mobile": True, "has_touch": True}


def _clean(page: Page) -> None:
    assert sideways(page) == 0
    assert _in_both_schemes(page) == {"light": [], "dark": []}
    assert page.evaluate("window.__cspViolations") == []


def _post(page: Page, button: Locator, anchor: str) -> None:
    with page.expect_navigation():
        button.tap()
    page.wait_for_url(re.compile(f"#{anchor}$"))
    # Back where the host was: the part posted from is in view.
    assert page.locator(f"#{anchor}").evaluate("e => e.getBoundingClientRect().top") < 400


# -- 1, 6, 8: the host's page at 360 px ------------------------------------------------------


@pytest.mark.parametrize(("lang", "scheme"), [("en", "light"), ("de", "dark")])
def test_the_hosts_page_swaps_moves_asks_before_leaving_and_follows_the_tables(
    app: Flask, live_server: str, open_page: Any, lang: str, scheme: str, screenshot_dir: Path
) -> None:
    client = app.test_client()
    evening = _evening(client, LONG[:12], lang=lang)
    host = open_page(360, 740, lang, scheme, **PHONE)
    host.goto(live_server + evening["host"])
    # A name too long is said as it is typed, and kept whole when the server refuses it.
    field = host.locator("#new_names-0")
    field.fill("Wilhelmina Abendroth-Klee")  # 25 letters
    field.press_sequentially("x")
    expect(host.locator("#new_names-0-over")).to_have_text(WORDS[lang]["over"])
    with host.expect_navigation():
        host.locator("button[name=check_in]").tap()
    expect(host.locator("#new_names-0")).to_have_value("Wilhelmina Abendroth-Kleex")
    expect(host.locator(".form-errors")).to_contain_text("24")
    # Leaving asks first, then says who left; the page opens where the host was.
    leaving = host.locator("#players .player-list li").filter(has_text=LONG[11])
    leaving.locator("summary").tap()
    expect(leaving.locator("button[name=leave]")).to_be_visible()
    _post(host, leaving.locator("button[name=leave]"), "players")
    expect(host.locator("#players .gone")).to_have_text(f"{WORDS[lang]['left']} {LONG[11]}")
    # Series 1 drawn by the page; the swap and the move by their forms.
    _post(host, host.locator(".draw-form button[type=submit]"), "draw")
    tables = host.locator("#draw .event-table")
    first = tables.nth(0).locator(".seat-name").all_inner_texts()
    second = tables.nth(1).locator(".seat-name").all_inner_texts()
    host.locator(".swap-form select[name=first]").select_option(first[1])
    host.locator(".swap-form select[name=second]").select_option(second[2])
    _post(host, host.locator(".swap-form button[type=submit]"), "draw")
    expect(tables.nth(0).locator(".seat-name").nth(1)).to_have_text(second[2])
    expect(tables.nth(1).locator(".seat-name").nth(2)).to_have_text(first[1])
    host.locator(".move-form select[name=name]").select_option(first[0])
    host.locator(".move-form select[name=table]").select_option("3")
    _post(host, host.locator(".move-form button[type=submit]"), "draw")
    expect(tables.nth(2).locator(".seat-name").last).to_have_text(first[0])
    host.screenshot(path=str(screenshot_dir / f"host-drawn-{lang}-{scheme}.png"), full_page=True)
    _clean(host)
    # Started: the tables come first; a table's round reaches the page without a reload.
    _post(host, host.locator(".draw-actions form").first.locator("button"), "series-1")
    assert host.locator("#event-live > section").first.get_attribute("id") == "series-1"
    auth = _auth(evening["club"]["edit_token"])
    game = client.get(evening["api"], headers=auth).get_json()["series"][0]["tables"][0]
    state = host.locator("#series-1 .event-table").first.locator(".table-state")
    before = state.inner_text()
    _enter(client, game, 1)
    expect(state).not_to_have_text(before, timeout=15_000)
    _clean(host)
    refused = "status of 400"  # the check-in refused for the long name, as it should be
    assert [c for c in host.complaints if refused not in c] == []


# -- 4: the standings and the club's stats on a phone ----------------------------------------


# What is wrong with the standings on this phone: a name, tournament points or points out of
# sight, a name cut or set to the right.
FIRST_COLUMNS_IN_SIGHT = """() => {
  const width = document.documentElement.clientWidth, wrong = [];
  for (const row of document.querySelectorAll(".standings-table tbody tr")) {
    const name = row.querySelector("th");
    const cells = [name, ...row.querySelectorAll("td:not(.col-place)")].slice(0, 3);
    for (const cell of cells) {
      const box = cell.getBoundingClientRect();
      if (box.left < 0 || box.right > width + 0.5) wrong.push("out of sight: " + cell.innerText);
    }
    if (name.scrollWidth > name.clientWidth + 1) wrong.push("cut: " + name.innerText);
    const align = getComputedStyle(name).textAlign;
    if (align !== "left" && align !== "start") wrong.push("right: " + name.innerText);
  }
  return wrong;
}"""


def _in_sight(cell: Locator, width: int) -> bool:
    box = cell.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5


@pytest.mark.parametrize(
    ("lang", "scheme", "large"), [("de", "dark", True), ("en", "light", False)]
)
def test_the_standings_and_the_clubs_stats_fit_a_360_px_phone_with_long_names(
    app: Flask, live_server: str, open_page: Any, lang: str, scheme: str, large: bool,
    screenshot_dir: Path,
) -> None:  # fmt: skip
    client = app.test_client()
    evening = _evening(client, LONG, lang=lang, rounds=1)
    drawn = _series(client, evening, {"series": 1})
    for spread, table in enumerate(drawn["series"][0]["tables"]):
        _enter(client, table, 1, spread)
    page = open_page(360, 740, lang, scheme, **PHONE)
    if large:
        page.goto(f"{live_server}/text/large")
    page.goto(live_server + evening["page"] + "#standings")
    rows = page.locator(".standings-table tbody tr")
    expect(rows).to_have_count(14)
    # Every row's name, tournament points and points in sight; no name cut, none right-aligned.
    assert page.evaluate(FIRST_COLUMNS_IN_SIGHT) == []
    # Scrolled sideways, the names stay pinned.
    page.locator(".standings-scroll").evaluate("e => e.scrollLeft = e.scrollWidth")
    assert _in_sight(rows.first.locator("th"), 360)
    page.screenshot(path=str(screenshot_dir / f"standings-{lang}-{scheme}.png"), full_page=True)
    _clean(page)
    # The club's stats: every figure column gets room beside a long name.
    page.goto(f"{live_server}/clubs/{evening['club']['id']}")
    stats = page.locator(".stats-table tbody tr").first
    name, wins = stats.locator("th"), stats.locator("td").first
    assert name.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    assert (wins.bounding_box() or {"width": 0})["width"] >= 40
    assert _in_sight(stats.locator("td").nth(1), 360)  # wins and games in view
    expect(page.locator(".game-series").first).to_be_visible()  # a series game says so
    _clean(page)


# -- issue 31, 5: the results for the club's chat ----------------------------------------------

SHARED = {
    "de": ("Die Ergebnisse für den Chat des Vereins", "Kopiert: jetzt im Chat einfügen."),
    "fr": ("Les résultats pour la discussion du club", "Copié : collez-le dans la discussion."),
}


@pytest.mark.parametrize(("width", "lang", "scheme"), [(360, "de", "dark"), (320, "fr", "light")])
def test_the_results_go_to_the_clubs_chat_from_a_phone(
    app: Flask, live_server: str, open_page: Any, width: int, lang: str, scheme: str,
    screenshot_dir: Path,
) -> None:  # fmt: skip
    """A member at home (or the host) takes the results to the club's chat: the message in the
    page's language, every long name whole, selectable; its button copies it where the phone
    has no share sheet (headless Chromium has none) and says so beside it."""
    client = app.test_client()
    evening = _evening(client, LONG, lang=lang, rounds=1, series=1)
    tables = _series(client, evening, {"series": 1})["series"][0]["tables"]
    for spread, table in enumerate(tables):
        _enter(client, table, 1, spread)
    page = open_page(width, 740, lang, scheme, **PHONE)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page.goto(live_server + evening["page"] + "#share")
    label, copied = SHARED[lang]
    expect(page.get_by_label(label)).to_be_visible()
    text = page.locator("#share-text").input_value()
    assert all(name in text for name in LONG) and text.count("\N{FIRST PLACE MEDAL}") >= 1
    field = page.locator("#share-text")
    assert field.evaluate("e => e.scrollWidth <= e.clientWidth + 1")  # wrapped, never sideways
    button = page.locator("[data-share]")
    expect(button).to_be_visible()
    button.tap()
    expect(page.locator("[data-share-said]")).to_have_text(copied)
    assert page.evaluate("navigator.clipboard.readText()") == text
    assert text == client.get(evening["page"] + "/results.txt").get_data(as_text=True).replace(
        "http://localhost", live_server
    )
    page.locator("#share").screenshot(
        path=str(screenshot_dir / f"share-{width}-{lang}-{scheme}.png")
    )
    _clean(page)
    assert page.complaints == []


# -- 5: the room's board ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("width", "height", "lang", "scheme"), [(1920, 1080, "en", "dark"), (1280, 720, "de", "light")]
)
def test_the_room_board_scales_with_the_screen_and_ends_with_a_podium(
    app: Flask, live_server: str, open_page: Any, width: int, height: int, lang: str,
    scheme: str, screenshot_dir: Path,
) -> None:  # fmt: skip
    client = app.test_client()
    evening = _evening(client, LONG[:13], lang=lang, rounds=2, series=1)
    tables = _series(client, evening, {"series": 1})["series"][0]["tables"]
    for spread, table in enumerate(tables[:2]):  # a round of two: provisional
        _enter(client, table, 1, spread)
    leaver = tables[0]["seats"][1]
    client.post(f"{evening['api']}/players", json={"action": "leave", "names": [leaver]},
                headers=_auth(evening["club"]["edit_token"]))  # fmt: skip
    page = open_page(width, height, lang, scheme)
    # The light board is one tap from the host's page.
    page.goto(live_server + evening["host"])
    page.locator("#share a[href$='?light=1']").click()
    assert page.locator("html").get_attribute("data-theme") == "light"
    board = live_server + evening["page"] + "/board" + ("?light=1" if scheme == "light" else "")
    page.goto(board)
    names = page.locator(".board-name")
    expect(names).to_have_count(13)
    size = float(names.first.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px"))
    figure = page.locator(".board-points").first.evaluate("e => getComputedStyle(e).fontSize")
    assert size >= 0.04 * height and float(figure.removesuffix("px")) > size
    for name in names.all():
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), name.inner_text()
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    # Who sits where during play, who deals; unfinished tables' figures provisional; who left.
    playing = page.locator(".board-tables > li.is-playing").nth(2)
    expect(playing.locator(".board-seats li")).to_have_count(len(tables[2]["seats"]))
    expect(playing.locator(".board-dealer")).to_have_count(1)
    assert page.locator(".board-points .board-mark").count() >= 4
    expect(page.locator(".has-left .board-name")).to_contain_text(leaver)
    page.screenshot(path=str(screenshot_dir / f"board-{width}-{lang}-{scheme}.png"))
    _clean(page)
    # The tables finish: the podium with the winner, by itself.
    for spread, table in enumerate(tables):
        for number in range(2 if spread < 2 else 1, 3):
            _enter(client, table, number, spread)
    expect(page.locator(".board-podium li")).not_to_have_count(0, timeout=15_000)
    expect(page.locator(".board-winner")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    page.screenshot(path=str(screenshot_dir / f"board-over-{width}-{lang}-{scheme}.png"))
    assert page.complaints == []


# -- 2, 9: a series game's phone ---------------------------------------------------------------


@pytest.mark.parametrize(("width", "lang", "scheme"), [(320, "de", "dark"), (360, "en", "light")])
def test_a_series_games_phone_knows_its_rounds_and_its_end(
    app: Flask, live_server: str, open_page: Any, width: int, lang: str, scheme: str,
    screenshot_dir: Path,
) -> None:  # fmt: skip
    client = app.test_client()
    names = ["Maximiliane", "Bartholomäus", "Christabella", "Dominique", "Evangelina"]
    evening = _evening(client, names, lang=lang, rounds=3)
    table = _series(client, evening, {"series": 1})["series"][0]["tables"][0]
    _enter(client, table, 1)
    page = open_page(width, 640, lang, scheme, **PHONE)
    page.goto(table["edit_url"].replace("http://localhost", live_server))
    expect(page.locator("#game-head .deal-line")).to_contain_text(WORDS[lang]["head"])
    # The dealer's row is read "<name> deals", with a space.
    dealer = table["seats"][1]
    group = page.get_by_role("group", name=f"{dealer} {WORDS[lang]['deals']}")
    expect(group).to_have_count(1)
    # Counting the third player's hand by value: the row stops under the pinned head.
    page.locator("#seat-2-count-open").tap()
    expect(page.locator("#seat-2-hand")).to_have_attribute("open", "")
    head = page.locator("#game-head").bounding_box()
    row = page.locator("#seat-2-name").bounding_box()
    assert head is not None and row is not None and row["y"] >= head["y"] + head["height"]
    assert in_view(page.locator("#seat-2-name"))
    page.screenshot(path=str(screenshot_dir / f"series-game-{width}-{lang}-{scheme}.png"))
    _clean(page)
    _enter(client, table, 2)
    page.reload()
    expect(page.locator("#game-head .round-of")).to_have_text(WORDS[lang]["last"])
    _enter(client, table, 3)
    page.reload()
    expect(page.locator(".series-over")).to_contain_text(WORDS[lang]["done"])
    expect(page.locator("#round-form")).to_have_count(0)  # no round 4 to enter
    page.screenshot(path=str(screenshot_dir / f"series-over-{width}-{lang}-{scheme}.png"),
                    full_page=True)  # fmt: skip
    _clean(page)


# -- 8: a new club's page ------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "scheme"), [("de", "light"), ("fr", "dark")])
def test_a_new_clubs_page_says_nothing_against_it_before_anything_is_typed(
    app: Flask, live_server: str, open_page: Any, lang: str, scheme: str
) -> None:
    club = app.test_client().post("/api/v1/clubs", json={"name": "Neu", "lang": lang}).get_json()
    page = open_page(360, 740, lang, scheme, **PHONE)
    page.goto(f"{live_server}/clubs/{club['id']}/edit/{club['edit_token']}")
    count = page.locator("#players-count")
    expect(count).not_to_be_empty()
    assert "is-off" not in (count.get_attribute("class") or "")
    page.locator("#new_names-0").fill("Ann")
    expect(count).to_have_class(re.compile("is-off"))  # one is too few, once typed
    _clean(page)
