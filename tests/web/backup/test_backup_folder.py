"""Backups that run by themselves (SPEC "Running it for real"; docs/DEPLOY.md "Backups"):
`rummy-referee backup --dir DIR --keep N` writes timestamped files, removes the oldest beyond N
and nothing else, never leaves half a file; `--every` takes one whenever the newest is that old
(a restart does not take one more); `--rclone` copies them off the box (rclone's local backend
here); `restore --dir` lays the newest into an empty database: the disaster drill."""

from __future__ import annotations

import io
import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.cli import main
from referee.web import create_app
from referee.web.backup import archive as backup
from referee.web.backup import folder as folder
from referee.web.backup.folder import Rotation, duration, every, name_for, taken_at
from referee.web.plumbing.database import database

PLAYERS = ["Ann", "Bo", "Cy"]


def _serve_games(data: Path, count: int) -> list[str]:
    """`count` more games in the app whose data folder is `data`; their ids."""
    app = create_app({"TESTING": True, "SECRET_KEY": "x"}, instance_path=str(data))
    try:
        client = app.test_client()
        made = [client.post("/api/v1/games", json={"variant": "contract", "players": PLAYERS})
                for _ in range(count)]  # fmt: skip
        return [answer.get_json()["id"] for answer in made]
    finally:
        database(app).dispose()


def _games_in(data: Path) -> set[str]:
    app = create_app({"TESTING": True, "SECRET_KEY": "x"}, instance_path=str(data))
    try:
        with app.app_context():
            rows = database(app).engine.connect().exec_driver_sql("SELECT id FROM games")
            return {row[0] for row in rows}
    finally:
        database(app).dispose()


def _cli(*argv: str) -> tuple[int, str]:
    err = io.StringIO()
    status = main(list(argv), stdout=io.StringIO(), stderr=err)
    return status, err.getvalue()


def test_backup_dir_keeps_the_newest_n_timestamped_files_and_touches_nothing_else(
    tmp_path: Path,
) -> None:
    data, backups = tmp_path / "data", tmp_path / "backups"
    _serve_games(data, 1)
    backups.mkdir()
    (backups / "notes.txt").write_text("the admin's own file")
    (backups / "rummy-referee-old.json").write_text("not one of ours by its name")
    made = []
    for _ in range(3):
        status, said = _cli("backup", "--data", str(data), "--dir", str(backups), "--keep", "2",
                            "--rclone", "none")  # compose's default: no copy  # fmt: skip
        assert status == 0, said
        made.append(folder.newest(backups))
        assert f"backup: {made[-1].name} in {backups}, the newest 2 kept" in said
    assert folder.backups_in(backups) == made[-2:]
    assert sorted(path.name for path in backups.iterdir()) == sorted(
        [made[-2].name, made[-1].name, "notes.txt", "rummy-referee-old.json"]
    )
    document = json.loads(made[-1].read_text())
    assert document["format"] == "rummy-referee-backup"
    assert len(document["tables"]["games"]["rows"]) == 1
    for wrong, said in ((["--keep", "0"], "--keep must be 1 or more"),
                        (["x.json"], "name a FILE or --dir DIR")):  # fmt: skip
        status, told = _cli("backup", "--data", str(data), "--dir", str(backups), *wrong)
        assert (status, said in told) == (2, True), told
    status, told = _cli("backup", "--data", str(data), str(tmp_path / "x.json"), "--keep", "3")
    assert status == 2 and "--keep, --every and --rclone go with --dir DIR" in told


