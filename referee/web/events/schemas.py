"""Every club-night value that crosses the API, as one pydantic model each: the bodies that
create an evening, check players in or out and draw a series, and the answers (the evening with
its series and tables, the standings). The OpenAPI description is built from the same classes;
the games' one reader (`games.schemas.read_body`) reads the bodies. What a value means (a table
size of 3 to 5, a series drawn in order) the engine's `Event` checks, with reasons of its own.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from pydantic import Field, StrictBool, StrictInt, StrictStr

from referee.engine.club import MAX_MEMBERS
from referee.engine.events import Event, Series, Table
from referee.engine.tournament import Standings, StandingsRow
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


class SeriesAnswer(Answer):
    number: int
    method: str
    seed: int
    started: bool
    finished: bool
    closed: bool = Field(description="its results fixed: the next series is drawn")
    reopened: bool = Field(description="reopened by the host: its results may change again")
    tables: list[TableAnswer]

    @classmethod
    def of(
        cls, event: Event, drawn: Series, links: dict[str, tuple[str, str | None]]
    ) -> SeriesAnswer:
        return cls(
            number=drawn.number,
            method=drawn.method.value,
            seed=drawn.seed,
            started=drawn.started,
            finished=drawn.started and drawn.finished,
            closed=event.closed(drawn.number),
            reopened=drawn.reopened,
            tables=[TableAnswer.of(t, links) for t in drawn.tables],
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
    version: int
    next_series: int | None
    finished: bool
    players: list[PlayerAnswer]
    check_in_open: bool = Field(description="players may check themselves in by the link")
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
            version=event.version,
            next_series=event.next_series,
            finished=event.finished,
            players=[
                PlayerAnswer(
                    name=p.name, joined=p.joined, left=p.left, by_phone=p.self_service, new=p.new
                )
                for p in event.players
            ],
            check_in_open=not event.check_in_closed,
            series=[SeriesAnswer.of(event, s, links) for s in event.series],
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
