"""`rummy-referee serve|backup|restore|pdf-warm`: running the app and keeping its data, from a
checkout or from an installed wheel alike.

Every command works on one data folder (SQLite file, secret key, PDF cache): `--data DIR`,
else the one `referee.web.plumbing.settings` names (RUMMY_INSTANCE_PATH, a checkout's
`instance/`, or the user's data folder). DATABASE_URL (or DATABASE_URL_FILE) points them at
PostgreSQL instead.

    rummy-referee serve                          # http://127.0.0.1:8000, gunicorn, SQLite
    rummy-referee serve --data ~/rummy --host 0.0.0.0 --port 8080 --workers 3
    rummy-referee serve --lan                    # for the phones: the LAN address, a QR code
    rummy-referee backup games.json              # every game of that database
    rummy-referee backup --dir backups --keep 14 # timestamped, the oldest beyond 14 removed
    rummy-referee backup --dir backups --every 24h --rclone offsite:rummy   # by itself
    rummy-referee restore games.json             # into an empty one
    rummy-referee restore --dir backups          # the newest there: the disaster drill
    rummy-referee pdf-warm --lang de             # build the rule cards and sheets once
    rummy-referee health                         # /healthz of `serve` here: exit 0 if ok

Messages for the operator are plain English on stderr, as gunicorn's and Alembic's are.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

if TYPE_CHECKING:
    from flask import Flask

NAMES: Final = ("serve", "backup", "restore", "pdf-warm", "health")
EXIT_OK: Final = 0
EXIT_FAILED: Final = 2
#: backup --dir: how many backups stay by default (two weeks of nightly ones).
KEEP: Final = 14
#: The options of `backup` that only a folder of backups takes.
_WITH_DIR: Final = ("keep", "every", "rclone")
#: Addresses that listen on every interface: the app cannot tell which name it is reached by.
_EVERY_INTERFACE: Final = ("0.0.0.0", "::", "")


def add_commands(verbs: Any) -> None:
    """Add the commands to the command line's subparsers."""
    data = argparse.ArgumentParser(add_help=False)
    data.add_argument(
        "--data",
        metavar="DIR",
        help="the data folder (default: RUMMY_INSTANCE_PATH, else a checkout's instance/, else "
        "the user's data folder)",
    )
    serve = verbs.add_parser(
        "serve",
        parents=[data],
        help="serve the app with gunicorn (SQLite in the data folder, or DATABASE_URL)",
    )
    where = serve.add_mutually_exclusive_group()
    where.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    where.add_argument(
        "--lan",
        action="store_true",
        help="listen on this machine's address in the local network, answer to it, and print "
        "it with a QR code for the phones",
    )
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    serve.add_argument(
        "--workers",
        type=int,
        help="gunicorn worker processes (default: 1 on SQLite, where the live push reaches only "
        "its own process; 2 × cores + 1, at most 9, on PostgreSQL)",
    )
    backup = verbs.add_parser(
        "backup", parents=[data], help="write every game of the database to FILE as JSON"
    )
    backup.add_argument("file", nargs="?", help='where to write it ("-": standard output)')
    backup.add_argument("--dir", help="instead: a timestamped file in this folder")
    backup.add_argument("--keep", type=int, help="--dir: the newest N stay (14)")
    backup.add_argument("--every", help="--dir: go on, one backup each 24h, 30m, 1d...")
    backup.add_argument(
        "--rclone", metavar="REMOTE:PATH", help='--dir: copy the backups there ("none": do not)'
    )
    restore = verbs.add_parser(
        "restore", parents=[data], help="restore a backup into an empty database"
    )
    restore.add_argument("file", nargs="?", help='the backup ("-": standard input)')
    restore.add_argument("--dir", help="instead: the newest backup in this folder")
    health = verbs.add_parser("health", help="ask `serve` on this machine for /healthz")
    health.add_argument("--port", type=int, default=8000, help="the port it serves (8000)")
    warm = verbs.add_parser(
        "pdf-warm", parents=[data], help="build the rule cards and blank sheets into the cache"
    )
    warm.add_argument("--variant", action="append", help="a variant id (default: every one)")
    warm.add_argument("--lang", action="append", help="a language (default: all six)")
    warm.add_argument(
        "--paper", action="append", choices=("a4", "letter"), help="paper (default: both)"
    )


