"""What the bench scripts share: the databases to run on, a timer, a served app.

Imported by the scripts in this folder (each puts the project's root on `sys.path` first).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from flask import Flask
from werkzeug.serving import make_server

DATABASES = ("sqlite", "postgresql", "both")

# The benches measure the app, not its rate limits: every app they build, and every gunicorn
# they start, runs without them (unless the environment says otherwise).
os.environ.setdefault("RATELIMIT_ENABLED", "0")


def databases(wanted: str, prefix: str) -> Iterator[tuple[str, str]]:
    """(label, SQLAlchemy URL) of each database `wanted` names: SQLite in a temporary folder;
    PostgreSQL at RUMMY_BENCH_DATABASE_URL, else a throwaway cluster (tests/conftest.py),
    stopped once the caller's turn on it is over."""
    if wanted in ("sqlite", "both"):
        folder = Path(tempfile.mkdtemp(prefix=prefix))
        yield "sqlite", f"sqlite:///{folder / 'bench.sqlite3'}"
    if wanted in ("postgresql", "both"):
        url = os.environ.get("RUMMY_BENCH_DATABASE_URL")
        cluster = None
        if not url:
            # conftest imports the tests' own modules (processes, ...) by their bare names
            sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
            from tests.conftest import ThrowawayPostgres

            cluster = ThrowawayPostgres()
            url = cluster.start()
        try:
            yield "postgresql", url
        finally:
            if cluster is not None:
                cluster.stop()


def timed(call: Callable[[], object], repeat: int) -> tuple[float, float]:
    """The medians of `repeat` calls after two warm-up calls, in milliseconds: the time they
    took, and the processor time this process spent on them.

    The CPU time holds steady on a machine busy with other work, where the wall time does not:
    compare runs by it (a database server's own time is not in it).
    """
    for _ in range(2):
        call()
    wall, cpu = [], []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        call()
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def serve(app: Flask) -> str:
    """`app` served from a thread of this process (for a browser to open); its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.port}"
