"""A series' clock (issue 31, point 3) in headless Chromium, in German and French, dark and
light, axe clean, nothing sideways: the room's board at 1920×1080 and 1280×720 and a table's
phone at 320 px (its own clock three hours wrong) show the same time left; the host's page at
360 px pauses the clock and gives one table extra minutes, and the board follows; at zero the
phone says "last round" and the board that the time is up, each having asked again by itself.
Screenshots in test-artifacts/screenshots/ (clock-*.png)."""

from __future__ import annotations

import datetime
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import WATCH_CSP
from flask import Flask
from flask.testing import FlaskClient
from playwright.sync_api import Browser, Page, expect
from table_phones import sideways
from test_accessibility_browser import _in_both_schemes

from referee.web.core import clock as web_clock

NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Erika", "Frank", "Gisela", "Horst"]
WORDS = {
    "de": {"paused": "Uhr angehalten", "extra": "Tisch 2: 5 Minuten Zusatzzeit",
           "last": "Die Zeit ist um: letzte Runde", "up": "Die Zeit ist um",
           "head": "Serie 1"},
    "fr": {"paused": "Chrono en pause", "extra": "Table 2 : 5 minutes en plus",
           "last": "Temps écoulé : dernière manche", "up": "Temps écoulé",
           "head": "Ronde 1"},
}  # fmt: skip
PHONE = {"device_scale_factor": 1, "is_mobile": True, "has_touch": True}


class ShiftedClock:
    """The web layer's time: the real time, moved by `shift` (the test moves it)."""

    def __init__(self) -> None:
        self.shift = datetime.timedelta()

    def __call__(self) -> datetime.datetime:
        return datetime.datetime.now(datetime.UTC) + self.shift


@pytest.fixture
def server_clock(monkeypatch: pytest.MonkeyPatch) -> ShiftedClock:
    clock = ShiftedClock()
    monkeypatch.setattr(web_clock, "now", clock)
    return clock


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Any]:
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


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _evening(client: FlaskClient, lang: str) -> dict[str, Any]:
    """8 players, a 20-minute clock, series 1 started now (the server's time)."""
    club = client.post("/api/v1/clubs", json={"name": "Donnerstagsrunde", "lang": lang}).get_json()
    auth = _auth(club["edit_token"])
    api = f"/api/v1/clubs/{club['id']}/events"
    made = client.post(api, json={"name": "Clubabend", "variant": "contract", "seed": 2024,
                                  "series": 3, "series_minutes": 20, "lang": lang},
                       headers=auth).get_json()  # fmt: skip
    api = f"{api}/{made['id']}"
    client.post(f"{api}/players", json={"names": NAMES}, headers=auth)
    started = client.post(f"{api}/series", json={"series": 1}, headers=auth).get_json()
    page = f"/clubs/{club['id']}/events/{made['id']}"
    return {
        "api": api,
        "auth": auth,
        "board": f"{page}/board",
        "host": f"{page}/edit/{club['edit_token']}",
        "tables": started["series"][0]["tables"],
    }


def _seconds(text: str) -> int:
    parts = [int(p) for p in text.strip().split(":")]
    return sum(p * 60**i for i, p in enumerate(reversed(parts)))


def _left(page: Page, where: str) -> int:
    return _seconds(page.locator(f"{where} [data-clock-left]").inner_text())


def _same_time(first: Page, where: str, second: Page, there: str) -> bool:
    """The second page's time left is the first's within a second, however long the reading
    takes on a busy machine: it lies between the first's read before and after it. A page
    just opened shows the server's figure until its script first ticks (on a busy machine a
    second or two), so the pages get three seconds to agree."""
    deadline = time.monotonic() + 3
    while True:
        before = _left(first, where)
        between = _left(second, there)
        after = _left(first, where)
        if after - 1 <= between <= before + 1 or time.monotonic() > deadline:
            return after - 1 <= between <= before + 1
        time.sleep(0.25)


def _clean(page: Page, refused: str = "status of 400") -> None:
    """Nothing sideways, axe clean in both schemes, nothing against the CSP or in the console
    (but the 400 of a form refused on purpose)."""
    assert sideways(page) == 0
    assert _in_both_schemes(page) == {"light": [], "dark": []}
    assert page.evaluate("window.__cspViolations") == []
    assert [c for c in page.complaints if refused not in c] == []  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "scheme"), [("de", "dark"), ("fr", "light")])
