"""What a club's pages show: the games asked about (all, or one variant's), each member's stats
and rating, the ladder, the ratings over time as a chart, and who can't beat whom.

Everything comes from the club's board (`board.py`): no game is replayed, and no game's record
is read, for a page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from flask_babel import gettext

from referee.engine.names import name_key
from referee.engine.ratings import DEFAULT, Rating
from referee.engine.records import Meetings, PlayerStats, never_ahead
from referee.engine.variants import VARIANTS, Scoring
from referee.web.plumbing.charts import LineChart, Series
from referee.web.plumbing.formats import day

from .board import Board, GameLine, ViewData
from .store import StoredClub


@dataclass(frozen=True)
class Rung:
    """A place on the ladder."""

    place: int
    name: str
    rating: Rating
    games: int  # finished games rated


@dataclass(frozen=True)
class ClubView:
    club: StoredClub
    variant: str | None  # None: every variant
    variants: list[str]  # the variants the club has played, in the registry's order
    count: int  # the games asked about
    recent: list[GameLine]  # the newest of them, newest first
    stats: list[PlayerStats]
    ratings: dict[str, Rating]  # every member's, DEFAULT before any finished game
    ladder: list[Rung]
    meetings: dict[tuple[str, str], Meetings]
    never_ahead: list[tuple[str, str, Meetings]]
    opponents: list[str]  # who finished a game with someone: the head-to-head table's people
    chart: LineChart | None
    mixed_scoring: bool  # penalty and winner-collects games: best and worst count the first
    best_is_lowest: bool  # penalty games among those asked about: the best round is the lowest

    def bar(self, rung: Rung) -> tuple[float, float, float]:
        """Where a rung's range (mu ± 3σ) and its mu fall on a 0–100 scale shared by the
        ladder: (start, width, mu). The range's left end is the rating itself."""
        low = min(r.rating.ordinal for r in self.ladder)
        high = max(r.rating.mu + 3 * r.rating.sigma for r in self.ladder)
        span = (high - low) or 1.0

        def at(value: float) -> float:
            return round(100 * (value - low) / span, 2)

        rating = rung.rating
        start = at(rating.ordinal)
        return start, round(at(rating.mu + 3 * rating.sigma) - start, 2), at(rating.mu)


def member_stats(view: ViewData, members: Sequence[str]) -> list[PlayerStats]:
    """Every member's stats (zero before their first game), in the club's order; a name at a
    game that is not a member comes after them."""
    by_key = {name_key(stats.name): stats for stats in view.stats}
    out = [by_key.pop(name_key(name), PlayerStats(name=name)) for name in members]
    return out + list(by_key.values())


def ladder(members: Sequence[str], ratings: Mapping[str, tuple[Rating, int]]) -> list[Rung]:
    """The members with a rated game, best ordinal first; equal ordinals share a place."""
    rated = [(name, *ratings[name_key(name)]) for name in members if name_key(name) in ratings]
    rated.sort(key=lambda item: (-item[1].ordinal, item[0].casefold()))
    rungs: list[Rung] = []
    for index, (name, rating, count) in enumerate(rated):
        same = rungs and round(rungs[-1].rating.ordinal, 6) == round(rating.ordinal, 6)
        rungs.append(Rung(rungs[-1].place if same else index + 1, name, rating, count))
    return rungs


def ratings_chart(view: ViewData, members: Sequence[str]) -> LineChart | None:
    """Each member's rating (the ladder's number) at the end of each game night kept; None
    before two nights with a finished game."""
    nights = view.nights
    if len(nights) < 2:
        return None
    keys = [(name, name_key(name)) for name in members]
    seen = [(name, key) for name, key in keys if any(key in state for _n, state in nights)]
    return LineChart(
        title=gettext("Ratings after each game night"),
        x_title=gettext("Game night"),
        y_title=gettext("Rating"),
        x_labels=tuple(day(night, "short") for night, _state in nights),
        series=tuple(
            Series(name, tuple(state.get(key) for _night, state in nights)) for name, key in seen
        ),
        decimals=1,
        zero_based=False,
    )


def club_view(club: StoredClub, board: Board, variant: str | None) -> ClubView:
    """The club's page for `variant` (None: all its games), from its board."""
    view = board.view(variant)
    meetings = view.meetings_by_pair()
    met = {a for a, _b in meetings}
    return ClubView(
        club=club,
        variant=variant,
        variants=[vid for vid in VARIANTS if vid in board.views],
        count=view.count,
        recent=list(view.recent),
        stats=member_stats(view, club.members),
        ratings={name: view.ratings.get(name_key(name), (DEFAULT, 0))[0] for name in club.members},
        ladder=ladder(club.members, view.ratings),
        meetings=meetings,
        never_ahead=never_ahead(meetings),
        opponents=[name for name in club.members if name in met],
        chart=ratings_chart(view, club.members),
        mixed_scoring=view.mixed,
        best_is_lowest=best_is_lowest(variant, board),
    )


def best_is_lowest(variant: str | None, board: Board) -> bool:
    """Whether the games asked about count their best round as the lowest: any of them scored
    by penalty points (records.py counts those when both kinds are there)."""
    played = [variant] if variant else [vid for vid in VARIANTS if vid in board.views]
    return any(VARIANTS[vid].scoring is Scoring.PENALTY for vid in played if vid in VARIANTS)