def run(args: argparse.Namespace, err: TextIO) -> int:
    """Run one of NAMES; return the exit status."""
    from referee.web.backup.archive import BackupError
    from referee.web.plumbing.settings import SettingError

    try:
        if args.call == "serve":
            return _serve(args, err)
        if args.call == "pdf-warm":
            return _warm(args, err)
        if args.call == "health":
            return _health(args)
        if args.call == "backup" and args.dir:
            return _backups(args, err)
        return _backup_or_restore(args, err)
    except (BackupError, SettingError, OSError, ValueError) as error:
        print(f"{args.call}: {error}", file=err)
        return EXIT_FAILED


def _instance(args: argparse.Namespace) -> str:
    from referee.web.plumbing.settings import instance_path

    return instance_path(os.environ, args.data)


def _app(instance: str, overrides: dict[str, Any] | None = None) -> Flask:
    from referee.web import create_app

    return create_app(overrides, instance_path=instance)


def _shown(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def _backup_or_restore(args: argparse.Namespace, err: TextIO) -> int:
    from referee.web.backup.archive import backup_to, check_source, restore_from
    from referee.web.plumbing.database import database, normalize_url
    from referee.web.plumbing.settings import database_url

    instance = _instance(args)
    file = _one_source(args)
    if args.call == "backup":
        # Before the app exists: it would make the data folder, and its database on first use.
        check_source(normalize_url(database_url(os.environ, instance)))
    app = _app(instance)
    url = database(app).url
    try:
        counts = backup_to(app, file) if args.call == "backup" else restore_from(app, file)
    finally:
        database(app).dispose()
    said = ", ".join(f"{name} {count}" for name, count in counts.items())
    if args.call == "backup":
        print(f"backed up {_shown(url)}: {said}", file=err)
    else:
        print(f"restored {file} into {_shown(url)}: {said}", file=err)
    return EXIT_OK


def _one_source(args: argparse.Namespace) -> str:
    """FILE, or (restore --dir) the newest backup in the folder: one of them."""
    from referee.web.backup.folder import newest

    if (args.file is None) == (args.dir is None):
        raise ValueError("name a FILE or --dir DIR (one of them)")
    if args.dir is None and any(getattr(args, name, None) for name in _WITH_DIR):
        raise ValueError("--keep, --every and --rclone go with --dir DIR")
    return args.file if args.dir is None else str(newest(Path(args.dir)))


def _backups(args: argparse.Namespace, err: TextIO) -> int:
    """backup --dir: a timestamped backup there now, or (--every) whenever one is due."""
    from referee.web.backup.folder import Rotation, duration, every

    if args.file is not None:
        raise ValueError("name a FILE or --dir DIR (one of them)")
    keep = KEEP if args.keep is None else args.keep
    if keep < 1:
        raise ValueError("--keep must be 1 or more")
    interval = duration(args.every) if args.every else None
    remote = None if args.rclone in (None, "", "none") else args.rclone
    rotation = Rotation(Path(args.dir), keep, remote)

    def once() -> None:
        took = rotation.take(lambda path: _backup_or_restore(_with(args, file=str(path)), err))
        print(f"backup: {took.name} in {rotation.folder}, the newest {keep} kept", file=err)

    if interval is None:
        once()
        return EXIT_OK
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(EXIT_OK))  # PID 1 in a container
    every(rotation, interval, once, err)
    return EXIT_OK  # pragma: no cover - the schedule ends by a signal


def _with(args: argparse.Namespace, **changes: Any) -> argparse.Namespace:
    """The arguments of one backup of a --dir schedule: to that file."""
    plain = dict.fromkeys(("dir", *_WITH_DIR))
    return argparse.Namespace(**{**vars(args), **plain, **changes})


