"""`rummy-referee backup FILE` / `restore FILE`: every game with its history and token hashes,
as one JSON document; a restore into an empty database (SQLite or PostgreSQL, from either)
gives back the same games, ids, versions, histories and totals, and old edit links still edit."""

from __future__ import annotations

import io
import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from conftest import new_pg_database
from flask import Flask
from sqlalchemy.engine import make_url

from referee.cli import main
from referee.web import create_app
from referee.web.backup.archive import BackupError, restore
from referee.web.games import queries
from referee.web.games.values import SeatResultJSON, data
from referee.web.plumbing.database import database


def _play(client: Any) -> list[dict[str, Any]]:
    """Three games: one finished with a correction and an undo, one started, one in rummy."""
    made = []
    for variant, players in (
        ("contract", ["Ann", "Bo", "Cy"]),
        ("shanghai", ["Dee", "Eli", "Fay", "Gus"]),
        ("rummy", ["Hal", "Ivy"]),
    ):
        made.append(client.post("/api/v1/games", json={"variant": variant, "players": players}))
    games = [answer.get_json() for answer in made]
    first = games[0]
    auth = {"Authorization": f"Bearer {first['edit_token']}"}
    url = f"/api/v1/games/{first['id']}"
    whole_deal = "2C 2D 2H 2S 2C 2D 2H 2S 3C 3D 3H 3S"  # round 7: every card dealt, 60
    for number in range(1, 8):
        results = [
            {"player": "Ann", "went_out": True},
            {"player": "Bo", "penalty": 5 * number if number < 7 else 70},
            {"player": "Cy", "cards": "KS 2C" if number < 7 else whole_deal},
        ]
        assert client.post(f"{url}/rounds", json={"round": number, "results": results},
                           headers=auth).status_code == 200  # fmt: skip
    fixed = [{"player": "Ann", "penalty": 10}, {"player": "Bo", "went_out": True},
             {"player": "Cy", "penalty": 30}]  # fmt: skip
    assert client.put(f"{url}/rounds/3", json={"results": fixed}, headers=auth).status_code == 200
    assert client.post(f"{url}/undo", headers=auth).status_code == 200
    second = games[1]
    client.post(
        f"/api/v1/games/{second['id']}/rounds",
        json={"round": 1, "results": [{"player": name, "penalty": 10} for name in ("Dee", "Eli")]
              + [{"player": "Fay", "went_out": True}, {"player": "Gus", "penalty": 20}]},
        headers={"Authorization": f"Bearer {second['edit_token']}"},
    )  # fmt: skip
    return games


def _rows(tables: dict[str, Any], name: str) -> list[list[Any]]:
    rows: list[list[Any]] = tables[name]["rows"]
    return rows


def _state(app: Flask, game_id: str) -> dict[str, Any]:
    with app.test_request_context():
        found = queries.load(game_id)
        assert found is not None
        history = [
            (e.version, e.change.action.value, e.change.round, e.at.isoformat())
            for e in queries.history(game_id)
        ]
        # what an undo and a restore would take back: the history's links survive too
        undo, restore = found.game.undoable, found.game.restorable
        links = (undo and undo.version, restore and restore.version)
    client = app.test_client()
    answer = client.get(f"/api/v1/games/{game_id}").get_json()
    answer.pop("view_url")
    return {
        "game": answer,
        "history": history,
        "links": links,
        "created": found.created_at.isoformat(),
    }


def _empty_database(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / f'restored-{secrets.token_hex(3)}.sqlite3'}"
    return new_pg_database(request.getfixturevalue("pg_url"), "r")


@pytest.fixture
def restored_apps(tmp_path: Path) -> Iterator[list[Flask]]:
    apps: list[Flask] = []
    yield apps
    for app in apps:
        database(app).dispose()


