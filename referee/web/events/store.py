"""Club nights in the database: load and save, nothing else. What an evening may do is the
engine's (`referee.engine.events`); when, and in which transaction, is the service's.

An evening is kept whole, as the engine writes it (`Event.to_json`), and read back only through
the engine's reader (`Event.from_json`), so a row that does not read as an evening (a hand-made
backup, a bug) is refused where it is read, never shown half. Reads open their own read
transaction; writes run on the caller's connection.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, insert, select, update

from referee.engine.events import Event
from referee.web.core import clock, ids
from referee.web.core.errors import NotFound
from referee.web.plumbing.database import database

from .models import event_games, events


class EventNotFound(NotFound):
    def __init__(self) -> None:
        super().__init__("event_not_found")


@dataclass(frozen=True)
class StoredEvent:
    """An evening as kept: its id, club, language and times around the engine's state, and
    its tables' edit tokens as kept (sealed)."""

    id: str
    club_id: str
    lang: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    event: Event
    sealed_tokens: Mapping[str, str]

    @property
    def version(self) -> int:
        return self.event.version


_COLUMNS = (
    events.c.id,
    events.c.club_id,
    events.c.lang,
    events.c.state,
    events.c.table_tokens,
    events.c.created_at,
    events.c.updated_at,
)


def _stored(row: Any) -> StoredEvent:
    return StoredEvent(
        id=row.id,
        club_id=row.club_id,
        lang=row.lang,
        created_at=clock.aware(row.created_at),
        updated_at=clock.aware(row.updated_at),
        event=Event.from_json(row.state),
        sealed_tokens=dict(row.table_tokens or {}),
    )


def read(conn: Connection, event_id: str, *, lock: bool = False) -> StoredEvent | None:
    """The evening on `conn` (its row locked for the transaction when `lock`), or None."""
    if not ids.valid_id(event_id):
        return None
    query = select(*_COLUMNS).where(events.c.id == event_id)
    row = conn.execute(query.with_for_update() if lock else query).first()
    return None if row is None else _stored(row)


def load(event_id: str) -> StoredEvent | None:
    """The evening as it is now, or None."""
    if not ids.valid_id(event_id):
        return None
    with database().reading() as conn:
        return read(conn, event_id)


def version_of(event_id: str) -> int | None:
    """The evening's version alone (a poll asks this before anything else), or None."""
    if not ids.valid_id(event_id):
        return None
    with database().reading() as conn:
        found: int | None = conn.execute(
            select(events.c.version).where(events.c.id == event_id)
        ).scalar()
    return found


def club_of(event_id: str) -> str | None:
    """The club an evening is in (without reading the evening), or None."""
    if not ids.valid_id(event_id):
        return None
    with database().reading() as conn:
        found: str | None = conn.execute(
            select(events.c.club_id).where(events.c.id == event_id)
        ).scalar()
    return found


def of_club(club_id: str) -> list[tuple[str, str, datetime.date, int]]:
    """The club's evenings, newest first: (id, name, date, version)."""
    if not ids.valid_id(club_id):
        return []
    with database().reading() as conn:
        rows = conn.execute(
            select(events.c.id, events.c.name, events.c.date, events.c.version)
            .where(events.c.club_id == club_id)
            .order_by(events.c.date.desc(), events.c.created_at.desc())
        ).all()
    return [(r.id, r.name, r.date, r.version) for r in rows]


def event_of_game(conn: Connection, game_id: str) -> tuple[str, int, int] | None:
    """The evening a game is played for, with its series and table: (event id, series,
    table), or None (one lookup by key)."""
    row = conn.execute(
        select(event_games.c.event_id, event_games.c.series, event_games.c.table_number).where(
            event_games.c.game_id == game_id
        )
    ).first()
    return None if row is None else (row.event_id, row.series, row.table_number)


# -- writing ----------------------------------------------------------------------------------


def insert_event(conn: Connection, club_id: str, event: Event, *, lang: str) -> StoredEvent:
    """A new evening in the club."""
    now = clock.now()
    event_id = ids.new_id()
    conn.execute(
        insert(events).values(
            id=event_id,
            club_id=club_id,
            name=event.name[:64],
            date=event.date,
            lang=lang,
            version=event.version,
            state=event.to_json(),
            table_tokens={},
            created_at=now,
            updated_at=now,
        )
    )
    return StoredEvent(event_id, club_id, lang, now, now, event, {})


