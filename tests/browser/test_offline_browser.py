"""Never lose a round, in real Chromium against a real server: the app installs, pages open
without signal, rounds entered offline are saved exactly once when the signal comes back, a
lost answer or a server that went away mid-save count once, and two phones that entered the
same round offline end with one saved and the other kept, with its reason, to fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, BrowserType, Page, Route, expect
from processes import free_port

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Ann", "Bo", "Cy"]
PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 740},
    "is_mobile": True,
    "has_touch": True,
}


def _json(url: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def _game(server: str) -> dict[str, Any]:
    game: dict[str, Any] = _json(
        server + "/api/v1/games", {"variant": "contract", "players": PLAYERS}
    )
    return game


def _rounds(server: str, game: dict[str, Any]) -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = _json(f"{server}/api/v1/games/{game['id']}")["rounds"]
    return rounds


def _controlled(page: Page, url: str) -> None:
    """Open `url` once the service worker controls the page (so the page is kept)."""
    page.goto(url)
    page.evaluate("() => navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def _enter(page: Page, out: int, points: dict[int, int]) -> None:
    page.locator(f"label.out-toggle:has(#went-out-{out})").tap()
    for seat, value in points.items():
        page.locator(f"#seat-{seat}-penalty").fill(str(value))
    page.get_by_role("button", name="Save the round").tap()


def test_the_app_installs(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    live_server: str,
    tmp_path: Path,
) -> None:
    # Chromium never calls a private (incognito) window installable: a profile of its own.
    context = browser_type.launch_persistent_context(
        str(tmp_path / "profile"), **browser_type_launch_args, **PHONE
    )
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        page.evaluate("() => navigator.serviceWorker.ready")
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == []
    finally:
        context.close()
    manifest = _json(live_server + "/manifest.webmanifest")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes


def test_a_round_entered_offline_is_saved_once_when_the_signal_returns(
    page: Page, live_server: str, screenshot_dir: Path, console_errors: list[str]
) -> None:
    game = _game(live_server)
    _controlled(page, game["edit_url"])
    page.context.set_offline(True)
    _enter(page, 0, {1: 25, 2: 30})
    outbox = page.locator("#outbox")
    expect(outbox).to_be_visible()
    expect(outbox.locator(".outbox-entry").first).to_contain_text("waiting for signal")
    waiting = page.locator(".score-table tr.is-waiting")
    expect(waiting).to_have_count(1)
    expect(waiting).to_contain_text("25")
    # The form moved on to round 2: another round can be entered without signal. The pinned
    # head says round 2 and its dealer, the form marks the same player.
    expect(page.locator("#form-title")).to_contain_text("Enter round 2")
    expect(page.locator("#game-head .round-of")).to_have_text("Round 2 of 7")
    dealer = page.locator("#round-form .player:has(.dealer-mark) .player-name bdi").inner_text()
    expect(page.locator("#game-head .dealer")).to_have_text(f"{dealer} deals")
    page.screenshot(path=str(screenshot_dir / "offline-waiting.png"), full_page=True)

    started = time.perf_counter()
    page.reload()  # from the service worker's cache, with the names
    expect(page.locator("#round-form .player-name bdi")).to_have_text(["Ann", "Bo", "Cy"])
    shown = time.perf_counter() - started
    expect(page.locator("#offline-banner")).to_contain_text("Offline · last updated")
    expect(outbox.locator(".outbox-entry").first).to_contain_text("waiting for signal")
    expect(waiting).to_have_count(1)
    expect(page.locator("#form-title")).to_contain_text("Enter round 2")  # not round 1 again
    assert _rounds(live_server, game) == []
    page.screenshot(path=str(screenshot_dir / "offline-reloaded.png"), full_page=True)

    page.context.set_offline(False)
    back = time.perf_counter()
    expect(outbox.locator(".outbox-entry").first).to_contain_text("saved ✓", timeout=15000)
    saved = time.perf_counter() - back
    page.screenshot(path=str(screenshot_dir / "offline-saved.png"), full_page=True)
    rounds = _rounds(live_server, game)
    assert [r["scores"] for r in rounds] == [{"Ann": 0, "Bo": 25, "Cy": 30}]
    expect(page.locator(".score-table tbody tr")).to_have_count(1, timeout=10000)
    print(f"\ncached game page shown offline in {shown * 1000:.0f} ms; "
          f"saved {saved * 1000:.0f} ms after the signal came back")  # fmt: skip
    assert not [e for e in console_errors if "ERR_INTERNET_DISCONNECTED" not in e]


def test_two_rounds_entered_offline_are_saved_in_order(page: Page, live_server: str) -> None:
    game = _game(live_server)
    _controlled(page, game["edit_url"])
    page.context.set_offline(True)
    _enter(page, 0, {1: 25, 2: 30})
    expect(page.locator("#form-title")).to_contain_text("Enter round 2")
    _enter(page, 1, {0: 10, 2: 5})
    expect(page.locator("#outbox .outbox-entry")).to_have_count(2)
    page.context.set_offline(False)
    expect(page.locator("#outbox .outbox-entry.is-saved")).to_have_count(2, timeout=15000)
    assert [r["scores"] for r in _rounds(live_server, game)] == [
        {"Ann": 0, "Bo": 25, "Cy": 30},
        {"Ann": 10, "Bo": 0, "Cy": 5},
    ]


def test_a_double_tap_and_a_lost_answer_count_once(page: Page, live_server: str) -> None:
    game = _game(live_server)
    _controlled(page, game["edit_url"])
    lost: list[str] = []

    def lose_the_first_answer(route: Route) -> None:
        if route.request.method == "POST" and not lost:
            route.fetch()  # the server gets it and saves it...
            lost.append(route.request.url)
            route.abort("connectionreset")  # ...but its answer never arrives
            return
        route.continue_()

    page.context.route("**/rounds", lose_the_first_answer)
    page.locator("label.out-toggle:has(#went-out-0)").tap()
    page.locator("#seat-1-penalty").fill("25")
    page.locator("#seat-2-penalty").fill("30")
    save = page.get_by_role("button", name="Save the round")
    save.tap()
    save.tap()  # a double tap
    # The lost answer's entry is sent again with its key (shown "saved ✓" a moment, then gone):
    # the table shows round 1 once, and nothing waits or is refused.
    expect(page.locator(".score-table tbody tr:not(.is-waiting)")).to_have_count(1, timeout=20000)
    expect(page.locator("#outbox .outbox-entry:not(.is-saved)")).to_have_count(0, timeout=20000)
    expect(page.locator("#form-title")).to_contain_text("Enter round 2")
    assert lost
    assert len(_rounds(live_server, game)) == 1


def test_two_phones_offline_one_saved_the_other_kept_to_fix(
    browser: Browser, live_server: str, screenshot_dir: Path
) -> None:
    game = _game(live_server)
    phones: list[BrowserContext] = [browser.new_context(**PHONE) for _ in range(2)]
    ann, bo = (context.new_page() for context in phones)
    for page in (ann, bo):
        _controlled(page, game["edit_url"])
        page.context.set_offline(True)
    _enter(ann, 0, {1: 25, 2: 30})
    _enter(bo, 1, {0: 15, 2: 30})
    ann.context.set_offline(False)
    expect(ann.locator("#outbox .outbox-entry").first).to_contain_text("saved ✓", timeout=15000)
    bo.context.set_offline(False)
    entry = bo.locator("#outbox .outbox-entry").first
    expect(entry).to_contain_text("refused", timeout=15000)
    expect(entry).to_contain_text("Round 1 was saved on another phone")
    expect(entry).to_contain_text("Bo out")  # what Bo's phone typed is kept
    bo.screenshot(path=str(screenshot_dir / "offline-conflict.png"), full_page=True)
    assert [r["scores"] for r in _rounds(live_server, game)] == [{"Ann": 0, "Bo": 25, "Cy": 30}]
    # "Fix it": the round screen's conflict view, the entry kept beside the saved one.
    entry.get_by_role("button", name="Fix it").tap()
    conflict = bo.locator("#conflict")
    expect(conflict).to_be_visible()
    expect(conflict.locator("tbody tr").nth(1)).to_contain_text("Bo")
    expect(conflict.locator("tbody tr").nth(1).locator("td")).to_have_text(
        ["25", "out (not the same)"]
    )
    expect(bo.locator("#form-title")).to_contain_text("Correct round 1")
    expect(bo.locator("#went-out-1")).to_be_checked()
    bo.get_by_role("button", name="Save mine instead").tap()
    expect(bo.locator("#conflict")).to_have_count(0)
    scores = [r["scores"] for r in _rounds(live_server, game)]
    assert scores == [{"Ann": 15, "Bo": 0, "Cy": 30}]
    for context in phones:
        context.close()


@pytest.mark.parametrize("status", [502, 429])
def test_a_proxy_error_while_online_keeps_the_round_and_saves_it_later(
    page: Page, live_server: str, status: int
) -> None:
    """A 502 (the app restarting behind nginx) or a 429 (a rate limit) is not swapped in over
    what was typed: the round waits in the outbox with its key and is saved once the app
    answers."""
    game = _game(live_server)
    _controlled(page, game["edit_url"])
    failed: list[str] = []

    def restarting(route: Route) -> None:
        if route.request.method == "POST" and not failed:
            failed.append(route.request.url)
            route.fulfill(status=status, content_type="text/html", body=f"<h1>{status}</h1>")
            return
        route.continue_()

    page.context.route("**/rounds", restarting)
    _enter(page, 0, {1: 25, 2: 30})
    entry = page.locator("#outbox .outbox-entry").first
    expect(entry).to_contain_text("Bo 25")
    expect(page.locator("#form-title")).to_contain_text("Enter round 2")
    expect(entry).to_contain_text("saved ✓", timeout=20000)
    assert failed and [r["scores"] for r in _rounds(live_server, game)] == [
        {"Ann": 0, "Bo": 25, "Cy": 30}
    ]


def test_after_a_save_online_the_outbox_still_shows_what_waits(
    page: Page, live_server: str
) -> None:
    """htmx swaps the page's body after a save: the outbox drawn afterwards is the new one."""
    game = _game(live_server)
    _controlled(page, game["edit_url"])
    _enter(page, 0, {1: 25, 2: 30})  # online: saved, the page answers in place
    expect(page.locator("#form-title")).to_contain_text("Enter round 2")
    expect(page.locator(".score-table tbody tr")).to_have_count(1)
    page.context.set_offline(True)
    _enter(page, 1, {0: 10, 2: 5})
    entry = page.locator("#outbox .outbox-entry").first
    expect(entry).to_contain_text("waiting for signal")
    expect(page.locator("#outbox")).to_be_visible()
    page.context.set_offline(False)
    expect(entry).to_contain_text("saved ✓", timeout=15000)
    assert len(_rounds(live_server, game)) == 2


