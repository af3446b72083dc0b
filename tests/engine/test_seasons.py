"""A club's season (referee.engine.seasons): the three rules, ties, dropped evenings, movement,
and the seasons the engine refuses."""

from __future__ import annotations

import datetime
import time
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.seasons import (
    Evening,
    Placing,
    PlayedGame,
    Rule,
    Season,
    SeasonRefused,
    day_of_games,
    season_table,
)

DAY = datetime.date(2026, 9, 1)


def _season(rule: str = "sum", *, evenings: int = 4, **numbers: Any) -> Season:
    return Season.create(
        name="Autumn",
        starts=DAY,
        ends=DAY + datetime.timedelta(days=90),
        rule=rule,
        evenings=evenings,
        **numbers,
    )


def _evening(week: int, *scores: tuple[str, int]) -> Evening:
    """An evening's standings from (name, tournament points), best first, places shared."""
    points = [p for _, p in scores]
    return Evening(
        key=f"e{week}",
        date=DAY + datetime.timedelta(weeks=week),
        placings=tuple(
            Placing(name=name, tournament_points=Fraction(p), place=1 + sum(q > p for q in points))
            for name, p in scores
        ),
    )


def _codes(refused: pytest.ExceptionInfo[SeasonRefused]) -> list[str]:
    return [r.code for r in refused.value.reasons]


def test_sum_adds_every_evening_and_shares_equal_places() -> None:
    table = season_table(
        _season("sum"),
        [_evening(0, ("Ann", 10), ("Bo", 6)), _evening(1, ("Bo", 10), ("Ann", 6))],
    )
    assert [(r.place, r.name, r.total) for r in table.rows] == [
        (1, "Ann", Fraction(16)),
        (1, "Bo", Fraction(16)),
    ]


def test_best_n_drops_the_worst_evenings_and_keeps_the_earlier_of_equal_ones() -> None:
    evenings = [
        _evening(0, ("Ann", 5), ("Bo", 9)),
        _evening(1, ("Ann", 9), ("Bo", 2)),
        _evening(2, ("Ann", 5), ("Bo", 9)),
    ]
    table = season_table(_season("best", best=2, evenings=3), evenings)
    rows = {r.name: r for r in table.rows}
    assert rows["Bo"].total == 18 and rows["Bo"].dropped == (1,)
    assert rows["Ann"].total == 14 and rows["Ann"].dropped == (2,)  # week 0 kept, week 2 not
    assert [r.name for r in table.rows] == ["Bo", "Ann"]


def test_average_ranks_only_players_with_the_minimum_attendance() -> None:
    evenings = [
        _evening(0, ("Ann", 4), ("Bo", 6), ("Cy", 12)),
        _evening(1, ("Ann", 8), ("Bo", 6)),
    ]
    table = season_table(_season("average", min_evenings=2, evenings=2), evenings)
    assert [(r.place, r.name, r.total) for r in table.rows] == [
        (1, "Ann", Fraction(6)),
        (2, "Bo", Fraction(6)),  # the same average, but Ann won an evening
        (None, "Cy", Fraction(12)),  # one evening of two: listed after, unranked
    ]


def test_ties_go_to_more_evenings_won_then_more_points_over_every_evening() -> None:
    evenings = [
        _evening(0, ("Ann", 10), ("Bo", 4), ("Cy", 1)),
        _evening(1, ("Bo", 10), ("Cy", 9), ("Ann", 3)),
        _evening(2, ("Cy", 10), ("Bo", 9), ("Ann", 8)),
    ]
    table = season_table(_season("best", best=2, evenings=3), evenings)
    # Ann 10+8, one win; Bo 10+9, one win; Cy 9+10, one win: Bo and Cy tie on 19 and a win,
    # Bo played 23 over all three evenings, Cy 20.
    assert [(r.place, r.name) for r in table.rows] == [(1, "Bo"), (2, "Cy"), (3, "Ann")]


def test_movement_is_against_the_table_before_the_last_evening() -> None:
    evenings = [
        _evening(0, ("Ann", 10), ("Bo", 6), ("Cy", 3)),
        _evening(1, ("Cy", 12), ("Bo", 6), ("Dee", 5)),
    ]
    table = season_table(_season("sum"), evenings)
    moved = {r.name: r.movement.sign for r in table.rows if r.movement}
    assert moved == {"Cy": "▲2", "Bo": "=", "Ann": "▼2", "Dee": "new"}


def test_a_season_of_one_evening_has_no_movement() -> None:
    table = season_table(_season("sum"), [_evening(0, ("Ann", 10))])
    assert table.rows[0].movement is None


def test_an_evening_without_results_yet_is_a_column_of_absent_cells() -> None:
    table = season_table(_season("sum"), [_evening(0, ("Ann", 10)), _evening(1)])
    assert table.rows[0].cells == (Fraction(10), None)
    assert table.last == 0


