"""The live push (issue 18): a game's and a club's stream, on SQLite in one process and on
PostgreSQL across apps sharing a database (LISTEN/NOTIFY), Last-Event-ID, heartbeats, the
bounded lifetime, and the fallback poll answered 304 before anything is drawn."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import re
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from club_fixture import new_club
from conftest import throwaway_pg_database
from flask import Flask, template_rendered
from flask.testing import FlaskClient
from sqlalchemy import text

from referee.web import create_app
from referee.web.live import live
from referee.web.live.brokers import CHANNEL
from referee.web.live.hub import RESYNC, Hub
from referee.web.plumbing.database import after_commit, database

FAST = {"LIVE_HEARTBEAT_SECONDS": 0.2, "LIVE_LIFETIME_SECONDS": 4.0, "LIVE_RETRY_MS": 500}


def _app(url: str, instance: Path, **config: Any) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "live",
            "WTF_CSRF_ENABLED": False,
            "DATABASE_URL": url,
            **FAST,
            **config,
        },
        instance_path=str(instance),
    )


@pytest.fixture
def fast_app(tmp_path: Path) -> Iterator[Flask]:
    app = _app(f"sqlite:///{tmp_path / 'live.sqlite3'}", tmp_path / "instance")
    yield app
    database(app).dispose()


def _game(client: FlaskClient) -> dict[str, Any]:
    answer = client.post(
        "/api/v1/games", json={"variant": "contract", "players": ["Ann", "Bo", "Cy"]}
    )
    assert answer.status_code == 201
    game: dict[str, Any] = answer.get_json()
    return game


def _save_round(client: FlaskClient, game: dict[str, Any], number: int) -> int:
    body = {
        "round": number,
        "results": [
            {"player": "Ann", "went_out": True},
            {"player": "Bo", "penalty": 25},
            {"player": "Cy", "penalty": 40},
        ],
    }
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json=body,
        headers={"Authorization": f"Bearer {game['edit_token']}"},
    )
    assert answer.status_code == 200, answer.get_json()
    version: int = answer.get_json()["version"]
    return version


class Reader:
    """A stream read in a thread: its chunks, as they come, in a queue."""

    def __init__(self, client: FlaskClient, url: str, **headers: str) -> None:
        self.response = client.get(url, headers=headers)
        self.chunks: queue.Queue[str | None] = queue.Queue()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for chunk in self.response.response:
                self.chunks.put(chunk.decode() if isinstance(chunk, bytes) else chunk)
        finally:
            self.chunks.put(None)

    def next_version(self, timeout: float = 5.0) -> int:
        """The next event's id, skipping heartbeats."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            chunk = self.chunks.get(timeout=left)
            assert chunk is not None, "the stream ended"
            found = re.search(r"^id: (\d+)$", chunk, re.MULTILINE)
            if found:
                return int(found.group(1))
        raise AssertionError("no event in time")

    def rest(self, timeout: float = 10.0) -> list[str]:
        """Everything until the stream ends."""
        out = []
        while (chunk := self.chunks.get(timeout=timeout)) is not None:
            out.append(chunk)
        return out


def test_a_save_on_sqlite_reaches_an_open_stream(fast_app: Flask) -> None:
    client = fast_app.test_client()
    game = _game(client)
    stream = Reader(fast_app.test_client(), f"/games/{game['id']}/stream")
    assert stream.response.mimetype == "text/event-stream"
    assert stream.response.headers["X-Accel-Buffering"] == "no"
    assert stream.response.headers["Cache-Control"] == "no-store"
    assert stream.next_version() == game["version"]  # the version now, at once
    saved = _save_round(client, game, 1)
    assert stream.next_version(timeout=2.0) == saved
    assert client.get("/healthz").get_json()["live"]["streams"] == 1


def test_the_first_chunk_sets_retry(fast_app: Flask) -> None:
    client = fast_app.test_client()
    game = _game(client)
    stream = Reader(client, f"/games/{game['id']}/stream")
    first = stream.chunks.get(timeout=5)
    assert first is not None and first.startswith("retry: 500\n")
    assert f"id: {game['version']}\ndata: {game['version']}\n\n" in first


def test_a_reconnect_with_last_event_id_gets_what_it_missed(fast_app: Flask) -> None:
    client = fast_app.test_client()
    game = _game(client)
    missed = _save_round(client, game, 1)
    stream = Reader(client, f"/games/{game['id']}/stream", **{"Last-Event-ID": str(missed - 1)})
    assert stream.next_version(timeout=1.0) == missed
    # A reconnect that missed nothing is told nothing until something changes.
    quiet = Reader(client, f"/games/{game['id']}/stream", **{"Last-Event-ID": str(missed)})
    first = quiet.chunks.get(timeout=5)
    assert first is not None and "id:" not in first and ": up to date" in first
    saved = _save_round(client, game, 2)
    assert quiet.next_version() == saved


