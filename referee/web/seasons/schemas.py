"""Every season value that crosses the API, as one pydantic model each: the bodies that create
and change a season, and the answers (a season with its table, the club's seasons). The OpenAPI
description is built from the same classes; the games' one reader (`games.schemas.read_body`)
reads the bodies. What a value means (best 3 of 4, an end after the start) the engine's
`Season` checks.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field, StrictBool, StrictInt, StrictStr

from referee.engine.seasons import SeasonRow
from referee.web.jsonapi.schemas import Answer, Body

from .service import Column, Table
from .store import StoredEvening, StoredGame

#: The most ids a season may leave out: its club nights (120 at most) and games of a year.
MAX_LEFT_OUT = 2000

# -- bodies -----------------------------------------------------------------------------------


class NewSeason(Body):
    """POST /api/v1/clubs/<id>/seasons"""

    name: StrictStr = Field(max_length=200, description="the season's name", examples=["Autumn"])
    starts: StrictStr = Field(max_length=20, description="ISO 8601 date, the first day")
    ends: StrictStr = Field(max_length=20, description="ISO 8601 date, the last day")
    rule: Literal["sum", "best", "average"] = Field(
        default="sum",
        description="sum: every evening's tournament points added up; best: each player's "
        "best `best` evenings; average: points per evening, ranked from `min_evenings` on",
    )
    best: StrictInt | None = Field(default=None, description="best: how many evenings count")
    min_evenings: StrictInt | None = Field(
        default=None, description="average: the evenings a player needs to be ranked"
    )
    club_games: StrictBool = Field(
        default=False,
        description="the club's ordinary games (not a club night's tables) count too: each "
        "day's finished games as an evening of its own",
    )
    left_out: list[StrictStr] = Field(
        default_factory=list,
        max_length=MAX_LEFT_OUT,
        description="ids of the club's evenings (or ordinary games) within the dates that do "
        "not count",
    )


class SeasonChange(Body):
    """PATCH /api/v1/clubs/<id>/seasons/<sid>: what is named changes, the rest stays."""

    name: StrictStr | None = Field(default=None, max_length=200)
    starts: StrictStr | None = Field(default=None, max_length=20)
    ends: StrictStr | None = Field(default=None, max_length=20)
    rule: Literal["sum", "best", "average"] | None = None
    best: StrictInt | None = None
    min_evenings: StrictInt | None = None
    club_games: StrictBool | None = None
    left_out: list[StrictStr] | None = Field(default=None, max_length=MAX_LEFT_OUT)
    version: StrictInt | None = Field(default=None, description="the season's version seen")


class SeasonDelete(Body):
    """DELETE /api/v1/clubs/<id>/seasons/<sid> (a body is optional)"""

    version: StrictInt | None = Field(default=None, description="the season's version seen")


# -- answers ----------------------------------------------------------------------------------


class EveningLine(Answer):
    id: str = Field(description="the evening's id; a day of club games: games-<date>")
    kind: Literal["evening", "club_games"] = Field(
        description="a club night, or a day of the club's ordinary games (a column of its own)"
    )
    name: str
    date: str = Field(description="ISO 8601")
    played: bool = Field(description="whether a table of it has finished yet")
    games: list[str] = Field(description="club_games: the ids of the day's games counted")
    view_url: str = Field(description="the evening's page; a day of club games: the club's")


class GameLine(Answer):
    """One of the club's finished ordinary games within the season's dates."""

    id: str
    date: str = Field(description="ISO 8601, the UTC day it was begun")
    variant: str
    players: list[str]
    counted: bool = Field(description="false: left out by the host")
    view_url: str


class MovementAnswer(Answer):
    kind: Literal["up", "down", "same", "new"]
    by: int = Field(description="places moved (up or down)")
    sign: str = Field(description="▲2, ▼1, = or new")


class SeasonLine(Answer):
    place: int | None = Field(description="null: below the minimum attendance, unranked")
    name: str
    total: float = Field(description="rounded to 4 places; exact below")
    total_exact: str = Field(description='a fraction where it is one: "39/2"')
    cells: list[float | None] = Field(
        description="one per evening, in `evenings`' order: its tournament points, or null "
        "where the player was absent"
    )
    dropped: list[int] = Field(description="indexes into `cells` the rule leaves out")
    played: int = Field(description="evenings played")
    won: int = Field(description="evenings won among those counted")
    movement: MovementAnswer | None = Field(
        description="against the table before the last evening; null for the first evening "
        "or an unranked player"
    )

    @classmethod
    def of(cls, row: SeasonRow) -> SeasonLine:
        moved = row.movement
        return cls(
            place=row.place,
            name=row.name,
            total=_number(row.total),
            total_exact=str(row.total),
            cells=[None if c is None else _number(c) for c in row.cells],
            dropped=list(row.dropped),
            played=row.played,
            won=row.won,
            movement=None
            if moved is None
            else MovementAnswer(kind=moved.kind, by=moved.by, sign=moved.sign),  # type: ignore[arg-type]
        )


def _number(value: Fraction) -> float:
    return round(float(value), 4)


class SeasonAnswer(Answer):
    """GET /api/v1/clubs/<id>/seasons/<sid>"""

    id: str
    club: str
    name: str
    starts: str
    ends: str
    rule: Literal["sum", "best", "average"]
    best: int | None
    min_evenings: int | None
    club_games: bool = Field(description="the club's ordinary games count too")
    rule_text: str = Field(description="the rule and its tie-breaks in words")
    version: int
    left_out: list[EveningLine] = Field(description="evenings within the dates that do not count")
    left_out_ids: list[str] = Field(
        description="every id the season leaves out, evenings and games alike (whatever the "
        "game's state): what `left_out` in a PATCH replaces"
    )
    evenings: list[EveningLine] = Field(
        description="the columns counted, in date order: club nights, and days of club games"
    )
    games: list[GameLine] = Field(
        description="club_games: the club's finished ordinary games within the dates"
    )
    rows: list[SeasonLine]
    view_url: str
    csv_url: str

    @classmethod
    def of(
        cls,
        shown: Table,
        *,
        rule_text: str,
        urls: dict[str, str],
        evening_url: dict[str, str],
        names: dict[str, str],
    ) -> SeasonAnswer:
        """`evening_url` and `names`: each column's page and name by its id (a day of club
        games has the club's page and a name in the season's language); a game's page by
        its id in `evening_url` too."""
        season = shown.stored.season
        played = {e.key for e in shown.table.evenings if e.played}
        left_out = set(shown.stored.left_out)

        def line(evening: Column) -> EveningLine:
            return EveningLine(
                id=evening.id,
                kind=evening.kind,  # type: ignore[arg-type]
                name=names[evening.id],
                date=evening.date.isoformat(),
                played=evening.id in played,
                games=[g.id for g in evening.games]
                if not isinstance(evening, StoredEvening)
                else [],
                view_url=evening_url[evening.id],
            )

        def game(found: StoredGame) -> GameLine:
            record = found.record
            return GameLine(
                id=found.id,
                date=found.date.isoformat(),
                variant=record.variant if record else "",
                players=[seat.name for seat in record.seats] if record else [],
                counted=found.id not in left_out,
                view_url=evening_url[found.id],
            )

        return cls(
            id=shown.stored.id,
            club=shown.stored.club_id,
            name=season.name,
            starts=season.starts.isoformat(),
            ends=season.ends.isoformat(),
            rule=season.rule.value,
            best=season.best,
            min_evenings=season.min_evenings,
            club_games=season.club_games,
            rule_text=rule_text,
            version=shown.stored.version,
            left_out=[line(e) for e in shown.left_out],
            left_out_ids=list(shown.stored.left_out),
            evenings=[line(e) for e in shown.counted],
            games=[game(g) for g in shown.games],
            rows=[SeasonLine.of(r) for r in shown.table.rows],
            **urls,
        )


class SeasonSummary(Answer):
    id: str
    name: str
    starts: str
    ends: str
    rule: str
    club_games: bool
    version: int
    url: str = Field(description="the season's JSON")


class SeasonList(Answer):
    """GET /api/v1/clubs/<id>/seasons"""

    seasons: list[SeasonSummary]
