"""The club nights' operations between the pages and API (`routes.py`, `api.py`) and the store:
each returns one result type, and each that writes owns its transaction. The rules are the
engine's (`engine.events`: check-in, the draws, the swap, results, standings); the store only
loads and saves; the club's members and games go through the clubs service.

A write takes the club's row lock and then the evening's (the order a table's round takes them
in too: the game's row, the club's for its records, the evening's for its result), checks the
version the writer saw (`Stale`), asks the engine, and keeps the new state:

- check-in: new names become club members in the same transaction (the member cap holds);
- a series drawn (seeded, shown), swapped by hand, withdrawn, and started: starting makes each
  table's game through the clubs service, filed in the club like any club game (records and
  ratings move with it), all in one transaction;
- a round written at a table: `on_game_written`, the receiver of `core.signals.game_written`,
  keeps the table's result in the game's own write;
- the series' clock (`clock`: pause, resume, one table's extra minutes; the minutes for the
  series not started): the time is `core.clock.now()`, passed to the engine; a table whose time
  ran out plays its last round (`on_game_writing` refuses the one after).

Two phones drawing the same series at once: the second waits on the evening's lock, then finds
the series drawn and gets `Conflict` (nothing is drawn twice).
"""

from __future__ import annotations

import datetime
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from sqlalchemy import Connection

from referee.engine.errors import GameRefused, Reason, reason
from referee.engine.events import MAX_SEED, Event, rule_from_json
from referee.engine.game import Action, Change, Game
from referee.engine.seating import TableSize
from referee.web.clubs import service as clubs_service
from referee.web.clubs.store import ClubNotFound
from referee.web.core import clock as web_clock
from referee.web.core import signals
from referee.web.games import access as game_access
from referee.web.games import links as game_links
from referee.web.games import queries as game_queries
from referee.web.games.queries import StoredGame
from referee.web.plumbing.database import database

from . import store
from .store import StoredEvent

log = logging.getLogger(__name__)

#: The engine's refusals that mean "someone did it first": a 409, not a 422.
CONFLICTS = frozenset(
    {
        "series_already_drawn",
        "series_started",
        "not_the_newest_series",
        "clock_already_paused",
        "clock_not_paused",
    }
)

# -- what an operation comes to ---------------------------------------------------------------


@dataclass(frozen=True)
class Created:
    """A new evening in the club."""

    stored: StoredEvent


@dataclass(frozen=True)
class Changed:
    """The write was kept: the evening as it now is. `joined`: names that became members."""

    stored: StoredEvent
    joined: tuple[str, ...] = ()


@dataclass(frozen=True)
class Refused:
    """Nothing kept: every reason (each with the field it is about)."""

    reasons: tuple[Reason, ...]


@dataclass(frozen=True)
class Conflict:
    """Someone else did it first (the series drawn or started on another phone): nothing kept;
    the evening as it is."""

    reasons: tuple[Reason, ...]
    current: StoredEvent


@dataclass(frozen=True)
class Stale:
    """The writer saw `version`; the evening has moved on (a 409): nothing kept."""

    version: int
    current: StoredEvent

    code: ClassVar[str] = "stale_event_version"

    @property
    def params(self) -> dict[str, int]:
        return {"version": self.version, "current": self.current.version}


@dataclass(frozen=True)
class EventMissing:
    """No evening by that id (in that club): a 404."""

    code: ClassVar[str] = "event_not_found"


@dataclass(frozen=True)
class ClubMissing:
    code: ClassVar[str] = "club_not_found"


@dataclass(frozen=True)
class Forbidden:
    """No edit token of the club (`missing_club_token`) or not the club's (`bad_club_token`)."""

    code: str


Written = Changed | Refused | Conflict | Stale | EventMissing | Forbidden


# -- reading: never a write -------------------------------------------------------------------

load = store.load
version_of = store.version_of
of_club = store.of_club
table_of_game = store.table_of_game


def series_games(game_ids: list[str]) -> dict[str, dict[str, Any]]:
    """Which of these games were a club night's tables, as the club's JSON says each."""
    return {
        game_id: {"event": event_id, "name": name, "series": series, "table": table}
        for game_id, (event_id, name, series, table) in store.series_of_games(game_ids).items()
    }


