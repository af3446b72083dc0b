"""A club's season (referee.engine.seasons): the three rules, ties, dropped evenings, movement,
and the seasons the engine refuses."""

from __future__ import annotations

import datetime
import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.seasons import (
    Evening,
    Placing,
    Rule,
    Season,
    SeasonRefused,
    season_table,
)

DAY = datetime.date(2026, 9, 1)


def _season(rule: str = "sum", *, evenings: int = 4, **numbers: int) -> Season:
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
    numbers: dict[str, object], evenings: int, code: str
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
