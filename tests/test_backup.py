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
from flask import Flask
from sqlalchemy.engine import make_url

from referee.cli import main
from referee.web import create_app
from referee.web.backup import BackupError, restore
from referee.web.database import database
from referee.web.games import store


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


def _state(app: Flask, game_id: str) -> dict[str, Any]:
    with app.test_request_context():
        found = store.load(game_id)
        assert found is not None
        history = [
            (e.version, e.change.action.value, e.change.round, e.undone, e.at.isoformat())
            for e in store.history(game_id)
        ]
    client = app.test_client()
    answer = client.get(f"/api/v1/games/{game_id}").get_json()
    answer.pop("view_url")
    return {"game": answer, "history": history, "created": found.created_at.isoformat()}


def _empty_database(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / f'restored-{secrets.token_hex(3)}.sqlite3'}"
    server = request.getfixturevalue("pg_url")
    name = f"r_{secrets.token_hex(6)}"
    conninfo = make_url(server).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return make_url(server).set(database=name).render_as_string(hide_password=False)


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
