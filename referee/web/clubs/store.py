"""Clubs in the database: load and save, nothing else. What a club may do is the engine's
(`referee.engine.club`); when, and in which transaction, is the service's (`service.py`).

Reads open their own read transaction. Writes run on the connection of the caller's
transaction: the service's, or a game write's (the club's receiver of `game_written`), so what a
club keeps of a game commits with the game. Edit tokens are kept as hashes only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, case, func, insert, select, update

from referee.engine.club import CHAINS, Club, ClubGame, Ledger, Ratings
from referee.engine.names import MAX_NAME, name_key
from referee.engine.ratings import Rating
from referee.engine.records import GameRecord
from referee.web.core import clock, ids
from referee.web.core.errors import NotFound
from referee.web.games.models import games
from referee.web.plumbing.database import database

from .models import club_games, club_members, clubs


class ClubNotFound(NotFound):
    def __init__(self) -> None:
        super().__init__("club_not_found")


@dataclass(frozen=True)
class StoredClub:
    """A club as kept: its id, language, version and founding time around the engine's club."""

    id: str
    lang: str
    version: int  # grows with every member or game filed
    created_at: datetime
    club: Club

    @property
    def name(self) -> str:
        return self.club.name

    @property
    def members(self) -> tuple[str, ...]:
        return self.club.members


# -- reading ----------------------------------------------------------------------------------


def _members(conn: Connection, club_id: str) -> tuple[str, ...]:
    rows = conn.execute(
        select(club_members.c.name)
        .where(club_members.c.club_id == club_id)
        .order_by(club_members.c.joined_at, club_members.c.id)
    ).all()
    return tuple(row.name for row in rows)


def _load(conn: Connection, club_id: str) -> StoredClub | None:
    columns = (clubs.c.id, clubs.c.name, clubs.c.lang, clubs.c.version, clubs.c.created_at)
    row = conn.execute(select(*columns).where(clubs.c.id == club_id)).first()  # not the board
    if row is None:
        return None
    return StoredClub(
        id=row.id,
        lang=row.lang,
        version=row.version,
        created_at=clock.aware(row.created_at),
        club=Club(name=row.name, members=_members(conn, club_id)),
    )


def load(club_id: str) -> StoredClub | None:
    """The club with its members, or None."""
    if not ids.valid_id(club_id):
        return None
    with database().reading() as conn:
        return _load(conn, club_id)


def load_many(club_ids: Sequence[str]) -> list[StoredClub]:
    """Several clubs (a phone's recent list), in the order asked, the missing left out."""
    wanted = [c for c in club_ids if ids.valid_id(c)]
    if not wanted:
        return []
    with database().reading() as conn:
        found = [_load(conn, club_id) for club_id in wanted]
    return [club for club in found if club is not None]


def all_ids() -> list[str]:
    """Every club's id (`flask clubs refresh`)."""
    with database().reading() as conn:
        return list(conn.execute(select(clubs.c.id).order_by(clubs.c.created_at)).scalars())


def check_token(club_id: str, token: str | None) -> bool:
    """Whether `token` is the club's edit token (compared in constant time)."""
    if not token or not ids.valid_id(club_id):
        return False
    with database().reading() as conn:
        stored = conn.execute(select(clubs.c.edit_token_hash).where(clubs.c.id == club_id)).scalar()
    return ids.token_matches(stored, token)


def club_of_game(game_id: str) -> StoredClub | None:
    """The club a game is filed in, or None."""
    if not ids.valid_id(game_id):
        return None
    with database().reading() as conn:
        club_id = conn.execute(
            select(club_games.c.club_id).where(club_games.c.game_id == game_id)
        ).scalar()
        return None if club_id is None else _load(conn, club_id)


