"""Seasons in the database: load and save, and the evenings a season's dates take in. What a
season may be is the engine's (`referee.engine.seasons`); when, and in which transaction, is
the service's. Reads open their own read transaction; writes run on the caller's connection.

An evening is read here as the events feature keeps it (its row, its state read back through
`Event.from_json`): a season reads evenings, never writes one. An ordinary club game is read as
the clubs feature keeps it (its record in `club_games`), a club night's table left out.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from sqlalchemy import Connection, delete, insert, select, update

from referee.engine.events import Event
from referee.engine.records import GameRecord
from referee.engine.seasons import Rule, Season
from referee.web.clubs.models import club_games, clubs
from referee.web.core import clock, ids
from referee.web.events.models import event_games, events
from referee.web.games.models import games
from referee.web.plumbing.database import database

from .models import seasons


@dataclass(frozen=True)
class StoredSeason:
    """A season as kept: its id, club, version and times around the engine's settings, and the
    evenings within its dates that the host left out."""

    id: str
    club_id: str
    version: int
    season: Season
    left_out: tuple[str, ...]
    created_at: datetime.datetime
    updated_at: datetime.datetime


@dataclass(frozen=True)
class StoredEvening:
    """One of the club's evenings, as a season reads it."""

    id: str
    name: str
    date: datetime.date
    event: Event

    kind: ClassVar[str] = "evening"


@dataclass(frozen=True)
class StoredGame:
    """One of the club's ordinary games (not a club night's table), as a season reads it: its
    day (the UTC date it was begun, as the club's page counts its nights) and its record, which
    is `behind` when the game has moved on since it was summed up (the service reads it again)."""

    id: str
    date: datetime.date
    record: GameRecord | None
    behind: bool


_COLUMNS = (
    seasons.c.id,
    seasons.c.club_id,
    seasons.c.name,
    seasons.c.starts,
    seasons.c.ends,
    seasons.c.rule,
    seasons.c.best,
    seasons.c.min_evenings,
    seasons.c.left_out,
    seasons.c.club_games,
    seasons.c.version,
    seasons.c.created_at,
    seasons.c.updated_at,
)


def _stored(row: Any) -> StoredSeason:
    return StoredSeason(
        id=row.id,
        club_id=row.club_id,
        version=row.version,
        # Kept as the engine made it: read back as it was checked (a restore checks it again).
        season=Season(
            name=row.name,
            starts=row.starts,
            ends=row.ends,
            rule=Rule(row.rule),
            best=row.best,
            min_evenings=row.min_evenings,
            club_games=bool(row.club_games),
        ),
        left_out=tuple(row.left_out or ()),
        created_at=clock.aware(row.created_at),
        updated_at=clock.aware(row.updated_at),
    )


def read(conn: Connection, season_id: str, *, lock: bool = False) -> StoredSeason | None:
    """The season on `conn` (its row locked for the transaction when `lock`), or None."""
    if not ids.valid_id(season_id):
        return None
    query = select(*_COLUMNS).where(seasons.c.id == season_id)
    row = conn.execute(query.with_for_update() if lock else query).first()
    return None if row is None else _stored(row)


def load(season_id: str) -> StoredSeason | None:
    if not ids.valid_id(season_id):
        return None
    with database().reading() as conn:
        return read(conn, season_id)


def of_club(club_id: str) -> list[StoredSeason]:
    """The club's seasons, newest start first."""
    if not ids.valid_id(club_id):
        return []
    with database().reading() as conn:
        rows = conn.execute(
            select(*_COLUMNS)
            .where(seasons.c.club_id == club_id)
            .order_by(seasons.c.starts.desc(), seasons.c.created_at.desc())
        ).all()
    return [_stored(row) for row in rows]


def lang_of(season_id: str) -> str | None:
    """The season's language: its club's (its pages speak it to a phone that chose none)."""
    if not ids.valid_id(season_id):
        return None
    with database().reading() as conn:
        found: str | None = conn.execute(
            select(clubs.c.lang)
            .join(seasons, seasons.c.club_id == clubs.c.id)
            .where(seasons.c.id == season_id)
        ).scalar()
    return found


