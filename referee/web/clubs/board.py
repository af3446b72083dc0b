"""A club's board: what its pages and its JSON show (the games' list, and for all the games and
for each variant the stats, ratings, ratings by game night and head to head), worked out from
the club's ledger (`engine.club.Ledger`) whenever a game of the club is written, and kept with
the club.

Reading a club is then two small queries (`store.kept_board`): one aggregate over its games'
versions, which says whether the board kept is still of the games as they are, and the board.
The board is kept as JSON by one pydantic adapter over these dataclasses (`to_json`,
`from_json`), every game's line apart in the club's JSON's shape; `FORMAT` is in its key, so a
board kept in an older shape is never read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Final

from pydantic import TypeAdapter

from referee.engine.club import ClubGame, Ledger
from referee.engine.names import name_key
from referee.engine.ratings import Rating
from referee.engine.records import (
    GameRecord,
    Meetings,
    PlayerStats,
    head_to_head,
    player_stats,
)

#: The shape of the board as kept; a board kept in another is worked out again.
FORMAT: Final = "b2"
#: Game nights kept for the ratings chart (the newest).
CHART_NIGHTS: Final = 30
#: Games kept as a view's recent ones.
RECENT_GAMES: Final = 10
#: The board's view of every game (a variant's view is under the variant's id).
ALL: Final = ""


@dataclass(frozen=True)
class GameLine:
    """A game as the club's lists show it."""

    game_id: str
    variant: str
    played_at: datetime
    finished: bool
    seats: tuple[tuple[str, bool], ...]  # (name, won) in seat order
    rounds: int

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(name for name, _won in self.seats)

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(name for name, won in self.seats if won)


@dataclass(frozen=True)
class Meeting:
    """How `player` fared against `opponent` in their finished games together."""

    player: str
    opponent: str
    meetings: Meetings


@dataclass(frozen=True)
class ViewData:
    """All the club's games, or one variant's, summed up."""

    stats: tuple[PlayerStats, ...] = ()
    ratings: Mapping[str, tuple[Rating, int]] = field(default_factory=dict)  # name key ->
    nights: tuple[tuple[date, Mapping[str, float]], ...] = ()  # name key -> ordinal
    meetings: tuple[Meeting, ...] = ()
    mixed: bool = False  # penalty and winner-collects games together
    count: int = 0  # games
    recent: tuple[GameLine, ...] = ()  # the newest first

    def meetings_by_pair(self) -> dict[tuple[str, str], Meetings]:
        return {(m.player, m.opponent): m.meetings for m in self.meetings}


@dataclass(frozen=True)
class Board:
    views: Mapping[str, ViewData]
    last: GameLine | None  # the club's last table, whatever its variant
    games: tuple[GameLine, ...] = ()  # every game, in date order (as worked out; not kept)

    def view(self, variant: str | None) -> ViewData:
        return self.views.get(variant or ALL, ViewData())


# -- working it out -------------------------------------------------------------------------


def _line(game: ClubGame, record: GameRecord) -> GameLine:
    return GameLine(
        game_id=game.game_id,
        variant=game.variant,
        played_at=game.played_at,
        finished=record.finished,
        seats=tuple((seat.name, seat.won) for seat in record.seats),
        rounds=max((seat.rounds for seat in record.seats), default=0),
    )


def _view(games: Sequence[tuple[ClubGame, GameRecord]], chain: str) -> ViewData:
    records = [record for _game, record in games]
    ratings: dict[str, tuple[Rating, int]] = {}
    nights: list[tuple[date, dict[str, float]]] = []
    for game, _record in games:
        after = game.rating_after(chain)
        if not after:
            continue
        for name, rating in after.items():
            key = name_key(name)
            ratings[key] = (rating, ratings.get(key, (rating, 0))[1] + 1)
        night = game.played_at.date()
        state = {key: rating.ordinal for key, (rating, _count) in ratings.items()}
        if nights and nights[-1][0] == night:
            nights[-1] = (night, state)
        else:
            nights.append((night, state))
    return ViewData(
        stats=tuple(player_stats(records, [])),
        ratings=ratings,
        nights=tuple(nights[-CHART_NIGHTS:]),
        meetings=tuple(Meeting(a, b, m) for (a, b), m in head_to_head(records).items()),
        mixed=len({record.high_wins for record in records}) > 1,
        count=len(games),
        recent=tuple(_line(*game) for game in games[::-1][:RECENT_GAMES]),
    )


def build_board(ledger: Ledger) -> Board:
    """The board of the club's games (a game not summed up yet is left out)."""
    games = [(game, game.record) for game in ledger.games if game.record is not None]
    views = {ALL: _view(games, "all")}
    for variant in sorted({game.variant for game, _record in games}):
        views[variant] = _view([g for g in games if g[0].variant == variant], "variant")
    lines = tuple(_line(*game) for game in games)
    return Board(views=views, last=lines[-1] if lines else None, games=lines)


def key_of(ledger: Ledger) -> str:
    """The key a board of `ledger` is kept under (`store.kept_board` checks it)."""
    return f"{FORMAT}:{ledger.key}"


# -- kept as JSON ---------------------------------------------------------------------------

_VIEWS: Final = TypeAdapter(dict[str, ViewData])
_LINE: Final = TypeAdapter(GameLine | None)


def to_json(board: Board) -> dict[str, Any]:
    """The board as kept: the views and the last table (what a page reads). Every game's line
    is kept apart, in the club's JSON's own shape (`schemas.ClubGame`)."""
    return {
        "views": _VIEWS.dump_python(dict(board.views), mode="json"),
        "last": _LINE.dump_python(board.last, mode="json"),
    }


def from_json(data: Mapping[str, Any]) -> Board:
    return Board(
        views=_VIEWS.validate_python(data["views"]), last=_LINE.validate_python(data["last"])
    )
