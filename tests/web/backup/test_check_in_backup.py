"""A backup carries what players' phones did (their marks, a new name, a closed check-in), and
the evening's check-in link and a phone's token work again after a restore on the same key."""

from __future__ import annotations

import io
from pathlib import Path

from club_fixture import new_club
from flask import Flask

from referee.web import create_app
from referee.web.backup.archive import dump, restore
from referee.web.events import check_in
from referee.web.plumbing.database import database


def test_self_check_ins_and_a_closed_link_come_back_from_a_backup(
    app: Flask, tmp_path: Path
) -> None:
    client = app.test_client()
    club = new_club(client)
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    made = client.post(f"/api/v1/clubs/{club['id']}/events", json={"name": "Night",
                       "variant": "contract", "series": 2}, headers=auth).get_json()  # fmt: skip
    base = f"/api/v1/clubs/{club['id']}/events/{made['id']}"
    with app.app_context():
        key = check_in.key_of(club["id"], made["id"])
    zoe = client.post(f"{base}/check-in/{key}", json={"name": "Zoë"}).get_json()["token"]
    bo = client.post(f"{base}/check-in/{key}", json={"name": "Bo"}).get_json()["token"]
    client.post(f"{base}/check-in/{key}", json={"name": "Bo", "action": "check_out", "token": bo})
    client.post(f"{base}/check-in", json={"action": "close"}, headers=auth)
    before = client.get(base, headers=auth).get_json()
    out = io.StringIO()
    dump(database(app).engine, out)
    url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    restore(url, io.BytesIO(out.getvalue().encode()))
    restored = create_app({"SECRET_KEY": "test secret key", "DATABASE_URL": url,
                           "TESTING": True}, instance_path=str(tmp_path / "r"))  # fmt: skip
    try:
        again = restored.test_client()
        assert again.get(base, headers=auth).get_json() == before
        assert before["check_in_open"] is False
        assert [(p["name"], p["by_phone"], p["new"]) for p in before["players"]] == [
            ("Zoë", True, True), ("Bo", True, True)]  # fmt: skip
        seen = again.get(f"{base}/check-in/{key}", headers={"Authorization": f"Bearer {zoe}"})
        assert seen.status_code == 200 and seen.get_json()["player"]["name"] == "Zoë"
    finally:
        database(restored).dispose()
