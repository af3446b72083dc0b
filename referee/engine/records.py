"""A club's records: each game summed up once, and what many games say about the players.

Glossary: a *record* is one game summed up (who sat, their totals and places, rounds out, best
and worst round); a *place* is a seat's rank by the variant's own order (lowest total first,
highest where the winner collects), equal totals sharing a place; a *streak* is wins in a row
over a player's finished games in date order; *head to head* counts, for two players, the
finished games each ended ahead of the other.

Records are kept beside the games (the web layer keeps one per club game and refreshes it when
the game's version moves), so stats over hundreds of games never replay a round.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .game import Game
from .names import name_key
from .variants import Scoring

#: Games two players must have finished together before "never ahead" is worth saying.
MIN_MEETINGS: Final = 3


@dataclass(frozen=True)
class SeatRecord:
    """One player's game: total, place, and what their rounds were."""

    name: str
    total: int
    place: int  # 1 is the best; equal totals share a place
    won: bool  # among the game's winners (a shared win counts for each)
    rounds: int  # rounds played
    rounds_out: int  # rounds they went out
    points: int  # the sum of their round scores
    best: int | None  # their best round by the variant's order (None before any round)
    worst: int | None


@dataclass(frozen=True)
class GameRecord:
    """A game summed up for the club's stats and ratings."""

    variant: str
    high_wins: bool  # the highest total wins (the winner collects); else the lowest
    finished: bool
    seats: tuple[SeatRecord, ...]

    @property
    def places(self) -> tuple[int, ...]:
        return tuple(seat.place for seat in self.seats)

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats if seat.won)

    def seat_of(self, name: str) -> SeatRecord | None:
        key = name_key(name)
        return next((seat for seat in self.seats if name_key(seat.name) == key), None)

    def to_json(self) -> dict[str, Any]:
        """A compact form to keep: one list per seat."""
        return {
            "variant": self.variant,
            "high_wins": self.high_wins,
            "finished": self.finished,
            "seats": [
                [s.name, s.total, s.place, s.won, s.rounds, s.rounds_out, s.points, s.best, s.worst]
                for s in self.seats
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        return cls(
            variant=str(data["variant"]),
            high_wins=bool(data["high_wins"]),
            finished=bool(data["finished"]),
            seats=tuple(
                SeatRecord(
                    name=str(name),
                    total=int(total),
                    place=int(place),
                    won=bool(won),
                    rounds=int(rounds),
                    rounds_out=int(out),
                    points=int(points),
                    best=None if best is None else int(best),
                    worst=None if worst is None else int(worst),
                )
                for name, total, place, won, rounds, out, points, best, worst in data["seats"]
            ),
        )


def places_of(totals: Sequence[int], *, high_wins: bool) -> tuple[int, ...]:
    """Each total's place: 1 plus the number of totals strictly better (ties share a place)."""
    if high_wins:
        return tuple(1 + sum(other > total for other in totals) for total in totals)
    return tuple(1 + sum(other < total for other in totals) for total in totals)


def record_of(game: Game) -> GameRecord:
    """The game summed up as it stands now."""
    high_wins = game.variant.scoring is Scoring.WINNER_COLLECTS
    totals = game.standings.totals
    places = places_of(totals, high_wins=high_wins)
    winners = set(game.winners)
    best, worst = (max, min) if high_wins else (min, max)
    seats = []
    for seat, name in enumerate(game.players):
        scores = [r.scores[seat] for r in game.rounds]
        seats.append(
            SeatRecord(
                name=name,
                total=totals[seat],
                place=places[seat],
                won=seat in winners,
                rounds=len(scores),
                rounds_out=sum(r.went_out == seat for r in game.rounds),
                points=sum(scores),
                best=best(scores) if scores else None,
                worst=worst(scores) if scores else None,
            )
        )
    return GameRecord(
        variant=game.variant.id,
        high_wins=high_wins,
        finished=game.finished,
        seats=tuple(seats),
    )


# -- stats over many games ------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStats:
    """What a player's games say, over the games asked about."""

    name: str
    games: int = 0
    finished: int = 0
    wins: int = 0
    rounds: int = 0
    rounds_out: int = 0
    points: int = 0
    best: int | None = None  # the best round of the games counted for it (see `best_of`)
    worst: int | None = None
    longest_streak: int = 0

    @property
    def win_rate(self) -> float | None:
        """Wins over finished games (None before any finished game)."""
        return self.wins / self.finished if self.finished else None

    @property
    def average_round(self) -> float | None:
        """The mean points scored per round played (in a winner-collects game, points won)."""
        return self.points / self.rounds if self.rounds else None


def best_round_scoring(records: Iterable[GameRecord]) -> bool | None:
    """Which games' rounds the best and worst round are taken from: `high_wins` of them.

    A round of 0 is the best in a penalty game and the worst where the winner collects, so
    the two are never mixed: penalty games when there are any, else the winner-collects ones.
    None without games.
    """
    kinds = {record.high_wins for record in records}
    if not kinds:
        return None
    return all(kinds)


class _Tally:
    """A player's running sums while the records go by in date order."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.games = self.finished = self.wins = 0
        self.rounds = self.rounds_out = self.points = 0
        self.best: int | None = None
        self.worst: int | None = None
        self.streak = self.longest = 0

    def add(self, record: GameRecord, seat: SeatRecord, *, extremes: bool) -> None:
        self.games += 1
        self.rounds += seat.rounds
        self.rounds_out += seat.rounds_out
        self.points += seat.points
        if extremes and seat.best is not None and seat.worst is not None:
            better, worse = (max, min) if record.high_wins else (min, max)
            self.best = seat.best if self.best is None else better(self.best, seat.best)
            self.worst = seat.worst if self.worst is None else worse(self.worst, seat.worst)
        if not record.finished:
            return
        self.finished += 1
        if seat.won:
            self.wins += 1
            self.streak += 1
            self.longest = max(self.longest, self.streak)
        else:
            self.streak = 0

    def stats(self) -> PlayerStats:
        return PlayerStats(
            name=self.name,
            games=self.games,
            finished=self.finished,
            wins=self.wins,
            rounds=self.rounds,
            rounds_out=self.rounds_out,
            points=self.points,
            best=self.best,
            worst=self.worst,
            longest_streak=self.longest,
        )


def player_stats(records: Sequence[GameRecord], members: Sequence[str]) -> list[PlayerStats]:
    """Every member's stats over `records` (in date order), in the order of `members`.

    A name at a game that is not among `members` is counted under its own spelling, after them.
    """
    tallies: dict[str, _Tally] = {name_key(name): _Tally(name) for name in members}
    scoring = best_round_scoring(records)
    for record in records:
        extremes = record.high_wins == scoring
        for seat in record.seats:
            key = name_key(seat.name)
            if key not in tallies:
                tallies[key] = _Tally(seat.name)
            tallies[key].add(record, seat, extremes=extremes)
    return [tally.stats() for tally in tallies.values()]


@dataclass(frozen=True)
class Meetings:
    """Two players' finished games together: how often each ended ahead, and level."""

    ahead: int  # the first player ahead of the second
    behind: int
    level: int

    @property
    def games(self) -> int:
        return self.ahead + self.behind + self.level


def head_to_head(records: Iterable[GameRecord]) -> dict[tuple[str, str], Meetings]:
    """(a, b) -> how a fared against b, for every two players who finished a game together.

    Both orders are there: (b, a) is (a, b) turned round. Names as the games spell them.
    """
    counts: dict[tuple[str, str], list[int]] = {}
    for record in records:
        if not record.finished:
            continue
        for a in record.seats:
            for b in record.seats:
                if a is b:
                    continue
                tally = counts.setdefault((a.name, b.name), [0, 0, 0])
                tally[0 if a.place < b.place else 1 if a.place > b.place else 2] += 1
    return {pair: Meetings(*tally) for pair, tally in counts.items()}


def never_ahead(
    meetings: Mapping[tuple[str, str], Meetings], *, at_least: int = MIN_MEETINGS
) -> list[tuple[str, str, Meetings]]:
    """Who can't beat whom: (a, b, meetings) where a never ended ahead of b in `at_least`
    finished games or more, most games first."""
    found = [
        (a, b, m)
        for (a, b), m in meetings.items()
        if m.ahead == 0 and m.behind > 0 and m.games >= at_least
    ]
    return sorted(found, key=lambda item: (-item[2].games, -item[2].behind, item[0], item[1]))
