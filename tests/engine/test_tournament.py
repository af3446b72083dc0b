"""Tournament points (`referee.engine.tournament`): the presets, shared places, the bonus for
few points left, reading a scheme, and how the board ranks equal players."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.errors import EventRefused
from referee.engine.tournament import (
    PLACEMENT,
    POINTS_ONLY,
    ROMME,
    SCHEMES,
    BonusBand,
    Criterion,
    RankBy,
    Scheme,
    TableScore,
    rank,
    read_scheme,
    score_table,
)


def table(
    scheme: Scheme, totals: list[int], *, rounds: int = 7, high_wins: bool = False
) -> list[tuple[int, Fraction | int, int]]:
    names = [f"P{i}" for i in range(len(totals))]
    scores = score_table(
        scheme,
        series=1,
        table=1,
        names=names,
        totals=totals,
        rounds=rounds,
        high_wins=high_wins,
        finished=True,
    )
    return [(s.place, s.place_points, s.bonus) for s in scores]


# -- the presets -----------------------------------------------------------------------------


def test_the_romme_scheme_gives_a_point_a_player_beaten_one_for_playing_one_for_the_win() -> None:
    assert dict(ROMME.place_points) == {3: (4, 2, 1), 4: (5, 3, 2, 1), 5: (6, 4, 3, 2, 1)}
    assert ROMME.bonus == (BonusBand(10, 3), BonusBand(20, 2), BonusBand(30, 1))


def test_the_placement_scheme_is_even_steps_around_nought() -> None:
    assert dict(PLACEMENT.place_points) == {3: (2, 0, -2), 4: (3, 1, -1, -3), 5: (4, 2, 0, -2, -4)}
    assert all(sum(points) == 0 for points in PLACEMENT.place_points.values())
    assert PLACEMENT.bonus == ()


def test_presets_are_found_by_id() -> None:
    assert set(SCHEMES) == {"romme", "placement", "points"}
    assert read_scheme(" Romme ") is ROMME and read_scheme(PLACEMENT) is PLACEMENT
    with pytest.raises(EventRefused) as caught:
        read_scheme("bridge")
    assert caught.value.code == "unknown_scheme"


# -- a table's points ------------------------------------------------------------------------


def test_a_table_of_4_scores_by_place_and_by_points_left_a_round() -> None:
    # 7 rounds: a bonus of 3 for at most 70 left, 2 for at most 140, 1 for at most 210.
    assert table(ROMME, [35, 150, 70, 300]) == [
        (1, 5, 3),
        (3, 2, 1),
        (2, 3, 3),
        (4, 1, 0),
    ]


def test_shared_places_split_their_points() -> None:
    # Two first at a table of 4 share 5 + 3; three last at a table of 5 share 3 + 2 + 1.
    assert table(ROMME, [20, 20, 60, 90]) == [(1, 4, 3), (1, 4, 3), (3, 2, 3), (4, 1, 2)]
    five = table(ROMME, [10, 20, 50, 50, 50], rounds=2)
    assert [points for _, points, _ in five] == [6, 4, 2, 2, 2]
    halves = table(ROMME, [10, 30, 30, 40], rounds=2)
    assert [points for _, points, _ in halves] == [5, Fraction(5, 2), Fraction(5, 2), 1]
    all_level = table(PLACEMENT, [40, 40, 40])
    assert [points for _, points, _ in all_level] == [0, 0, 0]


def test_where_the_winner_collects_the_highest_total_places_first_and_no_bonus() -> None:
    assert table(ROMME, [100, 35, 0], high_wins=True) == [(1, 4, 0), (2, 2, 0), (3, 1, 0)]


def test_the_points_only_scheme_gives_no_tournament_points() -> None:
    assert table(POINTS_ONLY, [10, 20, 30, 40]) == [(1, 0, 0), (2, 0, 0), (3, 0, 0), (4, 0, 0)]


@settings(max_examples=200, deadline=None)
@given(
    totals=st.lists(st.integers(min_value=0, max_value=400), min_size=3, max_size=5),
    high_wins=st.booleans(),
)
def test_shared_places_hand_out_exactly_the_tables_points(
    totals: list[int], high_wins: bool
) -> None:
    for scheme in SCHEMES.values():
        scored = table(scheme, totals, high_wins=high_wins)
        assert sum(points for _, points, _ in scored) == sum(scheme.place_points[len(totals)])
        # A better total never scores fewer place points.
        order = sorted(range(len(totals)), key=lambda i: totals[i], reverse=high_wins)
        points = [scored[i][1] for i in order]
        assert points == sorted(points, reverse=True)


# -- reading a custom scheme ------------------------------------------------------------------


def test_a_custom_scheme_is_read_and_survives_json() -> None:
    data = {
        "place_points": {"3": [3, 1, 0], "4": [4, 2, 1, 0], "5": [5, 3, 2, 1, 0]},
        "bonus": [{"per_round": 5, "points": 2}, {"per_round": 15, "points": 1}],
        "tie_breaks": ["tables_won", "points"],
    }
    scheme = read_scheme(data)
    assert scheme.id == "custom" and scheme.place_points[4] == (4, 2, 1, 0)
    assert scheme.tie_breaks == (Criterion.TABLES_WON, Criterion.POINTS)
    assert read_scheme(scheme.to_json()) == scheme
    assert read_scheme(ROMME.to_json()) is ROMME


def test_a_custom_scheme_is_refused_with_every_reason() -> None:
    with pytest.raises(EventRefused) as caught:
        read_scheme(
            {
                "place_points": {"3": [1, 2, 3], "4": [4, 2, 1], "5": [5, 3, 2, 1, True]},
                "bonus": [{"per_round": 20, "points": 1}, {"per_round": 10, "points": 2}],
                "tie_breaks": ["height"],
            }
        )
    assert [(r.code, r.field) for r in caught.value.reasons] == [
        ("place_points_not_descending", "scheme.place_points.3"),
        ("bad_place_points", "scheme.place_points.4"),
        ("bad_place_points", "scheme.place_points.5"),
        ("bonus_not_descending", "scheme.bonus"),
        ("bad_tie_breaks", "scheme.tie_breaks"),
    ]
    with pytest.raises(EventRefused) as caught:
        read_scheme({"place_points": "5-3-2-1"})
    assert caught.value.code == "bad_input"


# -- ranking ---------------------------------------------------------------------------------


def score(name: str, tp: int, points: int, rounds: int, place: int = 2) -> TableScore:
    return TableScore(
        series=1,
        table=1,
        name=name,
        seats=4,
        place=place,
        points=points,
        rounds=rounds,
        place_points=Fraction(tp),
        bonus=0,
        finished=True,
    )


def test_equal_tournament_points_go_to_fewer_points_a_round_then_more_tables_won() -> None:
    scores = [
        score("Ann", 8, 60, 4),
        score("Bo", 8, 40, 4),  # fewer points a round than Ann
        score("Cy", 8, 40, 4, place=1),  # as Bo, and won the table
        score("Di", 9, 300, 4),
        score("Ed", 8, 60, 4),  # level with Ann all the way: they share the place
    ]
    board = rank(
        scores,
        ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"],
        scheme=ROMME,
        high_wins=False,
        present=["Flo"],
    )
    assert [(r.place, r.name) for r in board.rows] == [
        (1, "Di"), (2, "Cy"), (3, "Bo"), (4, "Ann"), (4, "Ed"), (6, "Flo"),
    ]  # fmt: skip
    flo = board.rows[-1]
    assert (flo.rounds, flo.points_per_round, flo.present) == (0, None, True)


def test_the_raw_board_ranks_by_points_a_round_first() -> None:
    scores = [score("Ann", 8, 60, 4), score("Bo", 2, 20, 4), score("Cy", 5, 20, 4)]
    board = rank(scores, ["Ann", "Bo", "Cy"], scheme=ROMME, by=RankBy.POINTS, high_wins=False)
    assert [r.name for r in board.rows] == ["Cy", "Bo", "Ann"]
    collected = rank(scores, ["Ann", "Bo", "Cy"], scheme=ROMME, by=RankBy.POINTS, high_wins=True)
    assert [r.name for r in collected.rows] == ["Ann", "Cy", "Bo"]


def test_the_ranking_is_data_for_the_page_to_say() -> None:
    assert ROMME.ranking() == (
        Criterion.TOURNAMENT_POINTS,
        Criterion.POINTS_PER_ROUND,
        Criterion.TABLES_WON,
    )
    assert ROMME.ranking(RankBy.POINTS) == (
        Criterion.POINTS_PER_ROUND,
        Criterion.TOURNAMENT_POINTS,
        Criterion.TABLES_WON,
    )
