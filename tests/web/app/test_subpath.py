"""Served under a sub-path (`https://host/rummy/`): behind a proxy that takes /rummy off the
path and names it in X-Forwarded-Prefix (PROXY_FIX=1), every link of every page, every
redirect, the QR codes, the links the API answers, the manifest, the service worker and the
OpenAPI document carry the prefix. (tests/browser/test_subpath_browser.py: the same in Chromium
through nginx.)"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.web import create_app
from referee.web.plumbing.database import database
from referee.web.plumbing.qr import qr_response

PREFIX = "/rummy"
#: Attributes whose value may be an address in the app.
_ADDRESS = re.compile(
    r'\s(href|src|action|formaction|hx-(?:get|post|put|delete|patch)|data-[a-z-]+)="(/[^"]*)"'
)
#: Followed by the crawl: pages, not files or switches.
_NOT_PAGES = re.compile(r"/(?:lang|theme|text)/|\.(?:pdf|csv|json|svg|png|css|js|webmanifest)\b")


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[Flask, FlaskClient]]:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "sub-path",
            "WTF_CSRF_ENABLED": False,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'rummy.sqlite3'}",
            "PROXY_FIX": 1,
        },
        instance_path=str(tmp_path),
    )
    client = app.test_client()
    # What nginx-rummy-referee-subpath.conf sends with every request.
    client.environ_base["HTTP_X_FORWARDED_PREFIX"] = PREFIX
    yield app, client
    database(app).dispose()


def _addresses(html: str, attribute: str | None = None) -> list[str]:
    """The addresses in the page (only those of `attribute`, if named)."""
    return [
        address.replace("&amp;", "&")
        for name, address in _ADDRESS.findall(html)
        if attribute is None or name == attribute
    ]


def _game_and_club(client: FlaskClient) -> tuple[dict[str, Any], dict[str, Any]]:
    game = client.post(
        "/api/v1/games", json={"variant": "contract", "players": ["Ann", "Bo", "Cy"]}
    ).get_json()
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    results = [{"player": "Ann", "went_out": True}, {"player": "Bo", "penalty": 20},
               {"player": "Cy", "penalty": 35}]  # fmt: skip
    assert client.post(f"/api/v1/games/{game['id']}/rounds", json={"round": 1, "results": results},
                       headers=auth).status_code == 200  # fmt: skip
    club = client.post("/api/v1/clubs", json={"name": "Thursdays"}).get_json()
    return game, club


def test_every_link_of_every_page_carries_the_prefix(proxied: tuple[Flask, FlaskClient]) -> None:
    """A crawl from the start page, the API's docs and a game's and a club's two links: every
    address on every page is under /rummy/, and each page it leads to answers."""
    _, client = proxied
    game, club = _game_and_club(client)
    links = [game["view_url"], game["edit_url"], club["view_url"], club["edit_url"]]
    todo = [f"{PREFIX}/", f"{PREFIX}/api/v1/docs", *(urlsplit(link).path for link in links)]
    seen: set[str] = set()
    while todo and len(seen) < 80:
        address = todo.pop()
        path = urlsplit(address).path
        if path in seen:
            continue
        seen.add(path)
        assert path.startswith(f"{PREFIX}/"), path
        answer = client.get(path.removeprefix(PREFIX), query_string=urlsplit(address).query)
        assert answer.status_code == 200, (address, answer.status_code)
        if answer.mimetype != "text/html":
            continue
        html = answer.get_data(as_text=True)
        for found in _addresses(html):
            assert found.startswith(f"{PREFIX}/"), (path, found)
        todo += [link for link in _addresses(html, "href") if not _NOT_PAGES.search(link)]
    # The crawl reached the pages of every blueprint.
    for page in ("/referee", "/rules", "/clubs", "/api/v1/docs", f"/games/{game['id']}"):
        assert PREFIX + page in seen, page


def test_redirects_and_the_api_s_links_carry_the_prefix(proxied: tuple[Flask, FlaskClient]) -> None:
    _, client = proxied
    form = {"variant": "contract", "first_dealer": "0", "lang": "en", "start": "1"}
    form |= {f"players-{seat}": name for seat, name in enumerate(["Ann", "Bo", "Cy"])}
    started = client.post("/", data=form)
    assert started.status_code == 303
    assert re.fullmatch(rf"{PREFIX}/games/[^/]+/edit/[^/]+", started.headers["Location"])

    made = client.post("/api/v1/games", json={"variant": "contract", "players": ["A", "B", "C"]})
    game = made.get_json()
    assert made.headers["Location"] == f"{PREFIX}/api/v1/games/{game['id']}"
    assert game["view_url"] == f"http://localhost{PREFIX}/games/{game['id']}"
    assert game["edit_url"].startswith(f"http://localhost{PREFIX}/games/{game['id']}/edit/")
    club = client.post("/api/v1/clubs", json={"name": "Fridays"})
    assert club.headers["Location"].startswith(f"{PREFIX}/api/v1/clubs/")

    # The switches come back to the page they were asked from, or to the app's start page.
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    switch = next(a for a in _addresses(page) if "/lang/de" in a)
    back = client.get(switch.removeprefix(PREFIX))
    assert back.headers["Location"] == f"{PREFIX}/games/{game['id']}"
    assert client.get("/theme/dark").headers["Location"] == f"{PREFIX}/"
    assert client.get("/lang/fr").headers["Location"] == f"{PREFIX}/"


def test_the_qr_codes_hold_the_prefixed_links(proxied: tuple[Flask, FlaskClient]) -> None:
    app, client = proxied
    game, club = _game_and_club(client)
    with app.test_request_context():
        expected = {
            f"/games/{game['id']}/qr.svg": qr_response(game["view_url"]).get_data(),
            f"/clubs/{club['id']}/qr.svg": qr_response(club["view_url"]).get_data(),
        }
    assert PREFIX in game["view_url"] and PREFIX in club["view_url"]
    for path, svg in expected.items():
        assert client.get(path).get_data() == svg, path
        assert b'xmlns="http://www.w3.org/2000/svg"' in svg  # an image a browser draws


def test_the_manifest_service_worker_and_openapi_know_the_prefix(
    proxied: tuple[Flask, FlaskClient],
) -> None:
    _, client = proxied
    manifest = client.get("/manifest.webmanifest").get_json()
    assert manifest["scope"] == f"{PREFIX}/" and manifest["start_url"] == f"{PREFIX}/"
    assert all(icon["src"].startswith(f"{PREFIX}/static/") for icon in manifest["icons"])

    worker = client.get("/sw.js").get_data(as_text=True)
    assert 'var ROOT = "/rummy";' in worker
    shell = re.search(r"var SHELL = (\[.*?\]);", worker)
    assert shell and all(path.startswith(f'"{PREFIX}/') for path in shell[1][1:-1].split(", "))
    page = client.get("/").get_data(as_text=True)
    assert f'data-service-worker="{PREFIX}/sw.js"' in page

    document = client.get("/api/v1/openapi.json").get_json()
    assert document["servers"] == [{"url": PREFIX}]
    docs = client.get("/api/v1/docs").get_data(as_text=True)
    assert f"<code>POST {PREFIX}/api/v1/games</code>" in docs


def test_a_form_sent_again_after_its_token_expired_goes_to_the_prefixed_address(
    tmp_path: Path,
) -> None:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "csrf", "PROXY_FIX": 1,
         "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"},
        instance_path=str(tmp_path),
    )  # fmt: skip
    try:
        client = app.test_client()
        client.environ_base["HTTP_X_FORWARDED_PREFIX"] = PREFIX
        # A token of the page drawn before this phone's session was lost: offered again.
        drawn = app.test_client().get("/clubs", headers={"X-Forwarded-Prefix": PREFIX}).text
        found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', drawn)
        assert found is not None
        answer = client.post("/clubs", data={"name": "Saturdays", "csrf_token": found.group(1)},
                             headers={"Origin": "http://localhost"})  # fmt: skip
        assert answer.status_code == 400
        assert f'action="{PREFIX}/clubs"' in answer.get_data(as_text=True)
    finally:
        database(app).dispose()


def test_at_the_top_nothing_changes(client: FlaskClient) -> None:
    """No prefix: the same app at the site's top (no ProxyFix, or no header)."""
    assert client.get("/manifest.webmanifest").get_json()["scope"] == "/"
    assert 'var ROOT = "";' in client.get("/sw.js").get_data(as_text=True)
    assert client.get("/api/v1/openapi.json").get_json()["servers"] == [{"url": "/"}]
    assert 'data-service-worker="/sw.js"' in client.get("/").get_data(as_text=True)
