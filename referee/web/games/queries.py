"""Games as they are read: a game by its id, its version, language, edit token and history.
Nothing here writes. The pages, the API, printing, refereeing and clubs read games through this
module; writing one is the games service's (`service.py`), which reads the game it writes
through `read` on its own connection, under the row's lock.

A game comes back as the engine's `Game`, with its rounds and its history: the newest change
and the one an undo takes back are joined to the game's row, any older change is read when the
engine asks for it, so a game with a thousand corrections loads as fast as a new one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, bindparam, select

from referee.engine.game import Action, Change, Game, History, Logged
from referee.engine.house_rules import get_variant
from referee.web.core import clock, ids
from referee.web.plumbing.database import database

# What a printed sheet of a game shows beside its scores, read here like the rest of a game.
from .chart import totals_chart as totals_chart
from .links import view_url as view_url
from .models import changes, games, rounds
from .values import results_of


@dataclass(frozen=True)
class StoredGame:
    """A game as kept: its id, language and times around the engine's state."""

    id: str
    lang: str
    created_at: datetime
    updated_at: datetime
    game: Game


@dataclass(frozen=True)
class Entry:
    """A line of the history: a change, when it was made and the version it made."""

    id: int
    version: int
    at: datetime
    change: Change


# -- a game ------------------------------------------------------------------------------------


def load(game_id: str) -> StoredGame | None:
    """The game as it is now, or None."""
    if not ids.valid_id(game_id):
        return None
    with database().reading() as conn:
        return read(conn, game_id)


def load_many(game_ids: Sequence[str]) -> list[StoredGame]:
    """Several games (the recent list on `/`), most recently changed first."""
    wanted = [g for g in game_ids if ids.valid_id(g)]
    if not wanted:
        return []
    with database().reading() as conn:
        found = [read(conn, game_id) for game_id in wanted]
    return sorted((g for g in found if g), key=lambda g: g.updated_at, reverse=True)


# The game's row, with its newest change and the one an undo takes back joined to it. Made once:
# a statement this size costs more to make (and key for SQLAlchemy's cache) than to run.
_NEWEST, _UNDO = changes.alias("newest"), changes.alias("undo")
_COLUMNS = ("version", "action", "round", "before", "after", "next_undo")
_GAME = (
    select(
        games,
        *(a.c[name].label(f"{a.name}_{name}") for a in (_NEWEST, _UNDO) for name in _COLUMNS),
    )
    .select_from(
        games.outerjoin(
            _NEWEST, (_NEWEST.c.game_id == games.c.id) & (_NEWEST.c.version == games.c.version)
        ).outerjoin(
            _UNDO, (_UNDO.c.game_id == games.c.id) & (_UNDO.c.version == _NEWEST.c.next_undo)
        )
    )
    .where(games.c.id == bindparam("game_id"))
)
_LOCKED_GAME = _GAME.with_for_update(of=games)
_ROUNDS = (
    select(rounds.c.results)
    .where(rounds.c.game_id == bindparam("game_id"))
    .order_by(rounds.c.number)
)


def load_editable(game_id: str, token: str | None) -> tuple[StoredGame, bool] | None:
    """The game and whether `token` is its edit token (compared in constant time), from one
    read of its row; None for no such game."""
    if not ids.valid_id(game_id):
        return None
    with database().reading() as conn:
        row = conn.execute(_GAME, {"game_id": game_id}).first()
        if row is None:
            return None
        stored = _stored(conn, game_id, row)
    return stored, bool(token) and ids.token_matches(row.edit_token_hash, token)


def read(conn: Connection, game_id: str, *, lock: bool = False) -> StoredGame | None:
    """The game on `conn` (its row locked for the transaction with `lock`), or None."""
    query = _LOCKED_GAME if lock else _GAME
    row = conn.execute(query, {"game_id": game_id}).first()
    return None if row is None else _stored(conn, game_id, row)


def locked_version(conn: Connection, game_id: str) -> int | None:
    """On `conn`: the game's version, its row locked for the transaction (None: no such game).
    A writer that loaded the game at this version need not read it again."""
    query = select(games.c.version).where(games.c.id == game_id).with_for_update()
    version: int | None = conn.execute(query).scalar()
    return version


def _stored(conn: Connection, game_id: str, row: Row[Any]) -> StoredGame:
    """The game of its row (read with its newest changes), with its rounds read on `conn`."""
    round_rows = conn.execute(_ROUNDS, {"game_id": game_id}).all()
    house_rules = dict(row.house_rules or {})
    game = Game.restore(
        variant=get_variant(row.variant, house_rules or None),
        house_rules=house_rules,
        players=tuple(row.players),
        first_dealer=row.first_dealer,
        results=[results_of(r.results) or () for r in round_rows],
        version=row.version,
        history=_history(game_id, row),
    )
    return StoredGame(
        id=row.id,
        lang=row.lang,
        created_at=clock.aware(row.created_at),
        updated_at=clock.aware(row.updated_at),
        game=game,
    )


