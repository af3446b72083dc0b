"""The service worker keeps the pages a phone opened, edit pages too, and an edit page's address
holds the game's edit token (issue 23, item 12): kept a few days after it was last opened, not
forever, and forgotten with every page of its game once the server no longer has the game. In
real Chromium, against a real server."""

from __future__ import annotations

import json
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from playwright.sync_api import Page
from sqlalchemy import delete

from referee.web.games.models import games
from referee.web.plumbing.database import database

KEPT = """async () => {
    const cache = await caches.open("pages-v1");
    return (await cache.keys()).map((request) => new URL(request.url).pathname);
}"""
#: The kept copy of `path` as if it had been fetched `days` ago.
AGED = """async ([path, days]) => {
    const cache = await caches.open("pages-v1");
    const then = new Date(Date.now() - days * 864e5).toISOString();
    const html = (await (await cache.match(path)).text())
        .replace(/data-fetched="[^"]+"/, `data-fetched="${then}"`);
    await cache.put(path, new Response(html, {headers: {"Content-Type": "text/html"}}));
}"""


def _game(server: str) -> dict[str, Any]:
    body = json.dumps({"variant": "contract", "players": ["Ann", "Bo", "Cy"]}).encode()
    request = urllib.request.Request(server + "/api/v1/games", data=body,
                                     headers={"Content-Type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as answer:
        game: dict[str, Any] = json.loads(answer.read())
    return game


def _kept(page: Page) -> list[str]:
    kept: list[str] = page.evaluate(KEPT)
    return kept


def _opened(page: Page, path: str, server: str) -> None:
    page.goto(server + path)
    page.wait_for_function(
        "async (path) => !!(await (await caches.open('pages-v1')).match(path))", arg=path
    )


def test_an_edit_page_is_kept_a_few_days_and_goes_with_its_game(
    page: Page, live_server: str, app: Flask
) -> None:
    old, fresh = _game(live_server), _game(live_server)
    old_edit, fresh_edit = (urlsplit(g["edit_url"]).path for g in (old, fresh))
    page.goto(live_server + old_edit)
    page.evaluate("() => navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    for path in (old_edit, fresh_edit, f"/games/{fresh['id']}", f"/games/{old['id']}"):
        _opened(page, path, live_server)

    # Four days on, the old game's edit page goes; its view page (no token) and the other
    # game's edit page (two days old) stay.
    page.evaluate(AGED, [old_edit, 4])
    page.evaluate(AGED, [f"/games/{old['id']}", 4])
    page.evaluate(AGED, [fresh_edit, 2])
    page.evaluate("() => navigator.serviceWorker.controller.postMessage('forget-pages')")
    page.wait_for_function(f"async () => !(await ({KEPT})()).includes({json.dumps(old_edit)})")
    assert {fresh_edit, f"/games/{old['id']}", f"/games/{fresh['id']}"} <= set(_kept(page))

    # The server no longer has the game: opening it online forgets every page of it.
    with database(app).writing() as conn:
        conn.execute(delete(games).where(games.c.id == fresh["id"]))
    page.goto(live_server + fresh_edit)
    gone = json.dumps(f"/games/{fresh['id']}")
    page.wait_for_function(
        f"async () => !(await ({KEPT})()).some((path) => path.startsWith({gone}))"
    )
    assert f"/games/{old['id']}" in _kept(page)
