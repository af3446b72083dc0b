"""Club nights in a backup: an evening (its players, a started series, a table's result and its
sealed QR tokens) comes back as it was; a backup whose evening does not read back through the
engine is refused whole (backup_checks), nothing kept."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from club_fixture import new_club, results_json
from flask import Flask

from referee.web import create_app
from referee.web.backup import BackupError, dump, restore
from referee.web.database import database


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
