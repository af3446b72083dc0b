"""A club's season: its evenings' standings added up into one table, by the rule the host picks.

Glossary: an *evening* is a club night's final standings (`tournament.Standings`), read here as
plain data (`Evening`: each player's tournament points and place); a *cell* is what one
evening gave one player; a *dropped* evening is a cell the rule leaves out of the total.

The rules (`Rule`):

- `sum`: the total is the sum of a player's tournament points over every evening played;
- `best` N: the total is the sum of a player's N best evenings; the rest are dropped (of equal
  evenings the earlier ones are kept), so a player who played M > N evenings has exactly
  M - N dropped;
- `average`: the total is a player's tournament points per evening played; a player with
  fewer evenings than the minimum attendance is listed after every ranked player, unranked
  (no place), in the same order.

Ties are broken as the evenings break theirs, as far as evenings can be compared: first the
total; then more evenings won (first place on an evening's standings, a shared first place
counting for each; only evenings counted in the total); then more tournament points over every
evening played, dropped ones included; then the place is shared (the table lists them in the
order of their first evening). An evening's raw points are not compared: evenings may be played
in variants that count points differently (tournament.py's points per round ranks one evening).

Movement is a player's place against the table before the last evening with results (the same
rule over the evenings before it): up by n, down by n, the same, or new (no place then).

A season may count the club's ordinary games too (`Season.club_games`: games not played at a
club night). The finished games begun on one day are read as an evening of their own
(`day_of_games`): each game scored as one table of a club night under `tournament.ROMME` (its
place points at a table of any size, and its bonus for few points left), a player's day the
sum over the day's games, and the day's places by that sum alone (equal sums share a place):
so a day of games takes its column, its best-N and its tie-breaks as an evening does.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from typing import Any, Final

from .errors import GameRefused, Reason, reason
from .names import clean_name, name_key
from .tournament import ROMME_ANY_TABLE, score_table

#: The longest season name.
MAX_SEASON_NAME: Final = 64
#: The most evenings a season may count (a year of weekly evenings and then some).
MAX_EVENINGS: Final = 120
#: The most days a season that counts the club's games may span (a year: a day of games is a
#: column, and a club may play every day; what a season's page and paper show stays bounded).
MAX_GAMES_DAYS: Final = 366


class SeasonRefused(GameRefused):
    """A season the engine cannot keep: every reason at once, as an evening's refusal."""


class Rule(Enum):
    """How a player's evenings make their total."""

    SUM = "sum"
    BEST = "best"
    AVERAGE = "average"


@dataclass(frozen=True, kw_only=True)
class Placing:
    """One player's evening: their tournament points and place on its standings."""

    name: str
    tournament_points: Fraction
    place: int


@dataclass(frozen=True, kw_only=True)
class Evening:
    """An evening's final standings as the season reads them: who scored, and where."""

    key: str
    date: datetime.date
    placings: tuple[Placing, ...]

    @property
    def played(self) -> bool:
        return bool(self.placings)


@dataclass(frozen=True, kw_only=True)
class PlayedGame:
    """A finished ordinary club game as a season reads it: each seat's name and total, the
    rounds played, and whether the highest total wins (else the lowest)."""

    names: tuple[str, ...]
    totals: tuple[int, ...]
    rounds: int
    high_wins: bool


def day_of_games(key: str, date: datetime.date, games: Sequence[PlayedGame]) -> Evening:
    """A day's ordinary club games as an evening of their own: each game one table scored by
    `tournament.ROMME` (5-3-2-1 at four, 3-1 at two; its bonus for few points left), a
    player's points the sum over the day's games, the day's places by that sum alone."""
    names: dict[str, str] = {}
    points: dict[str, Fraction] = {}
    for number, game in enumerate(games, start=1):
        scores = score_table(
            ROMME_ANY_TABLE,
            series=number,
            table=1,
            names=game.names,
            totals=game.totals,
            rounds=game.rounds,
            high_wins=game.high_wins,
            finished=True,
        )
        for score in scores:
            key_of = name_key(score.name)
            names.setdefault(key_of, score.name)
            points[key_of] = points.get(key_of, Fraction(0)) + score.tournament_points
    ordered = sorted(points.items(), key=lambda pair: -pair[1])
    first_at: dict[Fraction, int] = {}  # equal sums share the first place of them
    for index, (_, mine) in enumerate(ordered, start=1):
        first_at.setdefault(mine, index)
    placings = tuple(
        Placing(name=names[k], tournament_points=mine, place=first_at[mine]) for k, mine in ordered
    )
    return Evening(key=key, date=date, placings=placings)


