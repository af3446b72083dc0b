"""What one request body can cost: every JSON call of /api/v1 sent the largest body of each
shape it reads (tests/largest_bodies.py: each field filled to the 64 KB a body may have, each
list at its bound), and the processor time each took. Prints each call's worst body and its
time, and how many bodies were sent; exits 1 if any took over the limit.

    .venv/bin/python bench/request_cost.py               # SQLite
    .venv/bin/python bench/request_cost.py --db both     # and PostgreSQL (its server's own
                                                         # time is not counted)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import referee.web.events.api  # noqa: E402,F401  (the calls document themselves on import)
from bench.common import DATABASES, databases  # noqa: E402
from referee.web import create_app  # noqa: E402
from referee.web.plumbing.database import database  # noqa: E402
from tests.largest_bodies import Measured, sweep  # noqa: E402

#: What one body may cost (SPEC "Limits"), in milliseconds of CPU.
LIMIT_MS = 100.0


def run(url: str) -> list[Measured]:
    app = create_app(
        {"SECRET_KEY": "bench", "DATABASE_URL": url, "RATELIMIT_ENABLED": False},
        instance_path=tempfile.mkdtemp(prefix="request-cost-"),
    )
    try:
        return sweep(app.test_client(), again_over=LIMIT_MS)
    finally:
        database(app).dispose()


def report(label: str, found: list[Measured]) -> bool:
    worst: dict[str, Measured] = {}
    for item in found:
        if item.operation not in worst or item.cpu_ms > worst[item.operation].cpu_ms:
            worst[item.operation] = item
    print(f"\n{label}: {len(found)} bodies, worst per call")
    print(f"{'call':58} {'CPU ms':>7} {'status':>6} {'bytes':>6}  worst body")
    for name, item in worst.items():
        print(f"{name:58} {item.cpu_ms:7.1f} {item.status:6} {item.size:6}  {item.shape}")
    over = [item for item in found if item.cpu_ms > LIMIT_MS]
    for item in over:
        print(f"OVER {LIMIT_MS:.0f} ms: {item.operation} {item.shape}: {item.cpu_ms:.0f} ms")
    return not over


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=DATABASES, default="sqlite")
    args = parser.parse_args()
    fine = True
    for label, url in databases(args.db, "request-cost-"):
        fine = report(label, run(url)) and fine
    return 0 if fine else 1


if __name__ == "__main__":
    sys.exit(main())
