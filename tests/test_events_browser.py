"""Club nights in headless Chromium: the host's pages at 360 px and the room's board at
1920×1080, light and dark, in two languages each; axe clean, nothing sideways, no console error
or CSP violation; the board refreshes itself when a table enters a round."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from club_fixture import results_json
from conftest import WATCH_CSP
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from table_phones import sideways
from test_accessibility_browser import _violations
from test_events import NAMES


def _evening(app: Flask, *, lang: str, start: bool) -> dict[str, Any]:
    """17 players, series 1 drawn (and started when `start`), two rounds at table 1."""
    client = app.test_client()
    club = client.post("/api/v1/clubs", json={"name": "Donnerstagsrunde"}).get_json()
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    api = f"/api/v1/clubs/{club['id']}/events"
    made = client.post(api, json={"name": "Clubabend März", "variant": "contract", "series": 3,
                                  "series_rounds": 2, "seed": 2024, "lang": lang},
                       headers=auth).get_json()  # fmt: skip
    api = f"{api}/{made['id']}"
    client.post(f"{api}/players", json={"names": NAMES}, headers=auth)
    drawn = client.post(f"{api}/series", json={"series": 1, "start": start}, headers=auth)
    table = drawn.get_json()["series"][0]["tables"][0]
    if start:
        _enter(client, table, 1)
    page = f"/clubs/{club['id']}/events/{made['id']}"
    return {"host": f"{page}/edit/{club['edit_token']}", "page": page, "api": api,
            "auth": auth, "table": table}  # fmt: skip


def _enter(client: Any, table: dict[str, Any], number: int) -> None:
    token = table["edit_url"].rsplit("/", 1)[-1]
    body = {"round": number, "results": results_json(table["seats"], 0, {1: 10, 2: 20, 3: 30})}
    answer = client.post(f"/api/v1/games/{table['game']}/rounds", json=body,
                         headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert answer.status_code == 200, answer.get_json()


def _no_sideways_scroll(page: Page) -> None:
    wide = sideways(page)
    assert wide <= 0, f"the page is {wide}px wider than the screen"


def _context_page(
    browser: Browser, args: dict[str, Any], scheme: str, errors: list[str]
) -> Iterator[Page]:
    context = browser.new_context(**args, color_scheme=scheme, bypass_csp=True)  # type: ignore[arg-type]
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(WATCH_CSP)
    yield page
    context.close()


# Each language in one scheme, each scheme in one language: both schemes and two languages are
# seen, at half the time of every pair.
@pytest.mark.parametrize(("scheme", "lang"), [("light", "en"), ("dark", "de")])
def test_the_hosts_pages_at_360_px(
    app: Flask, live_server: str, browser: Browser, browser_context_args: dict[str, Any],
    scheme: str, lang: str, screenshot_dir: Path,
) -> None:  # fmt: skip
    errors: list[str] = []
    for page in _context_page(browser, browser_context_args, scheme, errors):
        drawn = _evening(app, lang=lang, start=False)
        page.goto(live_server + drawn["host"])
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator(".swap-form")).to_be_visible()
        _no_sideways_scroll(page)
        assert _violations(page) == []
        page.screenshot(path=str(screenshot_dir / f"event-drawn-{lang}-{scheme}.png"),
                        full_page=True)  # fmt: skip
        # Start the series by thumb: each table's QR appears.
        page.locator(".draw-actions button").first.tap()
        expect(page.locator(".table-qr")).to_have_count(4)
        _no_sideways_scroll(page)
        assert _violations(page) == []
        page.screenshot(path=str(screenshot_dir / f"event-started-{lang}-{scheme}.png"),
                        full_page=True)  # fmt: skip
        new = drawn["host"].split("/events/")[0] + "/events/new"
        new = new.replace("/clubs/", "/clubs/", 1)
        club_edit = drawn["host"].split("/events/")[0]
        token = drawn["host"].rsplit("/", 1)[-1]
        page.goto(f"{live_server}{club_edit}/edit/{token}/events/new")
        _no_sideways_scroll(page)
        assert _violations(page) == []
        assert page.evaluate("window.__cspViolations") == []
    assert errors == []


@pytest.mark.parametrize(("scheme", "lang"), [("dark", "en"), ("light", "fr")])
def test_the_room_board_at_1920_by_1080_refreshes_itself(
    app: Flask, live_server: str, browser: Browser, scheme: str, lang: str,
    screenshot_dir: Path,
) -> None:  # fmt: skip
    errors: list[str] = []
    tv = {"viewport": {"width": 1920, "height": 1080}}
    for page in _context_page(browser, tv, scheme, errors):
        evening = _evening(app, lang=lang, start=True)
        page.goto(live_server + evening["page"] + "/board")
        board = page.locator("#board-live")
        version = board.get_attribute("data-version")
        expect(page.locator(".board-tables > li")).to_have_count(4)
        # Large type for a room: names at least 24 px; it fits the screen without scrolling.
        size = page.locator(".board-name").first.evaluate("e => getComputedStyle(e).fontSize")
        assert float(size.removesuffix("px")) >= 24
        assert page.evaluate("document.documentElement.scrollHeight") <= 1080
        assert page.locator("form, button, input").count() == 0  # no controls
        _no_sideways_scroll(page)
        assert _violations(page) == []
        page.screenshot(path=str(screenshot_dir / f"event-board-{lang}-{scheme}.png"))
        # A table enters its second round: the board shows it by itself, without a reload.
        _enter(app.test_client(), evening["table"], 2)
        expect(board).not_to_have_attribute("data-version", version or "", timeout=15_000)
        expect(page.locator(".board-tables > li").first).to_have_class("is-finished")
        assert page.evaluate("window.__cspViolations") == []
    assert errors == []
