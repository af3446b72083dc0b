"""Every club-night value that crosses the API, as one pydantic model each: the bodies that
create an evening, check players in or out and draw a series, and the answers (the evening with
its series and tables, the standings). The OpenAPI description is built from the same classes;
the games' one reader (`games.schemas.read_body`) reads the bodies. What a value means (a table
size of 3 to 5, a series drawn in order) the engine's `Event` checks, with reasons of its own.
"""

from __future__ import annotations

import datetime
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field, StrictBool, StrictInt, StrictStr

from referee.engine.club import MAX_MEMBERS
from referee.engine.events import Event, Series, Table
from referee.engine.seating import MAX_SEATING_RULES, SeatingRule
from referee.engine.series_clock import (
    MAX_EXTRA_MINUTES,
    MAX_SERIES_MINUTES,
    MIN_SERIES_MINUTES,
    SeriesClock,
)
from referee.engine.tournament import Standings, StandingsRow
from referee.web.core import clock as web_clock
from referee.web.jsonapi.schemas import Answer, Body, HouseRules, Language

# -- bodies -----------------------------------------------------------------------------------


class TableSizes(Body):
    preferred: StrictInt = Field(description="the size the draw makes where it can", examples=[4])
    smallest: StrictInt = Field(description="the smallest table the count may need", examples=[3])
    largest: StrictInt = Field(description="the largest table the count may need", examples=[5])


class NewEvent(Body):
    """POST /api/v1/clubs/<id>/events"""

    name: StrictStr = Field(description="the evening's name", examples=["Club night"])
    date: StrictStr | None = Field(default=None, description="ISO 8601 date; today if left out")
    variant: StrictStr = Field(examples=["contract"])
    house_rules: HouseRules | None = None
    series: StrictInt = Field(default=4, description="how many series the evening plays")
    table_size: StrictInt | TableSizes = Field(
        default=4,
        description="the preferred table size (tables of 3 to 5 where the count needs them), "
        "or all three sizes",
    )
    series_rounds: StrictInt | None = Field(
        default=None, description="a series ends after this many rounds; null: a whole game"
    )
    scheme: StrictStr | dict[str, Any] = Field(
        default="romme",
        description='tournament points: "romme" (the classic Rommé preset), "placement", '
        '"points", or a scheme as the evening\'s JSON writes one',
    )
    later_draws: Literal["mix", "standings", "random"] = Field(
        default="mix", description="how series 2 on are seated (series 1 is random)"
    )
    seed: StrictInt | None = Field(default=None, description="0 to 999999; drawn if left out")
    series_minutes: StrictInt | None = Field(
        default=None,
        description=f"a series' time limit, {MIN_SERIES_MINUTES} to {MAX_SERIES_MINUTES} "
        "minutes, its clock running from the series' start; null: no clock",
    )
    clock_rule: Literal["finish_round", "one_more"] = Field(
        default="finish_round",
        description="at zero, tables finish the round in progress (`finish_round`) or that "
        "round and one more (`one_more`)",
    )
    lang: Language | None = None


class PlayersChange(Body):
    """POST /api/v1/clubs/<id>/events/<eid>/players"""

    action: Literal["check_in", "leave"] = "check_in"
    names: list[StrictStr] = Field(
        max_length=MAX_MEMBERS,
        description="who checks in (new names become club members), or who leaves",
        examples=[["Ann", "Bo"]],
    )
    version: StrictInt | None = Field(default=None, description="the evening's version seen")


class SeriesChange(Body):
    """POST /api/v1/clubs/<id>/events/<eid>/series"""

    series: StrictInt = Field(description="the series this is about (the next one, to draw it)")
    action: Literal["draw", "swap", "move", "start", "withdraw", "reopen", "close"] = "draw"
    method: Literal["random", "standings", "mix"] | None = Field(
        default=None, description="draw: the evening's own method if left out"
    )
    seed: StrictInt | None = Field(default=None, description="draw: the series' seed if left out")
    start: StrictBool = Field(
        default=True,
        description="draw: start it at once (each table's game made); false to draw only, "
        "so that the host can swap players first",
    )
    swap: list[StrictStr] | None = Field(
        default=None, max_length=2, description="swap: the two players"
    )
    name: StrictStr | None = Field(default=None, description="move: the player who moves")
    table: StrictInt | None = Field(default=None, description="move: the table they move to")
    version: StrictInt | None = Field(default=None, description="the evening's version seen")


