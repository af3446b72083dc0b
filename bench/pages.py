"""Page benchmark: how long the pages people open most take to render, in process, and the
ratios that must hold as games grow.

Plain script, not run in CI: `python bench/pages.py [--database URL]` (about 20 s).
- the edit page of a fresh game, and of a game with 1,000 corrections in its history
  (it reads only the history it shows: the two should be close);
- `/` (start a game) against a game's view page (the start page must not draw every house
  rule's input for every visitor);
- the view page, the polled score table (unchanged: 204) and the game as JSON.
Times are medians of warm requests through Flask's test client, in milliseconds (wall and this
process's CPU; the ratios are of CPU times); sizes are the bytes sent, before compression.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask.testing import FlaskClient

from bench.common import timed
from referee.engine.game import SeatResult
from referee.web import create_app
from referee.web.games import queries, service

OUT = SeatResult(went_out=True)
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def new_game(corrections: int) -> tuple[str, str]:
    """A game three rounds in; then round 2 corrected `corrections` times."""
    started = service.start("contract", PLAYERS, lang="en")
    assert isinstance(started, service.Created)
    game_id = started.stored.id
    for number in range(1, 4):
        results = [OUT, SeatResult(penalty=20), SeatResult(penalty=35), SeatResult(penalty=5)]
        saved(service.enter_round(game_id, number, service.Typed.read(results), version=None))
    for index in range(corrections):
        points = 10 + 5 * (index % 2)  # alternate between 10 and 15
        results = [OUT, SeatResult(penalty=points), SeatResult(penalty=35), SeatResult(penalty=5)]
        saved(service.correct_round(game_id, 2, service.Typed.read(results), version=None))
    return game_id, started.token


def saved(result: object) -> None:
    assert isinstance(result, service.Saved), result


def get(client: FlaskClient, url: str, status: int = 200, **headers: str) -> Callable[[], int]:
    def call() -> int:
        response = client.get(url, headers=headers)
        assert response.status_code == status, (url, response.status_code)
        return len(response.data)

    return call


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="a database URL (default: a new SQLite file)")
    parser.add_argument("--repeat", type=int, default=60)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="rummy-bench-"))
    url = args.database or f"sqlite:///{folder / 'bench.sqlite3'}"
    app = create_app(
        {"SECRET_KEY": "bench", "DATABASE_URL": url, "WTF_CSRF_ENABLED": False},
        instance_path=str(folder / "instance"),
    )
    client = app.test_client()
    with app.test_request_context("/"):
        fresh_id, fresh_token = new_game(0)
        long_id, long_token = new_game(1000)
        history = len(queries.history(long_id))
    print(f"database: {url.split('://')[0]}; the long game has {history} changes\n")

    rows = [
        ("edit page, fresh game", get(client, f"/games/{fresh_id}/edit/{fresh_token}")),
        ("edit page, 1,000 corrections", get(client, f"/games/{long_id}/edit/{long_token}")),
        ("view page", get(client, f"/games/{fresh_id}")),
        ("start page /", get(client, "/")),
        ("polled table, unchanged (204)", get(
            client, f"/games/{fresh_id}/live?since=4", 204, **{"HX-Request": "true"}
        )),
        ("game as JSON (API)", get(client, f"/api/v1/games/{fresh_id}")),
    ]  # fmt: skip
    results = {}
    print(f"{'page':34} {'median ms':>10} {'cpu ms':>8} {'bytes':>8}")
    for name, call in rows:
        size = call()
        wall, results[name] = timed(call, args.repeat)
        print(f"{name:34} {wall:>10.2f} {results[name]:>8.2f} {size:>8}")
    edit_ratio = results["edit page, 1,000 corrections"] / results["edit page, fresh game"]
    start_ratio = results["start page /"] / results["view page"]
    print(f"\nedit page, 1,000 corrections / fresh: {edit_ratio:.2f}x (goal: at most 1.5x)")
    print(f"start page / view page:               {start_ratio:.2f}x (goal: at most 2x)")


if __name__ == "__main__":
    main()
