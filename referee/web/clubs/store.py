"""Clubs in the database: a club with its members and edit token, the games filed in it, and
each game's record and ratings kept beside it.

A club's pages never replay its games. Each filed game has a row holding its record (as of
the game's version then) and its players' ratings after it. Reading the club compares those
versions with the games' in one query; the few games that moved on since are summed up
again, and when a finished game's places changed (a correction, an undo, a game that just
ended) the ratings are worked out again from that game on, in date order, under the club's
row lock. Edit tokens are kept as hashes only.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import Connection, case, func, insert, select, update

from referee.engine.game import MAX_NAME, GameRefused, Reason, clean_name, name_key, reason
from referee.engine.ratings import Rating, rate_in_order
from referee.engine.records import GameRecord, record_of
from referee.web.database import database
from referee.web.games import store as games_store
from referee.web.games.models import games

from .models import club_games, club_members, clubs

#: Club ids look like game ids; anything far from that is not looked up.
_ID_LENGTHS = range(16, 33)
#: The longest club name, in characters.
MAX_CLUB_NAME: Final = 40
#: The most members a club keeps (a family, a Thursday table, a small league).
MAX_MEMBERS: Final = 60
#: The two rating chains every finished game is in: all the club's games, and its variant's.
CHAINS: Final = ("all", "variant")


class ClubNotFound(games_store.StoreError):
    def __init__(self) -> None:
        super().__init__("club_not_found")


@dataclass(frozen=True)
class StoredClub:
    """A club as kept: its name, language, members (in the order they joined) and version."""

    id: str
    name: str
    lang: str
    version: int
    created_at: datetime
    members: tuple[str, ...]


@dataclass(frozen=True)
class ClubGame:
    """A game filed in the club, as its pages read it."""

    game_id: str
    variant: str
    played_at: datetime
    version: int  # the game's version its record is of
    record: GameRecord
    # chain -> the players' ratings after this game (None: not finished)
    ratings: Mapping[str, Mapping[str, Rating] | None]

    def rating_after(self, chain: str) -> Mapping[str, Rating] | None:
        return self.ratings.get(chain)


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _valid_id(club_id: Any) -> bool:
    return isinstance(club_id, str) and len(club_id) in _ID_LENGTHS and "\x00" not in club_id


# -- names ------------------------------------------------------------------------------------


def read_club_name(raw: Any) -> tuple[str, list[Reason]]:
    """The name cleaned, and the reasons it cannot be a club's."""
    if not isinstance(raw, str):
        return "", [reason("bad_input", field="name")]
    name = clean_name(raw)
    if not name:
        return name, [reason("empty_club_name", field="name")]
    if len(name) > MAX_CLUB_NAME:
        return name, [reason("club_name_too_long", field="name", max=MAX_CLUB_NAME)]
    return name, []


def canonical_names(members: Sequence[str], typed: Sequence[Any]) -> list[Any]:
    """The typed names with each member written as the club writes them ("ann" is Ann).

    Anything that is not text is passed on as it is, for the game to refuse.
    """
    known = {name_key(member): member for member in members}
    out: list[Any] = []
    for raw in typed:
        if isinstance(raw, str):
            name = clean_name(raw)
            out.append(known.get(name_key(name), name))
        else:
            out.append(raw)
    return out


def newcomers(members: Sequence[str], names: Iterable[str]) -> list[str]:
    """The names that are not members yet."""
    known = {name_key(member) for member in members}
    return [name for name in names if name_key(name) not in known]


def check_names(names: Sequence[str]) -> None:
    """GameRefused for a name a member cannot have: the games' one rule (`clean_name`), so
    whatever a game takes a club takes (a family emoji keeps its joiners), and nothing a
    clean name loses (controls: a NUL cannot even be kept in PostgreSQL's text)."""
    reasons = [
        reason("bad_input", player=seat, field="players")
        for seat, name in enumerate(names)
        if not isinstance(name, str) or clean_name(name) != name or not name
    ]
    if reasons:
        raise GameRefused(reasons)