def save(
    conn: Connection, stored: StoredEvent, event: Event, tokens: Mapping[str, str] | None = None
) -> StoredEvent:
    """The evening's new state (and its tables' sealed tokens, when new ones came)."""
    now = clock.now()
    sealed = {**stored.sealed_tokens, **(tokens or {})}
    conn.execute(
        update(events)
        .where(events.c.id == stored.id)
        .values(version=event.version, state=event.to_json(), table_tokens=sealed, updated_at=now)
    )
    return StoredEvent(
        stored.id, stored.club_id, stored.lang, stored.created_at, now, event, sealed
    )


def insert_game(conn: Connection, event_id: str, game_id: str, series: int, table: int) -> None:
    """A table's game, so that its rounds find the evening."""
    conn.execute(
        insert(event_games).values(
            game_id=game_id, event_id=event_id, series=series, table_number=table
        )
    )


def club_id_on(conn: Connection, event_id: str) -> str | None:
    """The evening's club, read on `conn`."""
    found: str | None = conn.execute(
        select(events.c.club_id).where(events.c.id == event_id)
    ).scalar()
    return found


def lang_of(event_id: str) -> str | None:
    """The evening's language (its pages speak it to a phone that chose none), or None."""
    if not ids.valid_id(event_id):
        return None
    with database().reading() as conn:
        found: str | None = conn.execute(
            select(events.c.lang).where(events.c.id == event_id)
        ).scalar()
    return found


@dataclass(frozen=True)
class AtTable:
    """The evening a game is a table of, as its pages say it."""

    club_id: str
    event_id: str
    event_name: str
    series: int  # the series this game is a table of
    table: int
    event: Event

    @property
    def rounds(self) -> int | None:
        """Rounds a series plays (None: a whole game)."""
        return self.event.series_rounds

    @property
    def last_series(self) -> bool:
        return self.series == self.event.series_count

    def next_tables(self, players: tuple[str, ...]) -> list[tuple[str, int]] | None:
        """Where `players` sit in the next series once it is drawn (None before): (name,
        table), in the order given; one who has no seat there (left) is left out."""
        drawn = self.event.series_of(self.series + 1)
        if drawn is None:
            return None
        seats = ((name, drawn.table_of(name)) for name in players)
        return [(name, table.number) for name, table in seats if table is not None]


def table_of_game(game_id: str) -> AtTable | None:
    """The evening a game is a table of, or None (one lookup by key: a game page asks)."""
    if not ids.valid_id(game_id):
        return None
    columns = (events.c.club_id, events.c.id, events.c.name, events.c.state)
    with database().reading() as conn:
        row = conn.execute(
            select(*columns, event_games.c.series, event_games.c.table_number)
            .join(events, events.c.id == event_games.c.event_id)
            .where(event_games.c.game_id == game_id)
        ).first()
    if row is None:
        return None
    return AtTable(
        club_id=row.club_id,
        event_id=row.id,
        event_name=row.name,
        series=row.series,
        table=row.table_number,
        event=Event.from_json(row.state),
    )


def series_of_games(game_ids: list[str]) -> dict[str, tuple[str, str, int, int]]:
    """Which of these games are a club night's tables: game id -> (event id, event name,
    series, table); one query."""
    wanted = [game_id for game_id in game_ids if ids.valid_id(game_id)]
    if not wanted:
        return {}
    with database().reading() as conn:
        rows = conn.execute(
            select(
                event_games.c.game_id,
                events.c.id,
                events.c.name,
                event_games.c.series,
                event_games.c.table_number,
            )
            .join(events, events.c.id == event_games.c.event_id)
            .where(event_games.c.game_id.in_(wanted))
        ).all()
    return {r.game_id: (r.id, r.name, r.series, r.table_number) for r in rows}


def version_on(conn: Connection, event_id: str) -> int | None:
    """The evening's row version, read on `conn` (a restore compares it with its state's)."""
    found: int | None = conn.execute(
        select(events.c.version).where(events.c.id == event_id)
    ).scalar()
    return found
