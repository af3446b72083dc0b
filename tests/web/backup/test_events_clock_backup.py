"""A series' clock in a backup: an evening whose series runs a clock (paused, a table's extra
minutes) comes back with it, read back through the engine; one whose clock cannot be read (a
negative time limit) refuses the whole restore."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from club_fixture import new_club
from flask import Flask

from referee.web import create_app
from referee.web.backup.archive import BackupError, dump, restore
from referee.web.plumbing.database import database


def _clocked_evening(app: Flask) -> tuple[str, str, dict[str, Any]]:
    client = app.test_client()
    club = new_club(client)
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    base = f"/api/v1/clubs/{club['id']}/events"
    made = client.post(base, json={"name": "Night", "variant": "contract", "series": 2,
                                   "series_minutes": 30, "clock_rule": "one_more"},
                       headers=auth).get_json()  # fmt: skip
    base = f"{base}/{made['id']}"
    client.post(f"{base}/players", json={"names": ["Ann", "Bo", "Cy", "Di"]}, headers=auth)
    client.post(f"{base}/series", json={"series": 1}, headers=auth)
    client.post(f"{base}/clock", json={"action": "extra", "table": 1, "minutes": 4}, headers=auth)
    paused = client.post(f"{base}/clock", json={"action": "pause"}, headers=auth)
    assert paused.status_code == 200, paused.get_json()
    return base, club["edit_token"], paused.get_json()


def _backup(app: Flask) -> dict[str, Any]:
    out = io.StringIO()
    dump(database(app).engine, out)
    document: dict[str, Any] = json.loads(out.getvalue())
    return document


def _without_now(answer: dict[str, Any]) -> dict[str, Any]:
    for series in answer["series"]:
        if series["clock"]:
            series["clock"].pop("now")
    return answer


def test_an_evenings_clock_comes_back_from_a_backup(app: Flask, tmp_path: Path) -> None:
    base, token, before = _clocked_evening(app)
    url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    restore(url, io.BytesIO(json.dumps(_backup(app)).encode()))
    restored = create_app({"SECRET_KEY": "test secret key", "DATABASE_URL": url,
                           "TESTING": True}, instance_path=str(tmp_path / "r"))  # fmt: skip
    try:
        auth = {"Authorization": f"Bearer {token}"}
        after = restored.test_client().get(base, headers=auth).get_json()
        assert _without_now(after) == _without_now(before)  # paused: the time left stands
        clock = after["series"][0]["clock"]
        assert clock["paused"] and clock["rule"] == "one_more"
        assert [t["extra_minutes"] for t in clock["tables"]] == [4]
    finally:
        database(restored).dispose()


def test_an_evening_whose_clock_does_not_read_refuses_the_whole_restore(
    app: Flask, tmp_path: Path
) -> None:
    _clocked_evening(app)
    document = _backup(app)
    columns = document["tables"]["events"]["columns"]
    state = document["tables"]["events"]["rows"][0][columns.index("state")]
    state["series_minutes"] = -5
    url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    with pytest.raises(BackupError, match=r"club night .*bad_series_minutes"):
        restore(url, io.BytesIO(json.dumps(document).encode()))
