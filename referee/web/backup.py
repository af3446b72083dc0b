"""Backups: every row of every table of the app, as one JSON document, and back (SPEC.md).

`rummy-referee backup FILE` and `rummy-referee restore FILE` (or `flask --app wsgi backup|restore`).
The tables are read from the database itself, so whatever a feature adds (clubs, keys...) is
in the backup without being listed here; the document names the schema revision it was taken
at, and a restore lays the rows into an empty database at that revision, then brings it up to
date with the migrations. Games keep their ids, versions, history and token hashes: old edit
links still edit. SQLite and PostgreSQL alike, in either direction.

A feature whose rows hold a state only its engine can vouch for (an evening's JSON) names a
check for its table (`check_rows_with`): a restore reads every such row through it before
anything is kept, and refuses the whole backup when one does not read.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import IO, Any, Final

import click
from flask import Flask
from flask.cli import with_appcontext
from flask.sansio.app import App
from sqlalchemy import Connection, Engine, MetaData, Table, create_engine, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.types import Date, DateTime

from .database import VERSION_TABLE, database, make_engine, migrate_to, schema_revision
from .health import app_version

FORMAT: Final = "rummy-referee-backup"
FORMAT_VERSION: Final = 1
#: Alembic's own bookkeeping: the revision is in the document's head instead.
_SKIPPED: Final = frozenset({VERSION_TABLE})
_BATCH: Final = 500
#: app.extensions key: table name -> a check of one row (a dict by column), ValueError if bad.
CHECKS: Final = "backup_checks"

RowCheck = Callable[[dict[str, Any]], None]


class BackupError(RuntimeError):
    """A backup that cannot be restored here, said in plain words."""


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


def _typed(value: Any, column_type: Any) -> Any:
    if value is None:
        return None
    if isinstance(column_type, DateTime):
        return datetime.fromisoformat(value)
    if isinstance(column_type, Date):
        return date.fromisoformat(value)
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


def _check_head(document: Any) -> str:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError("this file is not a Rummy Referee backup")
    if document.get("format_version") != FORMAT_VERSION:
        raise BackupError(f"backup format {document.get('format_version')} is not one I read")
    revision = document.get("schema_revision")
    if not isinstance(revision, str) or not isinstance(document.get("tables"), dict):
        raise BackupError("the backup names no schema revision or no tables")
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


def restore(
    url: str, document: Any, checks: Mapping[str, RowCheck] | None = None
) -> dict[str, int]:
    """Lay a backup into the empty database at `url`, then migrate it to the newest schema;
    `checks` read each row of their table first (BackupError, nothing kept, when one fails)."""
    revision = _check_head(document)
    engine = make_engine(url)
    try:
        migrate_to(engine, revision)
        counts: dict[str, int] = {}
        with engine.connect() as conn, conn.begin():
            tables = _tables(conn)
            for table in tables:
                if conn.execute(select(func.count()).select_from(table)).scalar():
                    raise BackupError(f"the database is not empty (table {table.name} has rows)")
            by_name = {table.name: table for table in tables}
            unknown = set(document["tables"]) - set(by_name)
            if unknown:
                raise BackupError(f"tables this schema does not have: {', '.join(sorted(unknown))}")
            for table in tables:
                data = document["tables"].get(table.name)
                check = (checks or {}).get(table.name)
                counts[table.name] = _restore_table(conn, table, data, check)
            _reset_sequences(conn, tables)
        migrate_to(engine, "head")
    finally:
        engine.dispose()
    return counts


def _restore_table(conn: Connection, table: Table, data: Any, check: RowCheck | None) -> int:
    if data is None:
        return 0
    columns = data.get("columns") if isinstance(data, dict) else None
    if not isinstance(columns, list) or not set(columns) <= set(table.columns.keys()):
        raise BackupError(f"the columns of {table.name} do not match this schema")
    types = [table.columns[name].type for name in columns]
    rows = [
        {name: _typed(value, kind) for name, value, kind in zip(columns, row, types, strict=True)}
        for row in data.get("rows", [])
    ]
    for number, row in enumerate(rows, start=1):
        if check is not None:
            try:
                check(row)
            except (ValueError, KeyError, TypeError) as error:
                raise BackupError(f"row {number} of {table.name} does not read: {error}") from None
    for start in range(0, len(rows), _BATCH):
        conn.execute(table.insert(), rows[start : start + _BATCH])
    return len(rows)


# -- commands -----------------------------------------------------------------------------------


@contextmanager
def _opened(path: str, mode: str) -> Iterator[IO[str]]:
    if path == "-":
        yield sys.stdout if "w" in mode else sys.stdin
        return
    with open(path, mode, encoding="utf-8") as handle:
        yield handle


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
    with draft.open("w", encoding="utf-8") as handle:
        counts = dump(engine, handle)
    draft.replace(target)
    return counts


def restore_from(app: Flask, path: str) -> dict[str, int]:
    with _opened(path, "r") as handle:
        try:
            document = json.load(handle)
        except ValueError as error:
            raise BackupError(f"the file is not JSON: {error}") from None
    database(app).dispose()
    return restore(database(app).url, document, app.extensions.get(CHECKS, {}))


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


def check_rows_with(app: App, table: str, check: RowCheck) -> None:
    """A feature's check of its table's rows on restore (see the module's docstring)."""
    app.extensions.setdefault(CHECKS, {})[table] = check


def init_app(app: Flask) -> None:
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
