"""The first rule card each gunicorn worker serves: without the shared cache warmed, and after
`flask --app wsgi pdf warm`. Prints each worker's first-card time.

    .venv/bin/python bench/pdf_workers.py [--workers 4]

Each run starts gunicorn with deploy/gunicorn.conf.py on a fresh instance folder and asks for
as many different cards at once as there are workers, so each worker serves one as its first
(a sync worker takes one request at a time). Before issue 12 every worker built its own first
card (0.6-0.7 s); now a card is built once for all of them, or beforehand by `pdf warm`.
"""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CARDS = [
    "/rules/contract.pdf?lang=en&paper=a4",
    "/rules/shanghai.pdf?lang=de&paper=letter",
    "/rules/rummy.pdf?lang=fr&paper=a4",
    "/rules/short.pdf?lang=es&paper=a4",
    "/rules/zioncheck-nl.pdf?lang=nl&paper=a4",
    "/rules/progressive.pdf?lang=pt&paper=letter",
    "/rules/frustration.pdf?lang=en&paper=letter",
    "/rules/joker-rummy.pdf?lang=de&paper=a4",
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _env(instance: Path, port: int, workers: int) -> dict[str, str]:
    return {
        **os.environ,
        "RUMMY_INSTANCE_PATH": str(instance),
        "DATABASE_URL": f"sqlite:///{instance / 'db.sqlite3'}",
        "SECRET_KEY": "bench",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": str(workers),
        "GUNICORN_ACCESS_LOG": "/dev/null",
    }


def _get(port: int, path: str, out: list[float]) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    connection.request("GET", path, headers={"Host": "localhost"})
    response = connection.getresponse()
    response.read()
    out.append(time.perf_counter() - started)
    assert response.status == 200, (path, response.status)
    connection.close()


def first_cards(instance: Path, workers: int) -> list[float]:
    port = _free_port()
    env = _env(instance, port, workers)
    process = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "-c", str(ROOT / "deploy/gunicorn.conf.py"), "wsgi:app"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(1.0)  # every worker forked and listening
        times: list[float] = []
        threads = [
            threading.Thread(target=_get, args=(port, CARDS[i % len(CARDS)], times))
            for i in range(workers)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return sorted(times)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def warm(instance: Path, workers: int) -> float:
    env = _env(instance, _free_port(), workers)
    started = time.perf_counter()
    subprocess.run(
        [str(ROOT / ".venv/bin/flask"), "--app", "wsgi", "pdf", "warm"],
        cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    return time.perf_counter() - started


def _said(times: list[float]) -> str:
    each = " ".join(f"{t * 1000:.0f}" for t in times)
    return f"median {statistics.median(times) * 1000:.0f} ms (each: {each} ms)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=4)
    workers = parser.parse_args().workers
    cold = Path(tempfile.mkdtemp(prefix="rummy-pdf-cold-"))
    print(f"first card per worker, nothing cached ({workers} workers): "
          f"{_said(first_cards(cold, workers))}")  # fmt: skip
    warmed = Path(tempfile.mkdtemp(prefix="rummy-pdf-warm-"))
    took = warm(warmed, workers)
    print(f"flask pdf warm: {took:.1f} s for every variant x 6 languages x 2 papers")
    print(f"first card per worker, after pdf warm ({workers} workers): "
          f"{_said(first_cards(warmed, workers))}")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
