"""Ratings over a club's finished games: OpenSkill's Plackett–Luce model, made for games of
many players, with its default parameters.

Games are rated one after another in date order, each from the ratings its players had after
their previous game; the places are the record's (the variant's own order, equal totals
sharing a place). A rating is a belief: `mu` the skill it expects, `sigma` how unsure it is;
`ordinal` (mu − 3σ) is what a ladder sorts by, so a newcomer starts at 0 and climbs as the
games make the model sure.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from .records import GameRecord

MODEL: Final = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The model's conservative estimate, mu − 3σ (openskill's `ordinal()`)."""
        return self.mu - 3 * self.sigma


#: Everyone's rating before their first finished game.
DEFAULT: Final = Rating(MODEL.mu, MODEL.sigma)


def rate(before: Mapping[str, Rating], record: GameRecord) -> dict[str, Rating]:
    """The ratings of the game's players after it, from `before` (DEFAULT for a newcomer)."""
    names = [seat.name for seat in record.seats]
    teams = [
        [MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in (before.get(n, DEFAULT) for n in names)
    ]
    rated = MODEL.rate(teams, ranks=[float(place) for place in record.places])
    return {
        name: Rating(team[0].mu, team[0].sigma) for name, team in zip(names, rated, strict=True)
    }


def rate_in_order(
    records: Iterable[GameRecord | None], start: Mapping[str, Rating] | None = None
) -> Iterator[dict[str, Rating] | None]:
    """For each record in date order, its players' ratings after it (None for a game that is
    not finished, or not known); `start` holds everyone's ratings before the first."""
    current = dict(start or {})
    for record in records:
        if record is None or not record.finished or len(record.seats) < 2:
            yield None
            continue
        after = rate(current, record)
        current.update(after)
        yield after