class ClockChange(Body):
    """POST /api/v1/clubs/<id>/events/<eid>/clock"""

    action: Literal["pause", "resume", "extra", "set"] = Field(
        description="pause or resume the running series' clock, give one table `extra` "
        "minutes, or `set` the minutes and rule of the series not started yet"
    )
    series: StrictInt | None = Field(
        default=None, description="the series; the newest started if left out"
    )
    table: StrictInt | None = Field(default=None, description="extra: the table")
    minutes: StrictInt | None = Field(
        default=None,
        description=f"extra: 1 to {MAX_EXTRA_MINUTES}; set: {MIN_SERIES_MINUTES} to "
        f"{MAX_SERIES_MINUTES}, or null for no clock",
    )
    rule: Literal["finish_round", "one_more"] | None = Field(
        default=None, description="set: the rule at zero (the evening's if left out)"
    )
    version: StrictInt | None = Field(default=None, description="the evening's version seen")


class SeatingRuleBody(Body):
    """One seating rule, as the evening's JSON writes it."""

    keep: Literal["apart", "together", "table"] = Field(
        description="apart: two players never at one table (a couple); together: two at one "
        "table (they share a car); table: one player always at `table` (mobility)"
    )
    players: list[StrictStr] = Field(
        min_length=1,
        max_length=2,
        description="two players of the evening (apart, together), or one (table)",
        examples=[["Ann", "Bo"]],
    )
    table: StrictInt | None = Field(
        default=None, description="table: the table number, from 1 to the most the evening has"
    )


class SeatingChange(Body):
    """POST /api/v1/clubs/<id>/events/<eid>/seating"""

    rules: list[SeatingRuleBody] = Field(
        max_length=MAX_SEATING_RULES,
        description="every seating rule of the evening (these replace those it had; [] none)",
    )
    version: StrictInt | None = Field(default=None, description="the evening's version seen")


# -- answers ----------------------------------------------------------------------------------


class TableResultAnswer(Answer):
    totals: list[int] = Field(description="in seat order, the variant's own count")
    rounds: int
    finished: bool


class TableAnswer(Answer):
    number: int
    seats: list[str] = Field(description="the players in seat order")
    dealer: str = Field(description="who deals first")
    game: str | None = Field(description="the table's game id, once the series started")
    view_url: str | None = None
    edit_url: str | None = Field(
        default=None, description="the game's edit link: only with the club's edit token"
    )
    result: TableResultAnswer | None = None

    @classmethod
    def of(cls, table: Table, links: dict[str, tuple[str, str | None]]) -> TableAnswer:
        view, edit = links.get(table.game_id or "", (None, None))
        kept = table.result
        return cls(
            number=table.number,
            seats=list(table.seats),
            dealer=table.seats[table.first_dealer],
            game=table.game_id,
            view_url=view,
            edit_url=edit,
            result=None
            if kept is None
            else TableResultAnswer(
                totals=list(kept.totals), rounds=kept.rounds, finished=kept.finished
            ),
        )


def _moment(value: datetime.datetime | None) -> str | None:
    return None if value is None else value.isoformat().replace("+00:00", "Z")


class TableClockAnswer(Answer):
    table: int
    extra_minutes: int = Field(description="the minutes the host gave this table")
    ends_at: str | None = Field(description="when its time runs out (UTC); null while paused")
    seconds_left: int
    time_up: bool
    last_round: int | None = Field(
        description="its last round, once its time ran out (the round in progress at zero, "
        "+1 with `one_more`); kept once that round is written"
    )