def test_the_board_and_a_phone_count_the_same_time_the_host_pauses_and_gives_extra_minutes(
    app: Flask,
    live_server: str,
    open_page: Any,
    server_clock: ShiftedClock,
    lang: str,
    scheme: str,
    screenshot_dir: Path,
) -> None:
    shots = Path("/tmp/clock-shots")
    shots.mkdir(exist_ok=True)
    client = app.test_client()
    server_clock.shift = -datetime.timedelta(minutes=7, seconds=30)  # started 7:30 ago
    evening = _evening(client, lang)
    server_clock.shift = datetime.timedelta()
    light = "?light=1" if scheme == "light" else ""
    board = open_page(1920, 1080, lang, scheme)
    board.goto(live_server + evening["board"] + light)
    phone = open_page(320, 640, lang, scheme, **PHONE)
    # The phone's own clock is three hours wrong: it counts the server's time all the same.
    phone.clock.set_system_time(datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=3))
    phone.goto(evening["tables"][0]["edit_url"].replace("http://localhost", live_server))
    expect(phone.locator(".game-head")).to_contain_text(WORDS[lang]["head"])
    on_board = _left(board, ".series-clock-big")
    assert 11 * 60 + 20 <= on_board <= 12 * 60 + 30
    assert _same_time(board, ".series-clock-big", phone, ".game-head")
    time.sleep(2.2)  # both count down by themselves
    assert _left(board, ".series-clock-big") < on_board
    assert _same_time(board, ".series-clock-big", phone, ".game-head")
    board.screenshot(path=str(shots / f"clock-board-1920-{lang}-{scheme}.png"))
    phone.screenshot(path=str(shots / f"clock-phone-320-{lang}-{scheme}.png"))
    _clean(board)
    _clean(phone)
    small = open_page(1280, 720, lang, scheme)
    small.goto(live_server + evening["board"] + light)
    assert _same_time(board, ".series-clock-big", small, ".series-clock-big")
    assert sideways(small) == 0
    small.screenshot(path=str(shots / f"clock-board-1280-{lang}-{scheme}.png"))

    # The host at 360 px pauses the clock; the board follows the evening's stream.
    host = open_page(360, 740, lang, scheme, **PHONE)
    host.goto(live_server + evening["host"])
    with host.expect_navigation():
        host.locator("#clock form.inline-form button").tap()
    host.wait_for_url(re.compile("#clock$"))
    expect(host.locator("#clock .series-clock")).to_contain_text(WORDS[lang]["paused"])
    expect(board.locator(".series-clock-big")).to_contain_text(
        WORDS[lang]["paused"], timeout=15_000
    )
    paused_at = _left(board, ".series-clock-big")
    time.sleep(1.5)
    assert _left(board, ".series-clock-big") == paused_at
    # Extra minutes for table 2, typed wrong first: refused in words, what was typed kept.
    host.locator("#extra-table").select_option("2")
    host.locator("#extra-minutes").fill("-5")
    with host.expect_navigation():
        host.locator(".extra-form button[type=submit]").tap()
    expect(host.locator(".form-errors")).to_contain_text("-5")
    expect(host.locator("#extra-minutes")).to_have_value("-5")
    host.locator("#extra-minutes").fill("5")
    with host.expect_navigation():
        host.locator(".extra-form button[type=submit]").tap()
    expect(board.locator(".series-clock-big")).to_contain_text(WORDS[lang]["extra"], timeout=15_000)
    with host.expect_navigation():
        host.locator("#clock form.inline-form button").tap()  # resume
    host.screenshot(path=str(shots / f"clock-host-360-{lang}-{scheme}.png"), full_page=True)
    _clean(host)

    # Zero, six seconds from now for table 1: the phone and the board ask again by
    # themselves and say so.
    clock = client.get(evening["api"]).get_json()["series"][0]["clock"]
    ends = datetime.datetime.fromisoformat(clock["tables"][0]["ends_at"].replace("Z", "+00:00"))
    real = datetime.datetime.now(datetime.UTC)
    server_clock.shift = ends - real - datetime.timedelta(seconds=6)
    phone.reload()
    assert _left(phone, ".game-head") <= 6  # read before it reaches zero, even on a busy machine
    board.reload()
    expect(phone.locator(".game-head .clock-up")).to_have_text(WORDS[lang]["last"], timeout=10_000)
    expect(board.locator(".series-clock-big .clock-up")).to_have_text(
        WORDS[lang]["up"], timeout=10_000
    )
    board.screenshot(path=str(shots / f"clock-board-up-1920-{lang}-{scheme}.png"))
    phone.screenshot(path=str(shots / f"clock-phone-up-320-{lang}-{scheme}.png"))
    _clean(phone)
    _clean(board)