def test_a_backup_that_fails_halfway_leaves_no_half_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Write then rename: a full disk (or a stop) halfway leaves the older backups and no
    draft beside them, in a folder of backups and for a named file alike."""
    data, backups = tmp_path / "data", tmp_path / "backups"
    _serve_games(data, 1)
    assert _cli("backup", "--data", str(data), "--dir", str(backups))[0] == 0
    kept = folder.backups_in(backups)

    def half(_engine: Any, out: io.TextIOBase) -> dict[str, int]:
        out.write('{"format": "rummy-referee-backup", "tables": {"games": ')
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(backup, "dump", half)
    status, said = _cli("backup", "--data", str(data), "--dir", str(backups))
    assert status == 2 and "No space left on device" in said
    status, said = _cli("backup", "--data", str(data), str(tmp_path / "games.json"))
    assert status == 2
    assert sorted(backups.iterdir()) == kept  # no draft, nothing removed
    assert sorted(path.name for path in tmp_path.iterdir()) == ["backups", "data"]


def test_restore_dir_lays_the_newest_backup_into_an_empty_database(tmp_path: Path) -> None:
    data, backups = tmp_path / "data", tmp_path / "backups"
    first = _serve_games(data, 1)
    assert _cli("backup", "--data", str(data), "--dir", str(backups))[0] == 0
    later = _serve_games(data, 2)
    assert _cli("backup", "--data", str(data), "--dir", str(backups))[0] == 0
    status, said = _cli("restore", "--data", str(tmp_path / "fresh"), "--dir", str(backups))
    assert status == 0, said
    assert f"restored {folder.newest(backups)} into" in said
    assert _games_in(tmp_path / "fresh") == {*first, *later}
    status, said = _cli("restore", "--data", str(tmp_path / "x"), "--dir", str(tmp_path / "none"))
    assert status == 2 and "there is no backup in" in said


@pytest.mark.skipif(shutil.which("rclone") is None, reason="scripts/setup dev installs rclone")
def test_rclone_copies_the_backups_off_the_box_and_never_deletes_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A remote of rclone's `local` backend, configured by environment as an admin may (any
    remote the admin configured works the same way: `rclone config`)."""
    data, backups, remote = tmp_path / "data", tmp_path / "backups", tmp_path / "offsite"
    _serve_games(data, 1)
    monkeypatch.setenv("RCLONE_CONFIG_OFFSITE_TYPE", "local")
    monkeypatch.setenv("RCLONE_CONFIG", str(tmp_path / "rclone.conf"))
    for _ in range(2):
        status, said = _cli("backup", "--data", str(data), "--dir", str(backups), "--keep", "1",
                            "--rclone", f"offsite:{remote}")  # fmt: skip
        assert status == 0, said
    (kept,) = folder.backups_in(backups)
    copied = sorted(path.name for path in remote.iterdir())
    assert len(copied) == 2 and copied[-1] == kept.name  # a copy: the remote keeps its own
    assert (remote / kept.name).read_bytes() == kept.read_bytes()

    status, said = _cli("backup", "--data", str(data), "--dir", str(backups),
                        "--rclone", "nowhere:rummy")  # fmt: skip
    assert status == 2 and "rclone could not copy the backups to nowhere:rummy" in said
    assert len(folder.backups_in(backups)) == 2  # the backup itself is kept here


MOMENTS = st.datetimes(datetime(2000, 1, 1), datetime(2999, 12, 31), timezones=st.just(UTC))
GAPS = st.timedeltas(min_value=timedelta(microseconds=1), max_value=timedelta(days=400))


@given(MOMENTS, GAPS)
def test_backup_names_sort_as_their_times_and_read_back(moment: datetime, gap: timedelta) -> None:
    assert taken_at(Path(name_for(moment))) == moment
    assert name_for(moment) < name_for(moment + gap)


@pytest.mark.parametrize(
    ("text", "seconds"), [("24h", 86400), ("30m", 1800), ("1d", 86400), ("90s", 90), ("1.5h", 5400)]
)
def test_durations(text: str, seconds: float) -> None:
    assert duration(text) == seconds


@pytest.mark.parametrize("text", ["", "24", "0h", "-1h", "1w", "h", "24 hours"])
def test_what_is_not_a_duration(text: str) -> None:
    with pytest.raises(ValueError, match="not a duration"):
        duration(text)


def test_the_schedule_takes_one_when_the_newest_is_old_enough_not_at_each_start(
    tmp_path: Path,
) -> None:
    rotation = Rotation(tmp_path, keep=3)
    now = datetime.now(UTC)
    assert rotation.due_in(3600, now) == 0  # none yet: at once
    (tmp_path / name_for(now - timedelta(minutes=20))).write_text("{}")
    assert rotation.due_in(3600, now) == pytest.approx(2400)

    clock = Clock(now)
    taken: list[Path] = []

    def once() -> None:
        taken.append(rotation.take(lambda path: path.write_text("{}"), clock()))

    # A schedule (re)started 20 minutes after the last backup waits 40 minutes first, then
    # takes one each hour.
    every(rotation, 3600, once, io.StringIO(), sleep=clock.sleep, clock=clock, rounds=3)
    assert clock.slept == [pytest.approx(2400), pytest.approx(3600), pytest.approx(3600)]
    assert [taken_at(path) for path in taken] == [
        now + timedelta(minutes=40),
        now + timedelta(minutes=100),
        now + timedelta(minutes=160),
    ]
    assert len(folder.backups_in(tmp_path)) == 3  # keep=3: the first one went


class Clock:
    """A schedule's time, moved on by its sleeps."""

    def __init__(self, now: datetime) -> None:
        self.now, self.slept = now, list[float]()

    def __call__(self) -> datetime:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += timedelta(seconds=seconds)


def test_a_failed_backup_is_said_and_tried_again_soon_the_schedule_goes_on(
    tmp_path: Path,
) -> None:
    rotation = Rotation(tmp_path, keep=3)
    calls: list[str] = []
    clock = Clock(datetime.now(UTC))

    def once() -> None:
        calls.append("try")
        if len(calls) == 1:
            raise OSError(28, "No space left on device")
        rotation.take(lambda path: path.write_text("{}"), clock())

    err = io.StringIO()
    every(rotation, 86400, once, err, sleep=clock.sleep, clock=clock, rounds=2)
    assert calls == ["try", "try"] and len(folder.backups_in(tmp_path)) == 1
    assert clock.slept == [folder.RETRY_SECONDS]
    assert "No space left on device; trying again later" in err.getvalue()