@dataclass(frozen=True, kw_only=True)
class Season:
    """A season's settings: its name, dates and rule (`best` for BEST, `min_evenings` for
    AVERAGE; None otherwise), and whether the club's ordinary games count besides its club
    nights (each day's as an evening of its own, `day_of_games`)."""

    name: str
    starts: datetime.date
    ends: datetime.date
    rule: Rule
    best: int | None = None
    min_evenings: int | None = None
    club_games: bool = False

    @classmethod
    def create(
        cls,
        *,
        name: Any,
        starts: Any,
        ends: Any,
        rule: Any,
        best: Any = None,
        min_evenings: Any = None,
        club_games: Any = False,
        evenings: int,
        game_days: int = 0,
    ) -> Season:
        """A season of `evenings` club nights and `game_days` days of club games (each an
        evening of its own for `best` and `min_evenings`); SeasonRefused with every reason it
        cannot be."""
        reasons: list[Reason] = []
        title = _read_name(name, reasons)
        if not isinstance(starts, datetime.date):
            reasons.append(reason("bad_input", field="starts"))
        if not isinstance(ends, datetime.date):
            reasons.append(reason("bad_input", field="ends"))
        elif isinstance(starts, datetime.date) and ends < starts:
            reasons.append(
                reason(
                    "season_ends_before_start",
                    field="ends",
                    starts=starts.isoformat(),
                    ends=ends.isoformat(),
                )
            )
        kind = _read_rule(rule, reasons)
        _club_games_reasons(club_games, starts, ends, reasons)
        columns = evenings + (game_days if club_games is True else 0)
        if columns < 1:
            code = "season_without_results" if club_games is True else "season_without_evenings"
            reasons.append(reason(code, field="events"))
        if evenings > MAX_EVENINGS:
            reasons.append(reason("too_many_season_evenings", field="events", max=MAX_EVENINGS))
        if kind is Rule.BEST:
            _count_reasons(best, "best", "bad_best_evenings", columns, reasons)
        if kind is Rule.AVERAGE:
            _count_reasons(min_evenings, "min_evenings", "bad_min_evenings", columns, reasons)
        if reasons or kind is None:
            raise SeasonRefused(reasons)
        return cls(
            name=title,
            starts=starts,
            ends=ends,
            rule=kind,
            best=best if kind is Rule.BEST else None,
            min_evenings=min_evenings if kind is Rule.AVERAGE else None,
            club_games=club_games,
        )


def _read_name(name: Any, reasons: list[Reason]) -> str:
    if not isinstance(name, str) or not clean_name(name):
        reasons.append(reason("empty_season_name", field="name"))
        return ""
    title = clean_name(name)
    if len(title) > MAX_SEASON_NAME:
        reasons.append(reason("season_name_too_long", field="name", max=MAX_SEASON_NAME))
    return title


def _club_games_reasons(club_games: Any, starts: Any, ends: Any, reasons: list[Reason]) -> None:
    if not isinstance(club_games, bool):
        reasons.append(reason("bad_input", field="club_games"))
        return
    dated = isinstance(starts, datetime.date) and isinstance(ends, datetime.date)
    if club_games and dated and (ends - starts).days + 1 > MAX_GAMES_DAYS:
        reasons.append(reason("season_too_long_for_games", field="ends", max=MAX_GAMES_DAYS))


def _read_rule(rule: Any, reasons: list[Reason]) -> Rule | None:
    try:
        return Rule(rule)
    except ValueError:
        reasons.append(reason("unknown_season_rule", field="rule", rule=str(rule)[:20]))
        return None


def _count_reasons(value: Any, field: str, code: str, evenings: int, reasons: list[Reason]) -> None:
    whole = isinstance(value, int) and not isinstance(value, bool)
    if not whole or not 1 <= value <= max(evenings, 1):
        shown = value if whole else "–" if value is None else str(value)[:20]
        reasons.append(reason(code, field=field, value=shown, evenings=evenings))


# -- the table --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Movement:
    """A place against the table before the last evening: `up`, `down`, `same` or `new`."""

    kind: str
    by: int = 0

    @property
    def sign(self) -> str:
        """▲2, ▼1, = or new, as a board writes it."""
        return {"up": f"▲{self.by}", "down": f"▼{self.by}", "same": "="}.get(self.kind, "new")


