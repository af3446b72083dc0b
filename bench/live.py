"""The live push, measured (issue 18): prints figures, asserts nothing.

    .venv/bin/python bench/live.py [--saves 50] [--minutes 5] [--streams 1000] [--workers 4]

1. Save -> shown on another phone: two Chromium pages on one game (the app served by a
   threaded server on SQLite), a round saved on one, the time until the other's score table
   shows it; p50 and p95 over `--saves` saves (goal: p95 <= 300 ms; polling: up to 2.5 s).
2. An idle table: 4 watching pages for `--minutes`, the requests they make (goal: 4 streams,
   0 polls).
3. Open streams one gunicorn box holds: `--streams` idle streams on PostgreSQL (a throwaway
   cluster, as the tests make) with `--workers` gunicorn workers: memory per stream (the
   workers' RSS before and after) and one save fanned out to all (time until the last hears).
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

PLAYERS = ["Ann", "Bo", "Cy"]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]  # fmt: skip


def _json(url: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(url, data, headers), timeout=30) as r:
        return json.loads(r.read())


def _round(number: int) -> dict[str, Any]:
    return {
        "round": number,
        "results": [{"player": "Ann", "went_out": True}, {"player": "Bo", "penalty": 25},
                    {"player": "Cy", "penalty": 30}],
    }  # fmt: skip


def _serve_sqlite(tmp: Path) -> str:
    from werkzeug.serving import make_server

    from referee.web import create_app

    app = create_app(
        {"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{tmp / 'live.sqlite3'}",
         "RATELIMIT_ENABLED": False},
        instance_path=str(tmp / "instance"),
    )  # fmt: skip
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.port}"


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def save_to_shown(server: str, saves: int) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        timings: list[float] = []
        watcher = browser.new_page()
        game: dict[str, Any] = {}
        for done in range(saves):
            number = done % 5 + 1  # five rounds a game, then a new game (and page)
            if number == 1:
                game = _json(server + "/api/v1/games", {"variant": "contract", "players": PLAYERS})
                watcher.goto(f"{server}/games/{game['id']}")
                watcher.wait_for_timeout(500)
            started = time.perf_counter()
            _json(f"{server}/api/v1/games/{game['id']}/rounds", _round(number), game["edit_token"])
            try:
                watcher.wait_for_function(
                    "n => document.querySelectorAll('.score-table tbody tr').length >= n",
                    arg=number, timeout=10000, polling="raf",
                )  # fmt: skip
            except Exception:
                print(f"save {done + 1} (round {number}) not shown in 10 s", file=sys.stderr)
                raise
            timings.append((time.perf_counter() - started) * 1000)
        browser.close()
    print(f"save -> shown on another page, {saves} saves (API save on one side, Chromium page "
          f"on the other): p50 {statistics.median(timings):.0f} ms, "
          f"p95 {_percentile(timings, 0.95):.0f} ms, max {max(timings):.0f} ms")  # fmt: skip


def idle_table(server: str, minutes: float) -> None:
    from playwright.sync_api import sync_playwright

    game = _json(server + "/api/v1/games", {"variant": "contract", "players": PLAYERS})
    asked: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        pages = [browser.new_context().new_page() for _ in range(4)]
        for page in pages:
            page.on("request", lambda request: asked.append(request.url))
            page.goto(f"{server}/games/{game['id']}")
        loaded = len(asked)
        time.sleep(minutes * 60)
        after = asked[loaded:]
        browser.close()
    streams = sum(url.endswith("/stream") for url in asked)
    polls = sum("/live" in url for url in asked)
    print(f"idle table, 4 watchers for {minutes:g} min: {len(after)} requests after the pages "
          f"loaded; {streams} stream opens in all (the stream lives 5 min, then reopens), "
          f"{polls} polls")  # fmt: skip


def _rss_kb(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def _workers(master: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True)
    return [int(pid) for pid in out.stdout.split()]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _open_stream(port: int, path: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n"
                 .encode())  # fmt: skip
    return sock


def many_streams(count: int, workers: int) -> None:
    from conftest import ThrowawayPostgres

    cluster = ThrowawayPostgres()
    url = cluster.start()
    port = _free_port()
    tmp = Path(tempfile.mkdtemp(prefix="rummy-live-bench-"))
    env = {**os.environ, "DATABASE_URL": url, "GUNICORN_BIND": f"127.0.0.1:{port}",
           "GUNICORN_WORKERS": str(workers),
           "SECRET_KEY": "bench", "RUMMY_INSTANCE_PATH": str(tmp), "RATELIMIT_ENABLED": "0",
           "GUNICORN_ACCESS_LOG": "/dev/null"}  # fmt: skip
    log = (tmp / "gunicorn.log").open("wb")
    gunicorn = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "-c", str(ROOT / "deploy/gunicorn.conf.py"), "wsgi:app"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    socks: list[socket.socket] = []
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                game = _json(base + "/api/v1/games", {"variant": "contract", "players": PLAYERS})
                break
            except OSError:
                time.sleep(0.2)
        for _ in range(workers * 3):  # every worker has made its engine and answered
            _json(base + "/healthz")
        pids = _workers(gunicorn.pid)
        time.sleep(1)
        before = _rss_kb(pids)
        selector = selectors.DefaultSelector()
        for _ in range(count):
            sock = _open_stream(port, f"/games/{game['id']}/stream")
            socks.append(sock)
        heard_first = 0
        for sock in socks:  # each hears the version now: every stream is open
            data = b""
            while b"\n\n" not in data.split(b"\r\n\r\n", 1)[-1] or b"id:" not in data:
                data += sock.recv(4096)
            heard_first += 1
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ)
        time.sleep(2)
        after = _rss_kb(pids)
        started = time.perf_counter()
        _json(f"{base}/api/v1/games/{game['id']}/rounds", _round(1), game["edit_token"])
        waiting = set(socks)
        last = started
        while waiting and time.perf_counter() - started < 30:
            for key, _ in selector.select(timeout=1):
                sock = key.fileobj  # type: ignore[assignment]
                chunk = sock.recv(4096)  # type: ignore[attr-defined]
                if b"id: " in chunk and sock in waiting:
                    waiting.discard(sock)  # type: ignore[arg-type]
                    last = time.perf_counter()
        print(f"{count} idle streams on PostgreSQL, gunicorn {workers} workers: "
              f"{heard_first} open; RSS {before / 1024:.0f} MB -> {after / 1024:.0f} MB, "
              f"{(after - before) / count:.0f} KB a stream; one save fanned out to "
              f"{count - len(waiting)} of {count} in {(last - started) * 1000:.0f} ms "
              f"(the last to hear)")  # fmt: skip
    finally:
        for sock in socks:
            sock.close()
        gunicorn.send_signal(signal.SIGTERM)
        gunicorn.wait(timeout=60)
        cluster.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--only", choices=["latency", "idle", "streams"])
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="rummy-live-"))
    if args.only in (None, "latency", "idle"):
        server = _serve_sqlite(tmp)
        if args.only in (None, "latency"):
            save_to_shown(server, args.saves)
        if args.only in (None, "idle"):
            idle_table(server, args.minutes)
    if args.only in (None, "streams"):
        many_streams(args.streams, args.workers)


if __name__ == "__main__":
    main()
