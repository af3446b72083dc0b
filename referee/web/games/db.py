"""Database connections for the games: one engine per URL, SQLite in WAL mode, schema by Alembic."""

from __future__ import annotations

import fcntl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# Any constant works; it only has to be the same in every process that migrates.
_PG_MIGRATION_LOCK = 7_310_412_277

_engines: dict[str, Engine] = {}
_upgraded: set[str] = set()
_lock = threading.Lock()


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


def get_engine(url: str) -> Engine:
    """The engine for a database URL, made once per process, the schema brought up to date."""
    engine = _engines.get(url)
    if engine is not None and url in _upgraded:
        return engine
    with _lock:
        engine = _engines.get(url)
        if engine is None:
            parsed = make_url(url)
            if parsed.get_backend_name() == "sqlite":
                if parsed.database and parsed.database != ":memory:":
                    Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
                engine = _sqlite_engine(url)
            else:
                engine = create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)
            _engines[url] = engine
        if url not in _upgraded:
            upgrade(engine)
            _upgraded.add(url)
    return engine


@contextmanager
def _migration_lock(engine: Engine) -> Iterator[Connection]:
    """One migrating process at a time (gunicorn workers start together)."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": _PG_MIGRATION_LOCK})
            conn.commit()
            try:
                yield conn
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": _PG_MIGRATION_LOCK})
                conn.commit()
        return
    database = engine.url.database
    lock_path = Path(f"{database}.migrate-lock") if database else None
    if lock_path is None or database == ":memory:":
        with engine.connect() as conn:
            yield conn
        return
    with open(lock_path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            with engine.connect() as conn:
                yield conn
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def upgrade(engine: Engine) -> None:
    """Apply the Alembic migrations that this database has not seen yet."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with _migration_lock(engine) as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
        conn.commit()


@contextmanager
def reading(url: str) -> Iterator[Connection]:
    """A connection in a read transaction."""
    with get_engine(url).connect() as conn, conn.begin():
        yield conn


@contextmanager
def writing(url: str) -> Iterator[Connection]:
    """A connection in a write transaction (SQLite: BEGIN IMMEDIATE), committed at the end."""
    with get_engine(url).connect().execution_options(write=True) as conn, conn.begin():
        yield conn


def dispose_all() -> None:
    """Close every pooled connection (tests, and gunicorn workers after fork)."""
    with _lock:
        for engine in _engines.values():
            engine.dispose()
        _engines.clear()
        _upgraded.clear()
