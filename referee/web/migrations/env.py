"""Alembic environment of the app's tables; `database.upgrade` passes its connection in."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine

import referee.web.clubs.models  # (its tables join the same metadata)
import referee.web.events.models  # (as do the club nights')
import referee.web.seasons.models  # noqa: F401  (and a club's seasons)
from referee.web.games.models import metadata
from referee.web.plumbing.database import VERSION_TABLE, normalize_url


def run_migrations() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        context.configure(
            connection=connection, target_metadata=metadata, version_table=VERSION_TABLE
        )
        with context.begin_transaction():
            context.run_migrations()
        return
    # Alembic's own command line, for writing migrations (serving and `flask db upgrade`
    # pass a connection): DATABASE_URL=... alembic -c referee/web/alembic.ini revision -m "..."
    url = context.config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL")
    engine = create_engine(normalize_url(url or "sqlite:///instance/rummy.sqlite3"))
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=metadata, version_table=VERSION_TABLE)
        with context.begin_transaction():
            context.run_migrations()


run_migrations()
