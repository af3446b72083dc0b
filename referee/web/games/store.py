"""Games in the database: load and save game states with their version and history, and nothing
else. The rules are the engine's (`referee.engine.game`): a write loads the game under a row
lock, lets the engine take the step, and keeps the new rounds and the change.

A writer names the version it saw; a stale one is a `Conflict` listing what changed since
(optimistic concurrency). A writer may also send a key (SPEC "Never twice, never lost"): the
answer to a write is kept with its key in the same transaction as the write, so a repeat (a
retry after a lost answer, a double tap) gets that answer and changes nothing. Edit tokens are
kept as hashes only. An undo marks the change it took back as undone; a redo (the pages'
"Restore") marks the undo it took back.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Row, delete, insert, select, update

from referee.engine.cards import parse_cards
from referee.engine.errors import RefereeError
from referee.engine.game import Action, Change, Game, SeatResult, Step
from referee.engine.variants import get_variant
from referee.web.database import database

from .models import changes, games, requests, rounds

#: How long the answer to a keyed write is kept (SPEC: at least 7 days).
KEYS_KEPT = timedelta(days=8)

#: Game ids are 22 url-safe characters; anything far from that is not looked up.
_ID_LENGTHS = range(16, 33)


class StoreError(RefereeError):
    """A game that cannot be read or written as asked."""


class GameNotFound(StoreError):
    def __init__(self) -> None:
        super().__init__("game_not_found")


class Conflict(StoreError):
    """The writer saw an older version: `since` lists what happened after it."""

    def __init__(self, version: int, current: int, since: list[Entry]) -> None:
        super().__init__("stale_version", version=version, current=current)
        self.current = current
        self.since = since


class KeyReused(StoreError):
    """The same key was sent before with another request: a 422, nothing changes."""

    def __init__(self) -> None:
        super().__init__("idempotency_key_reused")


@dataclass(frozen=True)
class Answer:
    """What a write answered: a status with a body, or a redirect."""

    status: int
    body: str | None = None
    content_type: str | None = None
    location: str | None = None


class Replayed(Exception):
    """The write was done before under this key: `answer` is what it answered then."""

    def __init__(self, answer: Answer) -> None:
        super().__init__(answer.status)
        self.answer = answer


@dataclass(frozen=True)
class Once:
    """A write sent with a key: `fingerprint` says what was asked, `answer` makes the answer to
    keep from the game as written (inside the write's transaction)."""

    key: str
    fingerprint: str
    answer: Callable[[StoredGame], Answer]


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
    """A change as the history keeps it: when, at which version, and whether undone since."""

    id: int
    version: int
    at: datetime
    change: Change
    undone: bool


# -- tokens -----------------------------------------------------------------------------------


def new_game_id() -> str:
    return secrets.token_urlsafe(16)  # 128 random bits, 22 characters


def new_edit_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _valid_id(game_id: Any) -> bool:
    return isinstance(game_id, str) and len(game_id) in _ID_LENGTHS and "\x00" not in game_id


# -- results as stored ------------------------------------------------------------------------


def seat_to_json(result: SeatResult) -> dict[str, Any]:
    data: dict[str, Any] = {"went_out": result.went_out, "penalty": result.penalty or 0}
    if result.rummy:
        data["rummy"] = True
    if result.cards is not None:
        data["cards"] = [str(card.plain) for card in result.cards]
    if result.buys:
        data["buys"] = result.buys
    return data


def seat_from_json(data: Mapping[str, Any]) -> SeatResult:
    went_out = bool(data.get("went_out"))
    cards = data.get("cards")
    return SeatResult(
        went_out=went_out,
        penalty=None if went_out else int(data.get("penalty", 0)),
        rummy=bool(data.get("rummy")),
        cards=parse_cards(cards) if cards is not None else None,
        buys=int(data.get("buys", 0)),
    )


def _results_json(results: Sequence[SeatResult] | None) -> list[dict[str, Any]] | None:
    return None if results is None else [seat_to_json(r) for r in results]


def _results(data: Any) -> tuple[SeatResult, ...] | None:
    return None if data is None else tuple(seat_from_json(item) for item in data)


# -- reading ----------------------------------------------------------------------------------


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; they were written in UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _stored(row: Row[Any], round_rows: Sequence[Row[Any]]) -> StoredGame:
    house_rules = dict(row.house_rules or {})
    game = Game.restore(
        variant=get_variant(row.variant, house_rules or None),
        house_rules=house_rules,
        players=tuple(row.players),
        first_dealer=row.first_dealer,
        results=[_results(r.results) or () for r in round_rows],
        version=row.version,
    )
    return StoredGame(
        id=row.id,
        lang=row.lang,
        created_at=_aware(row.created_at),
        updated_at=_aware(row.updated_at),
        game=game,
    )


def _load(conn: Connection, game_id: str, *, lock: bool = False) -> StoredGame | None:
    query = select(games).where(games.c.id == game_id)
    if lock:
        query = query.with_for_update()
    row = conn.execute(query).first()
    if row is None:
        return None
    round_rows = conn.execute(
        select(rounds.c.results).where(rounds.c.game_id == game_id).order_by(rounds.c.number)
    ).all()
    return _stored(row, round_rows)


def load(game_id: str) -> StoredGame | None:
    """The game as it is now, or None."""
    if not _valid_id(game_id):
        return None
    with database().reading() as conn:
        return _load(conn, game_id)


def load_many(game_ids: Sequence[str]) -> list[StoredGame]:
    """Several games (the recent list on `/`), most recently changed first."""
    wanted = [g for g in game_ids if _valid_id(g)]
    if not wanted:
        return []
    with database().reading() as conn:
        found = [_load(conn, game_id) for game_id in wanted]
    return sorted((g for g in found if g), key=lambda g: g.updated_at, reverse=True)


def read_back(conn: Connection) -> Iterator[tuple[str, Callable[[], Readback]]]:
    """Every game with its whole history, read on `conn` as the pages read them, in the order
    of their ids: (id, read) where `read()` makes the game (a restore reads every game back
    before it commits, and says which game does not read). Three streamed queries, whatever
    the number of games."""
    streamed = conn.execution_options(stream_results=True, yield_per=1000)
    game_rows = streamed.execute(select(games).order_by(games.c.id))
    round_rows = _Grouped(streamed.execute(
        select(rounds.c.game_id, rounds.c.results).order_by(rounds.c.game_id, rounds.c.number)
    ))  # fmt: skip
    change_rows = _Grouped(
        streamed.execute(select(changes).order_by(changes.c.game_id, changes.c.id))
    )
    for row in game_rows:
        its_rounds, its_changes = round_rows.take(row.id), change_rows.take(row.id)

        def read(row: Row[Any] = row, its_rounds: list[Row[Any]] = its_rounds,
                 its_changes: list[Row[Any]] = its_changes) -> Readback:  # fmt: skip
            return _stored(row, its_rounds), [_entry(change) for change in its_changes]

        yield row.id, read


Readback = tuple["StoredGame", list["Entry"]]


class _Grouped:
    """Rows in the order of their games (the database's order of ids, the same in every
    query), taken a game at a time: every row's game is there (a foreign key)."""

    def __init__(self, rows: Iterable[Row[Any]]) -> None:
        self._rows = iter(rows)
        self._next: Row[Any] | None = next(self._rows, None)

    def take(self, game_id: str) -> list[Row[Any]]:
        taken = []
        while self._next is not None and self._next.game_id == game_id:
            taken.append(self._next)
            self._next = next(self._rows, None)
        return taken


def version_of(game_id: str) -> int | None:
    """Only the version: what a poller needs to know whether anything changed."""
    if not _valid_id(game_id):
        return None
    with database().reading() as conn:
        version: int | None = conn.execute(
            select(games.c.version).where(games.c.id == game_id)
        ).scalar()
    return version


def lang_of(game_id: str) -> str | None:
    """Only the game's language: what its pages speak to a phone that chose none."""
    if not _valid_id(game_id):
        return None
    with database().reading() as conn:
        lang: str | None = conn.execute(select(games.c.lang).where(games.c.id == game_id)).scalar()
    return lang


def check_token(game_id: str, token: str | None) -> bool:
    """Whether `token` is the game's edit token (compared in constant time)."""
    if not token or not _valid_id(game_id) or len(token) > 64:
        return False
    with database().reading() as conn:
        stored = conn.execute(select(games.c.edit_token_hash).where(games.c.id == game_id)).scalar()
    return stored is not None and hmac.compare_digest(stored, token_hash(token))


def history(game_id: str, *, limit: int | None = None) -> list[Entry]:
    """The game's changes, newest first; only the newest `limit` of them when given."""
    query = select(changes).where(changes.c.game_id == game_id).order_by(changes.c.id.desc())
    if limit is not None:
        query = query.limit(limit)
    with database().reading() as conn:
        return [_entry(r) for r in conn.execute(query).all()]


def last_change(game_id: str) -> Change | None:
    """The newest change not yet taken back: what an undo would take back."""
    with database().reading() as conn:
        entry = _last_undoable(conn, game_id)
    return None if entry is None else entry.change


def last_undo(game_id: str) -> Change | None:
    """The newest change when it is an undo not yet restored: what a restore would put back."""
    with database().reading() as conn:
        entry = _last_restorable(conn, game_id)
    return None if entry is None else entry.change


def changes_since(game_id: str, version: int) -> list[Entry]:
    """What changed after `version`, oldest first (nothing for a version the game never had)."""
    with database().reading() as conn:
        current = conn.execute(select(games.c.version).where(games.c.id == game_id)).scalar()
        if current is None or not 0 < version < current:
            return []
        return _since(conn, game_id, version)


def _entry(row: Row[Any]) -> Entry:
    return Entry(
        id=row.id,
        version=row.version,
        at=_aware(row.at),
        change=Change(Action(row.action), row.round, _results(row.before), _results(row.after)),
        undone=bool(row.undone),
    )


def _undoable() -> Any:
    return (changes.c.action != Action.UNDO.value) & changes.c.undone.is_(False)


def _last_undoable(conn: Connection, game_id: str) -> Entry | None:
    row = conn.execute(
        select(changes)
        .where(changes.c.game_id == game_id, _undoable())
        .order_by(changes.c.id.desc())
        .limit(1)
    ).first()
    return None if row is None else _entry(row)


def _last_restorable(conn: Connection, game_id: str) -> Entry | None:
    row = conn.execute(
        select(changes).where(changes.c.game_id == game_id).order_by(changes.c.id.desc()).limit(1)
    ).first()
    if row is None or row.action != Action.UNDO.value or row.undone:
        return None
    return _entry(row)


def _since(conn: Connection, game_id: str, version: int) -> list[Entry]:
    rows = conn.execute(
        select(changes)
        .where(changes.c.game_id == game_id, changes.c.version > version)
        .order_by(changes.c.id)
    ).all()
    return [_entry(r) for r in rows]


# -- writing ----------------------------------------------------------------------------------


def create(game: Game, *, lang: str, steps: Sequence[Step] = ()) -> tuple[StoredGame, str]:
    """Keep a new game, with the `steps` taken from it (an import); returns it and its token."""
    game_id, token = new_game_id(), new_edit_token()
    now = _now()
    final = steps[-1].game if steps else game
    with database().writing() as conn:
        conn.execute(
            insert(games).values(
                id=game_id,
                edit_token_hash=token_hash(token),
                variant=game.variant.id,
                house_rules=dict(game.house_rules),
                players=list(game.players),
                first_dealer=game.first_dealer,
                lang=lang,
                version=final.version,
                created_at=now,
                updated_at=now,
            )
        )
        for step in steps:
            _keep(conn, game_id, step)
        stored = _load(conn, game_id)
    assert stored is not None
    return stored, token


def enter_round(
    game_id: str,
    number: int,
    results: Sequence[SeatResult],
    *,
    version: int | None,
    once: Once | None = None,
) -> StoredGame:
    """Round `number` entered (GameRefused from the engine when the rules say no)."""
    return _write(game_id, version, lambda game, _conn: game.enter_round(number, results), once)


def correct_round(
    game_id: str,
    number: int,
    results: Sequence[SeatResult],
    *,
    version: int | None,
    once: Once | None = None,
) -> StoredGame:
    """Round `number` corrected."""
    return _write(game_id, version, lambda game, _conn: game.correct_round(number, results), once)


def undo(game_id: str, *, version: int | None, once: Once | None = None) -> StoredGame:
    """The newest change not yet taken back, taken back."""

    def take(game: Game, conn: Connection) -> Step:
        last = _last_undoable(conn, game_id)
        step = game.undo(None if last is None else last.change)
        assert last is not None  # the engine refuses to undo nothing
        conn.execute(update(changes).where(changes.c.id == last.id).values(undone=True))
        return step

    return _write(game_id, version, take, once)


def redo(game_id: str, *, version: int | None, once: Once | None = None) -> StoredGame:
    """The newest undo, when nothing changed since, taken back: what it took is put back."""

    def take(game: Game, conn: Connection) -> Step:
        undone = _last_restorable(conn, game_id)
        step = game.redo(None if undone is None else undone.change)
        assert undone is not None  # the engine refuses to restore nothing
        conn.execute(update(changes).where(changes.c.id == undone.id).values(undone=True))
        return step

    return _write(game_id, version, take, once)


def _write(
    game_id: str,
    version: int | None,
    take: Callable[[Game, Connection], Step],
    once: Once | None = None,
) -> StoredGame:
    """Take a step on the locked game if `version` is current, and keep it (and its answer)."""
    if not _valid_id(game_id):
        raise GameNotFound()
    with database().writing() as conn:
        stored = _load(conn, game_id, lock=True)
        if stored is None:
            raise GameNotFound()
        if once is not None:
            _replay_if_done(conn, game_id, once)  # before the version: a retry is not stale
        current = stored.game.version
        if version is not None and version != current:
            # A version from the future (or far past) is stale too; only real ones have history.
            since = _since(conn, game_id, version) if 0 < version < current else []
            raise Conflict(version, current, since)
        step = take(stored.game, conn)
        _keep(conn, game_id, step)
        done = conn.execute(
            update(games)
            .where(games.c.id == game_id, games.c.version == current)
            .values(version=step.game.version, updated_at=_now())
        )
        if done.rowcount != 1:  # pragma: no cover - the row lock makes this unreachable
            raise Conflict(current, current + 1, [])
        result = _load(conn, game_id)
        assert result is not None
        if once is not None:
            _keep_answer(conn, game_id, once, once.answer(result))
    return result


def answered(game_id: str, once: Once) -> None:
    """Replayed (or KeyReused) when `once`'s key was answered before; else nothing.

    A page asks before it checks anything, so that a retry is never judged as a new entry
    (stale, or a repeat of the round before); the write asks again under its lock.
    """
    if not _valid_id(game_id):
        raise GameNotFound()
    with database().reading() as conn:
        _replay_if_done(conn, game_id, once)


def _replay_if_done(conn: Connection, game_id: str, once: Once) -> None:
    row = conn.execute(
        select(requests).where(requests.c.game_id == game_id, requests.c.key == once.key)
    ).first()
    if row is None:
        return
    if row.fingerprint != once.fingerprint:
        raise KeyReused()
    raise Replayed(Answer(row.status, row.body, row.content_type, row.location))


def _keep_answer(conn: Connection, game_id: str, once: Once, answer: Answer) -> None:
    now = _now()
    conn.execute(delete(requests).where(requests.c.created_at < now - KEYS_KEPT))
    conn.execute(
        insert(requests).values(
            game_id=game_id,
            key=once.key,
            fingerprint=once.fingerprint,
            status=answer.status,
            content_type=answer.content_type,
            body=answer.body,
            location=answer.location,
            created_at=now,
        )
    )


def _keep(conn: Connection, game_id: str, step: Step) -> None:
    change = step.change
    where = (rounds.c.game_id == game_id) & (rounds.c.number == change.round)
    if change.before is None:
        conn.execute(
            insert(rounds).values(
                game_id=game_id, number=change.round, results=_results_json(change.after)
            )
        )
    elif change.after is None:
        conn.execute(delete(rounds).where(where))
    else:
        conn.execute(update(rounds).where(where).values(results=_results_json(change.after)))
    conn.execute(
        insert(changes).values(
            game_id=game_id,
            version=step.game.version,
            at=_now(),
            action=change.action.value,
            round=change.round,
            before=_results_json(change.before),
            after=_results_json(change.after),
            undone=False,
        )
    )