@pytest.mark.parametrize("target", ["sqlite", "postgresql"])
def test_a_backup_restores_the_same_games_and_the_old_edit_links_still_edit(
    app: Flask,
    database_url: str,
    target: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    restored_apps: list[Flask],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    games = _play(app.test_client())
    before = {game["id"]: _state(app, game["id"]) for game in games}
    backup = tmp_path / "backup.json"

    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SECRET_KEY", "backup test")
    assert main(["backup", str(backup)]) == 0
    document = json.loads(backup.read_text())
    assert document["format"] == "rummy-referee-backup" and document["schema_revision"]
    assert len(document["tables"]["games"]["rows"]) == 3
    assert not any(game["edit_token"] in backup.read_text() for game in games)  # hashes only
    # A game's rounds and history are in the one shape of a seat's result (games/values.py).
    tables = document["tables"]
    kept = [
        row[tables["game_rounds"]["columns"].index("results")]
        for row in _rows(tables, "game_rounds")
    ]
    for column in ("before", "after"):
        index = tables["game_changes"]["columns"].index(column)
        kept.extend(row[index] for row in _rows(tables, "game_changes") if row[index] is not None)
    seats = [seat for results in kept for seat in results]
    assert len(seats) > 30
    assert all(data(SeatResultJSON.model_validate(seat)) == seat for seat in seats)

    url = _empty_database(target, tmp_path, request)
    monkeypatch.setenv("DATABASE_URL", url)
    assert main(["restore", str(backup)]) == 0
    restored = create_app({"SECRET_KEY": "x", "DATABASE_URL": url, "TESTING": True},
                          instance_path=str(tmp_path / "restored"))  # fmt: skip
    restored_apps.append(restored)
    after = {game["id"]: _state(restored, game["id"]) for game in games}
    assert after == before

    # The old edit link (its token) still edits, and new rows follow the restored ones.
    client = restored.test_client()
    second = games[1]
    auth = {"Authorization": f"Bearer {second['edit_token']}"}
    results = [{"player": "Dee", "went_out": True}] + [
        {"player": name, "penalty": 15} for name in ("Eli", "Fay", "Gus")
    ]
    answer = client.post(f"/api/v1/games/{second['id']}/rounds",
                         json={"round": 2, "results": results}, headers=auth)  # fmt: skip
    assert answer.status_code == 200 and answer.get_json()["version"] == second["version"] + 2
    page = client.get(f"/games/{second['id']}/edit/{second['edit_token']}")
    assert page.status_code == 200


def test_a_restore_needs_an_empty_database_and_a_backup(app: Flask, tmp_path: Path) -> None:
    _play(app.test_client())
    url = str(app.config["DATABASE_URL"])
    with pytest.raises(BackupError, match="not a Rummy Referee backup"):
        restore(url, io.BytesIO(b'{"games": []}'))
    backup = tmp_path / "b.json"
    runner = app.test_cli_runner()
    assert runner.invoke(args=["backup", str(backup)]).exit_code == 0
    refused = runner.invoke(args=["restore", str(backup)])
    assert refused.exit_code != 0 and "not empty" in refused.output


def test_the_command_line_says_what_went_wrong(
    tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}")
    monkeypatch.setenv("SECRET_KEY", "x")
    (tmp_path / "bad.json").write_text("{not json")
    assert main(["restore", str(tmp_path / "bad.json")]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert main(["restore", str(tmp_path / "missing.json")]) == 2


# -- the data folder: read as wsgi.py reads it (issue 23) ---------------------------------------


@pytest.fixture
def no_database_settings(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """The command line with only a data folder: SQLite in it, the secret key kept there."""
    for name in ("DATABASE_URL", "DATABASE_URL_FILE", "SECRET_KEY", "SECRET_KEY_FILE"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def _served_in(folder: Path) -> list[dict[str, Any]]:
    """Games played in the app whose data folder is `folder`, as wsgi.py would build it."""
    served = create_app({"TESTING": True}, instance_path=str(folder))
    try:
        return _play(served.test_client())
    finally:
        database(served).dispose()


def test_backup_and_restore_read_the_data_folder_from_rummy_instance_path(
    tmp_path: Path, no_database_settings: pytest.MonkeyPatch, capsys: Any
) -> None:
    games = _served_in(tmp_path / "served")
    no_database_settings.setenv("RUMMY_INSTANCE_PATH", str(tmp_path / "served"))
    backup = tmp_path / "backup.json"
    assert main(["backup", str(backup)]) == 0
    assert len(json.loads(backup.read_text())["tables"]["games"]["rows"]) == len(games)
    assert str(tmp_path / "served" / "rummy.sqlite3") in capsys.readouterr().err

    no_database_settings.setenv("RUMMY_INSTANCE_PATH", str(tmp_path / "new"))
    assert main(["restore", str(backup)]) == 0
    assert str(tmp_path / "new" / "rummy.sqlite3") in capsys.readouterr().err
    restored = create_app({"TESTING": True}, instance_path=str(tmp_path / "new"))
    try:
        answer = restored.test_client().get(f"/api/v1/games/{games[0]['id']}")
        assert answer.status_code == 200 and answer.get_json()["players"] == ["Ann", "Bo", "Cy"]
    finally:
        database(restored).dispose()

    # --data names the folder too, and wins over the environment.
    again = tmp_path / "again.json"
    assert main(["backup", "--data", str(tmp_path / "served"), str(again)]) == 0
    assert json.loads(again.read_text())["tables"] == json.loads(backup.read_text())["tables"]


def test_backup_refuses_a_database_it_would_create(
    tmp_path: Path, no_database_settings: pytest.MonkeyPatch, capsys: Any
) -> None:
    """The old command built the app without the data folder: it made a new SQLite file,
    backed up its empty tables and exited 0. Now nothing is made and the exit says so."""
    _served_in(tmp_path / "served")
    elsewhere = tmp_path / "not-the-data-folder"
    no_database_settings.setenv("RUMMY_INSTANCE_PATH", str(elsewhere))
    backup = tmp_path / "backup.json"
    assert main(["backup", str(backup)]) == 2
    said = capsys.readouterr().err
    assert f"there is no database at {elsewhere / 'rummy.sqlite3'}" in said
    assert "RUMMY_INSTANCE_PATH" in said
    assert not elsewhere.exists() and not backup.exists()

    # A file that is there but was never served (no schema): refused as well.
    elsewhere.mkdir()
    (elsewhere / "rummy.sqlite3").touch()
    assert main(["backup", str(backup)]) == 2
    assert "holds no Rummy Referee tables" in capsys.readouterr().err
    assert (elsewhere / "rummy.sqlite3").stat().st_size == 0 and not backup.exists()


def test_backup_refuses_an_empty_postgresql_database(
    tmp_path: Path,
    request: pytest.FixtureRequest,
    no_database_settings: pytest.MonkeyPatch,
    capsys: Any,
) -> None:
    url = _empty_database("postgresql", tmp_path, request)
    no_database_settings.setenv("DATABASE_URL", url)
    assert main(["backup", str(tmp_path / "backup.json")]) == 2
    assert "holds no Rummy Referee tables" in capsys.readouterr().err
    conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo) as connection:
        tables = connection.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchone()
    assert tables == (0,)  # not migrated by the refused backup
