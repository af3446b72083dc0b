"""The live push in real Chromium: two phones on one game, a save on one shown on the other by
its stream (no reload, no polling); where the stream cannot come through the page polls and
is answered 304; a round arriving by stream while a phone has one waiting in its outbox is
refused to be fixed in the conflict view, never overwritten."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from referee.web import create_app
from referee.web.live import live
from referee.web.live.hub import Limits
from referee.web.plumbing.database import database

PLAYERS = ["Ann", "Bo", "Cy"]
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "is_mobile": True}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The conftest's app with the live push's timing of a real server (its stream lives long
    enough for a test)."""
    instance = tmp_path / "instance"
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "live browser",
            "WTF_CSRF_ENABLED": False,
            "DATABASE_URL": f"sqlite:///{instance / 'rummy.sqlite3'}",
            "LIVE_HEARTBEAT_SECONDS": 5,
            "LIVE_LIFETIME_SECONDS": 60,
            "LIVE_RETRY_MS": 500,
        },
        instance_path=str(instance),
    )
    yield app
    database(app).dispose()


def _json(url: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{error.code}: {error.read()!r}") from error


def _game(server: str) -> dict[str, Any]:
    game: dict[str, Any] = _json(
        server + "/api/v1/games", {"variant": "contract", "players": PLAYERS}
    )
    return game


def _save_by_api(server: str, game: dict[str, Any], number: int, bo: int) -> None:
    body = {
        "round": number,
        "results": [
            {"player": "Ann", "went_out": True},
            {"player": "Bo", "penalty": bo},
            {"player": "Cy", "penalty": 30},
        ],
    }
    _json(f"{server}/api/v1/games/{game['id']}/rounds", body, game["edit_token"])


def _enter(page: Page, out: int, points: dict[int, int]) -> None:
    page.locator(f"label.out-toggle:has(#went-out-{out})").click()
    for seat, value in points.items():
        page.locator(f"#seat-{seat}-penalty").fill(str(value))
    page.get_by_role("button", name="Save the round").click()


def _requests(page: Page) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url))
    return seen


def test_a_save_on_one_phone_shows_on_the_other_by_its_stream(
    browser: Browser, live_server: str
) -> None:
    game = _game(live_server)
    phones: list[BrowserContext] = [browser.new_context(**PHONE) for _ in range(2)]
    watcher, scorer = (context.new_page() for context in phones)
    asked = _requests(watcher)
    watcher.goto(f"{live_server}/games/{game['id']}")
    scorer.goto(game["edit_url"])
    expect(watcher.locator("#scores .empty")).to_be_visible()
    watcher.wait_for_timeout(3500)  # longer than a poll's interval: nothing is polled
    assert not [url for url in asked if "/live" in url]
    _enter(scorer, 0, {1: 25, 2: 30})
    expect(watcher.locator(".score-table tbody tr")).to_have_count(1, timeout=5000)
    expect(watcher.locator("#game-head .round-of")).to_contain_text("Round 2")
    streams = [url for url in asked if url.endswith("/stream")]
    polls = [url for url in asked if "/live" in url]
    assert len(streams) == 1 and len(polls) == 1  # the one change, fetched once
    # The scorer's own page follows too, and its form is not called stale by its own save.
    expect(scorer.locator("#form-title")).to_contain_text("Enter round 2")
    scorer.wait_for_timeout(500)
    expect(scorer.locator("#form-moved")).to_be_hidden()
    # A save made elsewhere while the scorer's form is open: the form says the game moved on.
    _save_by_api(live_server, game, 2, 10)
    expect(scorer.locator("#form-moved")).to_be_visible(timeout=5000)
    expect(scorer.locator(".score-table tbody tr")).to_have_count(2)
    for context in phones:
        context.close()


def test_where_no_stream_comes_through_the_page_polls_and_is_answered_304(
    page: Page, live_server: str
) -> None:
    game = _game(live_server)

    def buffered(route: Route) -> None:  # a proxy that answers what is not a stream
        route.fulfill(status=200, content_type="text/html", body="<p>proxy</p>")

    page.route("**/stream", buffered)
    answers: list[int] = []
    page.on(
        "response",
        lambda response: answers.append(response.status) if "/live" in response.url else None,
    )
    page.goto(f"{live_server}/games/{game['id']}")
    page.wait_for_timeout(3500)
    assert answers and set(answers) == {304}
    _save_by_api(live_server, game, 1, 25)
    expect(page.locator(".score-table tbody tr")).to_have_count(1, timeout=8000)
    assert 200 in answers


def test_a_phone_refused_its_stream_polls_instead(page: Page, app: Flask, live_server: str) -> None:
    """Past the streams an address may hold (429, issue 35) the page falls back to its poll."""
    live(app).limits = Limits(per_address=0, most=2000)
    game = _game(live_server)
    answers: list[tuple[str, int]] = []
    page.on("response", lambda response: answers.append((response.url, response.status)))
    page.goto(f"{live_server}/games/{game['id']}")
    page.wait_for_timeout(3500)
    assert [status for url, status in answers if url.endswith("/stream")] == [429]
    assert {status for url, status in answers if "/live" in url} == {304}
    _save_by_api(live_server, game, 1, 25)
    expect(page.locator(".score-table tbody tr")).to_have_count(1, timeout=8000)


def test_a_round_by_stream_while_one_waits_in_the_outbox_opens_the_conflict(
    browser: Browser, live_server: str
) -> None:
    game = _game(live_server)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(game["edit_url"])
    failed: list[str] = []

    def restarting(route: Route) -> None:  # the app restarting behind its proxy
        if route.request.method == "POST":
            failed.append(route.request.url)
            route.fulfill(status=502, content_type="text/html", body="<h1>502</h1>")
            return
        route.continue_()

    context.route("**/rounds", restarting)
    _enter(page, 1, {0: 15, 2: 30})  # this phone: Bo out
    entry = page.locator("#outbox .outbox-entry").first
    expect(entry).to_contain_text("Bo out")
    # Another phone (Ann out) saves first, while this phone's retries still find no server;
    # then the server is back (the outbox's own retry could win the race the other way round).
    _save_by_api(live_server, game, 1, 25)
    context.unroute("**/rounds")
    # The stream brings the other phone's round, and what waited here goes at once: refused.
    expect(page.locator(".score-table tbody tr:not(.is-waiting)")).to_have_count(1, timeout=5000)
    expect(entry).to_contain_text("Round 1 was saved on another phone", timeout=10000)
    rounds = _json(f"{live_server}/api/v1/games/{game['id']}")["rounds"]
    assert [r["scores"] for r in rounds] == [{"Ann": 0, "Bo": 25, "Cy": 30}]
    entry.get_by_role("button", name="Fix it").click()
    conflict = page.locator("#conflict")
    expect(conflict).to_be_visible()
    expect(conflict.locator("tbody tr").nth(1).locator("td")).to_have_text(
        ["25", "out (not the same)"]
    )
    context.close()