def test_the_referee_says_it_needs_the_server(page: Page, live_server: str) -> None:
    _controlled(page, live_server + "/referee")
    page.context.set_offline(True)
    page.goto(live_server + "/referee?check=meld&cards=7H+8H+9H")
    expect(page.get_by_role("heading", name="No signal")).to_be_visible()
    expect(page.locator("main")).to_contain_text("needs a connection")


# -- a server that goes away mid-save ------------------------------------------------------------


SERVE = """
import sys
from werkzeug.serving import run_simple
from referee.web import create_app
app = create_app({"SECRET_KEY": "offline test", "DATABASE_URL": sys.argv[2]},
                 instance_path=sys.argv[3])
run_simple("127.0.0.1", int(sys.argv[1]), app, threaded=True)
"""


class Server:
    """The app in a process of its own, to stop and start again on the same port and data."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        database = f"sqlite:///{self.folder / 'db.sqlite3'}"
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVE, str(self.port), database, str(self.folder)],
            cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                urllib.request.urlopen(self.url + "/manifest.webmanifest", timeout=1).close()
                return
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path)
    running.start()
    yield running
    running.stop()


def test_a_server_stopped_mid_save_and_restarted_saves_once(page: Page, server: Server) -> None:
    game = _game(server.url)
    _controlled(page, game["edit_url"])

    died: list[bool] = []

    def save_then_die(route: Route) -> None:
        if route.request.method == "POST" and not died:
            died.append(True)
            route.fetch()  # saved...
            server.stop()  # ...and the server is gone before it could answer
            route.abort("connectionreset")
            return
        route.continue_()

    page.context.route("**/rounds", save_then_die)
    _enter(page, 0, {1: 25, 2: 30})
    expect(page.locator("#outbox .outbox-entry").first).to_contain_text("waiting for signal")
    page.context.unroute("**/rounds")
    server.start()
    expect(page.locator("#outbox .outbox-entry").first).to_contain_text("saved ✓", timeout=30000)
    assert len(_rounds(server.url, game)) == 1


# -- offline from the first visit (issue 19), whatever the phone's language (issue 22, item 8) ---


def _first_visit(page: Page, url: str) -> None:
    """One visit, as a new phone makes it: the visit that installs the service worker. The page
    is controlled once the worker has kept it (it claims the page after keeping it)."""
    page.goto(url)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_offline_from_the_first_visit_two_rounds_saved_once_in_order(
    browser: Browser, live_server: str, locale: str, console_errors: list[str]
) -> None:
    """One visit to an edit link on a fresh phone, offline, a round saved (it waits in the
    outbox), the page reloaded (shown, not "never opened"), a second round, online: two rounds
    stored once each, in order. With a phone language set the reload has its styles and
    scripts (static files vary on nothing) and the saves go to the outbox."""
    context = browser.new_context(**PHONE, locale=locale)
    page = context.new_page()
    game = _game(live_server)
    _first_visit(page, game["edit_url"])
    context.set_offline(True)
    _enter(page, 0, {1: 25, 2: 30})
    expect(page.locator("#outbox .outbox-entry").first).to_be_visible()
    page.reload()
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("not opened on this phone")
    expect(page.locator("#round-form .player-name bdi")).to_have_text(PLAYERS)
    # the page has its styles and its scripts from the worker's cache
    assert page.evaluate("getComputedStyle(document.querySelector('.save-bar')).position") == (
        "sticky"
    )
    expect(page.locator("#form-title")).to_contain_text("round 2", ignore_case=True)
    _enter(page, 1, {0: 10, 2: 5})
    expect(page.locator("#outbox .outbox-entry")).to_have_count(2)
    context.set_offline(False)
    expect(page.locator("#outbox .outbox-entry.is-saved")).to_have_count(2, timeout=15000)
    assert [r["scores"] for r in _rounds(live_server, game)] == [
        {"Ann": 0, "Bo": 25, "Cy": 30},
        {"Ann": 10, "Bo": 0, "Cy": 5},
    ]
    context.close()


@pytest.mark.parametrize("where", ["game", "rules", "club"])
def test_the_installing_visit_of_game_rules_and_club_pages_is_kept(
    browser: Browser, live_server: str, where: str
) -> None:
    context = browser.new_context(**PHONE, locale="nl-NL")
    page = context.new_page()
    if where == "game":
        url = _game(live_server)["view_url"]
    elif where == "rules":
        url = live_server + "/rules/shanghai"
    else:
        url = _json(live_server + "/api/v1/clubs", {"name": "Donderdag"})["edit_url"]
    _first_visit(page, url)
    heading = page.locator("h1").first.inner_text()
    context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("h1").first).to_have_text(heading)
    context.close()