class ClockAnswer(Answer):
    minutes: int
    rule: str = Field(description="`finish_round` or `one_more`")
    now: str = Field(description="the server's time this answer was made at (UTC)")
    started_at: str
    paused: bool
    paused_at: str | None
    paused_seconds: int = Field(description="the pauses over, in all")
    ends_at: str | None = Field(description="the series' own end, without extra minutes")
    seconds_left: int
    time_up: bool = Field(description="the series' own time ran out")
    tables: list[TableClockAnswer]

    @classmethod
    def of(
        cls, event: Event, drawn: Series, clock: SeriesClock, now: datetime.datetime
    ) -> ClockAnswer:
        tables = []
        for t in drawn.tables:
            written = 0 if t.result is None else t.result.rounds
            tables.append(
                TableClockAnswer(
                    table=t.number,
                    extra_minutes=clock.extra_of(t.number),
                    ends_at=_moment(clock.ends_at(t.number)),
                    seconds_left=clock.seconds_left(now, t.number),
                    time_up=clock.time_up(now, t.number),
                    last_round=event.last_round(drawn.number, t.number, written, now),
                )
            )
        return cls(
            minutes=clock.minutes,
            rule=clock.rule.value,
            now=_moment(now) or "",
            started_at=_moment(clock.started_at) or "",
            paused=clock.paused,
            paused_at=_moment(clock.paused_at),
            paused_seconds=clock.paused_seconds,
            ends_at=_moment(clock.ends_at()),
            seconds_left=clock.seconds_left(now),
            time_up=clock.time_up(now),
            tables=tables,
        )


class SeatingRuleAnswer(Answer):
    keep: str = Field(description="apart, together or table")
    players: list[str]
    table: int | None = Field(default=None, description="table: the fixed table's number")

    @classmethod
    def of(cls, rule: SeatingRule) -> SeatingRuleAnswer:
        return cls(keep=rule.keep.value, players=list(rule.players), table=rule.table)


class UnmetRuleAnswer(Answer):
    rule: SeatingRuleAnswer
    reason: str = Field(
        description="why not: partner_absent (together: one of the two does not play this "
        "series), table_not_drawn (the series has fewer tables), no_seating_found (with the "
        "other rules and the table sizes the draw found no seating that meets it), "
        "changed_by_host (the draw met it; a swap or a move undid it)"
    )


class SeriesAnswer(Answer):
    number: int
    method: str
    seed: int
    started: bool
    finished: bool
    closed: bool = Field(description="its results fixed: the next series is drawn")
    reopened: bool = Field(description="reopened by the host: its results may change again")
    unmet_rules: list[UnmetRuleAnswer] = Field(
        default_factory=list, description="the evening's seating rules its seats do not meet"
    )
    tables: list[TableAnswer]
    clock: ClockAnswer | None = Field(
        default=None, description="its clock, once started (null: no time limit)"
    )

    @classmethod
    def of(
        cls,
        event: Event,
        drawn: Series,
        links: dict[str, tuple[str, str | None]],
        now: datetime.datetime | None = None,
    ) -> SeriesAnswer:
        kept = drawn.clock
        at = now or web_clock.now()
        return cls(
            number=drawn.number,
            method=drawn.method.value,
            seed=drawn.seed,
            started=drawn.started,
            finished=drawn.started and drawn.finished,
            closed=event.closed(drawn.number),
            reopened=drawn.reopened,
            unmet_rules=[
                UnmetRuleAnswer(rule=SeatingRuleAnswer.of(u.rule), reason=u.reason)
                for u in drawn.unmet_rules
            ],
            tables=[TableAnswer.of(t, links) for t in drawn.tables],
            clock=None if kept is None else ClockAnswer.of(event, drawn, kept, at),
        )


class PlayerAnswer(Answer):
    name: str
    joined: int = Field(description="the first series they are drawn for")
    left: int | None = Field(description="the first series they are out of; null: here")
    by_phone: bool = Field(
        default=False, description="checked in or out last by their own phone (check-in link)"
    )
    new: bool = Field(default=False, description="by phone, a name the club did not know")


