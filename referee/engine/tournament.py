"""Tournament points and the standings of a club night: per series and over the evening.

Glossary: a player's *points* (raw points) are their total at a table in the variant's own
count (penalty points left in hand where the lowest total wins; points collected where the
winner collects); *tournament points* are what the evening's scheme gives for a table: points
by place at the table, and a bonus by how few points were left; *tables won* counts first
places (a shared first place counts for each).

What the federations do, as far as the public sources we could search show:

- Rommé. The Deutscher Rommé-Verband plays its championships in *Serien* at tables of 4 and
  ranks by *Wertungspunkte*; at its 7th Deutsche Tandemmeisterschaft the players were seated
  for the second day's first series by their total so far, the best at table 1 in seat 1
  (Wetterauer Zeitung, 26 June 2019, "Rommé-Club ist Deutscher Meister"; the 9th: Karbener
  Zeitung, "2. Platz für den Rommé-Club"). An online Rommé site playing "in Anlehnung an die
  Regeln des DSkV" likewise seats a later series by result ("In Mehrserienturnieren setzen
  wir nach der 1. Serie i.d.R. nach Ergebnis", romme24.com/wissenswertes/
  spielregeln_wertungspunkte). The Wertung of a game, as a club report quotes "die bekannten
  Rommé-Wettkampfregeln": a plain win scores 5, a Hand-Rommé at most 8, a player left with up
  to 30 points in hand 1 to 3 (sportinhalle.de, "Drei-Länder-Eck Rommé- und Skatturnier in
  Halle/Saale", 11 Oct 2012). We found no primary text of the Rommé federation's or the
  DSkV's tournament rules, so no primary source for their tie-breaks: `ROMME`'s place points
  and its bonus bands (3, 2, 1 for at most 10, 20, 30 points left a round on average: per
  round, because a series here is a whole game or several rounds, not one deal) are our
  reading of those reports, not a federation's table.
- Doppelkopf. The Deutscher Doppelkopf-Verband's Turnierspielregeln (TSR, "Stand April
  2000", doko-verband.de/download/turnierspielregeln.pdf; copies at doko-wissen.de and
  skatklopper.de) have a Spielliste (7.3) on which each game's value is written for the
  winners and against the losers, and tournaments at tables of four (8.3) seated by the
  tournament plan (8.4), a Spielrunde of 24 games (8.5; planetsenior.de, Turnier-Doppelkopf).
  The copies we could read show those sections' titles and summaries, not the clause that
  ranks a tournament, and no tie-break: we take DDV tournaments to rank by the Punkte of the
  lists summed over the rounds (the online league "nach DDV Regeln" ranks by Spielpunkte,
  online-doppelkopf.com/liga/regeln): this module's raw board, counted a round so a late
  arrival is not behind for rounds missed. We found no primary source for it or for DDV
  tie-breaks. Club tournaments that rank by place at the table give
  +3/+1/−1/−3 at a table of four and +4/+2/0/−2/−4 at five, shared places averaging their
  points (Wemmetsweiler Doppelkopf-Turnier, reinhold-wolter.de/DOKO/Regeln): `PLACEMENT`.
- Shared places split their points evenly, as those club rules do and other table-game
  tournaments ("Bei gleicher Platzierung werden die Punkte geteilt", Spielelagune Saar,
  DSVC-Direktqualifikationsturnier, which gives 5-3-2-1 at a table of four and, late in its
  tie-breaks, counts first places): so tournament points are `Fraction`s (2½ shows as such).

`ROMME` gives, at a table of n, one point for each player behind you, one for taking part and
one more for the table's win: 5-3-2-1 at four, 4-2-1 at three, 6-4-3-2-1 at five (so the
points of a place do not depend on the table's size more than its opponents do). A table's
places are by the totals alone: the variant's last-round tie-break decides who wins a game,
not the evening.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from itertools import pairwise
from types import MappingProxyType
from typing import Any, Final

from .errors import EventRefused, Reason, reason
from .names import name_key
from .records import places_of
from .seating import LARGEST_TABLE, SMALLEST_TABLE

#: The most a place or a bonus may be worth, either way.
MAX_SCHEME_POINTS: Final = 1000
#: Bonus bands a scheme may have.
MAX_BANDS: Final = 10


class Criterion(Enum):
    """One step of a ranking; each sorts best first."""

    TOURNAMENT_POINTS = "tournament_points"  # more first
    POINTS_PER_ROUND = "points_per_round"  # the variant's order: fewer left (or more collected)
    POINTS = "points"  # the raw total, the variant's order
    TABLES_WON = "tables_won"  # more first


class RankBy(Enum):
    """The two boards: by tournament points, or by the raw points."""

    TOURNAMENT_POINTS = "tournament_points"
    POINTS = "points"


@dataclass(frozen=True)
class BonusBand:
    """A bonus for a player left with at most `per_round` points a round, on average."""

    per_round: int
    points: int


@dataclass(frozen=True, kw_only=True)
class Scheme:
    """How a table's result becomes tournament points, and how equal players are told apart.

    `place_points[size]` gives the points of each place at a table of that size (place 1
    first); the bonus is the first band a player's points left fit (bands most generous
    first; none in a game where the winner collects, which counts no points left). Equal
    places share their points evenly. `tie_breaks` follow the tournament points, in order.
    """

    id: str
    place_points: Mapping[int, tuple[int, ...]]
    bonus: tuple[BonusBand, ...] = ()
    tie_breaks: tuple[Criterion, ...] = (Criterion.POINTS_PER_ROUND, Criterion.TABLES_WON)

    def points_for(self, size: int, places: Sequence[int]) -> tuple[Fraction, ...]:
        """Each seat's place points at a table of `size`, shared places splitting theirs."""
        table = self.place_points[size]
        out = []
        for place in places:
            sharing = places.count(place)
            out.append(Fraction(sum(table[place - 1 : place - 1 + sharing]), sharing))
        return tuple(out)

    def bonus_for(self, points: int, rounds: int, *, high_wins: bool) -> int:
        """The bonus for `points` left over `rounds` rounds (0 where the winner collects)."""
        if high_wins or rounds < 1:
            return 0
        for band in self.bonus:
            if points <= band.per_round * rounds:
                return band.points
        return 0

    def ranking(self, by: RankBy = RankBy.TOURNAMENT_POINTS) -> tuple[Criterion, ...]:
        """The order players are ranked in; still equal after it, they share the place."""
        first = (
            (Criterion.TOURNAMENT_POINTS,)
            if by is RankBy.TOURNAMENT_POINTS
            else (Criterion.POINTS_PER_ROUND, Criterion.TOURNAMENT_POINTS)
        )
        rest = tuple(c for c in self.tie_breaks if c not in first)
        return first + rest

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "place_points": {str(size): list(points) for size, points in self.place_points.items()},
            "bonus": [{"per_round": b.per_round, "points": b.points} for b in self.bonus],
            "tie_breaks": [c.value for c in self.tie_breaks],
        }


