"""Every club value that leaves the app or comes into it, as one pydantic model each: the club
and its game lines (`GET /api/v1/clubs/<id>`), a member's stats and rating and head to head
(`…/stats`), and the club as a file (its export, and what an import reads).

The answers are built by these models (`of`) and the OpenAPI description is built from the same
classes; the games' one reader (`games.schemas.read_body`) reads the bodies. What a value means
(a club's name: not empty, not too long) the engine's `Club` checks, with reasons of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Final, Literal

from pydantic import ConfigDict, Field, StrictStr

from referee.engine import ratings as engine_ratings
from referee.engine import records
from referee.engine.club import MAX_MEMBERS
from referee.web.jsonapi.schemas import Answer, Body, Language, Name

from .board import GameLine

#: What a club file says it is.
FORMAT: Final = "rummy-referee-club"
#: The most games one import brings in.
MAX_IMPORTED_GAMES: Final = 1200


def utc_text(moment: datetime) -> str:
    """A moment as the club's JSON writes it: ISO 8601 in UTC, with a Z."""
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


# -- bodies -----------------------------------------------------------------------------------


class NewClub(Body):
    """POST /api/v1/clubs"""

    name: Name = Field(description="the club's name", examples=["Thursday table"])
    lang: Language | None = None


# -- the club ---------------------------------------------------------------------------------


class SeriesGame(Answer):
    """A club night's table: the evening and where in it the game was played."""

    event: str = Field(description="the evening's id")
    name: str = Field(description="the evening's name")
    series: int
    table: int


class ClubGame(Answer):
    """A game of the club, as its list shows it."""

    id: str
    variant: str
    players: list[str]
    finished: bool
    winner: str | None
    winners: list[str]
    date: str = Field(description="ISO 8601, UTC: when the game was created")
    series: SeriesGame | None = Field(
        default=None, description="a club night's table (a series game); null: a game of its own"
    )

    @classmethod
    def of(cls, line: GameLine) -> ClubGame:
        winners = list(line.winners)
        return cls(
            id=line.game_id,
            variant=line.variant,
            players=list(line.players),
            finished=line.finished,
            winner=winners[0] if len(winners) == 1 else None,
            winners=winners,
            date=utc_text(line.played_at),
        )


class ClubAnswer(Answer):
    """GET /api/v1/clubs/<id>"""

    id: str
    name: str
    members: list[str]
    games: list[ClubGame]
    lang: str | None = None
    version: int | None = None
    view_url: str | None = None


class ClubCreated(ClubAnswer):
    edit_token: str = Field(description="the secret that lets its holder start games in the club")
    edit_url: str


class FiledIn(Answer):
    """The club a game started with `club` is filed in (in `POST /api/v1/games`'s answer)."""

    id: str
    view_url: str


# -- stats ------------------------------------------------------------------------------------


class Rating(Answer):
    mu: float
    sigma: float
    ordinal: float = Field(description="mu - 3 sigma: what the ladder sorts by")

    @classmethod
    def of(cls, rating: engine_ratings.Rating) -> Rating:
        return cls(mu=rating.mu, sigma=rating.sigma, ordinal=rating.ordinal)


class PlayerStats(Answer):
    name: str
    games: int
    finished: int
    wins: int = Field(description="a shared win counts for each")
    win_rate: float | None = Field(description="wins / finished")
    average_round_penalty: float | None = Field(
        description="mean points scored per round played (in rummy the points won)"
    )
    rounds_out: int
    rating: Rating
    # beside SPEC's fields: what the club page shows too
    rounds: int | None = None
    best_round: int | None = None
    worst_round: int | None = None
    longest_streak: int | None = None

    @classmethod
    def of(cls, stats: records.PlayerStats, rating: engine_ratings.Rating) -> PlayerStats:
        return cls(
            name=stats.name,
            games=stats.games,
            finished=stats.finished,
            wins=stats.wins,
            win_rate=stats.win_rate,
            average_round_penalty=stats.average_round,
            rounds_out=stats.rounds_out,
            rating=Rating.of(rating),
            rounds=stats.rounds,
            best_round=stats.best,
            worst_round=stats.worst,
            longest_streak=stats.longest_streak,
        )


class HeadToHead(Answer):
    player: str
    opponent: str
    ahead: int
    behind: int
    level: int


class ClubStats(Answer):
    """GET /api/v1/clubs/<id>/stats"""

    club: str
    variant: str | None
    players: list[PlayerStats]
    head_to_head: list[HeadToHead] | None = None


# -- the club as a file -----------------------------------------------------------------------


class FileGame(Body):
    """A game in a club file: what the games' import reads (variant, house rules, players,
    first dealer, language, rounds), with the game's date in the club and what it came to.
    Fields it does not know are kept for the games' reader, which says what does not read;
    what the club adds is read leniently (the import does not need it)."""

    model_config = ConfigDict(extra="allow")

    date: StrictStr | None = Field(default=None, description="ISO 8601: orders the club's games")
    id: StrictStr | None = None
    variant: Any = None
    house_rules: Any = None
    players: Any = None
    first_dealer: Any = None
    lang: Any = None
    rounds: Any = None
    totals: dict[str, int] | None = None
    finished: bool | None = None
    winners: list[str] | None = None

    def game_export(self) -> dict[str, Any]:
        """The fields the games' import reads."""
        return self.model_dump(exclude={"date", "id", "totals", "finished", "winners"})


class ClubFile(Body):
    """A club as a file: everything needed to make it again (its members and every game's
    rounds). Saved from a club page (JSON); read back by `/clubs/import`, which needs its
    `format` and the games to read; the engine's `Club` reads the name and members."""

    model_config = ConfigDict(extra="allow")

    format: Literal["rummy-referee-club"]
    version: int = 1
    name: Any = None
    lang: Any = None
    created: StrictStr | None = None
    members: list[Any] = Field(default_factory=list, max_length=MAX_MEMBERS)
    games: list[FileGame] = Field(default_factory=list, max_length=MAX_IMPORTED_GAMES)

    @classmethod
    def of(
        cls, name: str, lang: str, created: datetime, members: Sequence[str], games: list[FileGame]
    ) -> ClubFile:
        return cls(
            format="rummy-referee-club",
            name=name,
            lang=lang,
            created=utc_text(created),
            members=list(members),
            games=games,
        )