@dataclass(frozen=True, kw_only=True)
class SeasonRow:
    """A player's season: place (None: unranked, below the minimum attendance), the total, one
    cell per evening (None where absent) and which of them the rule dropped."""

    place: int | None
    name: str
    total: Fraction
    cells: tuple[Fraction | None, ...]
    dropped: tuple[int, ...]  # indexes into the table's evenings
    played: int
    won: int  # counted evenings won
    movement: Movement | None  # None: no table before the last evening


@dataclass(frozen=True, kw_only=True)
class SeasonTable:
    """The season's table: its evenings in date order and its rows, ranked first."""

    season: Season
    evenings: tuple[Evening, ...]
    rows: tuple[SeasonRow, ...]

    @property
    def last(self) -> int | None:
        """The index of the last evening with results, or None."""
        played = [i for i, evening in enumerate(self.evenings) if evening.played]
        return played[-1] if played else None


def season_table(season: Season, evenings: Sequence[Evening]) -> SeasonTable:
    """The season's table over `evenings` (sorted by date here; evenings of one date keep
    the order they come in, the order they were made), with each ranked player's movement
    since the table before the last evening with results."""
    ordered = tuple(sorted(evenings, key=lambda e: e.date))
    rows = _ranked(season, ordered)
    last = SeasonTable(season=season, evenings=ordered, rows=()).last
    if last is None or not any(e.played for e in ordered[:last]):
        return SeasonTable(season=season, evenings=ordered, rows=rows)
    before = {
        name_key(row.name): row.place
        for row in _ranked(season, ordered[:last])
        if row.place is not None
    }
    moved = tuple(_with_movement(row, before) for row in rows)
    return SeasonTable(season=season, evenings=ordered, rows=moved)


def _with_movement(row: SeasonRow, before: dict[str, int]) -> SeasonRow:
    if row.place is None:
        return row
    earlier = before.get(name_key(row.name))
    if earlier is None:
        movement = Movement("new")
    elif earlier > row.place:
        movement = Movement("up", earlier - row.place)
    elif earlier < row.place:
        movement = Movement("down", row.place - earlier)
    else:
        movement = Movement("same")
    return replace(row, movement=movement)


def _ranked(season: Season, evenings: Sequence[Evening]) -> tuple[SeasonRow, ...]:
    names: dict[str, str] = {}  # key -> the name as last written
    cells: dict[str, list[Fraction | None]] = {}
    places: dict[str, list[int | None]] = {}
    for index, evening in enumerate(evenings):
        for placing in evening.placings:
            key = name_key(placing.name)
            names[key] = placing.name
            cells.setdefault(key, [None] * len(evenings))[index] = placing.tournament_points
            places.setdefault(key, [None] * len(evenings))[index] = placing.place
    rows = [_row(season, names[key], cells[key], places[key]) for key in names]
    keyed = [(_sort_key(row), row) for row in rows]
    ranked = [(k, row) for k, row in keyed if _qualifies(season, row)]
    unranked = [(k, row) for k, row in keyed if not _qualifies(season, row)]
    out: list[SeasonRow] = []
    for order, row in sorted(ranked, key=lambda pair: pair[0]):
        place = 1 + sum(other < order for other, _ in ranked)
        out.append(_placed(row, place))
    out.extend(row for _, row in sorted(unranked, key=lambda pair: pair[0]))
    return tuple(out)


def _qualifies(season: Season, row: SeasonRow) -> bool:
    return season.rule is not Rule.AVERAGE or row.played >= (season.min_evenings or 1)


def _row(
    season: Season, name: str, cells: list[Fraction | None], places: list[int | None]
) -> SeasonRow:
    played = [i for i, cell in enumerate(cells) if cell is not None]
    dropped: tuple[int, ...] = ()
    if season.rule is Rule.BEST and season.best is not None and len(played) > season.best:
        # best first; of equal evenings the earlier one first (kept)
        by_worth = sorted(played, key=lambda i: (-(cells[i] or 0), i))
        dropped = tuple(sorted(by_worth[season.best :]))
    kept = [i for i in played if i not in dropped]
    total = sum((cells[i] or Fraction(0) for i in kept), Fraction(0))
    if season.rule is Rule.AVERAGE and played:
        total = total / len(played)
    return SeasonRow(
        place=None,
        name=name,
        total=total,
        cells=tuple(cells),
        dropped=dropped,
        played=len(played),
        won=sum(places[i] == 1 for i in kept),
        movement=None,
    )


def _sort_key(row: SeasonRow) -> tuple[Fraction, int, Fraction]:
    everything = sum((cell for cell in row.cells if cell is not None), Fraction(0))
    return (-row.total, -row.won, -everything)


def _placed(row: SeasonRow, place: int) -> SeasonRow:
    return replace(row, place=place)