@pytest.mark.parametrize(
    ("numbers", "evenings", "code"),
    [
        ({"rule": "best", "best": 5}, 3, "bad_best_evenings"),
        ({"rule": "best"}, 3, "bad_best_evenings"),
        ({"rule": "average", "min_evenings": 0}, 3, "bad_min_evenings"),
        ({"rule": "average", "min_evenings": 4}, 3, "bad_min_evenings"),
        ({"rule": "sum"}, 0, "season_without_evenings"),
        ({"rule": "most"}, 3, "unknown_season_rule"),
    ],
)
def test_a_season_that_cannot_be_is_refused(
    numbers: dict[str, Any], evenings: int, code: str
) -> None:
    with pytest.raises(SeasonRefused) as refused:
        Season.create(name="S", starts=DAY, ends=DAY, evenings=evenings, **numbers)
    assert code in _codes(refused)


def test_an_end_before_the_start_and_a_long_name_are_refused_together() -> None:
    with pytest.raises(SeasonRefused) as refused:
        Season.create(
            name="x" * 65, starts=DAY, ends=DAY - datetime.timedelta(days=1), rule="sum", evenings=1
        )
    assert _codes(refused) == ["season_name_too_long", "season_ends_before_start"]


# -- properties -------------------------------------------------------------------------------

NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus"]


@st.composite
def seasons_of_evenings(draw: st.DrawFn) -> tuple[Season, list[Evening]]:
    count = draw(st.integers(1, 6))
    evenings = []
    for week in range(count):
        players = draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=len(NAMES)))
        scores = [(name, draw(st.integers(0, 12))) for name in players]
        evenings.append(_evening(week, *scores))
    rule = draw(st.sampled_from(list(Rule)))
    numbers = {}
    if rule is Rule.BEST:
        numbers["best"] = draw(st.integers(1, count))
    if rule is Rule.AVERAGE:
        numbers["min_evenings"] = draw(st.integers(1, count))
    return _season(rule.value, evenings=count, **numbers), evenings


@settings(max_examples=150, deadline=None)
@given(seasons_of_evenings())
def test_places_are_one_to_n_with_ties_shared(case: tuple[Season, list[Evening]]) -> None:
    season, evenings = case
    rows = [r for r in season_table(season, evenings).rows if r.place is not None]
    places = [r.place for r in rows if r.place is not None]
    for i, place in enumerate(places):
        # a place is its row's number, or the place above it where the two are equal
        assert place == i + 1 or (
            i and place == places[i - 1] and rows[i - 1].total == rows[i].total
        )
        if i:
            assert rows[i - 1].total >= rows[i].total


@settings(max_examples=150, deadline=None)
@given(seasons_of_evenings())
def test_best_n_drops_exactly_the_evenings_over_n(case: tuple[Season, list[Evening]]) -> None:
    season, evenings = case
    for row in season_table(season, evenings).rows:
        extra = row.played - season.best if season.best is not None else 0
        assert len(row.dropped) == max(extra, 0)


@settings(max_examples=150, deadline=None)
@given(seasons_of_evenings())
def test_a_total_is_the_sum_of_its_kept_cells(case: tuple[Season, list[Evening]]) -> None:
    season, evenings = case
    for row in season_table(season, evenings).rows:
        kept = [c for i, c in enumerate(row.cells) if c is not None and i not in row.dropped]
        expected = sum(kept, Fraction(0))
        if season.rule is Rule.AVERAGE:
            expected /= row.played
        assert row.total == expected


def test_a_season_of_40_evenings_is_worked_out_in_well_under_a_second() -> None:
    names = [f"Player {n}" for n in range(24)]

    def evening(week: int) -> Evening:
        placings = tuple(
            Placing(
                name=names[(week + i) % 24],
                tournament_points=Fraction((i * 7 + week) % 13),
                place=i + 1,
            )
            for i in range(16)
        )
        return Evening(key=str(week), date=DAY + datetime.timedelta(weeks=week), placings=placings)

    season = _season("best", best=30, evenings=40)
    started = time.perf_counter()
    table = season_table(season, [evening(week) for week in range(40)])
    assert len(table.rows) == 24 and time.perf_counter() - started < 0.5


# -- a day of ordinary club games -------------------------------------------------------------


def _game(*seats: tuple[str, int], rounds: int = 7, high_wins: bool = False) -> PlayedGame:
    return PlayedGame(
        names=tuple(n for n, _ in seats),
        totals=tuple(t for _, t in seats),
        rounds=rounds,
        high_wins=high_wins,
    )


def _points(evening: Evening) -> dict[str, tuple[Fraction, int]]:
    return {p.name: (p.tournament_points, p.place) for p in evening.placings}


