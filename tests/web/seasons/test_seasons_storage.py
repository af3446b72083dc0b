"""A club's seasons kept: migrations 0006 and 0007 make the table on SQLite and PostgreSQL (one
head, on top of the club nights'), a season comes back from a backup with the same table (its
club games too; one taken before 0007 counts club nights only), and a backup whose season does
not read back through the engine is refused whole."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from alembic.script import ScriptDirectory
from club_fixture import new_club, results_json
from flask import Flask
from season_fixture import EVENINGS, club_with_evenings, play_club_game
from sqlalchemy import inspect

from referee.web import create_app
from referee.web.backup.archive import BackupError, dump, restore
from referee.web.plumbing.database import database

COLUMNS = ("id", "club_id", "name", "starts", "ends", "rule", "best", "min_evenings",
           "left_out", "club_games", "version", "created_at", "updated_at")  # fmt: skip


def test_migrations_0006_and_0007_make_the_seasons_table_on_the_one_head(
    app: Flask, database_url: str
) -> None:
    with app.app_context():
        engine = database().engine
        columns = {c["name"] for c in inspect(engine).get_columns("seasons")}
        indexes = {i["name"] for i in inspect(engine).get_indexes("seasons")}
    assert columns >= set(COLUMNS)
    assert "ix_seasons_club" in indexes
    script = ScriptDirectory(str(Path(__file__).parents[3] / "referee" / "web" / "migrations"))
    assert script.get_heads() == ["0007_season_club_games"]
    assert script.get_revision("0007_season_club_games").down_revision == "0006_seasons"


AUTUMN = {"name": "Autumn", "starts": "2026-09-01", "ends": "2026-12-31", "rule": "average",
          "min_evenings": 1}  # fmt: skip


def _club_with_a_season(app: Flask) -> tuple[str, dict[str, Any]]:
    """A club, an evening with a finished table, and a season of it; (season's URL, its JSON)."""
    client = app.test_client()
    club = new_club(client)
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    base = f"/api/v1/clubs/{club['id']}/events"
    night = {"name": "Night", "date": "2026-10-01", "variant": "contract", "series": 1,
             "series_rounds": 1}  # fmt: skip
    made = client.post(base, json=night, headers=auth).get_json()
    base = f"{base}/{made['id']}"
    client.post(f"{base}/players", json={"names": ["Ann", "Bo", "Cy", "Di"]}, headers=auth)
    first = client.post(f"{base}/series", json={"series": 1}, headers=auth).get_json()
    table = first["series"][0]["tables"][0]
    token = table["edit_url"].rsplit("/", 1)[-1]
    body = {"round": 1, "results": results_json(table["seats"], 0, {1: 5, 2: 10, 3: 20})}
    saved = client.post(f"/api/v1/games/{table['game']}/rounds", json=body,
                        headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert saved.status_code in (200, 201), saved.get_json()
    season = client.post(
        f"/api/v1/clubs/{club['id']}/seasons",
        json=AUTUMN,
        headers=auth,
    )
    assert season.status_code == 201, season.get_json()
    url = f"/api/v1/clubs/{club['id']}/seasons/{season.get_json()['id']}"
    shown: dict[str, Any] = client.get(url).get_json()
    assert len(shown["rows"]) == 4
    return url, shown


def _read_after_restore(document: dict[str, Any], url: str, tmp_path: Path) -> dict[str, Any]:
    """`url`'s JSON from a new app on a SQLite database restored from `document`."""
    target = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    restore(target, io.BytesIO(json.dumps(document).encode()))
    restored = create_app({"SECRET_KEY": "test secret key", "DATABASE_URL": target,
                           "TESTING": True}, instance_path=str(tmp_path / "r"))  # fmt: skip
    try:
        found: dict[str, Any] = restored.test_client().get(url).get_json()
        return found
    finally:
        database(restored).dispose()


def _backup(app: Flask) -> dict[str, Any]:
    out = io.StringIO()
    dump(database(app).engine, out)
    document: dict[str, Any] = json.loads(out.getvalue())
    return document


def test_a_season_comes_back_from_a_backup_with_the_same_table(app: Flask, tmp_path: Path) -> None:
    url, before = _club_with_a_season(app)
    document = _backup(app)
    assert len(document["tables"]["seasons"]["rows"]) == 1
    assert _read_after_restore(document, url, tmp_path) == before


def test_a_season_that_does_not_read_refuses_the_whole_restore(app: Flask, tmp_path: Path) -> None:
    _club_with_a_season(app)
    document = _backup(app)
    table = document["tables"]["seasons"]
    table["rows"][0][table["columns"].index("min_evenings")] = 0  # no minimum of 0 evenings
    target = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    with pytest.raises(BackupError, match=r"season .*bad_min_evenings"):
        restore(target, io.BytesIO(json.dumps(document).encode()))


def test_a_season_counting_club_games_comes_back_with_its_games_and_the_one_left_out(
    app: Flask, tmp_path: Path, database_url: str
) -> None:
    """Migration 0007's column in a backup: the season counts the club's games after a
    restore, the game left out stays out, and its table is the same."""
    client = app.test_client()
    club_id, token, _events = club_with_evenings(app, EVENINGS[:1])
    kept = play_club_game(app, club_id, "2026-09-05", {"Ann": 5, "Bo": 15, "Cy": 25})
    out = play_club_game(app, club_id, "2026-09-05", {"Bo": 5, "Cy": 15, "Ann": 25}, at="21:00")
    body = {"name": "Autumn", "starts": "2026-09-01", "ends": "2026-09-30", "club_games": True,
            "left_out": [out]}  # fmt: skip
    made = client.post(f"/api/v1/clubs/{club_id}/seasons", json=body,
                       headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert made.status_code == 201, made.get_json()
    url = f"/api/v1/clubs/{club_id}/seasons/{made.get_json()['id']}"
    before = client.get(url).get_json()
    assert [g["id"] for g in before["games"] if g["counted"]] == [kept]
    assert _read_after_restore(_backup(app), url, tmp_path) == before


def test_a_backup_taken_before_0007_restores_its_seasons_counting_club_nights_only(
    app: Flask, tmp_path: Path
) -> None:
    url, before = _club_with_a_season(app)
    document = _backup(app)
    document["schema_revision"] = "0006_seasons"
    table = document["tables"]["seasons"]
    gone = table["columns"].index("club_games")
    table["columns"].pop(gone)
    for row in table["rows"]:
        row.pop(gone)
    again = _read_after_restore(document, url, tmp_path)
    assert again["club_games"] is False and again == before