def _by_place(size: int) -> tuple[int, ...]:
    """One point for each player behind, one for taking part, one more for the win."""
    return tuple(size - place + 1 + (place == 1) for place in range(1, size + 1))


def _placement(size: int) -> tuple[int, ...]:
    """Even steps of two around nought: +3/+1/−1/−3 at four."""
    return tuple(size - 1 - 2 * place for place in range(size))


ROMME: Final = Scheme(
    id="romme",
    place_points=MappingProxyType(
        {size: _by_place(size) for size in range(SMALLEST_TABLE, LARGEST_TABLE + 1)}
    ),
    bonus=(BonusBand(10, 3), BonusBand(20, 2), BonusBand(30, 1)),
)
#: `ROMME` at a table of any size a game may have (2 to 8 players): a season reads an ordinary
#: club game, one not played at a club night, as one such table (`seasons.day_of_games`).
ROMME_ANY_TABLE: Final = replace(
    ROMME, place_points=MappingProxyType({size: _by_place(size) for size in range(2, 9)})
)
PLACEMENT: Final = Scheme(
    id="placement",
    place_points=MappingProxyType(
        {size: _placement(size) for size in range(SMALLEST_TABLE, LARGEST_TABLE + 1)}
    ),
)
#: No tournament points: the board ranks by the raw points a round.
POINTS_ONLY: Final = Scheme(
    id="points",
    place_points=MappingProxyType(
        {size: (0,) * size for size in range(SMALLEST_TABLE, LARGEST_TABLE + 1)}
    ),
)
SCHEMES: Final[Mapping[str, Scheme]] = MappingProxyType(
    {scheme.id: scheme for scheme in (ROMME, PLACEMENT, POINTS_ONLY)}
)


# -- reading a scheme -------------------------------------------------------------------------