def test_a_day_of_club_games_scores_each_game_as_a_club_nights_table() -> None:
    """By hand: at four 5-3-2-1, at two 3-1, the bonus 3/2/1 for at most 10/20/30 points left
    a round (7 rounds: at most 70/140/210 in all); the day's places by the sum."""
    four = _game(("Ann", 35), ("Bo", 105), ("Cy", 175), ("Di", 350))  # 8, 5, 3, 1
    two = _game(("Di", 70), ("Bo", 71))  # Di 3 + 3 = 6, Bo 1 + 2 = 3
    day = day_of_games("games-2026-09-05", DAY, [four, two])
    assert day.key == "games-2026-09-05" and day.date == DAY
    assert _points(day) == {
        "Ann": (Fraction(8), 1),
        "Bo": (Fraction(8), 1),  # 5 + 3: shares the day's first place
        "Di": (Fraction(7), 3),
        "Cy": (Fraction(3), 4),
    }


def test_a_day_of_games_shares_equal_places_and_gives_no_bonus_where_the_winner_collects() -> None:
    tied = _game(("Ann", 35), ("Bo", 35), ("Cy", 300))  # (4 + 2) / 2 = 3 each, + 3
    collect = _game(("Ed", 500), ("Flo", 200), ("Gus", 200), high_wins=True)  # 4, 1.5, 1.5
    day = _points(day_of_games("d", DAY, [tied, collect]))
    assert day["Ann"] == day["Bo"] == (Fraction(6), 1)
    assert day["Ed"] == (Fraction(4), 3)
    assert day["Flo"] == day["Gus"] == (Fraction(3, 2), 4)
    assert day["Cy"] == (Fraction(1), 6)  # 1 + no bonus (300 in 7 rounds)


def test_eight_at_one_game_score_9_then_7_down_to_1() -> None:
    seats = [(f"P{i}", 100 * i) for i in range(8)]  # one round: only P0 (0 left) has a bonus
    day = _points(day_of_games("d", DAY, [_game(*seats, rounds=1)]))
    assert [day[f"P{i}"][0] for i in range(8)] == [9 + 3, 7, 6, 5, 4, 3, 2, 1]


def test_a_season_counting_club_games_takes_a_day_as_an_evening() -> None:
    season = _season("best", best=1, club_games=True, evenings=2)
    assert season.club_games is True
    night = _evening(1, ("Ann", 5), ("Bo", 3))
    games = day_of_games("g", DAY + datetime.timedelta(days=9), [_game(("Bo", 35), ("Ann", 80))])
    table = season_table(season, [night, games])
    rows = {row.name: row for row in table.rows}
    assert rows["Bo"].total == 6 and rows["Bo"].dropped == (0,)  # the day's 3 + 3 is best
    assert rows["Ann"].total == 5 and rows["Ann"].dropped == (1,)


def test_club_games_must_be_a_boolean_and_a_season_of_nothing_says_so() -> None:
    with pytest.raises(SeasonRefused) as refused:
        _season(club_games="yes")
    assert [r.code for r in refused.value.reasons] == ["bad_input"]
    with pytest.raises(SeasonRefused) as empty:
        _season(club_games=True, evenings=0)
    assert [r.code for r in empty.value.reasons] == ["season_without_results"]


@given(
    st.lists(
        st.lists(st.integers(0, 600), min_size=2, max_size=8).map(
            lambda totals: _game(*((f"P{i}", t) for i, t in enumerate(totals)))
        ),
        min_size=1,
        max_size=6,
    )
)
@settings(max_examples=60, deadline=None)
def test_a_days_places_follow_its_sums_and_no_points_are_negative(
    games: list[PlayedGame],
) -> None:
    day = day_of_games("d", DAY, games)
    players = {name for game in games for name in game.names}
    assert {p.name for p in day.placings} == players
    for placing in day.placings:
        assert placing.tournament_points >= 0
        above = sum(o.tournament_points > placing.tournament_points for o in day.placings)
        assert placing.place == 1 + above


def test_a_season_counting_games_spans_a_year_at_most_and_its_days_are_not_club_nights() -> None:
    """A day of games is a column for best N and the minimum, not one of the 120 club nights a
    season counts; a season that counts games may span 366 days, no more."""
    year = DAY + datetime.timedelta(days=365)
    season = Season.create(name="S", starts=DAY, ends=year, rule="best", best=300,
                           club_games=True, evenings=100, game_days=300)  # fmt: skip
    assert season.best == 300
    with pytest.raises(SeasonRefused) as refused:
        Season.create(name="S", starts=DAY, ends=year + datetime.timedelta(days=1), rule="sum",
                      club_games=True, evenings=1)  # fmt: skip
    assert _codes(refused) == ["season_too_long_for_games"]
    with pytest.raises(SeasonRefused) as many:
        Season.create(name="S", starts=DAY, ends=year, rule="sum", evenings=121, game_days=5,
                      club_games=True)  # fmt: skip
    assert _codes(many) == ["too_many_season_evenings"]
    # Days of games count only when the season counts games.
    with pytest.raises(SeasonRefused) as nothing:
        Season.create(name="S", starts=DAY, ends=DAY, rule="sum", evenings=0, game_days=3)
    assert _codes(nothing) == ["season_without_evenings"]