def last_game_id(club_id: str, conn: Connection | None = None) -> str | None:
    """The club's last table: its newest game by date, whatever its variant (None: no game)."""
    query = (
        select(club_games.c.game_id)
        .where(club_games.c.club_id == club_id)
        .order_by(club_games.c.played_at.desc(), club_games.c.game_id.desc())
        .limit(1)
    )
    if conn is not None:
        return conn.execute(query).scalar()
    with database().reading() as reading:
        return reading.execute(query).scalar()


def kept_board(club_id: str, key_format: str, *, with_games: bool = False) -> Any:
    """The board kept with the club while it is of the games as they are now (every game's
    record of the game's version now, and the board kept under the key of those records in
    `key_format`): the board, and every game's line instead when `with_games`. Else None.
    One aggregate query over the games' versions, and the board's row."""
    behind = case((club_games.c.version != games.c.version, 1), else_=0)
    with database().reading() as conn:
        count, summed, moved = conn.execute(
            select(
                func.count(),
                func.coalesce(func.sum(club_games.c.version), 0),
                func.coalesce(func.sum(behind), 0),
            )
            .select_from(club_games.join(games, games.c.id == club_games.c.game_id))
            .where(club_games.c.club_id == club_id)
        ).one()
        if moved:
            return None
        kept = clubs.c.board_games if with_games else clubs.c.board
        row = conn.execute(
            select(clubs.c.board_key, kept.label("kept")).where(clubs.c.id == club_id)
        ).first()
    if row is None or row.kept is None or row.board_key != f"{key_format}:{count}:{summed}":
        return None
    return row.kept


def ledger(conn: Connection, club_id: str) -> tuple[Ledger, dict[str, int]]:
    """The club's games as kept, in date order, and each game's version now (a game whose
    record is of an older version has moved on since)."""
    rows = conn.execute(
        select(
            club_games.c.game_id,
            club_games.c.played_at,
            club_games.c.version,
            club_games.c.record,
            club_games.c.ratings,
            games.c.version.label("game_version"),
            games.c.variant,
        )
        .join(games, games.c.id == club_games.c.game_id)
        .where(club_games.c.club_id == club_id)
        .order_by(club_games.c.played_at, club_games.c.game_id)
    ).all()
    kept = tuple(
        ClubGame(
            game_id=row.game_id,
            variant=row.variant,
            played_at=clock.aware(row.played_at),
            version=row.version if row.record is not None else 0,
            record=None if row.record is None else GameRecord.from_json(row.record),
            ratings=_ratings_from_json(row.ratings),
        )
        for row in rows
    )
    return Ledger(kept), {row.game_id: row.game_version for row in rows}


def read_back(conn: Connection, club_id: str) -> tuple[StoredClub | None, Ledger, Any]:
    """The club, its games as kept and its kept board (or None), read on `conn` as the pages
    read them: a restore reads each club back before it commits."""
    board = conn.execute(select(clubs.c.board).where(clubs.c.id == club_id)).scalar()
    return _load(conn, club_id), ledger(conn, club_id)[0], board


def _ratings_from_json(data: Any) -> Ratings:
    out: dict[str, Mapping[str, Rating] | None] = {}
    for chain in CHAINS:
        after = (data or {}).get(chain)
        out[chain] = None if after is None else {n: Rating(*pair) for n, pair in after.items()}
    return out


def _ratings_json(ratings: Ratings) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for chain in CHAINS:
        after = ratings.get(chain)
        out[chain] = None if after is None else {n: [r.mu, r.sigma] for n, r in after.items()}
    return out


# -- writing, on the caller's connection ------------------------------------------------------


def filed_in(conn: Connection, game_id: str) -> tuple[str, int] | None:
    """The club a game is filed in and the version of the game its record is of, or None: one
    lookup by the table's key (what a write of a game outside any club costs)."""
    row = conn.execute(
        select(club_games.c.club_id, club_games.c.version).where(club_games.c.game_id == game_id)
    ).first()
    return None if row is None else (row.club_id, row.version)