def _whole(value: Any, low: int, high: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None
    return value


def _place_points_reasons(data: Any) -> tuple[dict[int, tuple[int, ...]], list[Reason]]:
    if not isinstance(data, Mapping):
        return {}, [reason("bad_input", field="scheme.place_points")]
    table: dict[int, tuple[int, ...]] = {}
    found: list[Reason] = []
    for size in range(SMALLEST_TABLE, LARGEST_TABLE + 1):
        where = f"scheme.place_points.{size}"
        points = data.get(str(size), data.get(size))
        if not isinstance(points, Sequence) or isinstance(points, str) or len(points) != size:
            found.append(reason("bad_place_points", field=where, size=size))
            continue
        read = [_whole(p, -MAX_SCHEME_POINTS, MAX_SCHEME_POINTS) for p in points]
        if any(p is None for p in read):
            found.append(reason("bad_place_points", field=where, size=size))
            continue
        whole = tuple(p for p in read if p is not None)
        if any(better < worse for better, worse in pairwise(whole)):
            found.append(reason("place_points_not_descending", field=where, size=size))
            continue
        table[size] = whole
    return table, found


def _bonus_reasons(data: Any) -> tuple[tuple[BonusBand, ...], list[Reason]]:
    if data is None:
        return (), []
    if not isinstance(data, Sequence) or isinstance(data, str) or len(data) > MAX_BANDS:
        return (), [reason("bad_bonus", field="scheme.bonus", max=MAX_BANDS)]
    bands: list[BonusBand] = []
    for i, band in enumerate(data):
        if not isinstance(band, Mapping):
            return (), [reason("bad_bonus", field=f"scheme.bonus.{i}", max=MAX_BANDS)]
        limit = _whole(band.get("per_round"), 0, MAX_SCHEME_POINTS)
        points = _whole(band.get("points"), 0, MAX_SCHEME_POINTS)
        if limit is None or points is None:
            return (), [reason("bad_bonus", field=f"scheme.bonus.{i}", max=MAX_BANDS)]
        bands.append(BonusBand(limit, points))
    tighter = pairwise(bands)
    if any(a.per_round >= b.per_round or a.points < b.points for a, b in tighter):
        return (), [reason("bonus_not_descending", field="scheme.bonus")]
    return tuple(bands), []


def _tie_break_reasons(data: Any) -> tuple[tuple[Criterion, ...], list[Reason]]:
    if data is None:
        return ROMME.tie_breaks, []
    known = {c.value: c for c in Criterion}
    if (
        not isinstance(data, Sequence)
        or isinstance(data, str)
        or any(not isinstance(v, str) or v not in known for v in data)
        or len(set(data)) != len(data)
    ):
        return (), [reason("bad_tie_breaks", field="scheme.tie_breaks", allowed=sorted(known))]
    return tuple(known[v] for v in data), []


def read_scheme(data: str | Mapping[str, Any] | Scheme) -> Scheme:
    """A scheme by preset id ("romme", "placement", "points"), or as `Scheme.to_json` writes
    one (a custom scheme: `id` is then "custom"); EventRefused with every reason it can't be."""
    if isinstance(data, Scheme):
        return data
    if isinstance(data, str):
        preset = SCHEMES.get(data.strip().lower())
        if preset is None:
            raise EventRefused([reason("unknown_scheme", field="scheme", scheme=data[:40])])
        return preset
    if not isinstance(data, Mapping):
        raise EventRefused([reason("bad_input", field="scheme")])
    place_points, found = _place_points_reasons(data.get("place_points"))
    bonus, bonus_found = _bonus_reasons(data.get("bonus"))
    tie_breaks, tie_found = _tie_break_reasons(data.get("tie_breaks"))
    found += bonus_found + tie_found
    if found:
        raise EventRefused(found)
    scheme_id = data.get("id")
    if isinstance(scheme_id, str) and scheme_id in SCHEMES:
        preset = SCHEMES[scheme_id]
        if (dict(preset.place_points), preset.bonus, preset.tie_breaks) == (
            place_points,
            bonus,
            tie_breaks,
        ):
            return preset
    return Scheme(
        id="custom",
        place_points=MappingProxyType(place_points),
        bonus=bonus,
        tie_breaks=tie_breaks,
    )


# -- a table's points -------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TableScore:
    """One player's series: where they sat, their place, their points and tournament points."""

    series: int
    table: int
    name: str
    seats: int  # players at the table
    place: int  # 1 is the best; equal totals share it
    points: int  # raw total at the table
    rounds: int  # rounds the table played
    place_points: Fraction
    bonus: int
    finished: bool

    @property
    def tournament_points(self) -> Fraction:
        return self.place_points + self.bonus

    @property
    def won(self) -> bool:
        return self.place == 1


def score_table(
    scheme: Scheme,
    *,
    series: int,
    table: int,
    names: Sequence[str],
    totals: Sequence[int],
    rounds: int,
    high_wins: bool,
    finished: bool,
) -> tuple[TableScore, ...]:
    """Each seat's score at one table, in seat order."""
    places = places_of(totals, high_wins=high_wins)
    place_points = scheme.points_for(len(names), places)
    return tuple(
        TableScore(
            series=series,
            table=table,
            name=name,
            seats=len(names),
            place=place,
            points=total,
            rounds=rounds,
            place_points=earned,
            bonus=scheme.bonus_for(total, rounds, high_wins=high_wins),
            finished=finished,
        )
        for name, total, place, earned in zip(names, totals, places, place_points, strict=True)
    )


# -- standings --------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class StandingsRow:
    """A player's evening (or series) summed up, and their place on the board."""

    place: int
    name: str
    tournament_points: Fraction
    points: int
    rounds: int
    tables_won: int
    scores: tuple[TableScore, ...]  # the tables counted, in series order
    present: bool  # still checked in (False: left; what they scored still counts)

    @property
    def series_played(self) -> int:
        return len(self.scores)

    @property
    def points_per_round(self) -> Fraction | None:
        return Fraction(self.points, self.rounds) if self.rounds else None

    @property
    def provisional(self) -> bool:
        """Whether a table counted here is still playing (its points may change)."""
        return any(not score.finished for score in self.scores)

    def score_in(self, series: int) -> TableScore | None:
        """Their table of series `series`, or None where they did not play it."""
        return next((score for score in self.scores if score.series == series), None)


@dataclass(frozen=True, kw_only=True)
class Standings:
    """The board: rows best first, and the order that ranked them (for the page to say)."""

    rows: tuple[StandingsRow, ...]
    ranking: tuple[Criterion, ...]
    by: RankBy
    high_wins: bool
    series: tuple[int, ...]  # the series counted

    def row_of(self, name: str) -> StandingsRow | None:
        key = name_key(name)
        return next((row for row in self.rows if name_key(row.name) == key), None)


def _sort_key(
    row: StandingsRow, ranking: Sequence[Criterion], *, high_wins: bool
) -> tuple[Any, ...]:
    sign = -1 if high_wins else 1
    key: list[Any] = []
    for criterion in ranking:
        if criterion is Criterion.TOURNAMENT_POINTS:
            key.append(-row.tournament_points)
        elif criterion is Criterion.POINTS_PER_ROUND:
            per_round = row.points_per_round
            # Nobody ranks ahead of a player who played for having played no round.
            key.append((1, 0) if per_round is None else (0, sign * per_round))
        elif criterion is Criterion.POINTS:
            key.append((row.rounds == 0, sign * row.points))
        else:
            key.append(-row.tables_won)
    return tuple(key)


def rank(
    scores: Iterable[TableScore],
    players: Sequence[str],
    *,
    scheme: Scheme,
    by: RankBy = RankBy.TOURNAMENT_POINTS,
    high_wins: bool,
    present: Iterable[str] = (),
    series: Sequence[int] = (),
) -> Standings:
    """The board over `scores`, one row for each of `players` (in the order given where all
    is equal and the place is shared)."""
    by_player: dict[str, list[TableScore]] = {name_key(name): [] for name in players}
    for score in scores:
        by_player.setdefault(name_key(score.name), []).append(score)
    here = {name_key(name) for name in present}
    unranked = []
    for name in players:
        own = sorted(by_player[name_key(name)], key=lambda s: s.series)
        unranked.append(
            StandingsRow(
                place=0,
                name=name,
                tournament_points=sum((s.tournament_points for s in own), Fraction(0)),
                points=sum(s.points for s in own),
                rounds=sum(s.rounds for s in own),
                tables_won=sum(s.won for s in own),
                scores=tuple(own),
                present=name_key(name) in here,
            )
        )
    ranking = scheme.ranking(by)
    keys = [_sort_key(row, ranking, high_wins=high_wins) for row in unranked]
    ordered = sorted(range(len(unranked)), key=lambda i: keys[i])  # stable: players' order
    rows = []
    for i in ordered:
        place = 1 + sum(other < keys[i] for other in keys)
        rows.append(replace(unranked[i], place=place))
    return Standings(
        rows=tuple(rows),
        ranking=ranking,
        by=by,
        high_wins=high_wins,
        series=tuple(series),
    )
