"""Season benchmark: a season that counts a club's ordinary games, on SQLite and PostgreSQL.

    .venv/bin/python bench/seasons.py                  # both databases, 300 games, 3 a day
    .venv/bin/python bench/seasons.py --db sqlite --games 360 --per-day 3

A club of eight members plays `--games` finished games (every fifth a rummy game), `--per-day`
on each day (brought in as a club file, one transaction), and a season takes in every day of
them with the club's games counted: `games / per-day` columns (at most the 120 a season
counts), each day's games scored as a club night's tables. Printed, in milliseconds (wall and
this process's CPU), medians of warm calls: the table worked out (the store's read of the games
and the engine's sum), the season's page, its JSON, CSV and PDF (a cached PDF and one drawn
past the cache), through Flask's test client. The table is worked out whenever it is read
(nothing kept): these are the figures of every read.

Goal: the season's page at most 100 ms.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.clubs import club_file, get, imported  # noqa: E402
from bench.common import DATABASES, databases, timed  # noqa: E402
from referee.web import create_app  # noqa: E402
from referee.web.seasons import printing, service  # noqa: E402

GOAL_MS = 100.0


def run(name: str, url: str, games: int, per_day: int, repeat: int) -> bool:
    folder = Path(tempfile.mkdtemp(prefix="rummy-bench-seasons-"))
    app = create_app(
        {"SECRET_KEY": "bench", "DATABASE_URL": url, "WTF_CSRF_ENABLED": False},
        instance_path=str(folder / "instance"),
    )
    client = app.test_client()
    first = datetime(2026, 1, 1, 18, tzinfo=UTC)
    founded, _wall, _cpu = imported(app, club_file(games, per_day=per_day, first_night=first))
    club_id, token = founded.club.id, founded.token
    days = -(-games // per_day)
    body = {"name": "Bench season", "starts": "2026-01-01",
            "ends": (datetime(2026, 1, 1) + timedelta(days=days - 1)).date().isoformat(),
            "rule": "best", "best": max(1, days // 2), "club_games": True}  # fmt: skip
    made = client.post(f"/api/v1/clubs/{club_id}/seasons", json=body,
                       headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert made.status_code == 201, made.get_json()
    season_id = made.get_json()["id"]
    base = f"/clubs/{club_id}/seasons/{season_id}"
    with app.app_context():
        stored = service.load_in(club_id, season_id)
    assert stored is not None

    def table() -> int:
        with app.app_context():
            return len(service.table_of(stored).table.evenings)

    def pdf_drawn() -> int:
        """The table worked out and drawn, past the PDF cache (what its first request costs)."""
        with app.test_request_context("/"):
            drawn = printing.render(service.table_of(stored), "Bench club", "de", "a4")
        return len(drawn.body)

    print(f"\n{name}: {games} finished games, {per_day} a day: {table()} columns")
    print(f"{'':40} {'p50 ms':>9} {'cpu ms':>9} {'bytes':>8}")
    rows: list[tuple[str, Callable[[], int]]] = [
        ("the table worked out (service)", table),
        ("season page (view link)", get(client, base)),
        ("season as JSON (API)", get(client, f"/api/v1/clubs/{club_id}/seasons/{season_id}")),
        ("season as CSV", get(client, f"{base}.csv")),
        ("season PDF (cached)", get(client, f"{base}.pdf")),
        ("season PDF (drawn, no cache)", pdf_drawn),
    ]
    results = {}
    for label, call in rows:
        size = call()
        results[label], cpu = timed(call, repeat)
        shown = "" if label.startswith("the table") else f"{size:>8}"
        print(f"{label:40} {results[label]:>9.2f} {cpu:>9.2f} {shown}")
    page = results["season page (view link)"]
    verdict = "ok" if page <= GOAL_MS else "OVER"
    print(f"season page p50 {page:.1f} ms (goal: at most {GOAL_MS:.0f} ms): {verdict}")
    return page <= GOAL_MS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=DATABASES, default="both")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--per-day", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    ok = True
    for label, url in databases(args.db, "rummy-bench-db-"):
        ok &= run(label, url, args.games, args.per_day, args.repeat)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