class EventAnswer(Answer):
    """GET /api/v1/clubs/<id>/events/<eid>"""

    id: str
    club: str
    name: str
    date: str
    lang: str
    variant: str
    house_rules: dict[str, Any]
    series_count: int
    table_size: dict[str, int]
    series_rounds: int | None
    scheme: dict[str, Any]
    later_draws: str
    seed: int
    series_minutes: int | None = Field(description="the next series' time limit; null: none")
    clock_rule: str
    version: int
    next_series: int | None
    finished: bool
    players: list[PlayerAnswer]
    seating_rules: list[SeatingRuleAnswer] = Field(
        default_factory=list, description="keep apart, keep together, a fixed table"
    )
    check_in_open: bool = Field(
        description="players may check themselves in by the link (not closed, a series to draw)"
    )
    series: list[SeriesAnswer]
    view_url: str

    @classmethod
    def of(
        cls,
        event_id: str,
        club_id: str,
        lang: str,
        event: Event,
        links: dict[str, tuple[str, str | None]],
        view_url: str,
    ) -> EventAnswer:
        sizes = event.table_size
        now = web_clock.now()  # one moment for every series' clock
        return cls(
            id=event_id,
            club=club_id,
            name=event.name,
            date=event.date.isoformat(),
            lang=lang,
            variant=event.variant.id,
            house_rules=dict(event.house_rules),
            series_count=event.series_count,
            table_size={
                "preferred": sizes.preferred,
                "smallest": sizes.smallest,
                "largest": sizes.largest,
            },
            series_rounds=event.series_rounds,
            scheme=event.scheme.to_json(),
            later_draws=event.later_draws.value,
            seed=event.seed,
            series_minutes=event.series_minutes,
            clock_rule=event.clock_rule.value,
            version=event.version,
            next_series=event.next_series,
            finished=event.finished,
            players=[
                PlayerAnswer(
                    name=p.name, joined=p.joined, left=p.left, by_phone=p.self_service, new=p.new
                )
                for p in event.players
            ],
            check_in_open=event.check_in_open,
            seating_rules=[SeatingRuleAnswer.of(rule) for rule in event.seating_rules],
            series=[SeriesAnswer.of(event, s, links, now) for s in event.series],
            view_url=view_url,
        )


def _number(value: Fraction | None) -> float | None:
    return None if value is None else round(float(value), 4)


class StandingsLine(Answer):
    place: int
    name: str
    tournament_points: float = Field(description="rounded to 4 places; exact below")
    tournament_points_exact: str = Field(description='a fraction where places were shared: "39/2"')
    points: int = Field(description="the raw total over the tables counted")
    rounds: int
    points_per_round: float | None
    tables_won: int
    series_played: int
    present: bool = Field(description="false: left the evening (what they scored counts)")

    @classmethod
    def of(cls, row: StandingsRow) -> StandingsLine:
        return cls(
            place=row.place,
            name=row.name,
            tournament_points=round(float(row.tournament_points), 4),
            tournament_points_exact=str(row.tournament_points),
            points=row.points,
            rounds=row.rounds,
            points_per_round=_number(row.points_per_round),
            tables_won=row.tables_won,
            series_played=row.series_played,
            present=row.present,
        )


class StandingsAnswer(Answer):
    """GET /api/v1/clubs/<id>/events/<eid>/standings"""

    by: str = Field(description="tournament_points or points")
    series: list[int] = Field(description="the series counted")
    ranking: list[str] = Field(description="what ranks the rows, first to last tie-break")
    tie_breaks: str = Field(description="the ranking in words, in the request's language")
    reopened: list[int] = Field(
        default_factory=list,
        description="series the host reopened after the next was drawn: their results may "
        "still change",
    )
    rows: list[StandingsLine]

    @classmethod
    def of(cls, board: Standings, sentence: str, reopened: tuple[int, ...] = ()) -> StandingsAnswer:
        return cls(
            by=board.by.value,
            series=list(board.series),
            ranking=[c.value for c in board.ranking],
            tie_breaks=sentence,
            reopened=[n for n in reopened if n in board.series],
            rows=[StandingsLine.of(r) for r in board.rows],
        )
