"""Edit tokens never reach a cache or a cookie in clear (docs/ARCHITECTURE.md, Conventions):
a phone that holds a game's, a club's and a club night's edit links walks every page it can
reach, and every answer that shows one of the tokens is `Cache-Control: no-store`; the session
cookie keeps each token sealed (issue 34: the club's lay in clear in the cookie, and `/clubs`,
a club's sheet and a club game's page showed its edit link to any cache)."""

from __future__ import annotations

import base64
import re
import zlib
from collections import deque
from html import unescape

from flask.testing import FlaskClient

#: Links on a page: every address an element names, at the site's top.
_ADDRESS = re.compile(r'\s(?:href|src|action|hx-get|data-[a-z-]+)="(/[^"]*)"')
#: Not walked: switches that only set a cookie and send back, streams that stay open, PDFs
#: (built from the same data as their page, and slow), and the service worker's files.
_SKIPPED = re.compile(r"/(?:lang|theme|text)/|/stream\b|\.pdf\b|/sw\.js|/static/")
#: Enough for every kind of page a phone with these links reaches.
MOST_PAGES = 200


def _session_text(client: FlaskClient) -> str:
    cookie = client.get_cookie("session")
    assert cookie is not None
    value = cookie.value
    compressed = value.startswith(".")
    data = value.lstrip(".").split(".")[0]
    raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    return (zlib.decompress(raw) if compressed else raw).decode()


def _holder(client: FlaskClient) -> tuple[list[str], list[str]]:
    """A phone that founded a club, started a club game and a game of its own from the pages,
    and opened a club night's host page: (the tokens it holds, where to start walking)."""
    founded = client.post("/clubs", data={"name": "Thursdays", "lang": "en", "create": "1"})
    club_id, club_token = founded.headers["Location"].split("/")[-3::2]
    data = {"variant": "contract", "lang": "en", "start": "1", "first_dealer": "0"}
    names = {f"new_names-{i}": name for i, name in enumerate(["Ann", "Bo", "Cy"])}
    started = client.post(f"/clubs/{club_id}/edit/{club_token}/games", data={**data, **names})
    assert started.status_code == 303, started.text[:500]
    club_game = started.headers["Location"]
    own = client.post("/", data={**data, "players-0": "Di", "players-1": "Ed", "players-2": "Flo"})
    assert own.status_code == 303
    auth = {"Authorization": f"Bearer {club_token}"}
    evening = client.post(f"/api/v1/clubs/{club_id}/events", headers=auth,
                          json={"name": "Night", "variant": "contract"}).get_json()  # fmt: skip
    client.post(f"/api/v1/clubs/{club_id}/events/{evening['id']}/players", headers=auth,
                json={"names": ["Ann", "Bo", "Cy", "Gus", "Hal", "Ida"]})  # fmt: skip
    client.post(f"/api/v1/clubs/{club_id}/events/{evening['id']}/series", headers=auth,
                json={"series": 1})  # fmt: skip
    host = f"/clubs/{club_id}/events/{evening['id']}/edit/{club_token}"
    tokens = [club_token, club_game.rsplit("/", 1)[-1], own.headers["Location"].rsplit("/", 1)[-1]]
    club_game_view = club_game.split("/edit/")[0]
    starts = ["/", "/clubs", f"/clubs/{club_id}", f"/clubs/{club_id}/sheet", club_game_view,
              club_game, host, f"/clubs/{club_id}/events/{evening['id']}"]  # fmt: skip
    for start in starts:  # the phone has opened each (its recent lists remember them)
        client.get(start)
    return tokens, starts


def test_every_page_that_shows_an_edit_token_is_never_stored_by_a_cache(
    client: FlaskClient,
) -> None:
    tokens, starts = _holder(client)
    queue, seen = deque(starts), set(starts)
    showing: dict[str, str] = {}  # path -> its Cache-Control, for every page showing a token
    while queue and len(seen) <= MOST_PAGES:
        path = queue.popleft()
        answer = client.get(path)
        readable = (answer.mimetype or "").startswith(("text/", "application/j", "image/svg"))
        text = answer.get_data(as_text=True) if readable else ""
        if any(token in text or token in answer.headers.get("Location", "") for token in tokens):
            showing[path] = answer.headers.get("Cache-Control", "")
        for found in _ADDRESS.findall(text):
            link = unescape(found).split("#", 1)[0]
            if link not in seen and not _SKIPPED.search(link):
                seen.add(link)
                queue.append(link)
    stored = {path: value for path, value in showing.items() if "no-store" not in value}
    assert not stored, stored
    # The pages the attack found, each showing the club's edit link here, are among them.
    club_id = starts[2].rsplit("/", 1)[-1]
    for path in ("/clubs", f"/clubs/{club_id}/sheet", starts[4]):
        assert path in showing, path
    assert len(showing) >= 10 and len(seen) >= 30


def test_the_session_cookie_keeps_the_clubs_token_sealed(client: FlaskClient) -> None:
    tokens, _ = _holder(client)
    kept = _session_text(client)
    assert "clubs" in kept and "recent" in kept
    assert not [token for token in tokens if token in kept]


def test_an_older_session_with_a_clubs_token_in_clear_is_sealed_on_first_read(
    client: FlaskClient,
) -> None:
    club = client.post("/api/v1/clubs", json={"name": "Thursdays"}).get_json()
    with client.session_transaction() as session:
        session["recent_clubs"] = [[club["id"], club["edit_token"]]]
    page = client.get("/clubs")
    assert f"/clubs/{club['id']}/edit/{club['edit_token']}" in page.text  # still resumed
    assert page.headers["Cache-Control"] == "no-store"
    assert club["edit_token"] not in _session_text(client)
