"""Club benchmark: a club with 500 finished games, on SQLite and PostgreSQL.

    .venv/bin/python bench/clubs.py                 # both databases, 500 games (a few minutes)
    .venv/bin/python bench/clubs.py --db sqlite --games 1000 --import-games 1100

A club of eight members plays 500 finished games (four players a table, contract and rummy),
each on its own evening, brought in as a club file (one transaction). Printed, in milliseconds
(wall and this process's CPU):
- the import of that file, and of a file of `--import-games` games (about 1 MB for 1,100);
- the club page (view and edit link, all games and one variant), the stats and club as JSON:
  medians of warm requests through Flask's test client (goal: the club page at most 50 ms);
- what a write now costs, the club's keeping up included (records, ratings and board are
  kept in the game's own transaction, so a read never works anything out): a round of a game
  in no club (the floor), a round of the club's newest game (one record again), a correction
  of the oldest game that changes its winner (the ratings of all games again), and a new game
  started in the club; then the club page's first view after them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402

from bench.common import DATABASES, databases, timed  # noqa: E402
from referee.engine.game import Game, SeatResult, Step  # noqa: E402
from referee.web import create_app  # noqa: E402
from referee.web.clubs import service  # noqa: E402
from referee.web.games import queries as game_queries  # noqa: E402
from referee.web.games import service as games_service  # noqa: E402
from referee.web.games.exports import results_json  # noqa: E402

MEMBERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
GOAL_MS = 50.0


def once(call: Callable[[], object]) -> tuple[float, float]:
    """One call's wall and CPU time, in milliseconds."""
    started, started_cpu = time.perf_counter(), time.process_time()
    call()
    return (time.perf_counter() - started) * 1000, (time.process_time() - started_cpu) * 1000


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


def club_file(
    games: int,
    seed: int = 13,
    *,
    per_day: int = 1,
    first_night: datetime = datetime(2024, 1, 4, 20, tzinfo=UTC),
) -> dict[str, Any]:
    """A club file (what a club page saves) of `games` finished games, `per_day` an evening
    (40 minutes apart) from `first_night` on."""
    rng = random.Random(seed)
    entries = []
    for number in range(games):
        _start, steps = finished_game(rng, "rummy" if number % 5 == 2 else "contract")
        game = steps[-1].game
        day, nth = divmod(number, per_day)
        entries.append(
            {
                "date": (first_night + timedelta(days=day, minutes=40 * nth)).isoformat(),
                "variant": game.variant.id,
                "house_rules": {},
                "players": list(game.players),
                "first_dealer": game.players[game.first_dealer],
                "lang": "en",
                "rounds": [
                    {"round": r.number, "results": results_json(game, r)} for r in game.rounds
                ],
            }
        )
    return {
        "format": "rummy-referee-club",
        "version": 1,
        "name": "Bench club",
        "lang": "en",
        "members": MEMBERS,
        "games": entries,
    }


def get(client: FlaskClient, url: str) -> Callable[[], int]:
    def call() -> int:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        return len(response.data)

    return call


def imported(app: Flask, data: dict[str, Any]) -> tuple[service.Founded, float, float]:
    with app.test_request_context("/"):
        started, started_cpu = time.perf_counter(), time.process_time()
        founded = service.import_club(data, lang="en")
        wall = (time.perf_counter() - started) * 1000
        cpu = (time.process_time() - started_cpu) * 1000
    assert isinstance(founded, service.Founded), founded
    return founded, wall, cpu


def toggling(app: Flask, game_id: str, number: int, a: Any, b: Any) -> Callable[[], None]:
    """A write that corrects round `number` to `a`, then back to `b`, and so on."""
    turn = [0]

    def call() -> None:
        turn[0] += 1
        with app.test_request_context("/"):
            typed = games_service.Typed.read(a if turn[0] % 2 else b)
            done = games_service.correct_round(game_id, number, typed, version=None)
        assert isinstance(done, games_service.Saved), done

    return call


def swapped_winner(game: Game) -> list[SeatResult]:
    """The last round with the one who went out holding the whole deal and the next seat out:
    the winner changes, so every later game's ratings do."""
    current = game.rounds[-1].results
    out = next(seat for seat, r in enumerate(current) if r.went_out)
    held = 60 if game.variant.id == "contract" else 0
    swapped = [
        SeatResult(penalty=held + 10) if seat == out else r for seat, r in enumerate(current)
    ]
    swapped[(out + 1) % 4] = SeatResult(went_out=True)
    return swapped