def test_heartbeats_and_a_bounded_lifetime(tmp_path: Path) -> None:
    app = _app(
        f"sqlite:///{tmp_path / 'l.sqlite3'}",
        tmp_path / "i",
        LIVE_HEARTBEAT_SECONDS=0.1,
        LIVE_LIFETIME_SECONDS=0.6,
    )
    client = app.test_client()
    game = _game(client)
    started = time.monotonic()
    chunks = Reader(client, f"/games/{game['id']}/stream").rest()
    took = time.monotonic() - started
    assert 0.5 < took < 3.0  # the server ends it
    assert sum(chunk == ": heartbeat\n\n" for chunk in chunks) >= 3
    # The stream's place in the hub is given back.
    assert client.get("/healthz").get_json()["live"]["streams"] == 0


def test_a_stream_of_no_game_is_404(fast_app: Flask) -> None:
    client = fast_app.test_client()
    assert client.get("/games/x/stream").status_code == 404
    assert client.get(f"/games/{'a' * 22}/stream").status_code == 404
    assert client.get(f"/clubs/{'a' * 22}/stream").status_code == 404


def test_a_write_rolled_back_tells_nothing(fast_app: Flask) -> None:
    told: list[str] = []
    with fast_app.app_context():
        with contextlib.suppress(RuntimeError), database().writing() as conn:
            after_commit(conn, lambda: told.append("rolled back"))
            raise RuntimeError
        with database().writing() as conn:
            after_commit(conn, lambda: told.append("committed"))
            conn.execute(text("SELECT 1"))
        with database().writing() as conn:
            conn.execute(text("SELECT 1"))  # the same pooled connection holds no old hook
    assert told == ["committed"]


def test_a_club_stream_hears_its_games_rounds(fast_app: Flask) -> None:
    client = fast_app.test_client()
    club = new_club(client)
    stream = Reader(client, f"/clubs/{club['id']}/stream")
    before = stream.next_version()
    created = client.post(
        "/api/v1/games",
        json={"variant": "contract", "players": ["Ann", "Bo", "Cy"], "club": club["id"]},
        headers={"Authorization": f"Bearer {club['edit_token']}"},
    )
    assert created.status_code == 201
    filed = stream.next_version(timeout=2.0)
    assert filed > before
    _save_round(client, created.get_json(), 1)
    assert stream.next_version(timeout=2.0) > filed
    page = client.get(f"/clubs/{club['id']}")
    shown = int(re.search(rb'id="club-board"[^>]*data-version="(\d+)"', page.data).group(1))  # type: ignore[union-attr]
    assert shown > filed
    assert b'data-live-stream="/clubs/' in page.data


def test_the_hub_keeps_the_newest_version_and_resyncs() -> None:
    hub = Hub()
    subscription = hub.subscribe("game:x")
    hub.tell("game:x", 3)
    hub.tell("game:x", 2)  # late and older: the newest stays
    hub.tell("game:y", 9)
    assert subscription.wait(0.01) == 3
    assert subscription.wait(0.01) is None
    hub.resync()
    assert subscription.wait(0.01) == RESYNC
    subscription.close()
    subscription.close()
    assert hub.count() == 0


# -- the fallback poll ---------------------------------------------------------------------


def test_the_fallback_poll_is_answered_304_before_anything_is_drawn(fast_app: Flask) -> None:
    client = fast_app.test_client()
    game = _game(client)
    page = client.get(f"/games/{game['id']}")
    etag = re.search(rb'data-etag="([^"]+)"', page.data).group(1).decode()  # type: ignore[union-attr]
    assert b'data-live-stream="/games/' in page.data and b"every " not in page.data
    rendered: list[str] = []

    def count(sender: Flask, template: Any, **_: Any) -> None:
        rendered.append(template.name)

    poll = f"/games/{game['id']}/live?since={game['version']}"
    headers = {"HX-Request": "true", "If-None-Match": f'"{etag}"'}
    with template_rendered.connected_to(count, fast_app):
        for _ in range(3):
            assert client.get(poll, headers=headers).status_code == 304
        assert rendered == []
        _save_round(client, game, 1)
        changed = client.get(poll, headers=headers)
        assert changed.status_code == 200 and b"score-table" in changed.data
        assert "games/_live.html" in rendered


# -- PostgreSQL: a save in one app reaches a stream held by another ------------------------


@pytest.fixture
def shared_pg(pg_url: str) -> Iterator[str]:
    with throwaway_pg_database(pg_url, "live") as url:
        yield url