#: A game read back by a restore: the game and its whole history, oldest change first.
Readback = tuple[StoredGame, list[Entry]]


def read_back(conn: Connection) -> Iterator[tuple[str, Callable[[], Readback]]]:
    """Every game on `conn` as the pages read it, in the order of their ids: (id, read) where
    `read()` makes the game with its whole history (a restore reads every game back before it
    commits, and says which game does not read). The ids are streamed, whatever their number."""
    streamed = conn.execution_options(stream_results=True, yield_per=1000)
    game_ids = [row.id for row in streamed.execute(select(games.c.id).order_by(games.c.id))]
    for game_id in game_ids:

        def read_one(game_id: str = game_id) -> Readback:
            stored = read(conn, game_id)
            if stored is None:  # the restore's own transaction: nothing takes it away
                raise LookupError(f"game {game_id} is gone")
            rows = conn.execute(
                select(changes).where(changes.c.game_id == game_id).order_by(changes.c.id)
            ).all()
            return stored, [_entry(row) for row in rows]

        yield game_id, read_one


def version_of(game_id: str) -> int | None:
    """Only the version: what a poller needs to know whether anything changed."""
    if not ids.valid_id(game_id):
        return None
    with database().reading() as conn:
        version: int | None = conn.execute(
            select(games.c.version).where(games.c.id == game_id)
        ).scalar()
    return version


def lang_of(game_id: str) -> str | None:
    """Only the game's language: what its pages speak to a phone that chose none."""
    if not ids.valid_id(game_id):
        return None
    with database().reading() as conn:
        lang: str | None = conn.execute(select(games.c.lang).where(games.c.id == game_id)).scalar()
    return lang


def check_token(game_id: str, token: str | None) -> bool:
    """Whether `token` is the game's edit token (compared in constant time)."""
    if not token or not ids.valid_id(game_id):
        return False
    with database().reading() as conn:
        stored = conn.execute(select(games.c.edit_token_hash).where(games.c.id == game_id)).scalar()
    return ids.token_matches(stored, token)


# -- its history -------------------------------------------------------------------------------


def history(game_id: str, *, limit: int | None = None) -> list[Entry]:
    """The game's changes, newest first; only the newest `limit` of them when given."""
    query = select(changes).where(changes.c.game_id == game_id).order_by(changes.c.id.desc())
    if limit is not None:
        query = query.limit(limit)
    with database().reading() as conn:
        return [_entry(r) for r in conn.execute(query).all()]


def changes_since(game_id: str, version: int) -> list[Entry]:
    """What changed after `version`, oldest first (nothing for a version the game never had)."""
    with database().reading() as conn:
        current = conn.execute(select(games.c.version).where(games.c.id == game_id)).scalar()
        if current is None:
            return []
        return read_since(conn, game_id, version, current)


def read_since(conn: Connection, game_id: str, version: int, current: int) -> list[Entry]:
    """On `conn`: what changed after `version` when the game is at `current`, oldest first."""
    if not 0 < version < current:
        return []
    rows = conn.execute(
        select(changes)
        .where(changes.c.game_id == game_id, changes.c.version > version)
        .order_by(changes.c.id)
    ).all()
    return [_entry(r) for r in rows]


def _history(game_id: str, row: Row[Any]) -> History:
    """The game's history: the newest change and the one an undo takes back, read with it."""
    heads = (_head(row, "newest"), _head(row, "undo"))
    known = {logged.version: logged for logged in heads if logged is not None}
    return History(known.get(row.version), _StoredLog(game_id, known))


def _head(row: Row[Any], prefix: str) -> Logged | None:
    """A change joined to the game's row under `prefix`, if there is one."""
    version, action, number, before, after, next_undo = (
        getattr(row, f"{prefix}_{name}") for name in _COLUMNS
    )
    if version is None:
        return None
    change = Change(Action(action), number, results_of(before), results_of(after))
    return Logged(version, change, next_undo)


def _logged(row: Row[Any]) -> Logged:
    return Logged(row.version, _change(row), row.next_undo)


def _change(row: Row[Any]) -> Change:
    return Change(Action(row.action), row.round, results_of(row.before), results_of(row.after))


def _entry(row: Row[Any]) -> Entry:
    return Entry(id=row.id, version=row.version, at=clock.aware(row.at), change=_change(row))


class _StoredLog:
    """A stored game's changes by version: those read with the game, and any other read when
    the engine asks for it (after undos taken one after another on the same state)."""

    def __init__(self, game_id: str, known: dict[int, Logged]) -> None:
        self._game_id = game_id
        self._known = known

    def __getitem__(self, version: int, /) -> Logged:
        found = self._known.get(version)
        if found is None:
            with database().reading() as conn:
                row = conn.execute(
                    select(changes).where(
                        changes.c.game_id == self._game_id, changes.c.version == version
                    )
                ).first()
            if row is None:
                raise KeyError(version)
            found = self._known[version] = _logged(row)
        return found
