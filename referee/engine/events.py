"""A club night: an event in a club, its check-in, its series drawn one after another, the
tables' results and the evening's standings.

`Event` is a frozen state, like `Game`. Each operation that can be refused comes as the trio:
`verify_x()` raises `EventRefused` with every reason at once, `can_x()` answers yes or no, and
`x()` returns the next state (its `version` one higher). The engine draws no randomness of its
own: the event is created with a seed (the web layer picks one), each series' seed comes from it
(`seed_of`) unless the host gives one, and the draw is a function of that seed, the players in
check-in order, the table sizes and the series before it, so the same seed draws the same
tables again.

Glossary (see also `seating` and `tournament`): the *pool* of a series is every player checked
in for it: arrived before it was drawn (a late arrival joins from the next series not yet
drawn) and not left (a player who leaves is out of every later draw and keeps what they
scored); a series *starts* when its first table begins to play (the web layer says so, or a
result says so); from then on its seats are fixed. A table's *result* is what its game gives:
each seat's total in the variant's own count, the rounds played, finished or not; a series of
N rounds counts the totals after N rounds (`result_of_game`): its tables play the variant's first
N rounds as they are (the house rule `rounds_played`, so a table's game ends with the series). A
series is *closed* once the next one is drawn: its results are fixed, unless the host *reopens*
it (and closes it again before drawing on).

A series may have a *clock* (`series_minutes`, `clock_rule`; `series_clock`): it starts when the
series starts, the host pauses and resumes it and gives one table extra minutes, every moment
given by the web layer. A table whose time ran out plays the round in progress (the first round
it writes after zero) and, with `ONE_MORE`, one more: its last round is the rounds it had
written at zero + 1 (+ 2), kept once that round is written (`fix_last_round`); its result is
finished after it and no further round is taken (`last_round`).
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from .errors import EventRefused, Reason, RefereeError, allowed, reason
from .game import Game
from .house_rules import apply_house_rules, get_variant
from .names import clean_name, name_key, read_names
from .seating import (
    MAX_PLAYERS,
    MAX_SEATING_RULES,
    DrawMethod,
    Keep,
    SeatingRule,
    SplitRule,
    Tables,
    TableSize,
    UnmetRule,
    honour,
    in_force,
    judge,
    mix_draw,
    random_draw,
    split_reasons,
    split_rule,
    standings_draw,
    table_sizes,
)
from .series_clock import (
    MAX_EXTRA_IN_ALL,
    MAX_EXTRA_MINUTES,
    MAX_SERIES_MINUTES,
    MIN_SERIES_MINUTES,
    ClockRule,
    SeriesClock,
    utc,
)
from .tournament import (
    ROMME,
    RankBy,
    Scheme,
    Standings,
    TableScore,
    rank,
    read_scheme,
    score_table,
)
from .variants import MAX_ROUNDS_WITHOUT_CONTRACTS, Scoring, Variant

#: Series an evening may have.
MAX_SERIES: Final = 12
#: The longest event name, in characters.
MAX_EVENT_NAME: Final = 60
#: Seeds are whole numbers up to this (six digits: short enough to read out and type again).
MAX_SEED: Final = 999_999
#: The longest game id the web layer may file at a table.
MAX_GAME_ID: Final = 64


def _refuse(code: str, /, *, field: str | None = None, **params: Any) -> EventRefused:
    return EventRefused([reason(code, field=field, **params)])


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- the parts of an evening ------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class EventPlayer:
    """A player of the evening: from which series they are drawn, and from which they are out."""

    name: str
    joined: int = 1  # the first series they can be drawn for
    left: int | None = None  # the first series they are out of (None: still here)
    # Checked in or out by their own phone (the evening's check-in link): the host's page
    # marks it, with an undo; `new`: a name the club did not know when they checked in.
    self_service: bool = False
    new: bool = False

    def plays_in(self, series: int) -> bool:
        return self.joined <= series and (self.left is None or series < self.left)

    @property
    def present(self) -> bool:
        return self.left is None


@dataclass(frozen=True, kw_only=True)
class TableResult:
    """What a table's game gives the evening: each seat's total, the rounds, finished or not."""

    totals: tuple[int, ...]  # in seat order, the variant's own count
    rounds: int
    finished: bool


@dataclass(frozen=True, kw_only=True)
class Table:
    """One table of a series: the players in seat order, who deals first, its game."""

    number: int  # 1-based
    seats: tuple[str, ...]
    # The player in seat 1 deals first, as tournament plans say ("Der Spieler Nummer 1 gibt als
    # erster": the DDV's Turnier-Doppelkopf as planetsenior.de sums it up; a club's Doppelkopf
    # rules after the DDV's, gleichen.digital, Diemardener Doppelkopfturnier).
    first_dealer: int = 0
    game_id: str | None = None  # the web layer's game for this table
    result: TableResult | None = None

    @property
    def finished(self) -> bool:
        return self.result is not None and self.result.finished


@dataclass(frozen=True, kw_only=True)
class Series:
    """One sitting of the room: how it was drawn (method and seed), its tables."""

    number: int
    method: DrawMethod
    seed: int
    tables: tuple[Table, ...]
    started: bool = False
    # Opened again by the host after a later series was drawn (its tables may change again
    # until the host closes it); a series is otherwise fixed once the next one is drawn.
    reopened: bool = False
    clock: SeriesClock | None = None  # started with the series when the evening has one
    # The evening's seating rules its seats do not meet, each with why (`seating.judge`).
    unmet_rules: tuple[UnmetRule, ...] = ()

    @property
    def finished(self) -> bool:
        return all(table.finished for table in self.tables)

    @property
    def playing(self) -> tuple[int, ...]:
        """The tables without a finished result."""
        return tuple(table.number for table in self.tables if not table.finished)

    @property
    def seats(self) -> Tables:
        return tuple(table.seats for table in self.tables)

    def table_of(self, name: str) -> Table | None:
        key = name_key(name)
        return next(
            (t for t in self.tables if any(name_key(s) == key for s in t.seats)),
            None,
        )


# -- the event --------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Event:
    """An evening's state. `house_rules` are the overrides as given (they make `variant`);
    `series_rounds` None means a series is a whole game."""

    name: str
    date: datetime.date
    variant: Variant
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    series_count: int
    table_size: TableSize = field(default_factory=TableSize)
    series_rounds: int | None = None
    scheme: Scheme = ROMME
    later_draws: DrawMethod = DrawMethod.MIX
    seed: int
    series_minutes: int | None = None  # a series' time limit (None: no clock)
    clock_rule: ClockRule = ClockRule.FINISH_ROUND
    players: tuple[EventPlayer, ...] = ()
    series: tuple[Series, ...] = ()
    # Keep two apart, two together, one at a fixed table: every later draw honours them.
    seating_rules: tuple[SeatingRule, ...] = ()
    version: int = 1
    # The host closed the check-in link: players' phones check nobody in or out.
    check_in_closed: bool = False

    # -- creating ------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        *,
        name: str,
        date: datetime.date,
        variant: str,
        house_rules: Mapping[str, Any] | None = None,
        series: int = 4,
        table_size: TableSize | None = None,
        series_rounds: int | None = None,
        scheme: str | Mapping[str, Any] | Scheme = "romme",
        later_draws: DrawMethod | str = DrawMethod.MIX,
        seed: int,
        series_minutes: int | None = None,
        clock_rule: ClockRule | str = ClockRule.FINISH_ROUND,
    ) -> Event:
        """A new evening without players; EventRefused with every reason it cannot be."""
        reasons: list[Reason] = []
        title = _read_title(name, reasons)
        if not isinstance(date, datetime.date):
            reasons.append(reason("bad_input", field="date"))
        rules = _read_variant(variant, house_rules, reasons)
        if not _whole(series) or not 1 <= series <= MAX_SERIES:
            reasons.append(
                reason("bad_series_count", field="series", series=series, min=1, max=MAX_SERIES)
            )
        sizes = table_size if table_size is not None else TableSize()
        if not isinstance(sizes, TableSize):
            reasons.append(reason("bad_input", field="table_size"))
        else:
            reasons.extend(_table_size_reasons(sizes, rules))
        reasons.extend(_series_rounds_reasons(series_rounds, rules))
        counted = _read_scheme(scheme, reasons)
        method = _read_method(later_draws, reasons)
        reasons.extend(_seed_reasons(seed))
        reasons.extend(_series_minutes_reasons(series_minutes))
        at_zero = _read_clock_rule(clock_rule, reasons)
        if reasons or rules is None or counted is None or method is None or at_zero is None:
            raise EventRefused(reasons)
        return cls(
            name=title,
            date=date,
            variant=rules,
            house_rules=dict(house_rules or {}),
            series_count=series,
            table_size=sizes,
            series_rounds=series_rounds,
            scheme=counted,
            later_draws=method,
            seed=seed,
            series_minutes=series_minutes,
            clock_rule=at_zero,
        )

    # -- where the evening stands --------------------------------------------------------

    @property
    def high_wins(self) -> bool:
        """The highest total wins at a table (the winner collects); else the lowest."""
        return self.variant.scoring is Scoring.WINNER_COLLECTS

    @property
    def next_series(self) -> int | None:
        """The number of the series to draw next; None once every series is drawn."""
        number = len(self.series) + 1
        return number if number <= self.series_count else None

    @property
    def check_in_open(self) -> bool:
        """Players may check themselves in or out by the link: not closed by the host, and a
        series still to draw."""
        return not self.check_in_closed and self.next_series is not None

    @property
    def finished(self) -> bool:
        """Every series drawn and every table finished."""
        return len(self.series) == self.series_count and all(s.finished for s in self.series)

    @property
    def split_rule(self) -> SplitRule:
        return split_rule(self.table_size)

    @property
    def table_house_rules(self) -> dict[str, Any]:
        """The house rules each table's game plays by: the evening's, and for a series of N
        rounds the variant's first N rounds (`rounds_played`): the game ends with the series."""
        rules = dict(self.house_rules)
        if self.series_rounds is not None:
            rules["rounds_played"] = self.series_rounds
        return rules

    @property
    def table_variant(self) -> Variant:
        """The variant as each table plays it (`table_house_rules`)."""
        if self.series_rounds is None:
            return self.variant
        return apply_house_rules(self.variant, {"rounds_played": self.series_rounds})

    def table_game(self, number: int, table: int) -> Game:
        """A new game for that table: its seats in order, its first dealer, the evening's
        rules for a table (a series of N rounds ends after N)."""
        found = self._table_or_refuse(number, table)
        return Game.start(
            self.variant.id,
            found.seats,
            house_rules=self.table_house_rules or None,
            first_dealer=found.first_dealer,
        )

    def closed(self, number: int) -> bool:
        """Whether series `number`'s results are fixed: a later series is drawn and the host
        has not reopened it."""
        drawn = self.series_of(number)
        return drawn is not None and number < len(self.series) and not drawn.reopened

    @property
    def reopened(self) -> tuple[int, ...]:
        """The series the host reopened (their results may still change)."""
        return tuple(s.number for s in self.series if s.reopened)

    def player(self, name: str) -> EventPlayer | None:
        if not isinstance(name, str):
            return None
        key = name_key(name)
        return next((p for p in self.players if name_key(p.name) == key), None)

    def series_of(self, number: int) -> Series | None:
        return (
            self.series[number - 1] if _whole(number) and 1 <= number <= len(self.series) else None
        )

    def pool(self, number: int) -> tuple[str, ...]:
        """The players drawn for series `number`, in check-in order."""
        return tuple(p.name for p in self.players if p.plays_in(number))

    def tables_for(self, players: int) -> tuple[int, ...] | None:
        """The table sizes `players` would sit at (None: they cannot be seated)."""
        return table_sizes(players, self.table_size)

    def seed_of(self, number: int) -> int:
        """The seed series `number` is drawn with when the host gives none."""
        return random.Random(f"{self.seed}:{number}").randrange(MAX_SEED + 1)

    # -- check-in ------------------------------------------------------------------------

    def verify_check_in(self, name: str, *, by_player: bool = False) -> None:
        """EventRefused unless `name` can join the evening (or come back) now (`by_player`:
        by their own phone, which the host may have closed)."""
        if by_player and self.check_in_closed:
            raise _refuse("check_in_closed", field="name")
        names, reasons = read_names([name])
        if reasons:
            raise EventRefused([replace(r, player=None, field="name") for r in reasons])
        if self.next_series is None:
            raise _refuse("no_series_left", field="name", series=self.series_count)
        known = self.player(names[0])
        if known is not None and known.present:
            raise _refuse("already_checked_in", field="name", name=known.name)
        here = sum(p.present for p in self.players)
        if known is None and here >= MAX_PLAYERS:
            raise _refuse("too_many_players", field="name", players=here + 1, max=MAX_PLAYERS)

    def can_check_in(self, name: str) -> bool:
        return allowed(lambda: self.verify_check_in(name))

    def check_in(self, name: str, *, by_player: bool = False, new: bool = False) -> Event:
        """The evening with `name` drawn from the next series on (a player who left comes
        back under the name they had); `by_player`: by their own phone (marked for the host,
        `new` when the club did not know the name)."""
        self.verify_check_in(name, by_player=by_player)
        start = self.next_series
        assert start is not None
        known = self.player(name)
        if known is None:
            arrived = EventPlayer(
                name=clean_name(name), joined=start, self_service=by_player, new=by_player and new
            )
            return self._with(players=(*self.players, arrived))
        back = replace(known, joined=start, left=None, self_service=by_player)
        return self._with(players=tuple(back if p is known else p for p in self.players))

    def verify_leave(self, name: str, *, by_player: bool = False) -> None:
        """EventRefused unless `name` can leave: known, here, not seated in a series drawn
        but not started (withdraw that draw first, or swap them out); `by_player`: by their
        own phone, which the host may have closed."""
        if by_player and self.check_in_closed:
            raise _refuse("check_in_closed", field="name")
        known = self.player(name)
        if known is None:
            raise _refuse("unknown_player", field="name", name=str(name)[:40])
        if not known.present:
            raise _refuse("already_left", field="name", name=known.name)
        newest = self.series[-1] if self.series else None
        if newest is not None and not newest.started:
            table = newest.table_of(known.name)
            if table is not None:
                raise _refuse(
                    "seated_in_next_series",
                    field="name",
                    name=known.name,
                    series=newest.number,
                    table=table.number,
                )

    def can_leave(self, name: str) -> bool:
        return allowed(lambda: self.verify_leave(name))

    def close_check_in(self) -> Event:
        """The evening with its check-in link closed (the host checks players in still)."""
        return self._with(check_in_closed=True)

    def open_check_in(self) -> Event:
        """The evening with its check-in link open again."""
        return self._with(check_in_closed=False)

    def verify_undo_self_service(self, name: str) -> None:
        """EventRefused unless `name`'s last check-in or check-out was by their own phone."""
        known = self.player(name)
        if known is None or not known.self_service:
            raise _refuse("no_check_in_to_undo", field="name", name=str(name)[:40])
        if known.present and not any(s.table_of(known.name) for s in self.series):
            return
        (self.verify_leave if known.present else self.verify_check_in)(known.name)

    def undo_self_service(self, name: str) -> Event:
        """The host undoes what `name`'s phone did: a check-in taken back (a player never
        seated is no longer of the evening; one who was leaves), a check-out taken back (back
        from the next series). The mark goes with it."""
        self.verify_undo_self_service(name)
        known = self.player(name)
        assert known is not None
        if not known.present:
            return self.check_in(known.name)
        if any(s.table_of(known.name) for s in self.series):
            return self.leave(known.name)
        return self._with(players=tuple(p for p in self.players if p is not known))

    def leave(self, name: str, *, by_player: bool = False) -> Event:
        """The evening with `name` out of every series not drawn yet; what they scored stays
        (`by_player`: by their own phone, marked for the host)."""
        self.verify_leave(name, by_player=by_player)
        known = self.player(name)
        assert known is not None
        gone = replace(known, left=len(self.series) + 1, self_service=by_player)
        return self._with(players=tuple(gone if p is known else p for p in self.players))

    # -- drawing a series ----------------------------------------------------------------

    def verify_draw(
        self, number: int, method: DrawMethod | str | None = None, seed: int | None = None
    ) -> None:
        """EventRefused unless series `number` can be drawn now, by `method` (or its value)
        and `seed`."""
        expected = self.next_series
        if expected is None:
            raise _refuse("all_series_drawn", field="series", series=self.series_count)
        if _whole(number) and number < expected:  # a second phone drawing the same series
            raise _refuse("series_already_drawn", field="series", series=number, expected=expected)
        if number != expected:
            raise _refuse("series_out_of_order", field="series", series=number, expected=expected)
        reasons: list[Reason] = []
        if self.series and not self.series[-1].finished:
            previous = self.series[-1]
            reasons.append(
                reason(
                    "series_still_playing",
                    field="series",
                    series=previous.number,
                    tables=list(previous.playing),
                )
            )
        if self.reopened:
            reasons.append(reason("series_reopened", field="series", series=self.reopened[0]))
        chosen = None if method is None else _read_method(method, reasons, where="method")
        if chosen is DrawMethod.STANDINGS and number == 1:
            reasons.append(reason("no_standings_yet", field="method"))
        if seed is not None:
            reasons.extend(_seed_reasons(seed))
        reasons.extend(split_reasons(len(self.pool(number)), self.table_size))
        if reasons:
            raise EventRefused(reasons)

    def can_draw(
        self, number: int, method: DrawMethod | str | None = None, seed: int | None = None
    ) -> bool:
        return allowed(lambda: self.verify_draw(number, method, seed))

    def draw_series(
        self, number: int, method: DrawMethod | str | None = None, seed: int | None = None
    ) -> Event:
        """The evening with series `number` drawn: the first at random, a later one by the
        event's `later_draws` unless `method` says otherwise; `seed` None: `seed_of(number)`."""
        self.verify_draw(number, method, seed)
        if method is None:
            how = DrawMethod.RANDOM if number == 1 else self.later_draws
        else:
            how = DrawMethod(method)
        used = self.seed_of(number) if seed is None else seed
        seated = self._seat(number, how, used)
        tables = tuple(Table(number=n, seats=seats) for n, seats in enumerate(seated, start=1))
        unmet = judge(self.seating_rules, seated)
        drawn = Series(number=number, method=how, seed=used, tables=tables, unmet_rules=unmet)
        return self._with(series=(*self.series, drawn))

    def _seat(self, number: int, method: DrawMethod, seed: int) -> Tables:
        pool = self.pool(number)
        sizes = self.tables_for(len(pool))
        assert sizes is not None
        rules, _ = in_force(self.seating_rules, pool, len(sizes))
        if method is DrawMethod.RANDOM:
            return honour(random_draw(pool, sizes, seed), rules, seed)
        if method is DrawMethod.MIX:
            past = [s.seats for s in self.series]
            ahead = self.series_count - number
            preferred = self.table_size.preferred
            return mix_draw(pool, sizes, past, seed, preferred=preferred, ahead=ahead, rules=rules)
        board = self.standings(through=number - 1)
        places = {name_key(row.name): row.place for row in board.rows}
        rng = random.Random(seed)
        shuffled = {name: rng.random() for name in pool}  # equal places: drawn by the seed
        last = len(places) + 1
        ranked = sorted(pool, key=lambda n: (places.get(name_key(n), last), shuffled[n]))
        return honour(standings_draw(ranked, sizes), rules, seed)

    def verify_withdraw(self, number: int) -> None:
        """EventRefused unless series `number` is the newest, drawn and not started."""
        if not self.series or number != len(self.series):
            raise _refuse("not_the_newest_series", field="series", series=number)
        if self.series[-1].started:
            raise _refuse("series_started", field="series", series=number)

    def can_withdraw(self, number: int) -> bool:
        return allowed(lambda: self.verify_withdraw(number))

    def withdraw_series(self, number: int) -> Event:
        """The evening as before series `number` was drawn (to draw it again: a late arrival,
        a player who must leave)."""
        self.verify_withdraw(number)
        return self._with(series=self.series[:-1])

    def verify_start(self, number: int) -> None:
        """EventRefused unless series `number` is the newest and not started yet."""
        self.verify_withdraw(number)

    def can_start(self, number: int) -> bool:
        return allowed(lambda: self.verify_start(number))

    def start_series(self, number: int, *, now: datetime.datetime | None = None) -> Event:
        """The evening with series `number` started: its seats are fixed from now on; with the
        evening's `series_minutes`, its clock runs from `now` (no clock without a `now`)."""
        self.verify_start(number)
        drawn = replace(self.series[-1], started=True)
        if self.series_minutes is not None and now is not None:
            clock = SeriesClock(
                minutes=self.series_minutes, rule=self.clock_rule, started_at=utc(now)
            )
            drawn = replace(drawn, clock=clock)
        return self._replace_series(drawn)

    # -- the series' clock ---------------------------------------------------------------

    def verify_set_clock(self, minutes: int | None, rule: ClockRule | str) -> None:
        """EventRefused unless `minutes` (None: no clock) and `rule` can be the clock of the
        series not started yet (a series started keeps the clock it started with)."""
        reasons = _series_minutes_reasons(minutes)
        _read_clock_rule(rule, reasons)
        if reasons:
            raise EventRefused(reasons)

    def can_set_clock(self, minutes: int | None, rule: ClockRule | str) -> bool:
        return allowed(lambda: self.verify_set_clock(minutes, rule))

    def set_clock(self, minutes: int | None, rule: ClockRule | str) -> Event:
        """The evening whose next series start with a clock of `minutes` (None: none)."""
        self.verify_set_clock(minutes, rule)
        return self._with(series_minutes=minutes, clock_rule=ClockRule(rule))

    def _clock_or_refuse(self, number: int) -> SeriesClock:
        drawn = self._series_or_refuse(number)
        if drawn.clock is None:
            raise _refuse("series_has_no_clock", field="series", series=number)
        self.verify_open(number)
        return drawn.clock

    def verify_pause(self, number: int, now: datetime.datetime) -> None:
        """EventRefused unless series `number`'s clock runs at `now`: not paused, time left
        for a table still playing."""
        clock = self._clock_or_refuse(number)
        if clock.paused:
            raise _refuse("clock_already_paused", field="action", series=number)
        drawn = self.series[number - 1]
        if not any(not clock.time_up(now, t) for t in drawn.playing):
            raise _refuse("clock_ran_out", field="action", series=number)

    def can_pause(self, number: int, now: datetime.datetime) -> bool:
        return allowed(lambda: self.verify_pause(number, now))

    def pause_clock(self, number: int, now: datetime.datetime) -> Event:
        """The evening with series `number`'s clock standing from `now` on."""
        self.verify_pause(number, now)
        return self._with_clock(number, self._clock_or_refuse(number).paused_now(now))

    def verify_resume(self, number: int) -> None:
        """EventRefused unless series `number`'s clock is paused."""
        if not self._clock_or_refuse(number).paused:
            raise _refuse("clock_not_paused", field="action", series=number)

    def can_resume(self, number: int) -> bool:
        return allowed(lambda: self.verify_resume(number))

    def resume_clock(self, number: int, now: datetime.datetime) -> Event:
        """The evening with series `number`'s clock running again from `now` (the pause's
        length added to every table's time)."""
        self.verify_resume(number)
        return self._with_clock(number, self._clock_or_refuse(number).resumed(now))

    def verify_extra(self, number: int, table: int, minutes: int) -> None:
        """EventRefused unless `table` of series `number` can have `minutes` more: 1 to
        MAX_EXTRA_MINUTES at once, MAX_EXTRA_IN_ALL in all, a table still playing."""
        clock = self._clock_or_refuse(number)
        found = self._table_or_refuse(number, table)
        if not _whole(minutes) or not 1 <= minutes <= MAX_EXTRA_MINUTES:
            raise _refuse(
                "bad_extra_minutes",
                field="minutes",
                minutes=str(minutes)[:10],
                max=MAX_EXTRA_MINUTES,
            )
        if clock.extra_of(table) + minutes > MAX_EXTRA_IN_ALL:
            raise _refuse(
                "too_many_extra_minutes", field="minutes", table=table, max=MAX_EXTRA_IN_ALL
            )
        if found.finished or clock.last_round_kept(table) is not None:
            raise _refuse("table_already_finishing", field="table", table=table)

    def can_give_extra(self, number: int, table: int, minutes: int) -> bool:
        return allowed(lambda: self.verify_extra(number, table, minutes))

    def give_extra(self, number: int, table: int, minutes: int) -> Event:
        """The evening with `table` of series `number` given `minutes` more (that table
        only)."""
        self.verify_extra(number, table, minutes)
        clock = self.series[number - 1].clock
        assert clock is not None
        return self._with_clock(number, clock.with_extra(table, minutes))

    def last_round(
        self, number: int, table: int, written: int, now: datetime.datetime
    ) -> int | None:
        """The last round `table` of series `number` plays, with `written` rounds written at
        `now`: the one kept, else once its time is up the round in progress (+ one more with
        `ONE_MORE`); None while its time runs (or without a clock)."""
        drawn = self.series_of(number)
        clock = None if drawn is None else drawn.clock
        if clock is None:
            return None
        kept = clock.last_round_kept(table)
        if kept is not None:
            return kept
        if not clock.time_up(now, table):
            return None
        return written + clock.rule.rounds_after

    def verify_next_round(
        self, number: int, table: int, written: int, now: datetime.datetime
    ) -> None:
        """EventRefused (`series_time_up`) when `table` of series `number`, with `written`
        rounds written, has played its last round by the clock at `now`."""
        last = self.last_round(number, table, written, now)
        if last is not None and written >= last:
            raise _refuse("series_time_up", field="round", series=number, rounds=last)

    def can_play_next_round(
        self, number: int, table: int, written: int, now: datetime.datetime
    ) -> bool:
        return allowed(lambda: self.verify_next_round(number, table, written, now))

    def fix_last_round(
        self, number: int, table: int, written: int, now: datetime.datetime
    ) -> Event:
        """The evening keeping `table`'s last round once a round is written after its time
        ran out (`written`: the rounds before that one); itself when there is nothing to
        keep."""
        drawn = self.series_of(number)
        clock = None if drawn is None else drawn.clock
        if clock is None or clock.last_round_kept(table) is not None:
            return self
        if not clock.time_up(now, table):
            return self
        return self._with_clock(
            number, clock.with_last_round(table, written + clock.rule.rounds_after)
        )

    def _with_clock(self, number: int, clock: SeriesClock) -> Event:
        return self._replace_series(replace(self.series[number - 1], clock=clock))

    # -- the host's swap -----------------------------------------------------------------

    def verify_swap(self, number: int, first: str, second: str) -> None:
        """EventRefused unless `first` and `second` can change places in series `number`:
        the series not started, both seated in it, at different tables."""
        drawn = self._series_or_refuse(number)
        if drawn.started:
            raise _refuse("series_started", field="series", series=number)
        reasons: list[Reason] = []
        tables = []
        for where, name in (("first", first), ("second", second)):
            known = self.player(name) if isinstance(name, str) else None
            table = drawn.table_of(name) if known is not None else None
            if known is None:
                reasons.append(reason("unknown_player", field=where, name=str(name)[:40]))
            elif table is None:
                reasons.append(reason("not_seated", field=where, name=known.name, series=number))
            tables.append(table)
        if not reasons and name_key(first) == name_key(second):
            reasons.append(reason("same_player", field="second", name=str(second)[:40]))
        elif not reasons and tables[0] is tables[1] and tables[0] is not None:
            reasons.append(reason("same_table", field="second", table=tables[0].number))
        if reasons:
            raise EventRefused(reasons)

    def can_swap(self, number: int, first: str, second: str) -> bool:
        return allowed(lambda: self.verify_swap(number, first, second))

    def swap(self, number: int, first: str, second: str) -> Event:
        """The evening with `first` and `second` in each other's seats in series `number`."""
        self.verify_swap(number, first, second)
        drawn = self.series[number - 1]
        a, b = self.player(first), self.player(second)
        assert a is not None and b is not None
        names = {a.name: b.name, b.name: a.name}
        tables = tuple(
            replace(t, seats=tuple(names.get(s, s) for s in t.seats)) for t in drawn.tables
        )
        return self._replace_series(self._rejudged(drawn, tables))

    def verify_move(self, number: int, name: str, table: int) -> None:
        """EventRefused unless `name` can move to `table` in series `number`: the series not
        started, the player seated at another table, and both tables still of a size the
        evening allows."""
        drawn = self._series_or_refuse(number)
        if drawn.started:
            raise _refuse("series_started", field="series", series=number)
        known = self.player(name) if isinstance(name, str) else None
        if known is None:
            raise _refuse("unknown_player", field="name", name=str(name)[:40])
        source = drawn.table_of(known.name)
        if source is None:
            raise _refuse("not_seated", field="name", name=known.name, series=number)
        target = self._table_or_refuse(number, table)
        if target is source:
            raise _refuse("already_at_table", field="table", name=known.name, table=table)
        reasons: list[Reason] = []
        sizes = self.table_size
        if len(source.seats) - 1 < max(sizes.smallest, self.variant.min_players):
            least = max(sizes.smallest, self.variant.min_players)
            reasons.append(reason("table_too_small", field="name", table=source.number, size=least))
        if len(target.seats) + 1 > min(sizes.largest, self.variant.max_players):
            most = min(sizes.largest, self.variant.max_players)
            reasons.append(reason("table_too_large", field="table", table=table, size=most))
        if reasons:
            raise EventRefused(reasons)

    def can_move(self, number: int, name: str, table: int) -> bool:
        return allowed(lambda: self.verify_move(number, name, table))

    def move(self, number: int, name: str, table: int) -> Event:
        """The evening with `name` moved to the last seat of `table` in series `number`."""
        self.verify_move(number, name, table)
        drawn = self.series[number - 1]
        known = self.player(name)
        assert known is not None
        tables = []
        for t in drawn.tables:
            seats = tuple(s for s in t.seats if name_key(s) != name_key(known.name))
            if t.number == table:
                seats = (*seats, known.name)
            dealer = t.first_dealer if t.first_dealer < len(seats) else 0
            tables.append(replace(t, seats=seats, first_dealer=dealer))
        return self._replace_series(self._rejudged(drawn, tuple(tables)))

    def _rejudged(self, drawn: Series, tables: tuple[Table, ...]) -> Series:
        """`drawn` with the host's new `tables`, its unmet rules judged again: a rule the
        draw met and the change breaks is the host's doing."""
        seats = tuple(t.seats for t in tables)
        unmet = judge(self.seating_rules, seats, before=drawn.unmet_rules)
        return replace(drawn, tables=tables, unmet_rules=unmet)

    # -- seating rules -------------------------------------------------------------------

    @property
    def most_tables(self) -> int:
        """The most tables the evening's players could sit at (a fixed table's highest)."""
        return max(1, len(self.players) // self.table_size.smallest)

    def verify_seating(self, rules: Any) -> None:
        """EventRefused unless `rules` (`SeatingRule`s) can be the evening's: at most
        MAX_SEATING_RULES, each naming players of the evening (two different ones to keep
        apart or together, one with a table from 1 to `most_tables`), none twice, no pair
        both apart and together, no player at two fixed tables."""
        _read_rules(self, rules)

    def can_set_seating(self, rules: Any) -> bool:
        return allowed(lambda: self.verify_seating(rules))

    def set_seating(self, rules: Any) -> Event:
        """The evening with `rules` as its seating rules (its players' names as the evening
        spells them); the draws from now on honour them."""
        return self._with(seating_rules=_read_rules(self, rules))

    # -- a series fixed, and opened again ------------------------------------------------

    def verify_open(self, number: int) -> None:
        """EventRefused when series `number`'s results are fixed (`closed`): what a table's
        game may not change then."""
        if self.closed(number):
            raise _refuse("series_closed", field="series", series=number, next=number + 1)

    def verify_reopen(self, number: int) -> None:
        """EventRefused unless the host can reopen series `number`: it is closed."""
        drawn = self._series_or_refuse(number)
        if drawn.reopened:
            raise _refuse("series_already_reopened", field="series", series=number)
        if not self.closed(number):
            raise _refuse("series_not_closed", field="series", series=number)

    def can_reopen(self, number: int) -> bool:
        return allowed(lambda: self.verify_reopen(number))

    def reopen_series(self, number: int) -> Event:
        """The evening with series `number` open again: its tables may change their results
        (undo, a correction) until the host closes it; no series is drawn meanwhile."""
        self.verify_reopen(number)
        return self._replace_series(replace(self.series[number - 1], reopened=True))

    def verify_close(self, number: int) -> None:
        """EventRefused unless series `number` is reopened and every table of it finished."""
        drawn = self._series_or_refuse(number)
        if not drawn.reopened:
            raise _refuse("series_not_reopened", field="series", series=number)
        if not drawn.finished:
            raise _refuse(
                "series_still_playing", field="series", series=number, tables=list(drawn.playing)
            )

    def can_close(self, number: int) -> bool:
        return allowed(lambda: self.verify_close(number))

    def close_series(self, number: int) -> Event:
        """The evening with series `number`, reopened, fixed again."""
        self.verify_close(number)
        return self._replace_series(replace(self.series[number - 1], reopened=False))

    # -- the tables' games ---------------------------------------------------------------

    def verify_attach(self, number: int, table: int, game_id: str) -> None:
        """EventRefused unless `game_id` can be filed as the game of that table."""
        found = self._table_or_refuse(number, table)
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= MAX_GAME_ID:
            raise _refuse("bad_input", field="game_id")
        if found.game_id is not None and found.game_id != game_id:
            raise _refuse("game_already_attached", field="game_id", series=number, table=table)

    def can_attach(self, number: int, table: int, game_id: str) -> bool:
        return allowed(lambda: self.verify_attach(number, table, game_id))

    def attach_game(self, number: int, table: int, game_id: str) -> Event:
        """The evening with `game_id` filed at that table."""
        self.verify_attach(number, table, game_id)
        return self._replace_table(number, table, game_id=game_id)

    def verify_result(self, number: int, table: int, result: TableResult) -> None:
        """EventRefused unless `result` can stand as that table's result (its series open)."""
        found = self._table_or_refuse(number, table)
        self.verify_open(number)
        if not isinstance(result, TableResult):
            raise _refuse("bad_input", field="result")
        reasons: list[Reason] = []
        totals = result.totals
        if (
            not isinstance(totals, tuple | list)
            or len(totals) != len(found.seats)
            or not all(_whole(t) for t in totals)
        ):
            reasons.append(reason("bad_result", field="totals", seats=len(found.seats)))
        limit = self.series_rounds or self.variant.rounds or MAX_ROUNDS_WITHOUT_CONTRACTS
        if not _whole(result.rounds) or not 0 <= result.rounds <= limit:
            reasons.append(
                reason("too_many_rounds", field="rounds", rounds=result.rounds, max=limit)
            )
        elif result.finished and result.rounds == 0:
            reasons.append(reason("no_rounds_played", field="rounds", table=table))
        if reasons:
            raise EventRefused(reasons)

    def can_record_result(self, number: int, table: int, result: TableResult) -> bool:
        return allowed(lambda: self.verify_result(number, table, result))

    def record_result(self, number: int, table: int, result: TableResult) -> Event:
        """The evening with that table's result as given (a later result replaces it: a
        round corrected); the series counts as started."""
        self.verify_result(number, table, result)
        kept = replace(result, totals=tuple(result.totals))
        event = self._replace_table(number, table, result=kept)
        drawn = event.series[number - 1]
        return event if drawn.started else event._replace_series(replace(drawn, started=True))

    def result_of_game(self, number: int, table: int, game: Game) -> TableResult:
        """What `game` gives that table: the totals after the series' rounds (all of a whole
        game), finished once it has them or the game is over. EventRefused when the game is
        not that table's (other players or seats, other rules)."""
        found = self._table_or_refuse(number, table)
        if [name_key(n) for n in game.players] != [name_key(n) for n in found.seats]:
            raise _refuse("game_seats_differ", field="game", series=number, table=table)
        # A table's game plays `table_variant`; one started before games knew their series'
        # length plays the variant whole, and counts its first N rounds.
        if game.variant not in (self.table_variant, self.variant):
            raise _refuse("game_rules_differ", field="game", series=number, table=table)
        played = len(game.rounds)
        clock = self.series[number - 1].clock
        timed = None if clock is None else clock.last_round_kept(table)
        if self.series_rounds is None and timed is None:
            return TableResult(totals=game.standings.totals, rounds=played, finished=game.finished)
        last = min(n for n in (self.series_rounds, timed) if n is not None)
        counted = min(played, last)
        totals = game.running_totals()[counted - 1] if counted else (0,) * len(found.seats)
        finished = played >= last or game.finished
        return TableResult(totals=totals, rounds=counted, finished=finished)

    # -- standings -----------------------------------------------------------------------

    def scores(
        self,
        *,
        series: int | None = None,
        through: int | None = None,
        unfinished: bool = False,
    ) -> tuple[TableScore, ...]:
        """Every player's score at every table with a result: of one series, or of the series
        up to `through`; only finished tables unless `unfinished`."""
        out: list[TableScore] = []
        for drawn in self._counted(series, through):
            for table in drawn.tables:
                result = table.result
                if result is None or not (result.finished or unfinished):
                    continue
                out.extend(
                    score_table(
                        self.scheme,
                        series=drawn.number,
                        table=table.number,
                        names=table.seats,
                        totals=result.totals,
                        rounds=result.rounds,
                        high_wins=self.high_wins,
                        finished=result.finished,
                    )
                )
        return tuple(out)

    def standings(
        self,
        *,
        by: RankBy = RankBy.TOURNAMENT_POINTS,
        series: int | None = None,
        through: int | None = None,
        unfinished: bool = False,
    ) -> Standings:
        """The board: over the evening (or up to series `through`), or of one series. Its
        rows are the players who scored in those series and, over the evening, everyone
        checked in."""
        scores = self.scores(series=series, through=through, unfinished=unfinished)
        scored = {name_key(s.name) for s in scores}
        names = [
            p.name
            for p in self.players
            if name_key(p.name) in scored or (series is None and p.present)
        ]
        return rank(
            scores,
            names,
            scheme=self.scheme,
            by=by,
            high_wins=self.high_wins,
            present=[p.name for p in self.players if p.present],
            series=[s.number for s in self._counted(series, through)],
        )

    def _counted(self, series: int | None, through: int | None) -> tuple[Series, ...]:
        if series is not None:
            return tuple(s for s in self.series if s.number == series)
        if through is not None:
            return tuple(s for s in self.series if s.number <= through)
        return self.series

    # -- building states -----------------------------------------------------------------

    def _series_or_refuse(self, number: int) -> Series:
        drawn = self.series_of(number)
        if drawn is None:
            raise _refuse("no_such_series", field="series", series=number)
        return drawn

    def _table_or_refuse(self, number: int, table: int) -> Table:
        drawn = self._series_or_refuse(number)
        if not _whole(table) or not 1 <= table <= len(drawn.tables):
            raise _refuse("no_such_table", field="table", series=number, table=table)
        return drawn.tables[table - 1]

    def _replace_series(self, drawn: Series) -> Event:
        series = tuple(drawn if s.number == drawn.number else s for s in self.series)
        return self._with(series=series)

    def _replace_table(self, number: int, table: int, **changes: Any) -> Event:
        drawn = self.series[number - 1]
        tables = tuple(replace(t, **changes) if t.number == table else t for t in drawn.tables)
        return self._replace_series(replace(drawn, tables=tables))

    def _with(self, **changes: Any) -> Event:
        return replace(self, version=self.version + 1, **changes)

    # -- keeping it ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Everything the evening is, as JSON (`from_json` reads it back)."""
        return {
            "name": self.name,
            "date": self.date.isoformat(),
            "variant": self.variant.id,
            "house_rules": dict(self.house_rules),
            "series_count": self.series_count,
            "table_size": {
                "preferred": self.table_size.preferred,
                "smallest": self.table_size.smallest,
                "largest": self.table_size.largest,
            },
            "series_rounds": self.series_rounds,
            "scheme": self.scheme.to_json(),
            "later_draws": self.later_draws.value,
            "seed": self.seed,
            **(
                {"series_minutes": self.series_minutes, "clock_rule": self.clock_rule.value}
                if self.series_minutes is not None
                else {}
            ),
            "players": [_player_json(p) for p in self.players],
            "series": [_series_json(s) for s in self.series],
            "seating_rules": [rule.to_json() for rule in self.seating_rules],
            "version": self.version,
            "check_in_closed": self.check_in_closed,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """An evening read back from `to_json`: its settings checked as `create` checks them
        (EventRefused), its players and series as they were kept."""
        sizes = data["table_size"]
        event = cls.create(
            name=data["name"],
            date=datetime.date.fromisoformat(data["date"]),
            variant=data["variant"],
            house_rules=data.get("house_rules") or None,
            series=data["series_count"],
            table_size=TableSize(
                preferred=sizes["preferred"], smallest=sizes["smallest"], largest=sizes["largest"]
            ),
            series_rounds=data.get("series_rounds"),
            scheme=data["scheme"],
            later_draws=data["later_draws"],
            seed=data["seed"],
            # An evening kept before clocks has none.
            series_minutes=data.get("series_minutes"),
            clock_rule=data.get("clock_rule", ClockRule.FINISH_ROUND.value),
        )
        players = tuple(
            EventPlayer(
                name=str(p["name"]),
                joined=int(p["joined"]),
                left=_int_or_none(p["left"]),
                self_service=bool(p.get("self_service", False)),
                new=bool(p.get("new", False)),
            )
            for p in data["players"]
        )
        series = tuple(_series_from_json(s) for s in data["series"])
        closed = bool(data.get("check_in_closed", False))  # an evening kept before: open
        event = replace(event, players=players, series=series, check_in_closed=closed)
        # An evening kept before seating rules has none.
        rules = _read_rules(event, [rule_from_json(r) for r in data.get("seating_rules") or []])
        return replace(event, seating_rules=rules, version=int(data["version"]))


def _player_json(player: EventPlayer) -> dict[str, Any]:
    kept: dict[str, Any] = {"name": player.name, "joined": player.joined, "left": player.left}
    if player.self_service:  # only when set: an evening's file stays as it was without
        kept.update(self_service=True, new=player.new)
    return kept


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def _series_json(drawn: Series) -> dict[str, Any]:
    return {
        "number": drawn.number,
        "method": drawn.method.value,
        "seed": drawn.seed,
        "started": drawn.started,
        "reopened": drawn.reopened,
        **({} if drawn.clock is None else {"clock": drawn.clock.to_json()}),
        "unmet_rules": [{"rule": u.rule.to_json(), "reason": u.reason} for u in drawn.unmet_rules],
        "tables": [
            {
                "number": t.number,
                "seats": list(t.seats),
                "first_dealer": t.first_dealer,
                "game_id": t.game_id,
                "result": None
                if t.result is None
                else {
                    "totals": list(t.result.totals),
                    "rounds": t.result.rounds,
                    "finished": t.result.finished,
                },
            }
            for t in drawn.tables
        ],
    }


def _series_from_json(data: Mapping[str, Any]) -> Series:
    tables = []
    for t in data["tables"]:
        kept = t.get("result")
        result = (
            None
            if kept is None
            else TableResult(
                totals=tuple(int(x) for x in kept["totals"]),
                rounds=int(kept["rounds"]),
                finished=bool(kept["finished"]),
            )
        )
        tables.append(
            Table(
                number=int(t["number"]),
                seats=tuple(str(s) for s in t["seats"]),
                first_dealer=int(t.get("first_dealer", 0)),
                game_id=None if t.get("game_id") is None else str(t["game_id"]),
                result=result,
            )
        )
    return Series(
        number=int(data["number"]),
        method=DrawMethod(data["method"]),
        seed=int(data["seed"]),
        tables=tuple(tables),
        started=bool(data.get("started", False)),
        reopened=bool(data.get("reopened", False)),
        clock=None if data.get("clock") is None else SeriesClock.from_json(data["clock"]),
        unmet_rules=tuple(
            UnmetRule(rule=rule_from_json(u["rule"]), reason=str(u["reason"]))
            for u in data.get("unmet_rules") or []
        ),
    )


def rule_from_json(data: Any) -> SeatingRule:
    """A seating rule as `SeatingRule.to_json` (and the API) writes one: `keep`, `players`,
    and `table` for a fixed table. EventRefused when it has another shape (what it says, the
    evening checks: `verify_seating`)."""
    if not isinstance(data, Mapping):
        raise _refuse("bad_seating_rule", field="rules")
    keep = {k.value: k for k in Keep}.get(data.get("keep"))  # type: ignore[arg-type]
    names = data.get("players")
    table = data.get("table")
    if (
        keep is None
        or not isinstance(names, list | tuple)
        or len(names) != (1 if keep is Keep.TABLE else 2)
        or not all(isinstance(n, str) for n in names)
        or (keep is Keep.TABLE and not _whole(table))
    ):
        raise _refuse("bad_seating_rule", field="rules")
    return SeatingRule(keep=keep, players=tuple(names), table=table if keep is Keep.TABLE else None)


def _read_rules(event: Event, rules: Any) -> tuple[SeatingRule, ...]:
    """`rules` checked against the evening (`Event.verify_seating`), the names as the evening
    spells them; EventRefused with every reason."""
    if not isinstance(rules, list | tuple) or not all(isinstance(r, SeatingRule) for r in rules):
        raise _refuse("bad_seating_rule", field="rules")
    if len(rules) > MAX_SEATING_RULES:
        raise _refuse(
            "too_many_seating_rules", field="rules", rules=len(rules), max=MAX_SEATING_RULES
        )
    reasons: list[Reason] = []
    kept: list[SeatingRule] = []
    for number, rule in enumerate(rules, start=1):
        where = f"rules.{number}"
        named = _rule_alone(event, rule, where, reasons)
        if named is not None and _rule_beside(named, kept, where, reasons):
            kept.append(named)
    if reasons:
        raise EventRefused(reasons)
    return tuple(kept)


def _rule_alone(
    event: Event, rule: SeatingRule, where: str, reasons: list[Reason]
) -> SeatingRule | None:
    """`rule` in the evening's names, when it can be one on its own (else its reasons)."""
    known = [event.player(name) for name in rule.players]
    missing = [n for n, p in zip(rule.players, known, strict=True) if p is None]
    for name in missing:
        reasons.append(reason("rule_names_a_stranger", field=where, name=str(name)[:40]))
    if missing:
        return None
    names = tuple(p.name for p in known if p is not None)
    if rule.keep is Keep.APART and name_key(names[0]) == name_key(names[1]):
        reasons.append(reason("apart_from_themself", field=where, name=names[0]))
    elif rule.keep is Keep.TOGETHER and name_key(names[0]) == name_key(names[1]):
        reasons.append(reason("together_with_themself", field=where, name=names[0]))
    elif rule.keep is Keep.TABLE and (
        not _whole(rule.table) or not 1 <= (rule.table or 0) <= event.most_tables
    ):
        most = event.most_tables
        table = str(rule.table)[:10]
        reasons.append(
            reason("fixed_table_out_of_range", field=where, name=names[0], table=table, max=most)
        )
    else:
        return replace(rule, players=names)
    return None


def _rule_beside(
    rule: SeatingRule, kept: Sequence[SeatingRule], where: str, reasons: list[Reason]
) -> bool:
    """Whether `rule` can stand beside the rules `kept` so far (else its reason)."""
    pair = frozenset(rule.players)
    for other in kept:
        if other.keep is Keep.TABLE and rule.keep is Keep.TABLE:
            if other.players == rule.players:
                if other.table == rule.table:
                    reasons.append(reason("seating_rule_twice", field=where, name=rule.players[0]))
                else:
                    name, table = rule.players[0], other.table
                    reasons.append(reason("two_fixed_tables", field=where, name=name, table=table))
                return False
        elif Keep.TABLE not in (other.keep, rule.keep) and frozenset(other.players) == pair:
            first, second = rule.players
            if other.keep is rule.keep:
                reasons.append(reason("seating_rule_twice", field=where, name=first))
            else:
                reasons.append(reason("rules_contradict", field=where, first=first, second=second))
            return False
    return True


# -- reading the settings ---------------------------------------------------------------------


def _read_title(name: Any, reasons: list[Reason]) -> str:
    if not isinstance(name, str):
        reasons.append(reason("bad_input", field="name"))
        return ""
    title = clean_name(name)
    if not title:
        reasons.append(reason("empty_name", field="name"))
    elif len(title) > MAX_EVENT_NAME:
        reasons.append(
            reason("name_too_long", field="name", name=title[:MAX_EVENT_NAME], max=MAX_EVENT_NAME)
        )
    return title


def _read_variant(
    variant: Any, house_rules: Mapping[str, Any] | None, reasons: list[Reason]
) -> Variant | None:
    try:
        return get_variant(variant, house_rules)
    except RefereeError as error:
        where = "variant" if error.code == "unknown_variant" else "house_rules"
        reasons.append(reason(error.code, field=where, **error.params))
        return None


def _table_size_reasons(sizes: TableSize, variant: Variant | None) -> list[Reason]:
    found = sizes.reasons()
    if found or variant is None:
        return found
    for where in ("smallest", "largest"):
        size = getattr(sizes, where)
        if not variant.min_players <= size <= variant.max_players:
            found.append(
                reason(
                    "table_size_not_in_variant",
                    field=f"table_size.{where}",
                    size=size,
                    min_players=variant.min_players,
                    max_players=variant.max_players,
                )
            )
    return found


def _series_rounds_reasons(rounds: Any, variant: Variant | None) -> list[Reason]:
    if rounds is None:
        return []
    most = MAX_ROUNDS_WITHOUT_CONTRACTS
    if variant is not None and variant.rounds is not None:
        most = variant.rounds
    if not _whole(rounds) or not 1 <= rounds <= most:
        return [reason("bad_series_rounds", field="series_rounds", rounds=rounds, max=most)]
    return []


def _read_scheme(scheme: Any, reasons: list[Reason]) -> Scheme | None:
    try:
        return read_scheme(scheme)
    except EventRefused as refused:
        reasons.extend(refused.reasons)
        return None


def _read_method(
    method: Any, reasons: list[Reason], *, where: str = "later_draws"
) -> DrawMethod | None:
    if isinstance(method, DrawMethod):
        return method
    known = {m.value: m for m in DrawMethod}
    if isinstance(method, str) and method in known:
        return known[method]
    reasons.append(reason("unknown_draw_method", field=where, method=str(method)[:40]))
    return None


def _series_minutes_reasons(minutes: Any) -> list[Reason]:
    if minutes is None:
        return []
    if not _whole(minutes) or not MIN_SERIES_MINUTES <= minutes <= MAX_SERIES_MINUTES:
        return [
            reason(
                "bad_series_minutes",
                field="series_minutes",
                minutes=str(minutes)[:10],
                min=MIN_SERIES_MINUTES,
                max=MAX_SERIES_MINUTES,
            )
        ]
    return []


def _read_clock_rule(rule: Any, reasons: list[Reason]) -> ClockRule | None:
    if isinstance(rule, ClockRule):
        return rule
    known = {r.value: r for r in ClockRule}
    if isinstance(rule, str) and rule in known:
        return known[rule]
    reasons.append(reason("unknown_clock_rule", field="clock_rule", rule=str(rule)[:40]))
    return None


def _seed_reasons(seed: Any) -> list[Reason]:
    if not _whole(seed) or not 0 <= seed <= MAX_SEED:
        return [reason("bad_seed", field="seed", seed=str(seed)[:40], max=MAX_SEED)]
    return []
