"""Upgrades (SPEC "Running it for real"): this version started on the data folder of the previous
release brings its schema up to date and keeps every game, club and evening, answering about
them as that release did (tests/release_data.py; tests/ops/test_image.py does the same with the
image on a /data volume)."""

from __future__ import annotations

import json
from pathlib import Path

from release_data import FACTS, REVISION, facts, head_revision, load_into, revision_of

from referee.cli import main
from referee.web import create_app
from referee.web.plumbing.database import database


def test_the_previous_releases_data_folder_is_upgraded_and_keeps_every_game_club_and_evening(
    tmp_path: Path,
) -> None:
    recorded = json.loads(FACTS.read_text(encoding="utf-8"))
    load_into(tmp_path / "rummy.sqlite3")
    assert (revision_of(tmp_path / "rummy.sqlite3") or "").startswith(REVISION)

    app = create_app({"TESTING": True, "SECRET_KEY": "upgrade"}, instance_path=str(tmp_path))
    try:
        client = app.test_client()
        assert client.get("/healthz").get_json()["database"] == "ok"
        assert (
            facts(lambda path: client.get(path).get_json(), recorded["ids"]) == (recorded["facts"])
        )
    finally:
        database(app).dispose()
    assert revision_of(tmp_path / "rummy.sqlite3") == head_revision()


def test_a_backup_of_the_upgraded_folder_restores_the_same(tmp_path: Path) -> None:
    """The upgrade path a club takes when it moves: the old folder's backup, restored."""
    recorded = json.loads(FACTS.read_text(encoding="utf-8"))
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    load_into(old / "rummy.sqlite3")
    assert main(["backup", "--data", str(old), "--dir", str(tmp_path / "backups")]) == 0
    assert main(["restore", "--data", str(new), "--dir", str(tmp_path / "backups")]) == 0
    app = create_app({"TESTING": True, "SECRET_KEY": "upgrade"}, instance_path=str(new))
    try:
        client = app.test_client()
        assert (
            facts(lambda path: client.get(path).get_json(), recorded["ids"]) == (recorded["facts"])
        )
    finally:
        database(app).dispose()