def load_in(club_id: str, event_id: str) -> StoredEvent | None:
    """The evening, when it is of that club (else None: a 404)."""
    stored = store.load(event_id)
    return stored if stored is not None and stored.club_id == club_id else None


def can_edit(club_id: str, token: str | None) -> bool:
    return token is not None and clubs_service.check_token(club_id, token)


def tokens(stored: StoredEvent) -> dict[str, str]:
    """Each table's game id -> its edit token (for the club's token holder: the QR codes)."""
    found = {}
    for game_id, sealed in stored.sealed_tokens.items():
        token = game_access.unseal(game_id, sealed)
        if token is not None:
            found[game_id] = token
    return found


def games_of(stored: StoredEvent, number: int) -> dict[int, StoredGame]:
    """Table number -> its game, for the tables of series `number` that have one."""
    drawn = stored.event.series_of(number)
    if drawn is None:
        return {}
    wanted = {t.game_id: t.number for t in drawn.tables if t.game_id is not None}
    return {wanted[g.id]: g for g in game_queries.load_many(list(wanted))}


# -- creating ---------------------------------------------------------------------------------


def create(
    club_id: Any, token: str | None, settings: Mapping[str, Any], *, lang: str
) -> Created | Refused | ClubMissing | Forbidden:
    """A new evening in the club (the club's edit token), its seed drawn here and shown."""
    if not isinstance(club_id, str) or clubs_service.load(club_id) is None:
        return ClubMissing()
    if not can_edit(club_id, token):
        return Forbidden("missing_club_token" if token is None else "bad_club_token")
    try:
        event = _new_event(settings)
    except GameRefused as refused:
        return Refused(refused.reasons)
    with database().writing() as conn:
        try:
            clubs_service.lock_on(conn, club_id)
        except ClubNotFound:
            return ClubMissing()
        return Created(store.insert_event(conn, club_id, event, lang=lang))


def _new_event(settings: Mapping[str, Any]) -> Event:
    reasons: list[Reason] = []
    date = _read_date(settings.get("date"), reasons)
    sizes = _read_sizes(settings.get("table_size", 4), reasons)
    seed = settings.get("seed")
    try:
        event = Event.create(
            name=settings.get("name"),  # type: ignore[arg-type]  # the engine reads anything
            date=date or datetime.date.today(),
            variant=settings.get("variant"),  # type: ignore[arg-type]
            house_rules=settings.get("house_rules") or None,
            series=settings.get("series", 4),
            table_size=sizes,
            series_rounds=settings.get("series_rounds"),
            scheme=settings.get("scheme", "romme"),
            later_draws=settings.get("later_draws", "mix"),
            seed=secrets.randbelow(MAX_SEED + 1) if seed is None else seed,
            series_minutes=settings.get("series_minutes"),
            clock_rule=settings.get("clock_rule", "finish_round"),
        )
    except GameRefused as refused:
        raise GameRefused([*reasons, *refused.reasons]) from None
    if reasons:
        raise GameRefused(reasons)
    return event


def _read_date(value: Any, reasons: list[Reason]) -> datetime.date | None:
    if value is None or value == "":
        return datetime.date.today()
    if isinstance(value, datetime.date):
        return value
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError:
        reasons.append(reason("bad_event_date", field="date", date=str(value)[:20]))
        return None


def _read_sizes(value: Any, reasons: list[Reason]) -> TableSize | None:
    """A table size: one whole number (the preferred, 3 to 5 around it), or the three."""
    if isinstance(value, Mapping):
        try:
            return TableSize(**{k: value[k] for k in ("preferred", "smallest", "largest")})
        except KeyError:
            reasons.append(reason("bad_input", field="table_size"))
            return None
    return TableSize(preferred=value)


# -- writing ----------------------------------------------------------------------------------

#: What a write's act gives: the next state, new tables' sealed tokens, names that joined.
Done = tuple[Event, dict[str, str], tuple[str, ...]]
Act = Callable[[Connection, StoredEvent], Done]


