"""Restore benchmark: the peak memory and time of `rummy-referee restore` for a large backup.

    .venv/bin/python bench/restore.py                    # a 100 MB backup, SQLite
    .venv/bin/python bench/restore.py --mb 300 --db both
    .venv/bin/python bench/restore.py --checkout /path/to/other/checkout   # its restore instead

The backup is made from three real games (played through the API: a finished one with a
correction and an undo, one started, one of rummy), each copied under new ids until the file
reaches the size asked, in the layout `rummy-referee backup` writes. Each restore runs in its
own process; printed: the file's size and rows, the restore's time and its peak resident
memory (the kernel's figure for that process). `--checkout` runs another checkout's code (say,
main before this change) on the same file, to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import DATABASES, databases  # noqa: E402
from referee.web import create_app  # noqa: E402
from referee.web.backup.archive import dump  # noqa: E402
from referee.web.plumbing.database import database  # noqa: E402

PLAYERS = ["Ann", "Bo", "Cy"]


def _seed(folder: Path) -> dict[str, Any]:
    """A real backup of three played games, as a document."""
    from tests.test_backup import _play  # the games the backup test plays

    url = f"sqlite:///{folder / 'seed.sqlite3'}"
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url}, instance_path=str(folder))
    _play(app.test_client())
    seed = folder / "seed.json"
    with seed.open("w", encoding="utf-8") as out:
        dump(database(app).engine, out)
    database(app).dispose()
    document: dict[str, Any] = json.loads(seed.read_text())
    return document


def _write_rows(out: IO[str], rows: Any, first: bool) -> bool:
    for row in rows:
        out.write(("" if first else ",") + "\n" + json.dumps(row, ensure_ascii=False))
        first = False
    return first


def write_backup(path: Path, megabytes: int, folder: Path) -> dict[str, int]:
    """The seed's games copied under new ids until the file is `megabytes` large."""
    seed = _seed(folder)
    tables = seed["tables"]
    head = {key: value for key, value in seed.items() if key != "tables"}
    games = tables["games"]
    per_copy = len(json.dumps(tables))
    copies = max(1, megabytes * 1024 * 1024 // per_copy)
    counts: dict[str, int] = {}
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(head)[:-1] + ', "tables": {')
        for index, (name, table) in enumerate(tables.items()):
            columns = table["columns"]
            out.write(("," if index else "") + f"\n{json.dumps(name)}: ")
            out.write(f'{{"columns": {json.dumps(columns)}, "rows": [')
            first = True
            counts[name] = 0
            if name.startswith("club"):  # no clubs in the seed
                out.write("]}")
                continue
            game_at = columns.index("id") if name == "games" else columns.index("game_id")
            id_at = columns.index("id") if "id" in columns and name != "games" else None
            serial = 0
            for copy in range(copies):
                rows = []
                for row in table["rows"]:
                    row = list(row)
                    row[game_at] = f"c{copy:08d}" + row[game_at][9:]
                    if id_at is not None:
                        serial += 1
                        row[id_at] = serial
                    rows.append(row)
                first = _write_rows(out, rows, first)
                counts[name] += len(rows)
            out.write("]}")
        out.write("\n}}\n")
    counts["games"] = copies * len(games["rows"])
    return counts


def _restore(path: Path, url: str, checkout: Path) -> tuple[float, float, float, int, str]:
    """(seconds, CPU seconds, peak MB, exit status, last line said) of one restore in its own
    process (the CPU time holds on a busy machine, where the wall time does not)."""
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "bench", "PYTHONPATH": str(checkout)}
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-c", "import sys; from referee.cli import main; sys.exit(main())",
         "restore", str(path)],
        cwd=checkout, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    _pid, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    said = (process.stderr.read() if process.stderr else "").strip().splitlines()
    code = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    return seconds, cpu, usage.ru_maxrss / 1024, code, (said[-1] if said else "")[:160]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=100, help="the backup's size in MB")
    parser.add_argument("--db", choices=DATABASES, default="sqlite")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="whose restore to run")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-restore-"))
    path = folder / "backup.json"
    counts = write_backup(path, args.mb, folder)
    size = path.stat().st_size / 1024 / 1024
    rows = sum(counts.values())
    print(f"backup: {size:.0f} MB, {counts['games']} games, {rows} rows ({path})")
    print(f"restoring with {args.checkout}")
    for label, url in databases(args.db, "bench-restore-"):
        seconds, cpu, peak, code, said = _restore(path, url, args.checkout.resolve())
        print(f"{label:10} {seconds:7.1f} s ({cpu:.1f} s CPU)  peak {peak:6.0f} MB  exit {code}")
        print(f"{'':10} {said}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
