"""Backups that run by themselves: a folder of timestamped backups, the oldest beyond a number
removed, optionally copied off the box with rclone, and a schedule that takes one when due.

`rummy-referee backup --dir DIR --keep N [--every 24h] [--rclone REMOTE:PATH]` and
`rummy-referee restore --dir DIR` (the newest). Each file is one `backup.backup_to` document,
written aside and renamed into place, so the folder never holds half a backup under a backup's
name; only files named as this module names them are ever counted, read or removed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Final, TextIO

from referee.web.backup.reader import BackupError

PREFIX: Final = "rummy-referee-"
#: rummy-referee-20261204T031500.123456Z.json: UTC, so that the names sort as the times do.
_NAME: Final = re.compile(r"rummy-referee-(\d{8}T\d{6}\.\d{6})Z\.json")
_STAMP: Final = "%Y%m%dT%H%M%S.%f"
_DURATION: Final = re.compile(r"(\d+(?:\.\d+)?)([smhd])")
_UNITS: Final = {"s": 1, "m": 60, "h": 3600, "d": 86400}
#: After a failed backup, the schedule tries again this soon (or at the next one, if sooner).
RETRY_SECONDS: Final = 300.0


def name_for(moment: datetime) -> str:
    """The file name of a backup taken at `moment`."""
    return f"{PREFIX}{moment.astimezone(UTC).strftime(_STAMP)}Z.json"


def taken_at(path: Path) -> datetime | None:
    """When the backup at `path` was taken, read from its name; None for any other file."""
    found = _NAME.fullmatch(path.name)
    if found is None:
        return None
    return datetime.strptime(found.group(1), _STAMP).replace(tzinfo=UTC)


def backups_in(folder: Path) -> list[Path]:
    """The backups in `folder`, oldest first (drafts and other files are not backups)."""
    if not folder.is_dir():
        return []
    found = [path for path in folder.iterdir() if taken_at(path) and path.is_file()]
    return sorted(found, key=lambda path: path.name)


def newest(folder: Path) -> Path:
    """The newest backup in `folder`: the one a disaster drill restores."""
    found = backups_in(folder)
    if not found:
        raise BackupError(f"there is no backup in {folder} (files named {PREFIX}<time>Z.json)")
    return found[-1]


def prune(folder: Path, keep: int) -> list[Path]:
    """Remove all but the `keep` newest backups; the removed ones, oldest first."""
    found = backups_in(folder)
    gone = found[: max(len(found) - keep, 0)]
    for path in gone:
        path.unlink()
    return gone


def duration(text: str) -> float:
    """'24h', '30m', '1d', '90s' in seconds (a ValueError for anything else)."""
    found = _DURATION.fullmatch(text.strip())
    if found is None or float(found.group(1)) <= 0:
        raise ValueError(f"{text!r} is not a duration such as 24h, 30m or 1d")
    return float(found.group(1)) * _UNITS[found.group(2)]


@dataclass(frozen=True)
class Rotation:
    """Where backups go and how many stay; `remote`: an rclone remote they are copied to."""

    folder: Path
    keep: int
    remote: str | None = None

    def take(self, write: Callable[[Path], object], now: datetime | None = None) -> Path:
        """A new backup in the folder (written by `write` to the path it is given, which moves
        its draft into place), then the oldest beyond `keep` removed, then the copy off the box."""
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.folder / name_for(now or datetime.now(UTC))
        write(target)
        prune(self.folder, self.keep)
        if self.remote:
            copy_off(self.folder, self.remote)
        return target

    def due_in(self, every: float, now: datetime) -> float:
        """Seconds until the next backup is due: `every` after the newest one (0: now)."""
        found = backups_in(self.folder)
        last = taken_at(found[-1]) if found else None
        if last is None:
            return 0.0
        return max((last + timedelta(seconds=every) - now).total_seconds(), 0.0)


def copy_off(folder: Path, remote: str) -> None:
    """Copy the folder's backups to an rclone remote the admin configured (`rclone config`;
    RCLONE_CONFIG names its file). Copy, never sync: what the remote keeps is the remote's
    business, and a folder emptied by accident empties nothing there. A copy that failed
    earlier is caught up by the next one."""
    rclone = shutil.which("rclone")
    if rclone is None:
        raise BackupError("rclone is not installed: the backup is kept here only")
    done = subprocess.run(
        [rclone, "copy", "--include", f"{PREFIX}*Z.json", str(folder), remote],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise BackupError(f"rclone could not copy the backups to {remote}: {said}")


def every(
    rotation: Rotation,
    interval: float,
    once: Callable[[], object],
    err: TextIO,
    *,
    sleep: Callable[[float], object] = time.sleep,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    rounds: int | None = None,
) -> None:
    """Take a backup whenever one is due, forever (or `rounds` times, for a test): due
    `interval` after the newest in the folder, so a restarted schedule does not take one at
    each start (and remove the older ones the sooner). A failed backup is said and tried
    again within RETRY_SECONDS; it never ends the schedule. (`sleep` and `clock`: a test's.)"""
    done = 0
    while rounds is None or done < rounds:
        wait = rotation.due_in(interval, clock())
        if wait > 0:
            sleep(wait)
            continue
        done += 1
        try:
            once()
        except Exception as error:  # a database away for a while, a full disk: never the end
            print(f"backup: {error}; trying again later", file=err, flush=True)
            sleep(min(RETRY_SECONDS, interval))