def _write(
    club_id: Any, event_id: Any, token: str | None, version: int | None, act: Act
) -> Written:
    """One write on the evening: the club's lock, then the evening's; the version; the act
    (EventRefused: nothing kept); the new state kept."""
    if not isinstance(club_id, str) or not isinstance(event_id, str):
        return EventMissing()
    if store.club_of(event_id) != club_id:
        return EventMissing()
    if not can_edit(club_id, token):
        return Forbidden("missing_club_token" if token is None else "bad_club_token")
    try:
        with database().writing() as conn:
            clubs_service.lock_on(conn, club_id)
            stored = store.read(conn, event_id, lock=True)
            if stored is None:
                return EventMissing()
            if version is not None and version != stored.version:
                return Stale(version, stored)
            try:
                event, sealed, joined = act(conn, stored)
            except GameRefused as refused:
                if refused.reasons[0].code in CONFLICTS:
                    return Conflict(tuple(refused.reasons), stored)
                raise
            kept = store.save(conn, stored, event, sealed)
            _tell(conn, kept)
            return Changed(kept, joined)
    except (GameRefused, _Refusal) as refused:  # raised in the transaction: nothing kept
        reasons = refused.reasons if isinstance(refused, GameRefused) else refused.result.reasons
        return Refused(tuple(reasons))


class _Refusal(Exception):
    """A refusal from the clubs service inside an evening's write (rolls it back)."""

    def __init__(self, result: clubs_service.Refused) -> None:
        super().__init__("refused")
        self.result = result


def check_in(
    club_id: Any, event_id: Any, token: str | None, names: Any, *, version: int | None = None
) -> Written:
    """Players checked in (one name or several), drawn from the next series on; a name the
    club does not know becomes a member (the member cap holds). A player who left comes
    back under the name they had."""
    wanted = [names] if isinstance(names, str) else names
    if not isinstance(wanted, Sequence) or not wanted:
        return Refused((reason("no_names", field="name"),))

    def act(conn: Connection, stored: StoredEvent) -> Done:
        club = clubs_service.lock_on(conn, stored.club_id).club
        event = stored.event
        for name in wanted:
            event = event.check_in(
                club.canonical_names([name])[0] if isinstance(name, str) else name
            )
        # Those here join the club; one checked out by a phone before a seat never does.
        present = [p.name for p in event.players if p.present]
        added = clubs_service.add_members_on(conn, stored.club_id, present)
        if isinstance(added, clubs_service.Refused):
            raise _Refusal(added)
        return event, {}, added.joined

    return _write(club_id, event_id, token, version, act)


def leave(
    club_id: Any, event_id: Any, token: str | None, name: Any, *, version: int | None = None
) -> Written:
    """A player out of every later draw; what they scored stays."""
    return _write(club_id, event_id, token, version, _plain(lambda e: e.leave(name)))


def undo_self_service(
    club_id: Any, event_id: Any, token: str | None, name: Any, *, version: int | None = None
) -> Written:
    """The host undoes a player's own check-in or check-out (`check_in.py`)."""
    return _write(club_id, event_id, token, version, _plain(lambda e: e.undo_self_service(name)))


def set_check_in(
    club_id: Any, event_id: Any, token: str | None, is_open: bool, *, version: int | None = None
) -> Written:
    """The evening's check-in link opened or closed by the host."""
    step = (lambda e: e.open_check_in()) if is_open else (lambda e: e.close_check_in())
    return _write(club_id, event_id, token, version, _plain(step))


def draw(
    club_id: Any,
    event_id: Any,
    token: str | None,
    number: Any,
    *,
    method: Any = None,
    seed: Any = None,
    start: bool = False,
    lang: str | None = None,
    version: int | None = None,
) -> Written:
    """Series `number` drawn (by the event's method, or `method`; its seed, or `seed`); with
    `start`, started too: each table's game made and filed in the club."""

    def act(conn: Connection, stored: StoredEvent) -> Done:
        event = stored.event.draw_series(number, method, seed)
        if not start:
            return event, {}, ()
        return _started(conn, stored, event, number, lang or stored.lang)

    return _write(club_id, event_id, token, version, act)


def swap(
    club_id: Any,
    event_id: Any,
    token: str | None,
    number: Any,
    first: Any,
    second: Any,
    *,
    version: int | None = None,
) -> Written:
    """Two players change seats in a series drawn and not started."""
    return _write(
        club_id, event_id, token, version, _plain(lambda e: e.swap(number, first, second))
    )


def move(
    club_id: Any,
    event_id: Any,
    token: str | None,
    number: Any,
    name: Any,
    table: Any,
    *,
    version: int | None = None,
) -> Written:
    """One player moved to another table of a series drawn and not started."""
    return _write(club_id, event_id, token, version, _plain(lambda e: e.move(number, name, table)))


