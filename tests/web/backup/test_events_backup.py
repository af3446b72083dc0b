"""Club nights in a backup: an evening (its players, a started series, a table's result and its
sealed QR tokens) comes back as it was; a backup whose evening does not read back through the
engine is refused whole (backup.checks), nothing kept."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from club_fixture import new_club, results_json
from flask import Flask
from sqlalchemy import inspect

from referee.web import create_app
from referee.web.backup.archive import BackupError, dump, restore
from referee.web.plumbing.database import database, make_engine


def _evening(app: Flask) -> tuple[str, str, dict[str, object]]:
    client = app.test_client()
    club = new_club(client)
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    base = f"/api/v1/clubs/{club['id']}/events"
    made = client.post(base, json={"name": "Night", "variant": "contract", "series": 2,
                                   "series_rounds": 1}, headers=auth).get_json()  # fmt: skip
    base = f"{base}/{made['id']}"
    client.post(f"{base}/players", json={"names": ["Ann", "Bo", "Cy", "Di"]}, headers=auth)
    table = client.post(f"{base}/series", json={"series": 1}, headers=auth).get_json()
    first = table["series"][0]["tables"][0]
    token = first["edit_url"].rsplit("/", 1)[-1]
    body = {"round": 1, "results": results_json(first["seats"], 0, {1: 5, 2: 10, 3: 20})}
    client.post(f"/api/v1/games/{first['game']}/rounds", json=body,
                headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    return base, club["edit_token"], client.get(base, headers=auth).get_json()


def _backup(app: Flask) -> dict[str, object]:
    out = io.StringIO()
    dump(database(app).engine, out)
    document: dict[str, object] = json.loads(out.getvalue())
    return document


def test_an_evening_comes_back_from_a_backup(app: Flask, tmp_path: Path) -> None:
    base, token, before = _evening(app)
    document = _backup(app)
    url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    counts = restore(url, io.BytesIO(json.dumps(document).encode()))
    assert counts["events"] == 1 and counts["event_games"] == 1
    restored = create_app({"SECRET_KEY": "test secret key", "DATABASE_URL": url,
                           "TESTING": True}, instance_path=str(tmp_path / "r"))  # fmt: skip
    try:
        auth = {"Authorization": f"Bearer {token}"}
        after = restored.test_client().get(base, headers=auth).get_json()
        assert after == before  # the same evening, results and edit links (the same key)
        assert after["series"][0]["finished"]
    finally:
        database(restored).dispose()


def test_an_evening_that_does_not_read_refuses_the_whole_restore(
    app: Flask, tmp_path: Path
) -> None:
    _evening(app)
    document = _backup(app)
    tables = document["tables"]
    assert isinstance(tables, dict)
    columns = tables["events"]["columns"]
    state = tables["events"]["rows"][0][columns.index("state")]
    state["table_size"]["preferred"] = 9  # no table seats 9: the engine refuses the evening
    url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    with pytest.raises(BackupError, match=r"club night .*bad_table_size"):
        restore(url, io.BytesIO(json.dumps(document).encode()))
    restored = create_app({"SECRET_KEY": "x", "DATABASE_URL": url, "TESTING": True},
                          instance_path=str(tmp_path / "r"))  # fmt: skip
    try:
        assert restored.test_client().get("/api/v1/clubs/" + "x" * 22).status_code == 404
        with restored.app_context(), database().reading() as conn:
            from sqlalchemy import text

            assert conn.execute(text("SELECT count(*) FROM games")).scalar() == 0
    finally:
        database(restored).dispose()


# -- issue 34: an evening's tables must name its own club's games, as they are -----------------


def _rows(document: dict[str, object], table: str) -> tuple[list[str], list[list[object]]]:
    tables = document["tables"]
    assert isinstance(tables, dict)
    return tables[table]["columns"], tables[table]["rows"]


def _first_table(document: dict[str, object]) -> dict[str, object]:
    columns, rows = _rows(document, "events")
    state = rows[0][columns.index("state")]
    assert isinstance(state, dict)
    table: dict[str, object] = state["series"][0]["tables"][0]
    return table


def _name_game(document: dict[str, object], game_id: str) -> None:
    """The first table, and its event_games row, name `game_id` instead."""
    table = _first_table(document)
    old = table["game_id"]
    table["game_id"] = game_id
    columns, rows = _rows(document, "event_games")
    for row in rows:
        if row[columns.index("game_id")] == old:
            row[columns.index("game_id")] = game_id


def _name_missing_game(document: dict[str, object], _other: str) -> None:
    """The first table names a game the backup does not have (its event_games row unchanged:
    the database would refuse that one itself)."""
    _first_table(document)["game_id"] = "n0SuchGame00000000000a"


def _rename_seat(document: dict[str, object], _other: str) -> None:
    """The first table's game with one player renamed: its rounds never reach the evening."""
    game_id = _first_table(document)["game_id"]
    columns, rows = _rows(document, "games")
    for row in rows:
        if row[columns.index("id")] == game_id:
            players = row[columns.index("players")]
            assert isinstance(players, list)
            players[-1] = "Zed"


