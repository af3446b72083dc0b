"""Writing games: every write the pages and the API make (start, import, rematch, enter or
correct a round, undo, restore) is one call here that answers one result.

A write is one transaction. The game's row is locked (a game the caller loaded is read again
only if its version moved on since); a key sent before is answered first (a
retry is never judged stale, nor a repeat of the round before); then the version the writer
saw; then whether what the game is filed in lets it change (`core.signals.game_writing`: an
evening's table whose series is fixed); then the rules, every reason at once beside what could
not be read; then, for a new round where the writer asks, whether it scores exactly as the
round before. The engine takes the step,
the store keeps it (the game as written is the step's, not read back), the answer is kept
with its key, and `core.signals.game_written` is sent on
the same connection: a receiver's writes (a club's records) commit with the game or not at all.
Nothing here knows HTTP; the pages and the API turn each result into an answer.

The results: `Saved` (the game as written), `Created` (a new game and its edit token),
`Replayed` (a key's kept answer), `KeyReused` (a key sent with another request), `Refused`
(every reason), `Stale` (the writer saw an older version), `Repeat` (the same as the round
before) and `NotFound`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, ClassVar, Literal, Protocol, TypeVar, overload

from sqlalchemy import Connection

from referee.engine.errors import GameRefused, Reason
from referee.engine.game import Game, SeatResult, Step
from referee.web.core import ids
from referee.web.core.signals import game_writing, game_written
from referee.web.plumbing.database import database

from . import queries, store
from .exports import read_export
from .queries import Entry, StoredGame
from .store import Answer as Answer  # a kept answer, as `Once.answer` makes it

# -- results -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Saved:
    """The write was kept: the game as it now is."""

    stored: StoredGame


@dataclass(frozen=True)
class Created:
    """A new game was kept: the game, and its edit token (kept only as a hash)."""

    stored: StoredGame
    token: str


@dataclass(frozen=True)
class Replayed:
    """Done before under this key: what the write answered then. Nothing changed now."""

    answer: Answer


@dataclass(frozen=True)
class KeyReused:
    """The key came before with another request: nothing changed (a 422)."""

    code: ClassVar[str] = "idempotency_key_reused"


@dataclass(frozen=True)
class Refused:
    """Against the rules, or unreadable: every reason at once, and the game as it is (None for a
    game that was not started)."""

    reasons: tuple[Reason, ...]
    current: StoredGame | None = None


@dataclass(frozen=True)
class Stale:
    """The writer saw `version`, and the game has moved on: what changed since, and the game as
    it is. `entered_as_sent`: the round this entry was for was saved meanwhile just as sent."""

    version: int
    current: StoredGame
    since: tuple[Entry, ...]
    entered_as_sent: bool = False

    code: ClassVar[str] = "stale_version"

    @property
    def params(self) -> dict[str, int]:
        return {"version": self.version, "current": self.current.game.version}


@dataclass(frozen=True)
class Repeat:
    """A new round that scores exactly as round `of` did, the same seat out: more often the
    last round sent twice than a table dealt the same twice. Kept once the table says so."""

    of: int
    current: StoredGame


@dataclass(frozen=True)
class NotFound:
    """No such game."""

    code: ClassVar[str] = "game_not_found"


Written = Saved | Replayed | KeyReused | Refused | Stale | NotFound
RoundWritten = Written | Repeat
Started = Created | Refused
#: The game a write is for: as the caller loaded it (its access check read it; only its version
#: is read again, under the lock), or its id (the game is read under the lock).
Loaded = StoredGame | str
Rematched = Created | Refused | NotFound


# -- what a write brings -----------------------------------------------------------------------


@dataclass(frozen=True)
class Once:
    """A write sent with a key (SPEC "Never twice, never lost"): `fingerprint` says what was
    asked, `answer` makes the answer to keep from the game as written, in the write's
    transaction, so a repeat of the request gets it again."""

    key: str
    fingerprint: str
    answer: Callable[[StoredGame], Answer]


@dataclass(frozen=True)
class Typed:
    """A round as a form or a body gave it: each seat's result in seat order (None: a seat whose
    entries could not be read) and every reason something could not be read."""

    results: tuple[SeatResult | None, ...]
    unread: tuple[Reason, ...] = field(default=())

    @classmethod
    def read(cls, results: Sequence[SeatResult]) -> Typed:
        """A round read whole (the API refuses what it cannot read before it writes)."""
        return cls(tuple(results))


class Filing(Protocol):
    """Somewhere a new game is filed as it is kept (a club files its games): called on the new
    game's connection, after the game is kept and before `game_written`. GameRefused undoes the
    whole start (`Refused`). The feature that files games passes one in; games never imports it."""

    def __call__(self, conn: Connection, stored: StoredGame, /) -> None: ...


# -- starting a game ---------------------------------------------------------------------------


def start(
    variant: Any,
    players: Any,
    *,
    lang: str,
    house_rules: Mapping[str, Any] | None = None,
    first_dealer: Any = None,
    filing: Filing | None = None,
) -> Started:
    """A new game for this table (every reason it cannot start, at once)."""
    try:
        game = Game.start(variant, players, house_rules=house_rules, first_dealer=first_dealer)
    except GameRefused as refused:
        return Refused(refused.reasons)
    return create(game, lang=lang, filing=filing)


def import_game(data: Any, *, lang: str) -> Started:
    """A game's JSON export back as a new game (a new id and edit token): every round entered
    again and checked; nothing is kept unless the whole game reads."""
    try:
        start, steps, language = read_export(data, lang=lang)
    except GameRefused as refused:
        return Refused(refused.reasons)
    return create(start, lang=language, steps=steps)


def rematch(game_id: str, *, filing: Filing | None = None) -> Rematched:
    """Another game for the table of `game_id`: the same players, variant and house rules, the
    first deal passed on, in the game's language."""
    last = queries.load(game_id)
    if last is None:
        return NotFound()
    return create(last.game.rematch(), lang=last.lang, filing=filing)