def insert_club(
    conn: Connection, club: Club, *, lang: str, created_at: datetime | None = None
) -> tuple[StoredClub, str]:
    """Keep a new club with its members; returns it and its edit token."""
    club_id, token = ids.new_id(), ids.new_edit_token()
    now = clock.now()
    conn.execute(
        insert(clubs).values(
            id=club_id,
            edit_token_hash=ids.token_hash(token),
            name=club.name,
            lang=lang,
            version=1,
            created_at=created_at or now,
            updated_at=now,
        )
    )
    insert_members(conn, club_id, club.members)
    return StoredClub(club_id, lang, 1, created_at or now, club), token


def lock(conn: Connection, club_id: str) -> StoredClub:
    """The club, its row locked for this transaction (ClubNotFound if there is none)."""
    if not ids.valid_id(club_id):
        raise ClubNotFound()
    found = conn.execute(select(clubs.c.id).where(clubs.c.id == club_id).with_for_update()).scalar()
    stored = None if found is None else _load(conn, club_id)
    if stored is None:
        raise ClubNotFound()
    return stored


def insert_members(conn: Connection, club_id: str, names: Iterable[str]) -> None:
    now = clock.now()
    rows = [
        {"club_id": club_id, "name": name[:MAX_NAME], "name_key": name_key(name), "joined_at": now}
        for name in names
    ]
    if rows:
        conn.execute(insert(club_members), rows)


def insert_games(conn: Connection, club_id: str, filed: Sequence[tuple[str, datetime]]) -> None:
    """Games filed in the club: (game id, when it was played), not summed up yet."""
    rows = [
        {"game_id": game_id, "club_id": club_id, "played_at": played_at, "version": 0}
        for game_id, played_at in filed
    ]
    if rows:
        conn.execute(insert(club_games), rows)


def live_version(conn: Connection, club_id: str) -> int | None:
    """The club's version and its games' summed: it grows with every change the club's page
    shows (a member or game filed bumps the first, a round the second; a game's version only
    grows and a filed game stays filed). None: no such club."""
    games_sum = (
        select(func.coalesce(func.sum(games.c.version), 0))
        .select_from(club_games.join(games, games.c.id == club_games.c.game_id))
        .where(club_games.c.club_id == club_id)
        .scalar_subquery()
    )
    found: int | None = conn.execute(
        select(clubs.c.version + games_sum).where(clubs.c.id == club_id)
    ).scalar()
    return found


def touch(conn: Connection, stored: StoredClub) -> StoredClub:
    """The club's version one up (its members or games changed)."""
    version = stored.version + 1
    conn.execute(
        update(clubs).where(clubs.c.id == stored.id).values(version=version, updated_at=clock.now())
    )
    return StoredClub(stored.id, stored.lang, version, stored.created_at, stored.club)


def save_games(conn: Connection, changed: Sequence[ClubGame]) -> None:
    """Each game's record, the version it is of and its ratings, as the ledger has them (one
    statement for them all: an import changes a thousand)."""
    if not changed:
        return
    conn.execute(
        update(club_games)
        .where(club_games.c.game_id == bindparam("filed_game"))
        .values(
            version=bindparam("filed_version"),
            record=bindparam("filed_record", type_=club_games.c.record.type),
            ratings=bindparam("filed_ratings", type_=club_games.c.ratings.type),
        ),
        [
            {
                "filed_game": game.game_id,
                "filed_version": game.version,
                "filed_record": None if game.record is None else game.record.to_json(),
                "filed_ratings": _ratings_json(game.ratings),
            }
            for game in changed
        ],
    )


def keep_board(conn: Connection, club_id: str, board: Any, board_games: Any, key: str) -> None:
    """What the club's pages read, and which state of its games it is of (`kept_board`)."""
    conn.execute(
        update(clubs)
        .where(clubs.c.id == club_id)
        .values(board=board, board_games=board_games, board_key=key)
    )