def check_room(club: StoredClub, names: Iterable[str]) -> None:
    """GameRefused when the newcomers among `names` would make the club too big."""
    if len(club.members) + len(newcomers(club.members, names)) > MAX_MEMBERS:
        raise GameRefused([reason("too_many_members", field="players", max=MAX_MEMBERS)])


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
        name=row.name,
        lang=row.lang,
        version=row.version,
        created_at=_aware(row.created_at),
        members=_members(conn, club_id),
    )


def load(club_id: str) -> StoredClub | None:
    """The club with its members, or None."""
    if not _valid_id(club_id):
        return None
    with database().reading() as conn:
        return _load(conn, club_id)


def load_many(club_ids: Sequence[str]) -> list[StoredClub]:
    """Several clubs (a phone's recent list), in the order asked, the missing left out."""
    wanted = [c for c in club_ids if _valid_id(c)]
    if not wanted:
        return []
    with database().reading() as conn:
        found = [_load(conn, club_id) for club_id in wanted]
    return [club for club in found if club is not None]


def check_token(club_id: str, token: str | None) -> bool:
    """Whether `token` is the club's edit token (compared in constant time)."""
    if not token or not _valid_id(club_id) or len(token) > 64:
        return False
    with database().reading() as conn:
        stored = conn.execute(select(clubs.c.edit_token_hash).where(clubs.c.id == club_id)).scalar()
    return stored is not None and hmac.compare_digest(stored, games_store.token_hash(token))


def club_of_game(game_id: str) -> StoredClub | None:
    """The club a game is filed in, or None."""
    with database().reading() as conn:
        club_id = conn.execute(
            select(club_games.c.club_id).where(club_games.c.game_id == game_id)
        ).scalar()
        return None if club_id is None else _load(conn, club_id)


# -- writing ----------------------------------------------------------------------------------


def create(
    name: str, *, lang: str, members: Sequence[str] = (), created_at: datetime | None = None
) -> tuple[StoredClub, str]:
    """Keep a new club (GameRefused for a name it cannot have); returns it and its token."""
    cleaned, reasons = read_club_name(name)
    if reasons:
        raise GameRefused(reasons)
    club_id, token = games_store.new_game_id(), games_store.new_edit_token()
    now = _now()
    with database().writing() as conn:
        conn.execute(
            insert(clubs).values(
                id=club_id,
                edit_token_hash=games_store.token_hash(token),
                name=cleaned,
                lang=lang,
                version=1,
                created_at=created_at or now,
                updated_at=now,
            )
        )
        _add_members(conn, club_id, (), members)
        stored = _load(conn, club_id)
    assert stored is not None
    return stored, token


def _add_members(
    conn: Connection, club_id: str, known: Sequence[str], names: Iterable[str]
) -> list[str]:
    added: list[str] = []
    now = _now()
    for name in newcomers(known, names):
        if name_key(name) in {name_key(a) for a in added}:
            continue
        conn.execute(
            insert(club_members).values(
                club_id=club_id, name=name[:MAX_NAME], name_key=name_key(name), joined_at=now
            )
        )
        added.append(name)
    return added


def _lock(conn: Connection, club_id: str) -> StoredClub:
    """The club, its row locked for this transaction (ClubNotFound if it is gone)."""
    found = conn.execute(select(clubs.c.id).where(clubs.c.id == club_id).with_for_update()).scalar()
    stored = None if found is None else _load(conn, club_id)
    if stored is None:
        raise ClubNotFound()
    return stored


def _touch(conn: Connection, club: StoredClub) -> None:
    conn.execute(
        update(clubs)
        .where(clubs.c.id == club.id)
        .values(version=club.version + 1, updated_at=_now())
    )


