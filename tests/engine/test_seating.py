"""Seating a club night (`referee.engine.seating`): table sizes for every count, the rule as
data, the draws (random, by standings, greedy, mix) and the repeats they leave."""

from __future__ import annotations

import itertools
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.seating import (
    LARGEST_TABLE,
    MAX_PLAYERS,
    SMALLEST_TABLE,
    Extra,
    Search,
    TableSize,
    evening_repeats,
    greedy_draw,
    meetings_of,
    mix_draw,
    random_draw,
    repeats_of,
    split_reasons,
    split_rule,
    standings_draw,
    table_sizes,
)

NAMES = [f"P{i:02}" for i in range(60)]
EVERY_SIZE = [
    TableSize(preferred=p, smallest=lo, largest=hi)
    for lo, p, hi in itertools.product(range(3, 6), repeat=3)
    if lo <= p <= hi
]


def splits(players: int, size: TableSize) -> list[tuple[int, ...]]:
    """Every multiset of allowed sizes that adds up to `players` (by brute force)."""
    allowed = range(size.smallest, size.largest + 1)
    out = []
    for tables in range(1, players // size.smallest + 1):
        for combo in itertools.combinations_with_replacement(allowed, tables):
            if sum(combo) == players:
                out.append(combo)
    return out


# -- table sizes -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(3, 61))
def test_tables_of_4_and_a_table_of_5_or_tables_of_3_where_the_count_needs_it(players: int) -> None:
    sizes = table_sizes(players, TableSize())
    fours, over = divmod(players, 4)
    expected = {
        0: (4,) * fours,
        1: (4,) * (fours - 1) + (5,),  # one over: a table of 5
        2: (4,) * (fours - 1) + (3, 3),  # two over: two tables of 3
        3: (4,) * fours + (3,),  # three over: a table of 3
    }[over]
    assert sizes == expected and sum(expected) == players


def test_a_handful_of_players_sit_at_one_or_two_small_tables() -> None:
    size = TableSize()
    assert [table_sizes(n, size) for n in range(1, 8)] == [
        None, None, (3,), (4,), (5,), (3, 3), (4, 3),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "size", EVERY_SIZE, ids=lambda s: f"{s.smallest}-{s.preferred}-{s.largest}"
)
def test_every_split_is_the_best_one_the_limits_allow(size: TableSize) -> None:
    for players in range(1, 41):
        sizes = table_sizes(players, size)
        possible = splits(players, size)
        if sizes is None:
            assert possible == [], players
            assert split_reasons(players, size)
            continue
        assert sum(sizes) == players
        assert all(size.smallest <= s <= size.largest for s in sizes)
        assert split_reasons(players, size) == []
        most = max(combo.count(size.preferred) for combo in possible)
        assert sizes.count(size.preferred) == most, players
        # The preferred tables come first, then the others largest first.
        assert list(sizes) == sorted(sizes, key=lambda s: (s != size.preferred, -s))


def test_counts_that_cannot_be_split_say_why() -> None:
    size = TableSize(preferred=4, smallest=4, largest=5)
    (few,) = split_reasons(2, TableSize())
    assert (few.code, dict(few.params)) == ("too_few_players", {"players": 2, "min": 3})
    (odd,) = split_reasons(7, size)
    assert (odd.code, dict(odd.params)) == (
        "players_cannot_be_split",
        {"players": 7, "smallest": 4, "largest": 5},
    )
    (many,) = split_reasons(MAX_PLAYERS + 1, TableSize())
    assert many.code == "too_many_players"


def test_the_split_rule_is_data_the_page_can_word() -> None:
    rule = split_rule(TableSize())
    assert (rule.preferred, rule.smallest, rule.largest) == (4, 3, 5)
    assert rule.extras == (Extra(1, (5,)), Extra(2, (3, 3)), Extra(3, (3,)))
    assert rule.impossible == (1, 2)
    strict = split_rule(TableSize(preferred=4, smallest=4, largest=5))
    assert strict.extras == (Extra(1, (5,)), Extra(2, (5, 5)), Extra(3, (5, 5, 5)))
    assert strict.impossible == (1, 2, 3, 6, 7, 11)
    only_fours = split_rule(TableSize(preferred=4, smallest=4, largest=4))
    assert only_fours.extras == (Extra(1, None), Extra(2, None), Extra(3, None))


def test_table_sizes_outside_3_to_5_or_out_of_order_are_refused() -> None:
    assert [r.code for r in TableSize(preferred=2, smallest=2, largest=9).reasons()] == [
        "bad_table_size"
    ] * 3
    assert [r.code for r in TableSize(preferred=5, largest=4).reasons()] == [
        "table_sizes_out_of_order"
    ]
    assert TableSize().reasons() == [] and (SMALLEST_TABLE, LARGEST_TABLE) == (3, 5)


# -- meetings and repeats --------------------------------------------------------------------


def test_repeats_count_each_meeting_after_the_first() -> None:
    first = (("A", "B", "C"), ("D", "E", "F"))
    second = (("A", "B", "D"), ("C", "E", "F"))
    third = (("A", "B", "E"), ("C", "D", "F"))
    assert meetings_of([first, second])[frozenset(("A", "B"))] == 2
    assert repeats_of(second, [first]) == 2  # A-B, E-F
    assert repeats_of(third, [first, second]) == 3  # A-B again, C-F (second), D-F (first)
    # Over the evening: A-B three times (2 repeats), E-F, C-F and D-F twice each.
    assert evening_repeats([first, second, third]) == 2 + 1 + 1 + 1


# -- the draws -------------------------------------------------------------------------------


def test_a_random_draw_is_the_seeds_and_seats_everyone_once() -> None:
    players, sizes = NAMES[:17], (4, 4, 4, 5)
    drawn = random_draw(players, sizes, 99)
    assert drawn == random_draw(players, sizes, 99) != random_draw(players, sizes, 100)
    assert [len(t) for t in drawn] == [4, 4, 4, 5]
    assert sorted(name for t in drawn for name in t) == sorted(players)


def test_a_standings_draw_seats_the_ranks_in_order() -> None:
    ranked = NAMES[:11]
    assert standings_draw(ranked, (4, 4, 3)) == (
        tuple(ranked[:4]),
        tuple(ranked[4:8]),
        tuple(ranked[8:]),
    )


def test_a_draw_refuses_players_the_tables_do_not_add_up_to() -> None:
    with pytest.raises(ValueError):
        random_draw(NAMES[:5], (4, 4), 1)
    with pytest.raises(ValueError):
        mix_draw(["A", "A", "B"], (3,), [], 1)


def test_the_mix_draw_leaves_no_repeat_where_none_is_needed() -> None:
    players = NAMES[:32]
    past = [random_draw(players, (4,) * 8, 5)]
    assert repeats_of(mix_draw(players, (4,) * 8, past, 6), past) == 0
    assert repeats_of(greedy_draw(players, (4,) * 8, past, 6), past) >= 0


def test_the_mix_draw_is_never_worse_than_the_greedy_draw_it_starts_from() -> None:
    # With no series ahead it searches from the greedy draw of its seed: whatever its budget
    # (a small one here, so the test stays quick where no draw is free of repeats), it keeps
    # the best seating it saw.
    short = Search(steps=4_000)
    for players in (9, 13, 16, 17, 21):
        names = NAMES[:players]
        sizes = table_sizes(players, TableSize())
        assert sizes is not None
        for seed in range(4):
            past = [random_draw(names, sizes, seed)]
            for later in range(2, 6):
                mixed = mix_draw(names, sizes, past, seed * 7 + later, preferred=4, search=short)
                greedy = greedy_draw(names, sizes, past, seed * 7 + later, preferred=4)
                assert repeats_of(mixed, past) <= repeats_of(greedy, past)
                past.append(mixed)


@pytest.mark.parametrize("players", [16, 20, 24, 28, 32])
def test_over_4_series_the_mix_draw_repeats_no_more_than_the_greedy_draw(players: int) -> None:
    names, sizes = NAMES[:players], (4,) * (players // 4)
    totals: dict[str, list[int]] = {"mix": [], "greedy": []}
    for seed in range(12):
        for kind, draw in (("mix", mix_draw), ("greedy", greedy_draw)):
            past = [random_draw(names, sizes, seed)]
            for series in range(2, 5):
                ahead = {"ahead": 4 - series} if draw is mix_draw else {}
                past.append(draw(names, sizes, past, 1000 * seed + series, preferred=4, **ahead))
            totals[kind].append(evening_repeats(past))
    assert statistics.mean(totals["mix"]) <= statistics.mean(totals["greedy"])
    assert max(totals["mix"]) <= max(totals["greedy"])
    assert statistics.mean(totals["mix"]) < statistics.mean(totals["greedy"])  # and it helps


@pytest.mark.parametrize("players", [18, 19, 22, 23])
def test_the_mix_draw_spreads_the_small_tables_over_the_evening(players: int) -> None:
    # 19 players: one table of 3 a series, 12 seats at it over 4 series for 19 players: a
    # fair share is one each. Nobody sits at a table of 3 more than once beyond a fair share.
    names = NAMES[:players]
    sizes = table_sizes(players, TableSize())
    assert sizes is not None
    fair = -(-4 * sum(s for s in sizes if s == 3) // players)
    for seed in range(4):
        past = [random_draw(names, sizes, seed)]
        for series in range(2, 5):
            past.append(mix_draw(names, sizes, past, seed + series, preferred=4, ahead=4 - series))
        small = [name for tables in past for t in tables if len(t) == 3 for name in t]
        assert max(small.count(name) for name in small) <= fair + 1
        assert evening_repeats(past) == 0


def test_17_players_at_one_table_of_5_repeat_once_a_series_at_least() -> None:
    # Tables 4+4+4+5 drawn from 4+4+4+5 without a repeat would put at most one player of each
    # earlier table at each table; the table of 5 needs a fifth, so it always holds a pair that
    # met. One a series is the least, and then the pigeonhole makes it the same pair each time
    # (the two who sat at every table of 5); the mix draw mostly finds it, greedy never.
    names, sizes = NAMES[:17], (4, 4, 4, 5)
    mixed, greedy = [], []
    for seed in range(6):
        past = [random_draw(names, sizes, seed)]
        blind = list(past)
        for series in range(2, 5):
            past.append(mix_draw(names, sizes, past, seed + series, preferred=4, ahead=4 - series))
            blind.append(greedy_draw(names, sizes, blind, seed + series, preferred=4))
            assert repeats_of(past[-1], past[:-1]) >= 1
        mixed.append(evening_repeats(past))
        greedy.append(evening_repeats(blind))
    assert min(mixed) == 3 and max(mixed) <= 5 < 10 <= min(greedy)


def test_the_search_stops_where_its_budget_says() -> None:
    names, sizes = NAMES[:16], (4, 4, 4, 4)
    past = [random_draw(names, sizes, 1), random_draw(names, sizes, 2)]
    # No steps at all: the greedy draw itself.
    assert repeats_of(mix_draw(names, sizes, past, 3, search=Search(steps=0)), past) == repeats_of(
        greedy_draw(names, sizes, past, 3), past
    )


@settings(max_examples=80, deadline=None)
@given(
    players=st.integers(min_value=3, max_value=60),
    size=st.sampled_from(EVERY_SIZE),
    seed=st.integers(min_value=0, max_value=999_999),
    history=st.integers(min_value=0, max_value=3),
)
def test_every_draw_seats_each_player_once_at_tables_within_the_limits(
    players: int, size: TableSize, seed: int, history: int
) -> None:
    sizes = table_sizes(players, size)
    if sizes is None:
        return
    names = NAMES[:players]
    past = [random_draw(names, sizes, seed + n) for n in range(history)]
    for drawn in (
        random_draw(names, sizes, seed),
        standings_draw(names, sizes),
        greedy_draw(names, sizes, past, seed, preferred=size.preferred),
        mix_draw(names, sizes, past, seed, preferred=size.preferred),
    ):
        assert sorted(name for table in drawn for name in table) == sorted(names)
        assert tuple(len(table) for table in drawn) == sizes
        assert all(size.smallest <= len(table) <= size.largest for table in drawn)
