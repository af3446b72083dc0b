"""The data folder of the previous release, for the upgrade tests: what a club's server held
before this version was started on it (tests/web/backup/test_upgrade.py on a checkout,
tests/ops/test_image.py on the image with it as /data).

`data/release-0005.sql` is that release's SQLite database as SQL text (`sqlite3 .dump`: it can
be read in a review and diffs as text), at schema revision 0005, the newest of main when it was
made: a game alone, a club of four games, and a club night with its first series drawn and a
round played at one table. `data/release-0005.json` holds their ids and what the release
answered about them (`facts`). To make them again on a release's checkout:

    .venv/bin/python tests/release_data.py          # writes both files in tests/data/
"""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
SQL = DATA / "release-0005.sql"
FACTS = DATA / "release-0005.json"
REVISION = "0005"

Get = Callable[[str], Any]


def head_revision() -> str:
    """The newest schema revision of this version (the one an upgrade ends at)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from referee.web.plumbing.database import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


def revision_of(database: Path) -> str | None:
    """The schema revision of the SQLite file at `database`."""
    from sqlalchemy import create_engine

    from referee.web.plumbing.database import schema_revision

    engine = create_engine(f"sqlite:///{database}")
    try:
        with engine.connect() as conn:
            return schema_revision(conn)
    finally:
        engine.dispose()


def load_into(database: Path) -> None:
    """The release's database as an SQLite file at `database`."""
    with sqlite3.connect(database) as connection:
        connection.executescript(SQL.read_text(encoding="utf-8"))
    connection.close()


def facts(get: Get, ids: dict[str, list[str]]) -> dict[str, Any]:
    """What the app answers about every game, club and evening named in `ids` (as the JSON
    API's GETs), in the words that must outlive an upgrade: players, every round's scores,
    members, the evening's tables and standings."""
    games = {}
    for game_id in ids["games"]:
        game = get(f"/api/v1/games/{game_id}")
        games[game_id] = {
            "variant": game["variant"], "players": game["players"],
            "finished": game["finished"], "version": game["version"],
            "scores": [round_["scores"] for round_ in game["rounds"]],
        }  # fmt: skip
    clubs = {}
    for club_id in ids["clubs"]:
        club = get(f"/api/v1/clubs/{club_id}")
        clubs[club_id] = {
            "name": club["name"], "members": club["members"],
            "games": sorted(game["id"] for game in club["games"]),
        }  # fmt: skip
    evenings = {}
    for path in ids["events"]:
        evening = get(f"/api/v1/clubs/{path}")
        standings = get(f"/api/v1/clubs/{path}/standings")
        evenings[path] = {
            "name": evening["name"], "date": evening["date"],
            # The fields the release answered with (later releases may add their own).
            "players": [{key: player[key] for key in ("name", "joined", "left")}
                        for player in evening["players"]],
            "tables": [[table["game"], table["seats"]] for series in evening["series"]
                       for table in series["tables"]],
            "standings": [[row["name"], row["points"]] for row in standings["rows"]],
        }  # fmt: skip
    return {"games": games, "clubs": clubs, "events": evenings}


def _make(folder: Path) -> dict[str, list[str]]:
    """Play the release's data into the app whose data folder is `folder`; the ids made."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from club_fixture import FIXTURE, new_club, play_in_club, results_json

    from referee.web import create_app
    from referee.web.plumbing.database import database

    app = create_app({"TESTING": True, "SECRET_KEY": "release data"}, instance_path=str(folder))
    client = app.test_client()
    players = ["Zoë", "Jürgen", "Ana"]
    alone = client.post("/api/v1/games", json={"variant": "shanghai", "players": players})
    alone = alone.get_json()
    results = results_json(alone["players"], 1, {0: 25, 2: 40})
    client.post(f"/api/v1/games/{alone['id']}/rounds", json={"round": 1, "results": results},
                headers={"Authorization": f"Bearer {alone['edit_token']}"})  # fmt: skip
    club = new_club(client)
    games = [play_in_club(client, club, *played)["id"] for played in FIXTURE]
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    evening = client.post(f"/api/v1/clubs/{club['id']}/events", headers=auth, json={
        "name": "Club night", "date": "2026-11-27", "variant": "contract", "series": 2,
        "series_rounds": 1, "seed": 36, "later_draws": "standings",
    }).get_json()  # fmt: skip
    base = f"/api/v1/clubs/{club['id']}/events/{evening['id']}"
    names = ["Ann", "Bo", "Cy", "Di", "Eli", "Fay", "Gus", "Hal"]
    client.post(f"{base}/players", json={"names": names}, headers=auth)
    table = client.post(f"{base}/series", json={"series": 1}, headers=auth).get_json()
    table = table["series"][0]["tables"][0]
    token = table["edit_url"].rstrip("/").rsplit("/", 1)[-1]
    body = {"round": 1, "results": results_json(table["seats"], 0, {1: 10, 2: 20, 3: 30})}
    client.post(f"/api/v1/games/{table['game']}/rounds", json=body,
                headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    database(app).dispose()
    events = [f"{club['id']}/events/{evening['id']}"]
    return {"games": [alone["id"], *games, table["game"]], "clubs": [club["id"]], "events": events}


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from referee.web import create_app
    from referee.web.plumbing.database import database

    with tempfile.TemporaryDirectory() as made:
        folder = Path(made)
        ids = _make(folder)
        with sqlite3.connect(folder / "rummy.sqlite3") as connection:
            dump = "\n".join(connection.iterdump()) + "\n"
        connection.close()
        app = create_app({"TESTING": True, "SECRET_KEY": "x"}, instance_path=str(folder))
        said = facts(lambda path: app.test_client().get(path).get_json(), ids)
        database(app).dispose()
    DATA.mkdir(exist_ok=True)
    SQL.write_text(dump, encoding="utf-8")
    recorded = {"revision": REVISION, "ids": ids, "facts": said}
    FACTS.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