def test_on_postgresql_a_save_in_one_worker_reaches_a_stream_in_another(
    shared_pg: str, tmp_path: Path
) -> None:
    writer = _app(shared_pg, tmp_path / "writer")
    watcher = _app(shared_pg, tmp_path / "watcher")
    try:
        game = _game(writer.test_client())
        stream = Reader(watcher.test_client(), f"/games/{game['id']}/stream")
        assert stream.next_version() == game["version"]
        broker: Any = live(watcher).broker
        assert broker.listening.wait(5.0)
        saved = _save_round(writer.test_client(), game, 1)
        assert stream.next_version(timeout=3.0) == saved
        health = watcher.test_client().get("/healthz").get_json()["live"]
        assert health == {
            "broker": "postgresql",
            "listening": True,
            "streams": 1,
            "limits": {"per_address": 60, "per_process": 2000},
            "waiting": "thread",  # the test client is a WSGI server: no event loop
        }
        # Told in the write's transaction: a write rolled back is never heard.
        with (
            writer.app_context(),
            contextlib.suppress(RuntimeError),
            database().writing() as conn,
        ):
            live().broker.publish(conn, f"game:{game['id']}", saved + 5)
            raise RuntimeError
        # Whatever else is said on the channel (by hand in psql, say) leaves the listener alive.
        with writer.app_context(), database().writing() as conn:
            for payload in (f"game:{game['id']} ¹", "noise", f"game:{game['id']} {'9' * 40}"):
                conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": payload})
        saved = _save_round(writer.test_client(), game, 2)
        assert stream.next_version(timeout=3.0) == saved
        stream.rest()
    finally:
        database(writer).dispose()
        database(watcher).dispose()


def test_drain_ends_every_stream_of_the_process_at_once(fast_app: Flask) -> None:
    from referee.web.live.hub import drain

    client = fast_app.test_client()
    game = _game(client)
    stream = Reader(client, f"/games/{game['id']}/stream")
    stream.next_version()
    started = time.monotonic()
    drain()
    stream.rest(timeout=3.0)
    assert time.monotonic() - started < 1.0  # not its 4 s lifetime


# -- limits: so many streams an address, so many a process (issue 35) ---------------------


def test_past_its_limits_a_stream_is_refused_with_retry_after(tmp_path: Path) -> None:
    """Under any WSGI server too: 429 past the address's limit, 503 past the process's; a page
    refused its stream polls (app.js: an EventSource answered other than 200 is closed)."""
    app = _app(
        f"sqlite:///{tmp_path / 'l.sqlite3'}",
        tmp_path / "i",
        LIVE_STREAMS_PER_ADDRESS=2,
        LIVE_STREAMS_MAX=3,
    )
    client = app.test_client()
    game = _game(client)
    url = f"/games/{game['id']}/stream"
    held = [Reader(client, url) for _ in range(2)]
    refused = client.get(url)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "30"
    assert refused.headers["Cache-Control"] == "no-store"
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    held.append(Reader(other, url))
    assert held[-1].response.status_code == 200
    other.environ_base["REMOTE_ADDR"] = "192.0.2.8"
    full = other.get(url, headers={"Accept": "application/json"})
    assert full.status_code == 503 and full.headers["Retry-After"] == "30"
    assert full.get_json()["error"]["message"]  # the app's own answer, in its language
    health = client.get("/healthz").get_json()["live"]
    assert health["streams"] == 3 and health["limits"] == {"per_address": 2, "per_process": 3}
    assert client.get(f"/games/{'a' * 22}/stream").status_code == 503  # before it is looked up
    live(app).broker.hub.close_all()  # type: ignore[attr-defined]
    for reader in held:
        reader.rest(timeout=3.0)
    assert client.get("/healthz").get_json()["live"]["streams"] == 0
    database(app).dispose()


def test_a_subscription_wakes_an_event_loop_from_any_thread() -> None:
    """A stream on the loop waits with no thread held; a save in a thread (SQLite's commit, the
    LISTEN thread) wakes it, and so does closing it (hub.drain)."""
    hub = Hub()

    async def scenario() -> list[int | None]:
        subscription = hub.subscribe("game:x")
        seen = [await subscription.next(0.01)]  # nothing told: None after the timeout
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, lambda: threading.Thread(target=hub.tell, args=("game:x", 7)).start())
        started = loop.time()
        seen.append(await subscription.next(5.0))
        assert loop.time() - started < 1.0
        loop.call_later(0.05, lambda: threading.Thread(target=subscription.close).start())
        seen.append(await subscription.next(5.0))
        assert subscription.closed and loop.time() - started < 2.0
        return seen

    # A loop of its own, in a thread of its own: another test's (Playwright's) may be running
    # in this one.
    with ThreadPoolExecutor(max_workers=1) as pool:
        assert pool.submit(lambda: asyncio.run(scenario())).result() == [None, 7, None]
    assert hub.count() == 0