def reopen(
    club_id: Any, event_id: Any, token: str | None, number: Any, *, version: int | None = None
) -> Written:
    """A series fixed by the next draw opened again: its tables may change their results."""
    return _write(club_id, event_id, token, version, _plain(lambda e: e.reopen_series(number)))


def close(
    club_id: Any, event_id: Any, token: str | None, number: Any, *, version: int | None = None
) -> Written:
    """A reopened series fixed again (every table finished)."""
    return _write(club_id, event_id, token, version, _plain(lambda e: e.close_series(number)))


def withdraw(
    club_id: Any, event_id: Any, token: str | None, number: Any, *, version: int | None = None
) -> Written:
    """The newest series, drawn and not started, taken back (to draw it again)."""
    return _write(club_id, event_id, token, version, _plain(lambda e: e.withdraw_series(number)))


def start(
    club_id: Any,
    event_id: Any,
    token: str | None,
    number: Any,
    *,
    lang: str | None = None,
    version: int | None = None,
) -> Written:
    """The newest series started: its seats fixed, each table's game made and filed."""

    def act(conn: Connection, stored: StoredEvent) -> Done:
        stored.event.verify_start(number)
        return _started(conn, stored, stored.event, number, lang or stored.lang)

    return _write(club_id, event_id, token, version, act)


def clock(
    club_id: Any,
    event_id: Any,
    token: str | None,
    action: Any,
    *,
    series: Any = None,
    table: Any = None,
    minutes: Any = None,
    rule: Any = None,
    version: int | None = None,
) -> Written:
    """The series' clock: `pause`, `resume`, `extra` minutes for one table (of the running
    series, or `series`), or `set` the minutes and rule of the series not started yet."""
    now = web_clock.now()

    def step(event: Event) -> Event:
        if action == "set":
            return event.set_clock(minutes, rule or event.clock_rule)
        number = series if series is not None else _running(event)
        match action:
            case "pause":
                return event.pause_clock(number, now)
            case "resume":
                return event.resume_clock(number, now)
            case "extra":
                return event.give_extra(number, table, minutes)
        raise GameRefused([reason("bad_input", field="action")])

    return _write(club_id, event_id, token, version, _plain(step))


def _running(event: Event) -> int:
    """The series whose clock the host means: the newest started (0: none, refused as such)."""
    started = [s.number for s in event.series if s.started]
    return started[-1] if started else 0


def set_seating(
    club_id: Any, event_id: Any, token: str | None, rules: Any, *, version: int | None = None
) -> Written:
    """The evening's seating rules, all of them at once (the API's list: each as
    `SeatingRule.to_json` writes one); the draws from now on honour them."""
    if not isinstance(rules, list):
        return Refused((reason("bad_seating_rule", field="rules"),))
    return _write(
        club_id,
        event_id,
        token,
        version,
        _plain(lambda e: e.set_seating([rule_from_json(r) for r in rules])),
    )


def add_seating_rule(
    club_id: Any, event_id: Any, token: str | None, rule: Any, *, version: int | None = None
) -> Written:
    """One seating rule more (the host's page), beside those the evening has."""
    return _write(
        club_id,
        event_id,
        token,
        version,
        _plain(lambda e: e.set_seating([*e.seating_rules, rule_from_json(rule)])),
    )


def remove_seating_rule(
    club_id: Any, event_id: Any, token: str | None, number: Any, *, version: int | None = None
) -> Written:
    """The evening's `number`-th seating rule (1-based) taken away; one not there is refused."""

    def step(event: Event) -> Event:
        rules = list(event.seating_rules)
        if not isinstance(number, int) or not 1 <= number <= len(rules):
            raise GameRefused([reason("no_such_seating_rule", field="rule")])
        del rules[number - 1]
        return event.set_seating(rules)

    return _write(club_id, event_id, token, version, _plain(step))


def _plain(step: Callable[[Event], Event]) -> Act:
    def act(_conn: Connection, stored: StoredEvent) -> Done:
        return step(stored.event), {}, ()

    return act


