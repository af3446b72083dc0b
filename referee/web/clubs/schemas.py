"""The clubs API's bodies and answers as pydantic models: the games' one reader
(`games.schemas.read_body`) reads the bodies, and the OpenAPI description is built from the
same classes. What a value means (a club's name: not empty, not too long) the store checks
with reasons of its own.
"""

from __future__ import annotations

from pydantic import Field

from referee.web.api.schemas import Answer, Body, Language, Name


class NewClub(Body):
    """POST /api/v1/clubs"""

    name: Name = Field(description="the club's name", examples=["Thursday table"])
    lang: Language | None = None


class Rating(Answer):
    mu: float
    sigma: float
    ordinal: float = Field(description="mu - 3 sigma: what the ladder sorts by")


class ClubGame(Answer):
    id: str
    variant: str
    players: list[str]
    finished: bool
    winner: str | None
    winners: list[str]
    date: str = Field(description="ISO 8601, UTC: when the game was created")


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
    rounds: int | None = None
    best_round: int | None = None
    worst_round: int | None = None
    longest_streak: int | None = None


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