def _health(args: argparse.Namespace) -> int:
    from referee import reach

    return reach.main(["--port", str(args.port)])  # the HEALTHCHECK's `python3 -m referee.reach`


def _warm(args: argparse.Namespace, err: TextIO) -> int:
    from referee.engine.variants import VARIANTS
    from referee.web.core.languages import LANGUAGES
    from referee.web.printing.cache import pdf_cache
    from referee.web.printing.documents import warm

    app = _app(_instance(args))
    built = warm(
        app,
        variants=list(args.variant or VARIANTS),
        languages=list(args.lang or LANGUAGES),
        papers=list(args.paper or ("a4", "letter")),
    )
    cache = pdf_cache(app)
    held = cache.size() // 1024
    print(f"built {built} PDFs; the cache holds {held} KB in {cache.folder}", file=err)
    return EXIT_OK


#: Open files below which serve says how few streams the server can hold (a socket each).
_FEW_FILES: Final = 4096


def _open_files(err: TextIO) -> None:
    """Raise the open-files limit to what the system allows this user (gunicorn and its
    workers inherit it): every open stream is a socket, and 1024, a shell's usual soft limit,
    would stop a club night's thousand phones well short."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft != resource.RLIM_INFINITY and soft < _FEW_FILES:
        print(
            f"serve: the open-files limit is {soft}: each open page's live updates take one, "
            "so raise it (ulimit -n, or LimitNOFILE= in a systemd unit) for many phones",
            file=err,
        )


def _serve(args: argparse.Namespace, err: TextIO) -> int:
    """Bring the database up to date here, then become gunicorn with deploy/gunicorn.conf.py
    (the settings the deployment guide uses) serving `create_app()` on this data folder."""
    from referee.reach import invitation, lan_address
    from referee.web.plumbing import resources
    from referee.web.plumbing.database import database
    from referee.web.plumbing.hosting import LOCAL_HOSTS

    instance = _instance(args)
    environ = dict(os.environ)
    environ["RUMMY_INSTANCE_PATH"] = instance
    host = lan_address() if args.lan else args.host.strip("[]")
    environ["GUNICORN_BIND"] = f"[{host}]:{args.port}" if ":" in host else f"{host}:{args.port}"
    if args.workers is not None:
        if args.workers < 1:
            print("serve: --workers must be 1 or more", file=err)
            return EXIT_FAILED
        environ["GUNICORN_WORKERS"] = str(args.workers)
    named = environ.get("SERVER_NAME") or environ.get("TRUSTED_HOSTS")
    if not named and host not in (*LOCAL_HOSTS, *_EVERY_INTERFACE):
        environ["TRUSTED_HOSTS"] = ",".join((*LOCAL_HOSTS, host))

    app = _app(instance)
    try:
        database(app).engine.connect().close()  # made and migrated once, before any worker
    finally:
        database(app).dispose()
    print(f"serve: data in {instance}, database {_shown(database(app).url)}", file=err)
    if (args.workers or 1) > 1 and database(app).url.startswith("sqlite"):
        print(
            "serve: on SQLite a page's live updates reach only the phones served by the same "
            "worker: with several workers the others poll (set DATABASE_URL to PostgreSQL)",
            file=err,
        )
    if not named and host in _EVERY_INTERFACE:
        print(
            "serve: answering only to the names localhost and 127.0.0.1: set TRUSTED_HOSTS "
            "(a comma list) or SERVER_NAME to be reached by another",
            file=err,
        )
    _open_files(err)
    if args.lan:
        print(invitation(f"http://{host}:{args.port}/"), file=err)
    err.flush()
    config = str(resources.DEPLOY / "gunicorn.conf.py")
    argv = [sys.executable, "-m", "gunicorn", "-c", config, "referee.web:create_app()"]
    os.execve(sys.executable, argv, environ)
    return EXIT_OK  # pragma: no cover - execve does not return