def create(
    game: Game, *, lang: str, steps: Sequence[Step] = (), filing: Filing | None = None
) -> Started:
    """Keep a new game, with the `steps` taken from it (an import's rounds)."""
    try:
        with database().writing() as conn:
            stored, token = create_on(conn, game, lang=lang, steps=steps, filing=filing)
    except GameRefused as refused:  # where it was to be filed said no: nothing was kept
        return Refused(refused.reasons)
    return Created(stored, token)


def create_on(
    conn: Connection,
    game: Game,
    *,
    lang: str,
    steps: Sequence[Step] = (),
    filing: Filing | None = None,
) -> tuple[StoredGame, str]:
    """`create` in the caller's transaction (a club file keeps all its games in one): the game
    as kept and its token. GameRefused from `filing` is the caller's to roll back."""
    game_id, token = store.insert_game(conn, game, lang=lang)
    store.keep_all(conn, game_id, steps)
    stored = queries.read(conn, game_id)
    assert stored is not None
    if filing is not None:
        filing(conn, stored)
    game_written.send(game_id, conn=conn, stored=stored, change=None)
    return stored, token


# -- rounds, undo and restore ------------------------------------------------------------------


@overload
def enter_round(
    game: Loaded,
    number: int,
    typed: Typed,
    *,
    version: int | None,
    once: Once | None = None,
    repeat_ok: Literal[True] = True,
) -> Written: ...


@overload
def enter_round(
    game: Loaded,
    number: int,
    typed: Typed,
    *,
    version: int | None,
    once: Once | None = None,
    repeat_ok: bool,
) -> RoundWritten: ...


def enter_round(
    game: Loaded,
    number: int,
    typed: Typed,
    *,
    version: int | None,
    once: Once | None = None,
    repeat_ok: bool = True,
) -> RoundWritten:
    """Round `number` entered. Unless `repeat_ok`, a round that scores exactly as the one
    before is not kept but asked about (`Repeat`)."""
    take = partial(_entered, number, typed, repeat_ok)
    return _write(game, version, once, take, partial(_entered_as_sent, number, typed))


def correct_round(
    game: Loaded, number: int, typed: Typed, *, version: int | None, once: Once | None = None
) -> Written:
    """Round `number`, already entered, given these results."""
    return _write(game, version, once, partial(_corrected, number, typed))


def undo(game: Loaded, *, version: int | None, once: Once | None = None) -> Written:
    """The newest change not yet taken back, taken back."""
    return _write(game, version, once, partial(_acted, Game.undo))


def redo(game: Loaded, *, version: int | None, once: Once | None = None) -> Written:
    """What the newest undo took, put back (the pages' "Restore")."""
    return _write(game, version, once, partial(_acted, Game.redo))


#: What a write's own checks may answer instead of a step (Refused, Repeat).
Early = TypeVar("Early")


def _write(
    game: Loaded,
    version: int | None,
    once: Once | None,
    take: Callable[[StoredGame], Step | Early],
    entered_as_sent: Callable[[Game], bool] | None = None,
) -> Saved | Replayed | KeyReused | Stale | NotFound | Refused | Early:
    """One write on the locked game: a key's answer first, then the version, then the step."""
    game_id = game.id if isinstance(game, StoredGame) else game
    if not ids.valid_id(game_id):
        return NotFound()
    with database().writing() as conn:
        stored = _locked(conn, game)
        if stored is None:
            return NotFound()
        answered = _answered(conn, game_id, once)
        if answered is not None:
            return answered
        current = stored.game.version
        if version is not None and version != current:
            # A version from the future (or far past) is stale too; only real ones have history.
            since = tuple(queries.read_since(conn, game_id, version, current))
            sent = entered_as_sent is not None and entered_as_sent(stored.game)
            return Stale(version, stored, since, sent)
        try:  # where the game is filed may refuse any change to it now
            watched = any(said for _, said in game_writing.send(game_id, conn=conn, stored=stored))
        except GameRefused as refused:
            return Refused(refused.reasons, stored)
        step = take(stored)
        if not isinstance(step, Step):
            return step
        if watched and len(step.game.rounds) > len(stored.game.rounds):
            try:  # ... or a round more (a club night's table after its clock's last round)
                game_writing.send(game_id, conn=conn, stored=stored, game=step.game)
            except GameRefused as refused:
                return Refused(refused.reasons, stored)
        return Saved(_kept(conn, stored, step, once))


