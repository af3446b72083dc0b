"""What a club's pages show: the games asked about (all, or one variant's), each member's stats
and rating, the ladder, the ratings over time as a chart, and who can't beat whom.

Everything is worked out from the games' records and ratings as kept (`store.club_games_of`):
no game is replayed for a page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from flask_babel import format_date, gettext

from referee.engine.game import name_key
from referee.engine.ratings import DEFAULT, Rating
from referee.engine.records import (
    Meetings,
    PlayerStats,
    head_to_head,
    never_ahead,
    player_stats,
)
from referee.engine.variants import VARIANTS
from referee.web.charts import LineChart, Series

from .store import ClubGame, StoredClub

#: Games listed as the club's recent ones.
RECENT_GAMES = 10
#: Game nights drawn in the ratings chart (the newest).
CHART_NIGHTS = 30


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
    games: list[ClubGame]  # the games asked about, in date order
    stats: list[PlayerStats]
    ratings: dict[str, Rating]  # every member's, DEFAULT before any finished game
    ladder: list[Rung]
    meetings: dict[tuple[str, str], Meetings]
    never_ahead: list[tuple[str, str, Meetings]]
    opponents: list[str]  # who finished a game with someone: the head-to-head table's people
    chart: LineChart | None
    mixed_scoring: bool  # penalty and winner-collects games: best and worst count the first

    @property
    def recent(self) -> list[ClubGame]:
        return self.games[::-1][:RECENT_GAMES]

    @property
    def last_game(self) -> ClubGame | None:
        return self.games[-1] if self.games else None

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


def chain_of(variant: str | None) -> str:
    return "all" if variant is None else "variant"


def current_ratings(
    games: Sequence[ClubGame], chain: str
) -> tuple[dict[str, Rating], dict[str, int]]:
    """Each player's rating after their last rated game, and how many games were rated."""
    ratings: dict[str, Rating] = {}
    counts: dict[str, int] = {}
    for game in games:
        after = game.rating_after(chain)
        if not after:
            continue
        for name, rating in after.items():
            key = name_key(name)
            ratings[key] = rating
            counts[key] = counts.get(key, 0) + 1
    return ratings, counts


def ladder(
    members: Sequence[str], ratings: dict[str, Rating], counts: dict[str, int]
) -> list[Rung]:
    """The members with a rated game, best ordinal first; equal ordinals share a place."""
    rated = [(name, ratings[name_key(name)]) for name in members if name_key(name) in ratings]
    rated.sort(key=lambda item: (-item[1].ordinal, item[0].casefold()))
    rungs: list[Rung] = []
    for index, (name, rating) in enumerate(rated):
        same = rungs and round(rungs[-1].rating.ordinal, 6) == round(rating.ordinal, 6)
        place = rungs[-1].place if same else index + 1
        rungs.append(Rung(place, name, rating, counts[name_key(name)]))
    return rungs


def ratings_chart(
    games: Sequence[ClubGame], chain: str, members: Sequence[str]
) -> LineChart | None:
    """Each member's rating (the ladder's number) at the end of each game night, the newest
    `CHART_NIGHTS` nights; None before two nights with a finished game."""
    nights: list[tuple[date, dict[str, Rating]]] = []
    current: dict[str, Rating] = {}
    for game in games:
        after = game.rating_after(chain)
        if not after:
            continue
        current.update({name_key(name): rating for name, rating in after.items()})
        night = game.played_at.date()
        if nights and nights[-1][0] == night:
            nights[-1] = (night, dict(current))
        else:
            nights.append((night, dict(current)))
    if len(nights) < 2:
        return None
    nights = nights[-CHART_NIGHTS:]
    seen = [name for name in members if any(name_key(name) in state for _n, state in nights)]

    def ordinal(state: dict[str, Rating], name: str) -> float | None:
        rating = state.get(name_key(name))
        return None if rating is None else rating.ordinal

    return LineChart(
        title=gettext("Ratings after each game night"),
        x_title=gettext("Game night"),
        y_title=gettext("Rating"),
        x_labels=tuple(format_date(night, "short") for night, _state in nights),
        series=tuple(
            Series(name, tuple(ordinal(state, name) for _night, state in nights)) for name in seen
        ),
        decimals=1,
        zero_based=False,
    )


def played_variants(games: Sequence[ClubGame]) -> list[str]:
    played = {game.variant for game in games}
    return [vid for vid in VARIANTS if vid in played]


def club_view(club: StoredClub, games: Sequence[ClubGame], variant: str | None) -> ClubView:
    """The club's page for `variant` (None: all its games)."""
    chosen = [g for g in games if variant is None or g.variant == variant]
    records = [g.record for g in chosen]
    chain = chain_of(variant)
    ratings, counts = current_ratings(chosen, chain)
    meetings = head_to_head(records)
    met = {a for a, _b in meetings}
    return ClubView(
        club=club,
        variant=variant,
        variants=played_variants(games),
        games=chosen,
        stats=player_stats(records, club.members),
        ratings={name: ratings.get(name_key(name), DEFAULT) for name in club.members},
        ladder=ladder(club.members, ratings, counts),
        meetings=meetings,
        never_ahead=never_ahead(meetings),
        opponents=[name for name in club.members if name in met],
        chart=ratings_chart(chosen, chain, club.members),
        mixed_scoring=len({r.high_wins for r in records}) > 1,
    )