def evenings_on(
    conn: Connection, club_id: str, starts: datetime.date, ends: datetime.date
) -> list[StoredEvening]:
    """The club's evenings dated `starts` to `ends`, in date order (one query)."""
    rows = conn.execute(
        select(events.c.id, events.c.name, events.c.date, events.c.state)
        .where(events.c.club_id == club_id, events.c.date >= starts, events.c.date <= ends)
        .order_by(events.c.date, events.c.created_at)
    ).all()
    return [StoredEvening(r.id, r.name, r.date, Event.from_json(r.state)) for r in rows]


def evenings(club_id: str, starts: datetime.date, ends: datetime.date) -> list[StoredEvening]:
    with database().reading() as conn:
        return evenings_on(conn, club_id, starts, ends)


def games_on(
    conn: Connection, club_id: str, starts: datetime.date, ends: datetime.date
) -> list[StoredGame]:
    """The club's ordinary games begun `starts` to `ends` (UTC days), in the order the club
    lists them; a club night's tables are not among them (one query)."""
    first = datetime.datetime.combine(starts, datetime.time(), datetime.UTC)
    after = datetime.datetime.combine(ends + datetime.timedelta(days=1), datetime.time(),
                                      datetime.UTC)  # fmt: skip
    rows = conn.execute(
        select(
            club_games.c.game_id,
            club_games.c.played_at,
            club_games.c.version,
            club_games.c.record,
            games.c.version.label("game_version"),
        )
        .join(games, games.c.id == club_games.c.game_id)
        .where(
            club_games.c.club_id == club_id,
            club_games.c.played_at >= first,
            club_games.c.played_at < after,
            club_games.c.game_id.not_in(select(event_games.c.game_id)),
        )
        .order_by(club_games.c.played_at, club_games.c.game_id)
    ).all()
    return [
        StoredGame(
            id=row.game_id,
            date=clock.aware(row.played_at).astimezone(datetime.UTC).date(),
            record=None if row.record is None else GameRecord.from_json(row.record),
            behind=row.record is None or row.version != row.game_version,
        )
        for row in rows
    ]


def games_between(club_id: str, starts: datetime.date, ends: datetime.date) -> list[StoredGame]:
    with database().reading() as conn:
        return games_on(conn, club_id, starts, ends)


# -- writing ----------------------------------------------------------------------------------


def insert_season(
    conn: Connection, club_id: str, season: Season, left_out: Sequence[str]
) -> StoredSeason:
    now = clock.now()
    season_id = ids.new_id()
    conn.execute(insert(seasons).values(id=season_id, club_id=club_id, **fields(season, left_out),
                                        version=1, created_at=now, updated_at=now))  # fmt: skip
    return StoredSeason(season_id, club_id, 1, season, tuple(left_out), now, now)


def save(
    conn: Connection, stored: StoredSeason, season: Season, left_out: Sequence[str]
) -> StoredSeason:
    now = clock.now()
    version = stored.version + 1
    conn.execute(
        update(seasons)
        .where(seasons.c.id == stored.id)
        .values(**fields(season, left_out), version=version, updated_at=now)
    )
    return replace(stored, version=version, season=season, left_out=tuple(left_out), updated_at=now)


def remove(conn: Connection, season_id: str) -> None:
    conn.execute(delete(seasons).where(seasons.c.id == season_id))


def fields(season: Season, left_out: Sequence[str]) -> dict[str, Any]:
    """A season's settings as its row keeps them, and as the service reads a change (the
    fields a writer names go over these)."""
    return {
        "name": season.name,
        "starts": season.starts,
        "ends": season.ends,
        "rule": season.rule.value,
        "best": season.best,
        "min_evenings": season.min_evenings,
        "club_games": season.club_games,
        "left_out": list(left_out),
    }
