"""Every season value that crosses the API, as one pydantic model each: the bodies that create
and change a season, and the answers (a season with its table, the club's seasons). The OpenAPI
description is built from the same classes; the games' one reader (`games.schemas.read_body`)
reads the bodies. What a value means (best 3 of 4, an end after the start) the engine's
`Season` checks.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field, StrictInt, StrictStr

from referee.engine.seasons import MAX_EVENINGS, SeasonRow
from referee.web.jsonapi.schemas import Answer, Body

from .service import Table
from .store import StoredEvening

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
    left_out: list[StrictStr] = Field(
        default_factory=list,
        max_length=MAX_EVENINGS,
        description="ids of the club's evenings within the dates that do not count",
    )


class SeasonChange(Body):
    """PATCH /api/v1/clubs/<id>/seasons/<sid>: what is named changes, the rest stays."""

    name: StrictStr | None = Field(default=None, max_length=200)
    starts: StrictStr | None = Field(default=None, max_length=20)
    ends: StrictStr | None = Field(default=None, max_length=20)
    rule: Literal["sum", "best", "average"] | None = None
    best: StrictInt | None = None
    min_evenings: StrictInt | None = None
    left_out: list[StrictStr] | None = Field(default=None, max_length=MAX_EVENINGS)
    version: StrictInt | None = Field(default=None, description="the season's version seen")


class SeasonDelete(Body):
    """DELETE /api/v1/clubs/<id>/seasons/<sid> (a body is optional)"""

    version: StrictInt | None = Field(default=None, description="the season's version seen")


# -- answers ----------------------------------------------------------------------------------


class EveningLine(Answer):
    id: str
    name: str
    date: str = Field(description="ISO 8601")
    played: bool = Field(description="whether a table of it has finished yet")
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
    rule_text: str = Field(description="the rule and its tie-breaks in words")
    version: int
    left_out: list[EveningLine] = Field(description="evenings within the dates that do not count")
    evenings: list[EveningLine] = Field(description="the evenings counted, in date order")
    rows: list[SeasonLine]
    view_url: str
    csv_url: str

    @classmethod
    def of(
        cls, shown: Table, *, rule_text: str, urls: dict[str, str], evening_url: dict[str, str]
    ) -> SeasonAnswer:
        season = shown.stored.season
        played = {e.key for e in shown.table.evenings if e.played}

        def line(evening: StoredEvening) -> EveningLine:
            return EveningLine(
                id=evening.id,
                name=evening.name,
                date=evening.date.isoformat(),
                played=evening.id in played,
                view_url=evening_url[evening.id],
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
            rule_text=rule_text,
            version=shown.stored.version,
            left_out=[line(e) for e in shown.left_out],
            evenings=[line(e) for e in shown.counted],
            rows=[SeasonLine.of(r) for r in shown.table.rows],
            **urls,
        )


class SeasonSummary(Answer):
    id: str
    name: str
    starts: str
    ends: str
    rule: str
    version: int
    url: str = Field(description="the season's JSON")


class SeasonList(Answer):
    """GET /api/v1/clubs/<id>/seasons"""

    seasons: list[SeasonSummary]