def _started(conn: Connection, stored: StoredEvent, event: Event, number: int, lang: str) -> Done:
    """Each table of series `number` given its game (filed in the club, linked to the
    evening; a series of N rounds plays a game of N rounds), then the series started."""
    sealed: dict[str, str] = {}
    drawn = event.series[number - 1]
    for table in drawn.tables:
        game = event.table_game(number, table.number)

        def link(conn: Connection, kept: StoredGame, table: int = table.number) -> None:
            store.insert_game(conn, stored.id, kept.id, number, table)

        kept, token = clubs_service.file_new_on(conn, stored.club_id, game, lang, also=link)
        sealed[kept.id] = game_access.seal(kept.id, token)
        event = event.attach_game(number, table.number, kept.id)
    return event.start_series(number, now=web_clock.now()), sealed, ()


# -- keeping up with the tables' games --------------------------------------------------------


def on_game_writing(
    game_id: str, *, conn: Connection, stored: StoredGame, game: Game | None = None, **_: Any
) -> bool:
    """The receiver of `game_writing`: a table's game whose series is fixed (the next one is
    drawn, the host has not reopened it) takes no change: GameRefused (`series_closed`); a
    table whose clock ran out takes no round past its last (`series_time_up`), corrections
    still: True when the table's series has a clock (a round more is sent again, with
    `game`). The locks are taken in the order of every evening write, after the game's."""
    found = store.event_of_game(conn, game_id)
    if found is None:
        return False
    event_id, number, table = found
    club_id = store.club_id_on(conn, event_id)
    if club_id is not None:
        clubs_service.lock_on(conn, club_id)
    kept = store.read(conn, event_id, lock=True)
    if kept is None:
        return False
    if game is None:
        kept.event.verify_open(number)
    else:  # a round more
        kept.event.verify_next_round(number, table, len(stored.game.rounds), web_clock.now())
    drawn = kept.event.series_of(number)
    return drawn is not None and drawn.clock is not None


def on_game_written(
    game_id: str, *, conn: Connection, stored: StoredGame, change: Change | None = None, **_: Any
) -> None:
    """The receiver of `game_written`: when the game is a table's of an evening, the table's
    result as the game now gives it, written on `conn` so that it commits with the round.

    A game of no evening costs one lookup by key; a new game (no change yet) none. Should
    keeping up fail, the round still stands (only the evening's savepoint is rolled back)."""
    if change is None:
        return
    found = store.event_of_game(conn, game_id)
    if found is None:
        return
    event_id, number, table = found
    try:
        with conn.begin_nested():
            club_id = store.club_id_on(conn, event_id)
            if club_id is not None:
                clubs_service.lock_on(conn, club_id)  # the order every evening write takes
            kept = store.read(conn, event_id, lock=True)
            if kept is None:
                return
            event = kept.event
            if change.action is Action.ADD:  # the first round after zero fixes the last one
                written = len(stored.game.rounds) - 1
                event = event.fix_last_round(number, table, written, web_clock.now())
            result = event.result_of_game(number, table, stored.game)
            if event.series[number - 1].tables[table - 1].result == result and event is kept.event:
                return
            _tell(conn, store.save(conn, kept, event.record_result(number, table, result)))
    except Exception:
        log.exception("event %s: could not keep up with game %s", event_id, game_id)


def club_members(club_id: str) -> tuple[str, ...]:
    """The club's members, in the club's order (the check-in's list to tap)."""
    club = clubs_service.load(club_id)
    return () if club is None else club.members


def table_edit_link_token(stored: StoredEvent, number: int, table: int) -> tuple[str, str] | None:
    """A table's game id and edit token (None: no such table, or no game yet)."""
    drawn = stored.event.series_of(number)
    if drawn is None or not 1 <= table <= len(drawn.tables):
        return None
    game_id = drawn.tables[table - 1].game_id
    token = None if game_id is None else tokens(stored).get(game_id)
    return None if game_id is None or token is None else (game_id, token)


def table_edit_links(stored: StoredEvent, number: int) -> dict[int, str]:
    """Table number -> its game's edit link, for the tables of series `number` with a game."""
    drawn = stored.event.series_of(number)
    if drawn is None:
        return {}
    found = {}
    for table in drawn.tables:
        pair = table_edit_link_token(stored, number, table.number)
        if pair is not None:
            found[table.number] = game_links.edit_url(*pair, external=True)
    return found


def _tell(conn: Connection, stored: StoredEvent) -> None:
    """The pages that follow the evening (the room's board) hear of this write once it
    commits (web/live/)."""
    signals.changed.send(signals.topic("event", stored.id), conn=conn, version=stored.version)