def plus_five(game: Game) -> list[SeatResult]:
    """Round 1 with five more points for everyone who did not go out."""
    return [
        r if r.went_out else SeatResult(penalty=(r.penalty or 0) + 5)
        for r in game.rounds[0].results
    ]


def writes(app: Flask, club_id: str, repeat: int) -> list[tuple[str, float, float]]:
    with app.test_request_context("/"):
        ledger = service._ledger_now(club_id)
        oldest = game_queries.load(ledger.games[0].game_id)
        newest = game_queries.load(ledger.games[-1].game_id)
        first, steps = finished_game(random.Random(5), "contract")
        created = games_service.create(first, lang="en", steps=steps)
        assert isinstance(created, games_service.Created), created
        lone = created.stored
        assert oldest and newest
    cases = [
        ("round of a game in no club (the floor)", lone.id, lone.game, 1, plus_five),
        ("round of the club's newest game (1 record)", newest.id, newest.game, 1, plus_five),
    ]
    out = []
    for label, game_id, game, number, changed in cases:
        call = toggling(app, game_id, number, changed(game), list(game.rounds[number - 1].results))
        out.append((label, *timed(call, repeat)))
    last = len(oldest.game.rounds)
    swap = toggling(
        app, oldest.id, last, swapped_winner(oldest.game), list(oldest.game.rounds[-1].results)
    )
    out.append(("correcting the oldest game (re-rate all)", *timed(swap, max(4, repeat // 4))))
    started = [0]

    def start() -> None:
        started[0] += 1
        with app.test_request_context("/"):
            filed = service.start_game(club_id, variant="contract", players=MEMBERS[:4], lang="en")
        assert isinstance(filed, service.GameFiled), filed

    out.append(("a new game started in the club", *timed(start, max(4, repeat // 4))))
    return out


def run(name: str, url: str, games: int, import_games: int, repeat: int) -> bool:
    folder = Path(tempfile.mkdtemp(prefix="rummy-bench-clubs-"))
    app = create_app(
        {"SECRET_KEY": "bench", "DATABASE_URL": url, "WTF_CSRF_ENABLED": False},
        instance_path=str(folder / "instance"),
    )
    client = app.test_client()
    data = club_file(games)
    founded, wall, cpu = imported(app, data)
    club_id, token = founded.club.id, founded.token
    print(f"\n{name}: {games} finished games")
    print(f"{'':46} {'p50 ms':>9} {'cpu ms':>9} {'bytes':>8}")
    size = len(json.dumps(data))
    print(f"{f'import of the club file ({games} games)':46} {wall:>9.1f} {cpu:>9.1f} {size:>8}")
    if import_games:
        big = club_file(import_games, seed=17)
        _big, big_wall, big_cpu = imported(app, big)
        label = f"import of {import_games} games"
        print(f"{label:46} {big_wall:>9.1f} {big_cpu:>9.1f} {len(json.dumps(big)):>8}")
    view = f"/clubs/{club_id}"
    rows: list[tuple[str, Callable[[], int]]] = [
        ("club page (view link)", get(client, view)),
        ("club page (edit link)", get(client, f"/clubs/{club_id}/edit/{token}")),
        ("club page, one variant", get(client, f"{view}?variant=contract")),
        ("stats as JSON", get(client, f"/api/v1/clubs/{club_id}/stats")),
        ("club as JSON", get(client, f"/api/v1/clubs/{club_id}")),
    ]
    results = {}
    for label, call in rows:
        size = call()
        results[label], page_cpu = timed(call, repeat)
        print(f"{label:46} {results[label]:>9.2f} {page_cpu:>9.2f} {size:>8}")
    print("writes, with what the club keeps of them:")
    for label, write_wall, write_cpu in writes(app, club_id, repeat):
        print(f"{label:46} {write_wall:>9.1f} {write_cpu:>9.1f}")
    first_wall, first_cpu = once(get(client, view))
    print(f"{'club page, first view after the writes':46} {first_wall:>9.1f} {first_cpu:>9.1f}")
    page = results["club page (view link)"]
    verdict = "ok" if page <= GOAL_MS else "OVER"
    print(f"club page p50 {page:.1f} ms (goal: at most {GOAL_MS:.0f} ms): {verdict}")
    return page <= GOAL_MS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=DATABASES, default="both")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--import-games", type=int, default=1100)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    ok = True
    for label, url in databases(args.db, "rummy-bench-db-"):
        ok &= run(label, url, args.games, args.import_games, args.repeat)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
