"""The nightly backup on a server without containers (docs/DEPLOY.md "Backups"):
deploy/rummy-referee-backup.timer starts deploy/rummy-referee-backup.service, which systemd
accepts as written (`systemd-analyze verify`, the venv's path being this checkout's) and whose
command, run as the unit runs it, leaves a backup in the data folder's backups/."""

from __future__ import annotations

import configparser
import os
import shlex
import subprocess
from pathlib import Path

from referee.web import create_app
from referee.web.backup import folder as backup_folder
from referee.web.plumbing.database import database

ROOT = Path(__file__).resolve().parents[2]
UNITS = ("rummy-referee-backup.service", "rummy-referee-backup.timer")
VENV = "/opt/rummy-referee/.venv"
DATA = "/var/lib/rummy-referee"


def _unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(ROOT / "deploy" / name)
    return parser


def test_systemd_accepts_the_backup_timer_and_its_service(tmp_path: Path) -> None:
    for name in UNITS:
        text = (ROOT / "deploy" / name).read_text()
        (tmp_path / name).write_text(text.replace(VENV, str(ROOT / ".venv")))
    done = subprocess.run(
        ["systemd-analyze", "verify", *(f"./{name}" for name in UNITS)],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    timer = _unit("rummy-referee-backup.timer")
    assert timer["Timer"]["OnCalendar"] == "*-*-* 03:15:00"
    assert timer["Timer"]["Persistent"] == "true"  # a night missed runs at the next start
    assert timer["Install"]["WantedBy"] == "timers.target"


def test_the_services_command_leaves_a_backup_in_the_data_folder(tmp_path: Path) -> None:
    service = _unit("rummy-referee-backup.service")["Service"]
    assert service["User"] == "rummy" and service["StateDirectory"] == "rummy-referee"
    assert service["Environment"] == f"RUMMY_INSTANCE_PATH={DATA}"
    command = shlex.split(service["ExecStart"].replace(VENV, str(ROOT / ".venv")))
    command = [part.replace(DATA, str(tmp_path)) for part in command]
    app = create_app({"TESTING": True, "SECRET_KEY": "x"}, instance_path=str(tmp_path))
    app.test_client().post("/api/v1/games", json={"variant": "rummy", "players": ["A", "B"]})
    database(app).dispose()
    scrubbed = ("DATABASE_URL", "DATABASE_URL_FILE", "SECRET_KEY", "SECRET_KEY_FILE")
    environ = {key: value for key, value in os.environ.items() if key not in scrubbed}
    done = subprocess.run(command, env={**environ, "RUMMY_INSTANCE_PATH": str(tmp_path)},
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    (made,) = backup_folder.backups_in(tmp_path / "backups")
    assert "the newest 14 kept" in done.stderr and made.stat().st_size > 0