def _locked(conn: Connection, game: Loaded) -> StoredGame | None:
    """The game under its row's lock: the one the caller loaded when it is still at the version
    it was loaded at (every change moves the version on), else as read now; None: no game."""
    if not isinstance(game, StoredGame):
        return queries.read(conn, game, lock=True)
    current = queries.locked_version(conn, game.id)
    if current is None:
        return None
    return game if current == game.game.version else queries.read(conn, game.id)


def _answered(conn: Connection, game_id: str, once: Once | None) -> Replayed | KeyReused | None:
    kept = None if once is None else store.kept_answer(conn, game_id, once.key)
    if once is None or kept is None:
        return None
    return Replayed(kept.answer) if kept.fingerprint == once.fingerprint else KeyReused()


# -- the step: the rules asked once -------------------------------------------------------------


def _entered(
    number: int, typed: Typed, repeat_ok: bool, stored: StoredGame
) -> Step | Refused | Repeat:
    game = stored.game
    step = _checked(stored, number, typed, game.verify_round, game.enter_round)
    if isinstance(step, Step) and not repeat_ok:
        results = [r for r in typed.results if r is not None]
        if game.repeats_previous(number, results):
            return Repeat(number - 1, stored)
    return step


def _corrected(number: int, typed: Typed, stored: StoredGame) -> Step | Refused:
    game = stored.game
    return _checked(stored, number, typed, game.verify_correction, game.correct_round)


def _acted(act: Callable[[Game], Step], stored: StoredGame) -> Step | Refused:
    try:
        return act(stored.game)
    except GameRefused as refused:
        return Refused(refused.reasons, stored)


def _checked(
    stored: StoredGame,
    number: int,
    typed: Typed,
    verify: Callable[[int, Sequence[SeatResult]], None],
    act: Callable[[int, Sequence[SeatResult]], Step],
) -> Step | Refused:
    """The step, or every reason not to take it: what could not be read beside what the engine
    says of the rest."""
    if typed.unread or None in typed.results:
        return Refused((*typed.unread, *_said_of_the_rest(typed, number, verify)), stored)
    results = [r for r in typed.results if r is not None]
    try:
        return act(number, results)
    except GameRefused as refused:
        return Refused(refused.reasons, stored)


def _said_of_the_rest(
    typed: Typed, number: int, verify: Callable[[int, Sequence[SeatResult]], None]
) -> list[Reason]:
    """What the engine says of a round with seats that could not be read.

    Such a seat stands in as an empty hand, and the engine's word on that hand is left out (the
    seat already says what is wrong with it); so is "nobody went out" while who went out was
    not marked at all.
    """
    unread = {seat for seat, result in enumerate(typed.results) if result is None}
    unread |= {r.player for r in typed.unread if r.player is not None}
    unmarked = any(r.code == "mark_who_went_out" for r in typed.unread)
    try:
        verify(number, [result or SeatResult() for result in typed.results])
    except GameRefused as refused:
        return [
            r
            for r in refused.reasons
            if not (r.player in unread and r.field in ("penalty", "cards"))
            and not (unmarked and r.code == "no_player_out")
        ]
    return []


def _entered_as_sent(number: int, typed: Typed, game: Game) -> bool:
    """Whether round `number` was saved just as this entry has it (a stale entry's question)."""
    results = [r for r in typed.results if r is not None]
    complete = len(results) == len(typed.results) and not typed.unread
    return complete and game.entered_as(number, results)


# -- keeping it ----------------------------------------------------------------------------------


def _kept(conn: Connection, stored: StoredGame, step: Step, once: Once | None) -> StoredGame:
    """Keep the step (and the answer to its key); tell the other features, on this connection.
    The game as written is the step's: nothing is read back."""
    game_id = stored.id
    written = replace(stored, game=step.game, updated_at=store.keep(conn, game_id, step))
    if once is not None:
        kept = store.Kept(once.fingerprint, once.answer(written))
        store.keep_answer(conn, game_id, once.key, kept)
    game_written.send(game_id, conn=conn, stored=written, change=step.change)
    return written
