"""Backups: every row of every table of the app, as one JSON document, and back (SPEC.md).

`rummy-referee backup FILE` and `rummy-referee restore FILE` (or `flask --app wsgi backup|restore`).
The tables are read from the database itself, so whatever a feature adds (clubs, keys...) is
in the backup without being listed here; the document names the schema revision it was taken
at, and a restore lays the rows into an empty database at that revision, then brings it up to
date with the migrations. Games keep their ids, versions, history and token hashes: old edit
links still edit. SQLite and PostgreSQL alike, in either direction.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import IO, Any, Final

import click
from flask import Flask
from flask.cli import with_appcontext
from sqlalchemy import Connection, Engine, MetaData, Table, create_engine, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.types import BigInteger, Boolean, Date, DateTime, Integer, SmallInteger, String

from referee.web.backup import checks as backup_checks
from referee.web.backup.reader import BackupError as BackupError
from referee.web.backup.reader import BackupReader
from referee.web.plumbing.database import (
    MIGRATION_LOCK,
    VERSION_TABLE,
    database,
    known_revision,
    make_engine,
    migrate_on,
    schema_revision,
)
from referee.web.plumbing.version import app_version

FORMAT: Final = "rummy-referee-backup"
FORMAT_VERSION: Final = 1
#: Alembic's own bookkeeping: the revision is in the document's head instead.
_SKIPPED: Final = frozenset({VERSION_TABLE})
_BATCH: Final = 500
#: What an Alembic revision id looks like (ours: "0003").
_REVISION: Final = re.compile(r"\w{1,32}")


def _tables(conn: Connection) -> list[Table]:
    metadata = MetaData()
    metadata.reflect(bind=conn)
    return [table for table in metadata.sorted_tables if table.name not in _SKIPPED]


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return value


def dump(engine: Engine, out: IO[str]) -> dict[str, int]:
    """Write every table's rows to `out` in one read transaction; rows written per table."""
    counts: dict[str, int] = {}
    with engine.connect() as conn, conn.begin():
        head = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "app_version": app_version(),
            "schema_revision": schema_revision(conn),
            "created_at": datetime.now(UTC).isoformat(),
        }
        out.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "tables": {')
        for index, table in enumerate(_tables(conn)):
            columns = [column.name for column in table.columns]
            order = list(table.primary_key.columns) or list(table.columns)
            out.write(("," if index else "") + f"\n{json.dumps(table.name)}: ")
            out.write(f'{{"columns": {json.dumps(columns)}, "rows": [')
            counts[table.name] = 0
            for number, row in enumerate(conn.execute(select(table).order_by(*order))):
                values = [_plain(value) for value in row]
                out.write(("," if number else "") + "\n" + json.dumps(values, ensure_ascii=False))
                counts[table.name] += 1
            out.write("]}")
        out.write("\n}}\n")
    return counts


def _check_head(head: dict[str, Any]) -> str:
    if head.get("format") != FORMAT:
        raise BackupError("this file is not a Rummy Referee backup")
    if head.get("format_version") != FORMAT_VERSION:
        raise BackupError(f"backup format {head.get('format_version')} is not one I read")
    revision = head.get("schema_revision")
    if not isinstance(revision, str):
        raise BackupError("the backup names no schema revision")
    if not _REVISION.fullmatch(revision) or not known_revision(revision):
        raise BackupError(
            f"the backup was taken at schema revision {revision[:40]!r}, which this version "
            f"of Rummy Referee does not know (a newer version wrote it?)"
        )
    return revision


def _reset_sequences(conn: Connection, tables: list[Table]) -> None:
    """PostgreSQL: the next generated id follows the restored ones."""
    if conn.dialect.name != "postgresql":
        return
    for table in tables:
        for column in table.primary_key.columns:
            sequence = conn.execute(
                text("SELECT pg_get_serial_sequence(:table, :column)"),
                {"table": table.name, "column": column.name},
            ).scalar()
            if sequence:
                highest = conn.execute(select(func.max(column))).scalar()
                conn.execute(
                    text("SELECT setval(:sequence, :value, :called)"),
                    {"sequence": sequence, "value": highest or 1, "called": highest is not None},
                )


def _warn(line: str) -> None:
    print(f"restore: {line}", file=sys.stderr)


def _refuse_unless_empty(conn: Connection) -> None:
    """Before any migration: a database with rows is never migrated down or filled."""
    for table in _tables(conn):
        if conn.execute(select(func.count()).select_from(table)).scalar():
            raise BackupError(f"the database is not empty (table {table.name} has rows)")


def restore(url: str, source: IO[bytes], *, warn: Callable[[str], None] = _warn) -> dict[str, int]:
    """Lay a backup into the empty database at `url` and bring it to the newest schema, in one
    transaction: every row is typed and inserted, every game and club is read back through the
    app's own readers (`backup_checks`), and only then is anything committed. The backup is
    read as a stream: memory does not grow with its size."""
    reader = BackupReader(source)
    revision = _check_head(reader.head())
    engine = make_engine(url)
    try:
        with engine.connect().execution_options(write=True) as conn, conn.begin():
            if conn.dialect.name == "postgresql":  # no app worker migrates meanwhile
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            _refuse_unless_empty(conn)
            migrate_on(conn, revision)
            tables = _tables(conn)
            by_name = {table.name: table for table in tables}
            counts = dict.fromkeys(by_name, 0)
            for name, columns, rows in reader.tables():
                if name not in by_name:
                    raise BackupError(f"table {name!r} is not in this schema")
                counts[name] = _restore_table(conn, by_name[name], columns, rows)
            _reset_sequences(conn, tables)
            migrate_on(conn, "head")
            for warning in backup_checks.read_back(conn):
                warn(warning)
    finally:
        engine.dispose()
    return counts


def _restore_table(
    conn: Connection, table: Table, columns: list[str], rows: Iterator[list[Any]]
) -> int:
    unknown = [name for name in columns if name not in table.columns]
    if unknown or len(set(columns)) != len(columns):
        raise BackupError(f"the columns of {table.name} do not match this schema")
    typed = [_Column(table, table.columns[name]) for name in columns]
    batch: list[dict[str, Any]] = []
    count = 0
    for count, row in enumerate(rows, start=1):
        if len(row) != len(columns):
            said = f"{len(row)} values for {len(columns)} columns"
            raise BackupError(f"{table.name}, row {count}: {said}")
        batch.append({c.name: c.read(value, count) for c, value in zip(typed, row, strict=True)})
        if len(batch) == _BATCH:
            _insert(conn, table, batch, count - len(batch) + 1)
            batch = []
    if batch:
        _insert(conn, table, batch, count - len(batch) + 1)
    return count


class _Column:
    """A column's reader: the backup's JSON value as the column keeps it, or why not."""

    def __init__(self, table: Table, column: Any) -> None:
        self.table, self.name, self.type = table.name, column.name, column.type
        self.length = getattr(column.type, "length", None)

    def _refuse(self, row: int, what: str) -> BackupError:
        return BackupError(f"{self.table}, row {row}: {self.name} {what}")

    def read(self, value: Any, row: int) -> Any:
        if value is None:
            return None
        kind = self.type
        if isinstance(kind, DateTime | Date):
            return self._moment(value, row)
        if isinstance(kind, Boolean):
            if not isinstance(value, bool):
                raise self._refuse(row, f"is {value!r}, not true or false")
        elif isinstance(kind, Integer):
            if not isinstance(value, int) or isinstance(value, bool):
                raise self._refuse(row, f"is {_short(value)}, not a whole number")
            # The column's own range on every database: SQLite would keep a round 10**15 or a
            # version 2**62 in an INTEGER column that PostgreSQL holds to 32 bits.
            bits = (
                63 if isinstance(kind, BigInteger) else 15 if isinstance(kind, SmallInteger) else 31
            )
            if not -(2**bits) <= value < 2**bits:
                raise self._refuse(row, f"is {_short(value)}, out of its column's range")
        elif isinstance(kind, String):  # Text too
            if not isinstance(value, str):
                raise self._refuse(row, f"is {_short(value)}, not text")
            if "\x00" in value:
                raise self._refuse(row, "holds a NUL character")
            if self.length is not None and len(value) > self.length:
                raise self._refuse(row, f"is longer than {self.length} characters")
        return value

    def _moment(self, value: Any, row: int) -> Any:
        try:
            if isinstance(self.type, DateTime):
                return datetime.fromisoformat(value)
            return date.fromisoformat(value)
        except (TypeError, ValueError):
            raise self._refuse(row, f"is {_short(value)}, not a date and time") from None


def _short(value: Any) -> str:
    said = json.dumps(value, ensure_ascii=False)
    return said if len(said) <= 40 else said[:39] + "…"


def _insert(conn: Connection, table: Table, batch: list[dict[str, Any]], first: int) -> None:
    """The batch in one statement; refused, the row that is refused says why."""
    try:
        with conn.begin_nested():
            conn.execute(table.insert(), batch)
        return
    except DBAPIError:
        pass
    for number, row in enumerate(batch, start=first):
        try:
            with conn.begin_nested():
                conn.execute(table.insert(), [row])
        except DBAPIError as error:
            raise BackupError(f"{table.name}, row {number}: {_refusal(error)}") from None
    raise BackupError(f"{table.name}, rows {first} to {first + len(batch) - 1} are refused")


def _refusal(error: DBAPIError) -> str:
    """The database's refusal of a row in words, with its own message."""
    said = str(error.orig).strip().splitlines()
    detail = " ".join(line.strip() for line in said[:2])
    lowered = detail.lower()
    if "unique" in lowered or "duplicate" in lowered:
        return f"the same key as an earlier row ({detail})"
    if "foreign key" in lowered:
        return f"refers to a row the backup does not have, or has later ({detail})"
    if "not null" in lowered or "null value" in lowered:
        return f"a value that cannot be empty is empty ({detail})"
    return detail


# -- commands -----------------------------------------------------------------------------------


def check_source(url: str) -> None:
    """Refuse to back up a database that holds nothing of ours: the command would make it
    (an SQLite file that is not there: the data folder is another), or it was never served."""
    parsed = make_url(url)
    shown = parsed.render_as_string(hide_password=True)
    if parsed.get_backend_name() == "sqlite" and not Path(parsed.database or "").is_file():
        raise BackupError(
            f"there is no database at {parsed.database or shown}: name the data folder "
            "(--data or RUMMY_INSTANCE_PATH) or the database (DATABASE_URL) the app uses"
        )
    engine = create_engine(url)  # not the app's: that one would migrate the database first
    try:
        with engine.connect() as conn:
            revision = schema_revision(conn)
    except SQLAlchemyError as error:
        reason = getattr(error, "orig", None) or error  # the driver's words, without the SQL
        raise BackupError(f"cannot read the database at {shown}: {reason}") from None
    finally:
        engine.dispose()
    if revision is None:
        raise BackupError(f"the database at {shown} holds no Rummy Referee tables: nothing to save")


def backup_to(app: Flask, path: str) -> dict[str, int]:
    """Back up the app's database to `path` ("-": standard output), written aside then moved."""
    check_source(database(app).url)
    engine = database(app).engine
    if path == "-":
        return dump(engine, sys.stdout)
    target = Path(path)
    draft = target.with_name(f".{target.name}.partial")
    try:
        with draft.open("w", encoding="utf-8") as handle:
            counts = dump(engine, handle)
            handle.flush()
            os.fsync(handle.fileno())  # on the disk before it takes the backup's name
        draft.replace(target)
    except BaseException:  # a failed read, a full disk, a stop signal: no half backup left
        draft.unlink(missing_ok=True)
        raise
    _sync_folder(target.parent)
    return counts


def _sync_folder(folder: Path) -> None:
    """The rename itself on the disk: a power cut now leaves the whole backup, never none."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def restore_from(app: Flask, path: str) -> dict[str, int]:
    """Restore the backup at `path` ("-": standard input) into the app's empty database."""
    database(app).dispose()
    if path == "-":
        return restore(database(app).url, sys.stdin.buffer)
    with open(path, "rb") as handle:
        return restore(database(app).url, handle)


def _said(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counts.items())


@click.command("backup")
@click.argument("file")
@with_appcontext
def backup_command(file: str) -> None:
    """Write every game (and all else the app keeps) to FILE as JSON ("-": standard output)."""
    from flask import current_app

    counts = backup_to(current_app, file)
    click.echo(f"backed up: {_said(counts)}", err=True)


@click.command("restore")
@click.argument("file")
@with_appcontext
def restore_command(file: str) -> None:
    """Restore FILE (a backup) into this app's database, which must be empty."""
    from flask import current_app

    try:
        counts = restore_from(current_app, file)
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"restored: {_said(counts)}", err=True)


def init_app(app: Flask) -> None:
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