@pytest.mark.parametrize(
    ("spoil", "said"),
    [
        (_name_missing_game, "which the backup lacks"),
        (_name_game, "not a game of its club"),
        (_rename_seat, "game_seats_differ"),
    ],
    ids=["a game not there", "a game outside its club", "renamed players"],
)
def test_an_evening_naming_a_game_not_its_tables_refuses_the_whole_restore(
    app: Flask, tmp_path: Path, spoil: Any, said: str
) -> None:
    _evening(app)
    other = app.test_client().post(
        "/api/v1/games", json={"variant": "contract", "players": ["Ann", "Bo", "Cy", "Di"]}
    )
    document = _backup(app)
    spoil(document, other.get_json()["id"])
    url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    with pytest.raises(BackupError, match=rf"club night .*{said}") as refused:
        restore(url, io.BytesIO(json.dumps(document).encode()))
    assert "nothing was restored" in str(refused.value)
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            assert not inspect(conn).get_table_names()  # not even the schema is kept
    finally:
        engine.dispose()


def _ruled_evening(app: Flask) -> tuple[str, str, dict[str, Any]]:
    """An evening with a couple apart, a car together (its driver gone home: unmet) and a
    fixed table, its first series drawn."""
    client = app.test_client()
    club = new_club(client)
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    base = f"/api/v1/clubs/{club['id']}/events"
    made = client.post(base, json={"name": "Night", "variant": "contract", "series": 2,
                                   "series_rounds": 1}, headers=auth).get_json()  # fmt: skip
    base = f"{base}/{made['id']}"
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    client.post(f"{base}/players", json={"names": names}, headers=auth)
    rules = [{"keep": "apart", "players": ["Ann", "Bo"]},
             {"keep": "together", "players": ["Cy", "Di"]},
             {"keep": "table", "players": ["Ed"], "table": 2}]  # fmt: skip
    assert client.post(f"{base}/seating", json={"rules": rules}, headers=auth).status_code == 200
    client.post(f"{base}/players", json={"action": "leave", "names": ["Di"]}, headers=auth)
    client.post(f"{base}/players", json={"names": ["Ida"]}, headers=auth)
    client.post(f"{base}/series", json={"series": 1, "start": False}, headers=auth)
    return base, club["edit_token"], client.get(base, headers=auth).get_json()


def test_an_evenings_seating_rules_come_back_from_a_backup(app: Flask, tmp_path: Path) -> None:
    base, token, before = _ruled_evening(app)
    assert len(before["seating_rules"]) == 3
    assert before["series"][0]["unmet_rules"][0]["reason"] == "partner_absent"
    url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    restore(url, io.BytesIO(json.dumps(_backup(app)).encode()))
    restored = create_app({"SECRET_KEY": "test secret key", "DATABASE_URL": url,
                           "TESTING": True}, instance_path=str(tmp_path / "r"))  # fmt: skip
    try:
        after = restored.test_client().get(base, headers={"Authorization": f"Bearer {token}"})
        assert after.get_json() == before
    finally:
        database(restored).dispose()


def test_a_backup_whose_seating_rule_the_engine_refuses_is_refused_whole(
    app: Flask, tmp_path: Path
) -> None:
    _ruled_evening(app)
    document = _backup(app)
    tables = document["tables"]
    assert isinstance(tables, dict)
    columns = tables["events"]["columns"]
    state = tables["events"]["rows"][0][columns.index("state")]
    state["seating_rules"][0]["players"] = ["Ann", "Ann"]  # apart from herself
    url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    with pytest.raises(BackupError, match=r"club night .*apart_from_themself"):
        restore(url, io.BytesIO(json.dumps(document).encode()))