def file_game(
    club_id: str, game_id: str, players: Sequence[str], *, played_at: datetime
) -> StoredClub:
    """File a kept game in the club; its players who are not members become members."""
    with database().writing() as conn:
        club = _lock(conn, club_id)
        _add_members(conn, club_id, club.members, players)
        conn.execute(
            insert(club_games).values(
                game_id=game_id, club_id=club_id, played_at=played_at, version=0
            )
        )
        _touch(conn, club)
        stored = _load(conn, club_id)
    assert stored is not None
    return stored


def add_members(club_id: str, names: Sequence[str]) -> StoredClub:
    """Members added by name (those already in the club are left as they are)."""
    with database().writing() as conn:
        club = _lock(conn, club_id)
        if _add_members(conn, club_id, club.members, names):
            _touch(conn, club)
        stored = _load(conn, club_id)
    assert stored is not None
    return stored


# -- the games, summed up -------------------------------------------------------------------


def _rows(conn: Connection, club_id: str) -> Sequence[Any]:
    return conn.execute(
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


def read_back(conn: Connection, club_id: str) -> tuple[StoredClub | None, list[ClubGame]]:
    """The club and every game filed in it with its record and ratings, read on `conn` as
    the pages read them (a restore reads each club back before it commits)."""
    rows = _rows(conn, club_id)
    return _load(conn, club_id), [
        _club_game(row.game_id, row.variant, row.played_at, row.version, row.record, row.ratings)
        for row in rows
        if row.record is not None
    ]


def game_count(club_id: str) -> int:
    with database().reading() as conn:
        count: int = conn.execute(
            select(func.count()).select_from(club_games).where(club_games.c.club_id == club_id)
        ).scalar_one()
    return count


def club_games_of(club_id: str) -> list[ClubGame]:
    """Every game of the club in date order, each with its record and ratings up to date."""
    if not _valid_id(club_id):
        return []
    with database().reading() as conn:
        rows = _rows(conn, club_id)
    stale = [row.game_id for row in rows if row.version != row.game_version]
    if stale:
        rows = _refresh(club_id, stale)
    return [
        _club_game(row.game_id, row.variant, row.played_at, row.version, row.record, row.ratings)
        for row in rows
        if row.record is not None  # a game gone between the two reads
    ]


# -- the board kept with the club (board.py works it out) --------------------------------------


def board_key(games: Sequence[ClubGame]) -> str:
    """Which state of its games a board is of: versions only grow, so any change shows."""
    return f"{len(games)}:{sum(game.version for game in games)}"


def kept_board(club_id: str, *, with_games: bool = False) -> tuple[Any, Any] | None:
    """The board kept with the club while it is still of the club's games (else None): one
    aggregate query over the games' versions, and the board (and every game's line, when
    asked)."""
    stale = case((club_games.c.version != games.c.version, 1), else_=0)
    with database().reading() as conn:
        count, summed, moved = conn.execute(
            select(
                func.count(),
                func.coalesce(func.sum(club_games.c.version), 0),
                func.coalesce(func.sum(stale), 0),
            )
            .select_from(club_games.join(games, games.c.id == club_games.c.game_id))
            .where(club_games.c.club_id == club_id)
        ).one()
        if moved:
            return None
        columns = [clubs.c.board_key, clubs.c.board]
        if with_games:
            columns.append(clubs.c.board_games)
        row = conn.execute(select(*columns).where(clubs.c.id == club_id)).first()
        if row is None or row.board_key != f"{count}:{summed}" or row.board is None:
            return None
        return row.board, row.board_games if with_games else None


def keep_board(club_id: str, board: Any, board_games: Any, key: str) -> None:
    with database().writing() as conn:
        conn.execute(
            update(clubs)
            .where(clubs.c.id == club_id)
            .values(board=board, board_games=board_games, board_key=key)
        )


def _ratings_from_json(data: Any) -> dict[str, dict[str, Rating] | None]:
    out: dict[str, dict[str, Rating] | None] = {}
    for chain in CHAINS:
        after = (data or {}).get(chain)
        out[chain] = None if after is None else {n: Rating(*pair) for n, pair in after.items()}
    return out


def _club_game(
    game_id: str, variant: str, played_at: datetime, version: int, record: Any, ratings: Any
) -> ClubGame:
    return ClubGame(
        game_id=game_id,
        variant=variant,
        played_at=_aware(played_at),
        version=version,
        record=GameRecord.from_json(record),
        ratings=_ratings_from_json(ratings),
    )


@dataclass
class _Entry:
    """A club game while it is summed up and rated again."""

    game_id: str
    variant: str
    played_at: datetime
    version: int
    record: GameRecord | None
    ratings: dict[str, Any]
    changed: bool = False
    fresh: tuple[int, GameRecord] | None = field(default=None, repr=False)


def _rating_key(record: GameRecord | None) -> Any:
    """What a game's ratings depend on: whether it is over, and who finished where."""
    if record is None or not record.finished:
        return None
    return tuple((seat.name, seat.place) for seat in record.seats)


def _refresh(club_id: str, stale: Sequence[str]) -> Sequence[Any]:
    """Sum up the games that moved on, rate again from the first whose places changed."""
    fresh: dict[str, tuple[int, GameRecord]] = {}
    for game_id in stale:  # read before the lock: summing up needs no lock
        stored = games_store.load(game_id)
        if stored is not None:
            fresh[game_id] = (stored.game.version, record_of(stored.game))
    with database().writing() as conn:
        _lock(conn, club_id)
        entries = [
            _Entry(
                game_id=row.game_id,
                variant=row.variant,
                played_at=row.played_at,
                version=row.version,
                record=None if row.record is None else GameRecord.from_json(row.record),
                ratings=dict(row.ratings or {}),
                fresh=fresh.get(row.game_id) if row.version != row.game_version else None,
            )
            for row in _rows(conn, club_id)
        ]
        starts = _take_fresh_records(entries)
        for chain, variant, start in starts:
            _rate_again(entries, chain, variant, start)
        for entry in entries:
            if entry.changed and entry.record is not None:
                conn.execute(
                    update(club_games)
                    .where(club_games.c.game_id == entry.game_id)
                    .values(
                        version=entry.version,
                        record=entry.record.to_json(),
                        ratings=entry.ratings,
                    )
                )
        return _rows(conn, club_id)


def _take_fresh_records(entries: list[_Entry]) -> list[tuple[str, str | None, int]]:
    """Put the fresh records in; where rating must start again: (chain, variant, index)."""
    first_all: int | None = None
    first_by_variant: dict[str, int] = {}
    for index, entry in enumerate(entries):
        if entry.fresh is None:
            continue
        version, record = entry.fresh
        if _rating_key(record) != _rating_key(entry.record) or (
            record.finished and any(entry.ratings.get(chain) is None for chain in CHAINS)
        ):
            first_all = index if first_all is None else first_all
            first_by_variant.setdefault(entry.variant, index)
        entry.version, entry.record, entry.changed = version, record, True
    starts: list[tuple[str, str | None, int]] = []
    if first_all is not None:
        starts.append(("all", None, first_all))
    starts.extend(("variant", variant, index) for variant, index in first_by_variant.items())
    return starts


def _rate_again(entries: Sequence[_Entry], chain: str, variant: str | None, start: int) -> None:
    """The chain's ratings from `entries[start]` on, from everyone's ratings before it."""
    in_chain = [
        (index, entry)
        for index, entry in enumerate(entries)
        if variant is None or entry.variant == variant
    ]
    before: dict[str, Rating] = {}
    for index, entry in in_chain:
        if index >= start:
            break
        after = entry.ratings.get(chain)
        if after:
            before.update({name: Rating(*pair) for name, pair in after.items()})
    tail = [entry for index, entry in in_chain if index >= start]
    for entry, after in zip(tail, rate_in_order((e.record for e in tail), before), strict=True):
        kept = None if after is None else {n: [r.mu, r.sigma] for n, r in after.items()}
        if entry.ratings.get(chain) != kept:
            entry.ratings = {**entry.ratings, chain: kept}
            entry.changed = True
