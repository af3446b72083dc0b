"""The app's database: one SQLAlchemy engine per app in `app.extensions`, schema by Alembic.

`create_app` attaches a `Database` for `DATABASE_URL`. Its engine is made on first use in each
process (a gunicorn worker forked from a master never shares the master's connections) and the
schema is brought up to date then, so serving needs no separate step; `flask --app wsgi db
upgrade` does the same by hand. SQLite runs in WAL mode and writers take the lock at BEGIN.
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from flask import Flask, current_app
from flask.cli import AppGroup
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url

MIGRATIONS = Path(__file__).resolve().parents[1] / "migrations"
EXTENSION = "database"
#: Alembic's record of the schema's revision. Named when the games were the only tables; kept,
#: so databases made then go on upgrading.
VERSION_TABLE = "games_alembic_version"
# Any constant works; it only has to be the same in every process that migrates.
MIGRATION_LOCK = 7_310_412_277
#: Where `after_commit` keeps its hooks in a connection's `info`.
_AFTER_COMMIT = "after_commit"


def normalize_url(url: str) -> str:
    """Let `postgres://` and `postgresql://` URLs use psycopg 3, the driver we install."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def _sqlite_engine(url: str) -> Engine:
    engine = create_engine(url, connect_args={"timeout": 15})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # We issue BEGIN ourselves (below), so pysqlite must not.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=15000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        # A writer takes the write lock when it begins, not halfway through: two writers on
        # one game queue up instead of failing with "database is locked" on the upgrade.
        if connection.get_execution_options().get("write"):
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            connection.exec_driver_sql("BEGIN")

    return engine


def make_engine(url: str) -> Engine:
    """An engine for `url` as the app makes them (SQLite: WAL, BEGIN IMMEDIATE for writers)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        return _sqlite_engine(url)
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)


class Database:
    """The engine of one database URL, made (and migrated) on first use in each process."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._engine: Engine | None = None
        self._pid = 0
        self._lock = threading.Lock()

    @property
    def engine(self) -> Engine:
        if self._engine is not None and self._pid == os.getpid():
            return self._engine
        with self._lock:
            if self._engine is None or self._pid != os.getpid():
                if self._engine is not None:
                    # Forked: the parent's pooled connections are not ours to close.
                    self._engine.dispose(close=False)
                engine = make_engine(self.url)
                upgrade(engine)
                self._engine, self._pid = engine, os.getpid()
        return self._engine

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A connection in a read transaction."""
        with self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """A connection in a write transaction (SQLite: BEGIN IMMEDIATE), committed at the end;
        then what `after_commit` asked for is done (never when the write is rolled back)."""
        with self.engine.connect().execution_options(write=True) as conn:
            try:
                with conn.begin():
                    yield conn
                hooks = conn.info.pop(_AFTER_COMMIT, [])
            finally:
                # conn.info lives with the pooled connection: a rolled-back write leaves nothing.
                conn.info.pop(_AFTER_COMMIT, None)
            for hook in hooks:
                hook()

    def dispose(self) -> None:
        """Close every pooled connection (the next use makes the engine again)."""
        with self._lock:
            if self._engine is not None:
                self._engine.dispose()
            self._engine = None


def after_commit(conn: Connection, hook: Callable[[], None]) -> None:
    """Call `hook` once the write transaction `conn` is in has committed (`Database.writing`):
    what tells others of a write (the live push on SQLite) never tells of one rolled back."""
    conn.info.setdefault(_AFTER_COMMIT, []).append(hook)


def database(app: Flask | None = None) -> Database:
    """The database of `app`, or of the current app."""
    found: Database = (app or current_app).extensions[EXTENSION]
    return found


@contextmanager
def _migration_lock(engine: Engine) -> Iterator[Connection]:
    """One migrating process at a time (gunicorn workers start together)."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            conn.commit()
            try:
                yield conn
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
                conn.commit()
        return
    path = engine.url.database
    if not path or path == ":memory:":
        with engine.connect() as conn:
            yield conn
        return
    with open(f"{path}.migrate-lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            with engine.connect() as conn:
                yield conn
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def upgrade(engine: Engine) -> None:
    """Apply the Alembic migrations that this database has not seen yet."""
    migrate_to(engine, "head")


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def migrate_to(engine: Engine, revision: str) -> None:
    """Bring the schema to `revision` ("head": the newest), up or down (a restore needs both)."""
    with _migration_lock(engine) as conn:
        migrate_on(conn, revision)
        conn.commit()


def migrate_on(conn: Connection, revision: str) -> None:
    """Bring the schema to `revision` on `conn`, inside the transaction it is in, if any (a
    restore migrates, fills and checks the tables in one transaction)."""
    config = _alembic_config()
    config.attributes["connection"] = conn
    try:
        command.upgrade(config, revision)
    except CommandError:  # `revision` is older than the schema: go down to it
        command.downgrade(config, revision)


def known_revision(revision: str) -> bool:
    """Whether `revision` is one of this version's migrations."""
    try:
        return ScriptDirectory.from_config(_alembic_config()).get_revision(revision) is not None
    except CommandError:
        return False


def schema_revision(conn: Connection) -> str | None:
    """The Alembic revision the database's schema is at."""
    context = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE})
    return context.get_current_revision()


db_cli = AppGroup("db", help="The database: bring its schema up to date.")


@db_cli.command("upgrade")
def upgrade_command() -> None:
    """Apply every migration this database has not seen yet (serving does it on its own)."""
    found = database()
    found.engine.connect().close()  # the engine is made, and the schema migrated, on first use
    where = make_url(found.url).render_as_string(hide_password=True)
    click.echo(f"database at {where} is up to date")


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = Database(str(app.config["DATABASE_URL"]))
    app.cli.add_command(db_cli)
