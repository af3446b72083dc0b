"""Club benchmark: the page of a club with 500 finished games, on SQLite and PostgreSQL.

    .venv/bin/python bench/clubs.py                 # both databases, 500 games (about 1 min)
    .venv/bin/python bench/clubs.py --db sqlite --games 1000

A club of eight members plays 500 finished games (four players a table, contract and rummy),
each on its own evening. Printed, in milliseconds (medians of warm requests through Flask's
test client; goal: the club page at most 50 ms):
- the first view after the games were filed: every record summed up and rated once;
- the club page (view and edit link, all games and one variant), the stats and club as JSON;
- the club page after a round of the newest game (one record summed up again) and after a
  correction of the oldest game (the ratings of all 500 worked out again).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from flask.testing import FlaskClient  # noqa: E402

from bench.common import DATABASES, databases, timed  # noqa: E402
from referee.engine.game import Game, SeatResult, Step  # noqa: E402
from referee.web import create_app  # noqa: E402
from referee.web.clubs import store as clubs_store  # noqa: E402
from referee.web.games import queries as game_queries  # noqa: E402
from referee.web.games import service as games_service  # noqa: E402

MEMBERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
GOAL_MS = 50.0


def once(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def finished_game(rng: random.Random, variant: str) -> tuple[Game, list[Step]]:
    """A whole game of four members, its rounds' steps (a winner-collects game to 100)."""
    start = Game.start(variant, rng.sample(MEMBERS, 4))
    game, steps = start, []
    while not game.finished:
        out = rng.randrange(4)
        # contract's round 7 is laid down only by going out: the others hold the whole deal
        held = 60 if variant == "contract" and len(game.rounds) == 6 else 0
        results = [
            SeatResult(went_out=True)
            if seat == out
            else SeatResult(penalty=held + 5 * rng.randint(1, 9))
            for seat in range(4)
        ]
        step = game.enter_round(len(game.rounds) + 1, results)
        steps.append(step)
        game = step.game
    return start, steps


def get(client: FlaskClient, url: str) -> Callable[[], int]:
    def call() -> int:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        return len(response.data)

    return call


def typed(results: Sequence[SeatResult]) -> games_service.Typed:
    return games_service.Typed.read(results)


def corrected(result: object) -> None:
    assert isinstance(result, games_service.Saved), result


def run(name: str, url: str, games: int, repeat: int) -> bool:
    folder = Path(tempfile.mkdtemp(prefix="rummy-bench-clubs-"))
    app = create_app(
        {"SECRET_KEY": "bench", "DATABASE_URL": url, "WTF_CSRF_ENABLED": False},
        instance_path=str(folder / "instance"),
    )
    client = app.test_client()
    rng = random.Random(13)
    started = time.perf_counter()
    with app.test_request_context("/"):
        club, token = clubs_store.create("Bench club", lang="en", members=MEMBERS)
        first_night = datetime(2024, 1, 4, 20, tzinfo=UTC)
        ids = []
        for number in range(games):
            start, steps = finished_game(rng, "rummy" if number % 5 == 2 else "contract")
            created = games_service.create(start, lang="en", steps=steps)
            assert isinstance(created, games_service.Created)
            night = first_night + timedelta(days=number)
            clubs_store.file_game(club.id, created.stored.id, start.players, played_at=night)
            ids.append(created.stored.id)
    filed = time.perf_counter() - started
    view = f"/clubs/{club.id}"
    first = once(get(client, view))
    print(f"\n{name}: {games} finished games filed in {filed:.1f} s")
    rows: list[tuple[str, Callable[[], int]]] = [
        ("club page (view link)", get(client, view)),
        ("club page (edit link)", get(client, f"/clubs/{club.id}/edit/{token}")),
        ("club page, one variant", get(client, f"{view}?variant=contract")),
        ("stats as JSON", get(client, f"/api/v1/clubs/{club.id}/stats")),
        ("club as JSON", get(client, f"/api/v1/clubs/{club.id}")),
    ]
    print(f"{'first view: every record summed up, rated':46} {first:>9.1f} ms")
    print(f"{'':46} {'p50 ms':>9} {'cpu ms':>8} {'bytes':>8}")
    results = {}
    for label, call in rows:
        size = call()
        results[label], cpu = timed(call, repeat)
        print(f"{label:46} {results[label]:>9.2f} {cpu:>8.2f} {size:>8}")
    with app.test_request_context("/"):
        newest = ids[-1]
        stored = game_queries.load(newest)
        assert stored is not None
        # The newest game: round 1 corrected, then the page (one record again, its ratings).
        current = stored.game.rounds[0].results
        moved = tuple(
            r if r.went_out else SeatResult(penalty=(r.penalty or 0) + 5) for r in current
        )
        corrected(games_service.correct_round(newest, 1, typed(moved), version=None))
    one = once(get(client, view))
    with app.test_request_context("/"):
        oldest = game_queries.load(ids[0])
        assert oldest is not None
        current = oldest.game.rounds[-1].results
        out = next(seat for seat, r in enumerate(current) if r.went_out)
        # The winner changes: the one who went out held the whole deal (contract's round 7).
        held = 60 if oldest.game.variant.id == "contract" else 0
        swapped = [
            SeatResult(penalty=held + 10) if seat == out else r for seat, r in enumerate(current)
        ]
        swapped[(out + 1) % 4] = SeatResult(went_out=True)
        last = len(oldest.game.rounds)
        corrected(games_service.correct_round(ids[0], last, typed(swapped), version=None))
    everything = once(get(client, view))
    print(f"{'after a round of the newest game (1 record)':46} {one:>9.1f} ms")
    print(f"{'after correcting the oldest game (re-rate all)':46} {everything:>9.1f} ms")
    page = results["club page (view link)"]
    verdict = "ok" if page <= GOAL_MS else "OVER"
    print(f"club page p50 {page:.1f} ms (goal: at most {GOAL_MS:.0f} ms): {verdict}")
    return page <= GOAL_MS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=DATABASES, default="both")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=40)
    args = parser.parse_args()
    ok = True
    for label, url in databases(args.db, "rummy-bench-db-"):
        ok &= run(label, url, args.games, args.repeat)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
