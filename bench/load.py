"""Many tables entering rounds at once against gunicorn; prints throughput, latency, errors.

    .venv/bin/python bench/load.py                      # SQLite and PostgreSQL, 40 tables
    .venv/bin/python bench/load.py --db sqlite --tables 80 --workers 4

Each simulated table creates a game over the JSON API, enters its 7 rounds (each write carries
the version it saw), and a second phone polls the live partial between rounds. Afterwards every
game is read back and its totals compared with what the table entered.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import DATABASES, databases  # noqa: E402

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Client:
    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None):
        data = None if body is None else json.dumps(body)
        hdrs = {"Content-Type": "application/json", **(headers or {})}
        started = time.perf_counter()
        try:
            self.conn.request(method, path, body=data, headers=hdrs)
            response = self.conn.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            return 599, None, time.perf_counter() - started
        elapsed = time.perf_counter() - started
        parsed = (
            json.loads(payload)
            if payload and response.getheader("Content-Type", "").startswith("application/json")
            else None
        )
        return response.status, parsed, elapsed


def play_table(port: int, seed: int, results: dict[str, Any], lock: threading.Lock) -> None:
    rng = random.Random(seed)
    players = NAMES[: rng.randint(3, 6)]
    client, watcher = Client(port), Client(port)
    latencies: list[float] = []
    errors: list[str] = []
    status, game, took = client.call(
        "POST", "/api/v1/games", {"variant": "contract", "players": players}
    )
    latencies.append(took)
    if status != 201:
        errors.append(f"create {status}")
        with lock:
            results["errors"].extend(errors)
            results["latencies"].extend(latencies)
        return
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    expected = dict.fromkeys(players, 0)
    version = game["version"]
    for number in range(1, 8):
        out = rng.randrange(len(players))
        entries = []
        for seat, name in enumerate(players):
            if seat == out:
                entries.append({"player": name, "went_out": True})
            else:
                points = 5 * rng.randint(1, 30) + (60 if number == 7 else 0)  # the whole deal
                expected[name] += points
                entries.append({"player": name, "penalty": points})
        body = {"round": number, "results": entries, "version": version}
        status, answer, took = client.call("POST", f"/api/v1/games/{game['id']}/rounds", body, auth)
        latencies.append(took)
        if status != 200:
            errors.append(f"round {status}")
            break
        version = answer["version"]
        status, _, took = watcher.call(
            "GET", f"/games/{game['id']}/live?since={version - 1}", headers={"HX-Request": "true"}
        )
        latencies.append(took)
        if status != 200:
            errors.append(f"poll {status}")
    with lock:
        results["errors"].extend(errors)
        results["latencies"].extend(latencies)
        results["games"].append((game["id"], expected))


def start_gunicorn(
    database_url: str, workers: int, instance: Path
) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "bench"}
    log = (instance / "gunicorn.log").open("wb")
    process = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "-w", str(workers), "-b", f"127.0.0.1:{port}",
         "--log-level", "warning", "wsgi:app"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log,
    )  # fmt: skip
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            status, _, _ = Client(port).call("GET", "/api/v1/games/not-a-game-id-xxxxxx")
            if status == 404:
                return process, port
        except OSError:
            pass
        time.sleep(0.2)
    process.kill()
    raise RuntimeError("gunicorn did not answer; see " + str(instance / "gunicorn.log"))


def run(label: str, database_url: str, tables: int, workers: int) -> bool:
    instance = Path(tempfile.mkdtemp(prefix="rummy-bench-"))
    process, port = start_gunicorn(database_url, workers, instance)
    results: dict[str, Any] = {"errors": [], "latencies": [], "games": []}
    lock = threading.Lock()
    try:
        started = time.perf_counter()
        threads = [
            threading.Thread(target=play_table, args=(port, seed, results, lock))
            for seed in range(tables)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - started
        wrong = 0
        reader = Client(port)
        for game_id, expected in results["games"]:
            status, game, _ = reader.call("GET", f"/api/v1/games/{game_id}")
            if status != 200 or game["totals"] != expected or len(game["rounds"]) != 7:
                wrong += 1
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    lat = sorted(results["latencies"])
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    print(
        f"{label:<10} tables={tables} workers={workers} requests={len(lat)} "
        f"throughput={len(lat) / wall:.0f} req/s p50={p50:.1f} ms p99={p99:.1f} ms "
        f"errors={len(results['errors'])} totals_wrong={wrong}/{len(results['games'])}"
    )
    return not results["errors"] and wrong == 0 and len(results["games"]) == tables


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=DATABASES, default="both")
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    ok = True
    for label, url in databases(args.db, "rummy-bench-db-"):
        ok &= run(label, url, args.tables, args.workers)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
