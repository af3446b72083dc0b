"""A club's board: what its pages and its JSON show (the games' list, and for all the games and
for each variant the stats, ratings, ratings by game night and head to head), worked out
once from the games' records and ratings and kept with the club.

Reading a club is then two small queries: one aggregate over its games' versions, which says
whether the board kept is still the club's, and the board itself. Only after a game moved on
(a round, a correction, a new game) is the board worked out again (`board_of`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Final

from referee.engine.game import name_key
from referee.engine.ratings import Rating
from referee.engine.records import (
    GameRecord,
    Meetings,
    PlayerStats,
    head_to_head,
    player_stats,
)

from . import store
from .store import ClubGame

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
class ViewData:
    """All the club's games, or one variant's, summed up."""

    stats: tuple[PlayerStats, ...] = ()
    ratings: Mapping[str, tuple[Rating, int]] = field(default_factory=dict)  # name key ->
    nights: tuple[tuple[date, Mapping[str, float]], ...] = ()  # name key -> ordinal
    meetings: Mapping[tuple[str, str], Meetings] = field(default_factory=dict)
    mixed: bool = False  # penalty and winner-collects games together
    count: int = 0  # games
    recent: tuple[GameLine, ...] = ()  # the newest first


@dataclass(frozen=True)
class Board:
    views: Mapping[str, ViewData]
    last: GameLine | None  # the club's last table, whatever its variant
    games: tuple[GameLine, ...] = ()  # every game, in date order (read only where asked)

    def view(self, variant: str | None) -> ViewData:
        return self.views.get(variant or ALL, ViewData())


# -- working it out -------------------------------------------------------------------------


def _line(game: ClubGame) -> GameLine:
    record = game.record
    return GameLine(
        game_id=game.game_id,
        variant=game.variant,
        played_at=game.played_at,
        finished=record.finished,
        seats=tuple((seat.name, seat.won) for seat in record.seats),
        rounds=max((seat.rounds for seat in record.seats), default=0),
    )


def _view(games: Sequence[ClubGame], chain: str) -> ViewData:
    records: list[GameRecord] = [game.record for game in games]
    ratings: dict[str, tuple[Rating, int]] = {}
    nights: list[tuple[date, dict[str, float]]] = []
    for game in games:
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
        meetings=head_to_head(records),
        mixed=len({record.high_wins for record in records}) > 1,
        count=len(games),
        recent=tuple(_line(game) for game in games[::-1][:RECENT_GAMES]),
    )


def build_board(games: Sequence[ClubGame]) -> Board:
    """The board of these games (the club's, in date order)."""
    views = {ALL: _view(games, "all")}
    for variant in sorted({game.variant for game in games}):
        views[variant] = _view([g for g in games if g.variant == variant], "variant")
    lines = tuple(_line(game) for game in games)
    return Board(views=views, last=lines[-1] if lines else None, games=lines)


def board_of(club_id: str, *, with_games: bool = False) -> Board:
    """The club's board: the one kept while it is the club's, else worked out and kept. Every
    game's line comes along only `with_games` (the club's JSON lists them all)."""
    kept = store.kept_board(club_id, with_games=with_games)
    if kept is not None:
        return board_from_json(*kept)
    games = store.club_games_of(club_id)
    board = build_board(games)
    store.keep_board(club_id, *board_to_json(board), store.board_key(games))
    return board


# -- kept as JSON ---------------------------------------------------------------------------

_STATS_FIELDS: Final = (
    "name", "games", "finished", "wins", "rounds", "rounds_out", "points", "best", "worst",
    "longest_streak",
)  # fmt: skip


def _view_to_json(view: ViewData) -> dict[str, Any]:
    return {
        "stats": [[getattr(s, f) for f in _STATS_FIELDS] for s in view.stats],
        "ratings": {k: [r.mu, r.sigma, count] for k, (r, count) in view.ratings.items()},
        "nights": [[night.isoformat(), state] for night, state in view.nights],
        "meetings": [[a, b, m.ahead, m.behind, m.level] for (a, b), m in view.meetings.items()],
        "mixed": view.mixed,
        "count": view.count,
        "recent": [_line_to_json(game) for game in view.recent],
    }


def _view_from_json(data: Mapping[str, Any]) -> ViewData:
    ratings = data["ratings"].items()
    return ViewData(
        stats=tuple(PlayerStats(**dict(zip(_STATS_FIELDS, r, strict=True))) for r in data["stats"]),
        ratings={k: (Rating(mu, sigma), int(count)) for k, (mu, sigma, count) in ratings},
        nights=tuple((date.fromisoformat(night), state) for night, state in data["nights"]),
        meetings={(a, b): Meetings(ahead, behind, level)
                  for a, b, ahead, behind, level in data["meetings"]},
        mixed=bool(data["mixed"]),
        count=int(data["count"]),
        recent=tuple(_line_from_json(game) for game in data["recent"]),
    )  # fmt: skip


def _line_to_json(g: GameLine) -> list[Any]:
    return [g.game_id, g.variant, g.played_at.isoformat(), g.finished, g.seats, g.rounds]


def _line_from_json(data: Sequence[Any]) -> GameLine:
    game_id, variant, played_at, finished, seats, rounds = data
    return GameLine(
        game_id=game_id,
        variant=variant,
        played_at=datetime.fromisoformat(played_at),
        finished=bool(finished),
        seats=tuple((str(name), bool(won)) for name, won in seats),
        rounds=int(rounds),
    )


def board_to_json(board: Board) -> tuple[dict[str, Any], list[Any]]:
    """The board as kept: the views (what a page reads), and every game's line apart."""
    data = {
        "views": {variant: _view_to_json(view) for variant, view in board.views.items()},
        "last": None if board.last is None else _line_to_json(board.last),
    }
    return data, [_line_to_json(game) for game in board.games]


def board_from_json(data: Mapping[str, Any], games: Sequence[Any] | None) -> Board:
    return Board(
        views={variant: _view_from_json(view) for variant, view in data["views"].items()},
        last=None if data["last"] is None else _line_from_json(data["last"]),
        games=tuple(_line_from_json(game) for game in games or ()),
    )
