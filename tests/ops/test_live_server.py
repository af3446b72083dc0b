"""The live push as deployed (issue 35): gunicorn with deploy/gunicorn.conf.py, whose workers
hold open streams on an event loop (live/worker.py, front.py) and run the app in threads.

Past the per-address limit a stream is refused 429 with Retry-After while /healthz and a round
save still answer at once; a save made in a thread wakes the streams waiting on the loop (in
this worker on SQLite, in every worker on PostgreSQL); a client that goes away gives its place
back at once; a server told to stop ends its streams instead of waiting out their lifetime."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from processes import free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Ann", "Bo", "Cy"]


@contextlib.contextmanager
def _gunicorn(base: Path, url: str, **env: str) -> Iterator[int]:
    """The deployment's gunicorn on a free port (as `rummy-referee serve` runs it)."""
    port = free_port()
    log = base / "gunicorn.log"
    environ = {
        **os.environ,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "RUMMY_INSTANCE_PATH": str(base / "instance"),
        "DATABASE_URL": url,
        "SECRET_KEY": "live server test",
        "RATELIMIT_ENABLED": "0",
        **env,
    }
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(ROOT / ".venv/bin/gunicorn"), "-c", str(ROOT / "deploy/gunicorn.conf.py"),
             "referee.web:create_app()"],
            cwd=ROOT, env=environ, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        wait_for(port, process, log)
        yield port
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _ask(port: int, method: str, path: str, body: Any = None, token: str = "") -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Host": "localhost", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(
        method, path, body=None if body is None else json.dumps(body), headers=headers
    )
    answer = connection.getresponse()
    data = answer.read()
    connection.close()
    return answer.status, json.loads(data) if data.startswith(b"{") else data


def _timed(
    port: int, method: str, path: str, body: Any = None, token: str = ""
) -> tuple[float, int, Any]:
    started = time.monotonic()
    status, answer = _ask(port, method, path, body, token)
    return time.monotonic() - started, status, answer


def _round(number: int) -> dict[str, Any]:
    return {"round": number, "results": [{"player": "Ann", "went_out": True},
                                         {"player": "Bo", "penalty": 25},
                                         {"player": "Cy", "penalty": 30}]}  # fmt: skip


class Stream:
    """A stream read from a raw socket (from `source`, a loopback address of its own)."""

    def __init__(self, port: int, game_id: str, source: str = "127.0.0.1") -> None:
        self.sock = socket.create_connection(
            ("127.0.0.1", port), timeout=5, source_address=(source, 0)
        )
        self.sock.sendall(
            f"GET /games/{game_id}/stream HTTP/1.1\r\nHost: localhost\r\n\r\n".encode()
        )
        self.data = b""
        while b"\r\n\r\n" not in self.data:
            self.data += self.sock.recv(4096)
        head = self.data.split(b"\r\n\r\n")[0].decode("latin-1").lower()
        self.status = int(head.split()[1])
        self.headers = dict(line.split(": ", 1) for line in head.split("\r\n")[1:])

    def heard(self, version: int, timeout: float = 3.0) -> bool:
        """Whether an event with `version` comes within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while f"id: {version}\n".encode() not in self.data:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(4096)
            except TimeoutError:
                return False
            if not chunk:
                return False
            self.data += chunk
        return True

    def close(self) -> None:
        self.sock.close()


def test_past_the_per_address_limit_a_stream_is_429_and_the_app_answers_at_once(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'rummy.sqlite3'}"
    with _gunicorn(tmp_path, url, LIVE_STREAMS_PER_ADDRESS="3") as port:
        status, game = _ask(
            port, "POST", "/api/v1/games", {"variant": "contract", "players": PLAYERS}
        )
        assert status == 201
        streams = [Stream(port, game["id"]) for _ in range(5)]
        try:
            assert [s.status for s in streams] == [200, 200, 200, 429, 429]
            assert all(s.headers["retry-after"] == "30" for s in streams[3:])
            assert all(s.heard(game["version"]) for s in streams[:3])  # the version now
            took, status, health = _timed(port, "GET", "/healthz")
            assert status == 200 and took < 1.0
            assert health["live"]["streams"] == 3
            assert health["live"]["limits"] == {"per_address": 3, "per_process": 2000}
            assert health["live"]["waiting"] == "event loop"
            path = f"/api/v1/games/{game['id']}/rounds"
            took, status, saved = _timed(port, "POST", path, _round(1), game["edit_token"])
            assert status == 200 and took < 1.0
            # Saved in one of the app's threads, heard by every stream waiting on the loop.
            assert all(s.heard(saved["version"], timeout=2.0) for s in streams[:3])
            # Another address has its own allowance.
            other = Stream(port, game["id"], source="127.0.0.2")
            streams.append(other)
            assert other.status == 200
            # A phone that goes away gives its place back at once, not at its next heartbeat.
            streams[0].close()
            deadline = time.monotonic() + 2
            while _ask(port, "GET", "/healthz")[1]["live"]["streams"] != 3:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            again = Stream(port, game["id"])
            streams.append(again)
            assert again.status == 200
        finally:
            for stream in streams:
                stream.close()


def test_a_save_reaches_the_streams_of_every_worker(database_url: str, tmp_path: Path) -> None:
    """On PostgreSQL two workers (each LISTENs); on SQLite one."""
    workers = "2" if database_url.startswith("postgresql") else "1"
    with _gunicorn(tmp_path, database_url, GUNICORN_WORKERS=workers) as port:
        _, game = _ask(port, "POST", "/api/v1/games", {"variant": "contract", "players": PLAYERS})
        streams = [Stream(port, game["id"]) for _ in range(12)]
        assert all(s.status == 200 and s.heard(game["version"]) for s in streams)
        time.sleep(0.5)  # each worker's LISTEN connection is up (it opens with its first stream)
        path = f"/api/v1/games/{game['id']}/rounds"
        _, _, saved = _timed(port, "POST", path, _round(1), game["edit_token"])
        assert all(s.heard(saved["version"]) for s in streams)
    for stream in streams:
        stream.close()


def test_a_server_told_to_stop_ends_its_streams_at_once(tmp_path: Path) -> None:
    """SIGTERM with streams open: the worker ends them and stops in seconds, not after its
    30 s graceful timeout (each browser opens its stream again on the server that follows)."""
    url = f"sqlite:///{tmp_path / 'rummy.sqlite3'}"
    with _gunicorn(tmp_path, url) as port:
        _, game = _ask(port, "POST", "/api/v1/games", {"variant": "contract", "players": PLAYERS})
        streams = [Stream(port, game["id"]) for _ in range(3)]
        assert all(s.heard(game["version"]) for s in streams)
        started = time.monotonic()
    # _gunicorn sent SIGTERM and waited: the streams ended, then the workers and the master.
    assert time.monotonic() - started < 10
    for stream in streams:
        stream.sock.settimeout(1)
        with contextlib.suppress(OSError):
            while stream.sock.recv(4096):
                pass
        stream.close()
