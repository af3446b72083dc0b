"""A club night as the engine keeps it (`referee.engine.events`): creating one, check-in, late
arrivals and leavers, drawing, withdrawing and starting series, the host's swap, the tables'
games and results, and an evening of 17 players worked out by hand. No Flask here."""

from __future__ import annotations

import datetime
import itertools
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.errors import ERROR_CODES, EVENT_CODES, GAME_CODES, EventRefused, GameRefused
from referee.engine.events import (
    MAX_EVENT_NAME,
    MAX_SEED,
    MAX_SERIES,
    Event,
    TableResult,
)
from referee.engine.game import Game, SeatResult
from referee.engine.seating import MAX_PLAYERS, DrawMethod, TableSize
from referee.engine.tournament import PLACEMENT, Criterion, RankBy

DAY = datetime.date(2025, 3, 7)
NAMES = [
    "Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lu", "Max", "Ned",
    "Ola", "Pia", "Quin",
]  # fmt: skip
OUT = SeatResult(went_out=True)


def evening(players: list[str] | None = None, **settings: Any) -> Event:
    options: dict[str, Any] = {"variant": "contract", "series": 3, "series_rounds": 2, "seed": 2024}
    event = Event.create(name="Club night", date=DAY, **(options | settings))
    for name in NAMES if players is None else players:
        event = event.check_in(name)
    return event


def reasons_of(caught: pytest.ExceptionInfo[EventRefused]) -> list[tuple[str, str | None]]:
    return [(r.code, r.field) for r in caught.value.reasons]


Script = dict[int, list[tuple[int, dict[int, int]]]]


def play(event: Event, number: int, script: Script) -> Event:
    """Every table of series `number` plays its rounds on its own game (a round: the seat
    that went out, and every other seat's penalty), its result filed from the game."""
    for table in event.series[number - 1].tables:
        game = Game.start("contract", table.seats)
        for n, (out, penalties) in enumerate(script[table.number], start=1):
            results = [
                OUT if seat == out else SeatResult(penalty=penalties[seat])
                for seat in range(len(table.seats))
            ]
            game = game.enter_round(n, results).game
        event = event.record_result(
            number, table.number, event.result_of_game(number, table.number, game)
        )
    return event


def finish_blind(event: Event, number: int) -> Event:
    """Every table of the series finished with totals in seat order (10, 20, 30, ...)."""
    for table in event.series[number - 1].tables:
        totals = tuple(10 * (seat + 1) for seat in range(len(table.seats)))
        event = event.record_result(
            number, table.number, TableResult(totals=totals, rounds=2, finished=True)
        )
    return event


# -- creating an evening ---------------------------------------------------------------------


def test_an_event_keeps_its_settings_and_starts_empty() -> None:
    event = Event.create(
        name="  Friday   club ",
        date=DAY,
        variant="shanghai",
        house_rules={"buy_limit": 2},
        series=4,
        table_size=TableSize(preferred=4, smallest=3, largest=5),
        series_rounds=3,
        scheme="placement",
        later_draws="standings",
        seed=7,
    )
    assert (event.name, event.variant.id, event.variant.buy_limit) == ("Friday club", "shanghai", 2)
    assert (event.series_count, event.series_rounds, event.scheme, event.seed) == (
        4,
        3,
        PLACEMENT,
        7,
    )
    assert event.later_draws is DrawMethod.STANDINGS
    assert event.players == () and event.series == () and event.version == 1
    assert event.next_series == 1 and not event.finished and not event.high_wins


def test_creating_refuses_every_bad_setting_at_once() -> None:
    with pytest.raises(EventRefused) as caught:
        Event.create(
            name=" ",
            date="2025-03-07",  # type: ignore[arg-type]
            variant="poker",
            series=0,
            table_size=TableSize(preferred=9, smallest=2, largest=5),
            series_rounds=0,
            scheme="bridge",
            later_draws="shuffle",
            seed=MAX_SEED + 1,
        )
    assert reasons_of(caught) == [
        ("empty_name", "name"),
        ("bad_input", "date"),
        ("unknown_variant", "variant"),
        ("bad_series_count", "series"),
        ("bad_table_size", "table_size.preferred"),
        ("bad_table_size", "table_size.smallest"),
        ("bad_series_rounds", "series_rounds"),
        ("unknown_scheme", "scheme"),
        ("unknown_draw_method", "later_draws"),
        ("bad_seed", "seed"),
    ]
    # Every refusal is a game refusal too: the web layer answers both alike.
    assert isinstance(caught.value, GameRefused) and caught.value.code == "empty_name"


def test_a_table_size_of_2_or_9_is_refused_with_its_bounds() -> None:
    for size in (2, 9):
        with pytest.raises(EventRefused) as caught:
            Event.create(
                name="x", date=DAY, variant="contract", table_size=TableSize(preferred=size), seed=1
            )
        (refused,) = caught.value.reasons
        assert (refused.code, dict(refused.params)) == (
            "bad_table_size",
            {"size": size, "min": 3, "max": 5},
        )


def test_table_sizes_must_be_in_order_and_allowed_by_the_variant() -> None:
    with pytest.raises(EventRefused) as caught:
        Event.create(
            name="x",
            date=DAY,
            variant="contract",
            table_size=TableSize(preferred=3, smallest=4),
            seed=1,
        )
    assert reasons_of(caught) == [("table_sizes_out_of_order", "table_size")]
    with pytest.raises(EventRefused) as caught:
        Event.create(name="x", date=DAY, variant="contract", house_rules={"max_players": 4}, seed=1)
    assert reasons_of(caught) == [("table_size_not_in_variant", "table_size.largest")]


def test_a_series_of_rounds_fits_the_variant() -> None:
    # Contract rummy has 7 rounds: a series of 8 cannot be.
    with pytest.raises(EventRefused) as caught:
        Event.create(name="x", date=DAY, variant="contract", series_rounds=8, seed=1)
    assert caught.value.params == {"rounds": 8, "max": 7}
    assert (
        Event.create(name="x", date=DAY, variant="rummy", series_rounds=20, seed=1).series_rounds
        == 20
    )


def test_a_long_event_name_and_too_many_series_are_refused() -> None:
    with pytest.raises(EventRefused) as caught:
        Event.create(
            name="x" * (MAX_EVENT_NAME + 1),
            date=DAY,
            variant="contract",
            series=MAX_SERIES + 1,
            seed=1,
        )
    assert reasons_of(caught) == [("name_too_long", "name"), ("bad_series_count", "series")]


# -- check-in, late arrivals, leavers --------------------------------------------------------


def test_players_checked_in_before_the_first_draw_play_from_series_1() -> None:
    event = evening(["Ann", " bo "])
    assert [(p.name, p.joined, p.left) for p in event.players] == [
        ("Ann", 1, None),
        ("bo", 1, None),
    ]
    assert event.pool(1) == ("Ann", "bo")


def test_checking_in_twice_or_without_a_name_is_refused() -> None:
    event = evening(["Ann"])
    with pytest.raises(EventRefused) as caught:
        event.check_in("ANN")
    assert reasons_of(caught) == [("already_checked_in", "name")]
    with pytest.raises(EventRefused) as caught:
        event.check_in("\u200b")
    assert reasons_of(caught) == [("empty_name", "name")]
    assert not event.can_check_in("ann") and event.can_check_in("Bo")


def test_a_late_arrival_joins_from_the_next_series_not_yet_drawn() -> None:
    event = evening().draw_series(1).check_in("Rex")
    rex = event.player("rex")
    assert rex is not None and rex.joined == 2
    assert "Rex" not in event.pool(1) and "Rex" in event.pool(2)
    assert event.series[0].table_of("Rex") is None


def test_a_late_arrival_is_seated_when_the_unstarted_draw_is_withdrawn_and_drawn_again() -> None:
    event = evening().draw_series(1)
    before = event.series[0]
    again = event.withdraw_series(1).check_in("Rex").draw_series(1)
    assert again.series[0].table_of("Rex") is not None
    assert before.seed == again.series[0].seed  # the same seed, one more player


def test_a_leaver_is_out_of_later_draws_and_keeps_what_they_scored() -> None:
    event = finish_blind(evening().draw_series(1).start_series(1), 1).leave("Gus")
    gus = event.player("Gus")
    assert gus is not None and (gus.left, gus.present) == (2, False)
    assert "Gus" in event.pool(1) and "Gus" not in event.pool(2)
    event = event.draw_series(2)
    assert event.series[1].table_of("Gus") is None
    row = event.standings().row_of("Gus")
    assert row is not None and row.series_played == 1 and row.tournament_points > 0
    assert not row.present


def test_leaving_is_refused_while_seated_in_a_series_drawn_but_not_started() -> None:
    event = evening().draw_series(1)
    with pytest.raises(EventRefused) as caught:
        event.leave("Gus")
    assert reasons_of(caught) == [("seated_in_next_series", "name")]
    assert caught.value.params["series"] == 1
    # Once the series plays, leaving means leaving after it.
    assert event.start_series(1).leave("Gus").player("Gus").left == 2  # type: ignore[union-attr]


def test_leaving_twice_or_as_a_stranger_is_refused() -> None:
    event = evening().leave("Gus")
    assert reasons_of_call(lambda: event.leave("gus")) == [("already_left", "name")]
    assert reasons_of_call(lambda: event.leave("Zed")) == [("unknown_player", "name")]
    assert reasons_of_call(lambda: event.leave(42)) == [("unknown_player", "name")]  # type: ignore[arg-type]


def test_a_player_who_left_can_come_back_from_the_next_series() -> None:
    event = finish_blind(evening().draw_series(1).start_series(1), 1).leave("Gus")
    event = finish_blind(event.draw_series(2).start_series(2), 2).check_in("gus")
    gus = event.player("Gus")
    assert gus is not None and (gus.joined, gus.left) == (3, None)
    assert "Gus" in event.pool(3) and "Gus" not in event.pool(2)


def test_no_check_in_once_every_series_is_drawn() -> None:
    event = evening(series=1).draw_series(1)
    assert reasons_of_call(lambda: event.check_in("Rex")) == [("no_series_left", "name")]


def test_an_evening_holds_at_most_max_players() -> None:
    event = evening([f"P{i}" for i in range(MAX_PLAYERS)])
    assert reasons_of_call(lambda: event.check_in("One more")) == [("too_many_players", "name")]


def reasons_of_call(call: Any) -> list[tuple[str, str | None]]:
    with pytest.raises(EventRefused) as caught:
        call()
    return reasons_of(caught)


# -- drawing ---------------------------------------------------------------------------------


def test_series_1_is_drawn_at_random_from_a_seed_that_is_kept() -> None:
    event = evening().draw_series(1)
    drawn = event.series[0]
    assert drawn.method is DrawMethod.RANDOM and drawn.seed == event.seed_of(1)
    assert [len(t.seats) for t in drawn.tables] == [4, 4, 4, 5]
    assert all(t.first_dealer == 0 and t.game_id is None and t.result is None for t in drawn.tables)


def test_the_same_seed_draws_the_same_tables_again() -> None:
    first = evening().draw_series(1, seed=4242).series[0]
    again = evening().draw_series(1, seed=4242).series[0]
    other = evening().draw_series(1, seed=4243).series[0]
    assert first.seats == again.seats and first.seed == 4242
    assert first.seats != other.seats


def test_an_events_own_seed_gives_each_series_its_seed() -> None:
    event = evening()
    assert event.seed_of(1) == evening().seed_of(1)
    assert len({event.seed_of(n) for n in range(1, 4)}) == 3
    assert all(0 <= event.seed_of(n) <= MAX_SEED for n in range(1, 13))


def test_a_later_mix_draw_is_reproducible_from_its_seed() -> None:
    base = finish_blind(evening(series=3, later_draws="mix").draw_series(1), 1)
    assert base.draw_series(2).series[1].seats == base.draw_series(2).series[1].seats
    assert base.draw_series(2).series[1].method is DrawMethod.MIX


def test_no_player_sits_at_two_tables_of_a_series() -> None:
    event = finish_blind(evening().draw_series(1), 1).draw_series(2)
    for drawn in event.series:
        seated = [name for table in drawn.tables for name in table.seats]
        assert sorted(seated) == sorted(set(seated)) == sorted(event.pool(drawn.number))


def test_a_series_drawn_twice_at_once_is_refused_the_second_time() -> None:
    # Two phones both saw "draw series 1"; the second arrives after the first was kept.
    event = evening().draw_series(1)
    assert reasons_of_call(lambda: event.draw_series(1)) == [("series_already_drawn", "series")]
    assert reasons_of_call(lambda: event.draw_series(3)) == [("series_out_of_order", "series")]


def test_the_next_series_waits_for_every_table_of_the_last() -> None:
    event = evening().draw_series(1).start_series(1)
    event = event.record_result(1, 2, TableResult(totals=(1, 2, 3, 4), rounds=2, finished=True))
    with pytest.raises(EventRefused) as caught:
        event.draw_series(2)
    assert reasons_of(caught) == [("series_still_playing", "series")]
    assert caught.value.params == {"series": 1, "tables": [1, 3, 4]}


def test_an_event_of_0_players_cannot_draw() -> None:
    with pytest.raises(EventRefused) as caught:
        evening([]).draw_series(1)
    assert reasons_of(caught) == [("too_few_players", "players")]
    assert caught.value.params == {"players": 0, "min": 3}


def test_a_count_the_table_sizes_cannot_split_is_refused() -> None:
    event = evening(
        [f"P{i}" for i in range(7)], table_size=TableSize(preferred=4, smallest=4, largest=5)
    )
    with pytest.raises(EventRefused) as caught:
        event.draw_series(1)
    assert reasons_of(caught) == [("players_cannot_be_split", "players")]
    assert caught.value.params == {"players": 7, "smallest": 4, "largest": 5}


def test_standings_cannot_seat_the_first_series_and_a_bad_seed_is_refused() -> None:
    event = evening()
    with pytest.raises(EventRefused) as caught:
        event.draw_series(1, DrawMethod.STANDINGS, seed=-1)
    assert reasons_of(caught) == [("no_standings_yet", "method"), ("bad_seed", "seed")]


def test_a_draw_method_may_be_given_by_its_value() -> None:
    event = finish_blind(evening().draw_series(1, "random"), 1)
    assert event.draw_series(2, "standings").series[1].method is DrawMethod.STANDINGS
    assert reasons_of_call(lambda: event.draw_series(2, "shuffle")) == [
        ("unknown_draw_method", "method")
    ]


def test_all_series_drawn_ends_the_draws() -> None:
    event = finish_blind(evening(series=1).draw_series(1), 1)
    assert event.next_series is None and event.finished
    assert reasons_of_call(lambda: event.draw_series(2)) == [("all_series_drawn", "series")]


def test_a_standings_draw_puts_the_strongest_together() -> None:
    event = finish_blind(evening(later_draws="standings").draw_series(1), 1).draw_series(2)
    board = event.standings(through=1)
    place = {row.name: row.place for row in board.rows}
    tables = event.series[1].tables
    # Ranks 1–4 at table 1, 5–8 at table 2...: no one at a table ranks below anyone at the next
    # (equal places are drawn by the seed), and each table sits in rank order.
    places = [[place[name] for name in t.seats] for t in tables]
    assert all(max(a) <= min(b) for a, b in itertools.pairwise(places))
    assert all(p == sorted(p) for p in places)


# -- withdrawing, starting, swapping ---------------------------------------------------------


def test_only_the_newest_unstarted_series_can_be_withdrawn() -> None:
    event = evening().draw_series(1)
    assert event.withdraw_series(1).series == ()
    assert reasons_of_call(lambda: event.withdraw_series(2)) == [
        ("not_the_newest_series", "series")
    ]
    started = event.start_series(1)
    assert reasons_of_call(lambda: started.withdraw_series(1)) == [("series_started", "series")]
    assert reasons_of_call(lambda: started.start_series(1)) == [("series_started", "series")]


def test_the_host_swaps_two_players_at_different_tables() -> None:
    event = evening().draw_series(1)
    first, second = event.series[0].tables[0], event.series[0].tables[1]
    a, b = first.seats[1], second.seats[2]
    swapped = event.swap(1, a, b.upper())
    after = swapped.series[0]
    assert after.tables[0].seats[1] == b and after.tables[1].seats[2] == a
    assert after.tables[2:] == event.series[0].tables[2:]
    assert swapped.version == event.version + 1


def test_swaps_are_refused_at_one_table_for_strangers_and_unseated_players() -> None:
    event = evening().draw_series(1).check_in("Rex")
    table = event.series[0].tables[0]
    assert reasons_of_call(lambda: event.swap(1, table.seats[0], table.seats[1])) == [
        ("same_table", "second")
    ]
    assert reasons_of_call(lambda: event.swap(1, "Zed", "Rex")) == [
        ("unknown_player", "first"),
        ("not_seated", "second"),
    ]
    assert reasons_of_call(lambda: event.swap(1, table.seats[0], table.seats[0])) == [
        ("same_player", "second")
    ]
    assert reasons_of_call(lambda: event.swap(2, "Ann", "Bo")) == [("no_such_series", "series")]


def test_no_swap_once_the_series_started() -> None:
    event = evening().draw_series(1)
    a, b = event.series[0].tables[0].seats[0], event.series[0].tables[1].seats[0]
    assert event.can_swap(1, a, b)
    started = event.start_series(1)
    assert not started.can_swap(1, a, b)
    assert reasons_of_call(lambda: started.swap(1, a, b)) == [("series_started", "series")]


# -- the tables' games and results ----------------------------------------------------------


def test_each_table_files_one_game() -> None:
    event = evening().draw_series(1).attach_game(1, 2, "g-123")
    assert event.series[0].tables[1].game_id == "g-123"
    assert event.attach_game(1, 2, "g-123").series == event.series  # the same game again
    assert reasons_of_call(lambda: event.attach_game(1, 2, "g-999")) == [
        ("game_already_attached", "game_id")
    ]
    assert reasons_of_call(lambda: event.attach_game(1, 9, "g-1")) == [("no_such_table", "table")]
    assert reasons_of_call(lambda: event.attach_game(1, 1, "")) == [("bad_input", "game_id")]


def test_a_result_must_fit_its_table() -> None:
    event = evening().draw_series(1)
    bad = TableResult(totals=(1, 2), rounds=3, finished=True)
    assert reasons_of_call(lambda: event.record_result(1, 1, bad)) == [
        ("bad_result", "totals"),
        ("too_many_rounds", "rounds"),
    ]
    empty = TableResult(totals=(0, 0, 0, 0), rounds=0, finished=True)
    assert reasons_of_call(lambda: event.record_result(1, 1, empty)) == [
        ("no_rounds_played", "rounds")
    ]


def test_a_result_starts_its_series_and_a_corrected_game_replaces_it() -> None:
    event = evening().draw_series(1)
    playing = TableResult(totals=(0, 5, 10, 15), rounds=1, finished=False)
    event = event.record_result(1, 1, playing)
    assert event.series[0].started and not event.series[0].tables[0].finished
    done = TableResult(totals=(20, 5, 10, 15), rounds=2, finished=True)
    assert event.record_result(1, 1, done).series[0].tables[0].result == done


def test_a_series_of_n_rounds_counts_the_totals_after_n_rounds() -> None:
    event = evening().draw_series(1)
    table = event.series[0].tables[0]
    game = Game.start("contract", table.seats)
    rounds = [(0, {1: 10, 2: 20, 3: 30}), (1, {0: 5, 2: 5, 3: 5}), (2, {0: 50, 1: 50, 3: 50})]
    for n, (out, penalties) in enumerate(rounds, start=1):
        game = game.enter_round(
            n, [OUT if s == out else SeatResult(penalty=penalties[s]) for s in range(4)]
        ).game
        result = event.result_of_game(1, 1, game)
        assert result.rounds == min(n, 2) and result.finished is (n >= 2)
    assert result.totals == (5, 10, 25, 35)  # round 3 is not the series'


def test_a_whole_game_series_counts_the_game_to_its_end() -> None:
    event = evening(series_rounds=None).draw_series(1)
    table = event.series[0].tables[0]
    game = Game.start("contract", table.seats)
    for n in range(1, 8):
        game = game.enter_round(n, [OUT] + [SeatResult(penalty=10 * n)] * 3).game
        result = event.result_of_game(1, 1, game)
        assert result.finished is (n == 7) and result.rounds == n
    assert result.totals == (0, 280, 280, 280)


def test_a_game_of_other_players_or_rules_is_not_the_tables() -> None:
    event = evening().draw_series(1)
    seats = event.series[0].tables[0].seats
    stranger = Game.start("contract", (*seats[:3], "Zed"))
    assert reasons_of_call(lambda: event.result_of_game(1, 1, stranger)) == [
        ("game_seats_differ", "game")
    ]
    turned = Game.start("contract", tuple(reversed(seats)))
    assert reasons_of_call(lambda: event.result_of_game(1, 1, turned)) == [
        ("game_seats_differ", "game")
    ]
    shanghai = Game.start("shanghai", seats)
    assert reasons_of_call(lambda: event.result_of_game(1, 1, shanghai)) == [
        ("game_rules_differ", "game")
    ]


def test_rummy_ranks_the_highest_total_first() -> None:
    event = evening([f"P{i}" for i in range(4)], variant="rummy", series_rounds=None, series=1)
    event = event.draw_series(1)
    seats = event.series[0].tables[0].seats
    event = event.record_result(1, 1, TableResult(totals=(30, 105, 0, 60), rounds=4, finished=True))
    rows = event.standings().rows
    assert event.high_wins
    assert [row.name for row in rows] == [seats[1], seats[3], seats[0], seats[2]]
    # Where the winner collects no points are left in hand: place points, no bonus.
    assert [row.tournament_points for row in rows] == [5, 3, 2, 1]


# -- an evening worked out by hand ------------------------------------------------------------
#
# 17 players, 3 series of 2 rounds of contract rummy, the classic Rommé scheme: at a table of
# 4 places score 5-3-2-1, at a table of 5 6-4-3-2-1, shared places split their points; a bonus
# of 3 for at most 20 points left over the 2 rounds, 2 for at most 40, 1 for at most 60. Gus
# leaves after series 1; Rex arrives for series 2. Series 2 and 3 are drawn by standings.
# A round below: (seat out, {seat: penalty}).

SERIES_1: Script = {
    # Ann Ola Jo Cy: totals 15 40 25 45 -> places 1 3 2 4 -> 5+3, 2+2, 3+2, 1+1 = 8 4 5 2
    1: [(0, {1: 10, 2: 25, 3: 40}), (2, {0: 15, 1: 30, 3: 5})],
    # Max Pia Hal Kit: 35 30 30 50 -> 3 1 1 4 -> 2+2, (5+3)/2+2, 4+2, 1+1 = 4 6 6 2
    2: [(0, {1: 20, 2: 10, 3: 50}), (3, {0: 35, 1: 10, 2: 20})],
    # Lu Di Ida Ned: 70 20 5 70 -> 3 2 1 3 -> (2+1)/2, 3+3, 5+3, (2+1)/2 = 3/2 6 8 3/2
    3: [(0, {1: 15, 2: 5, 3: 60}), (2, {0: 70, 1: 5, 3: 10})],
    # Quin Gus Ed Bo Flo: 25 10 25 45 145 -> 2 1 2 4 5 -> 7/2+2, 6+3, 7/2+2, 2+1, 1+0
    4: [(0, {1: 10, 2: 20, 3: 30, 4: 45}), (1, {0: 25, 2: 5, 3: 15, 4: 100})],
}
# After series 1, by standings (ties: more points a round ranks lower; then tables won):
# Gus 9, Ida 8 (2.5 a round), Ann 8 (7.5), Di 6 (10), Hal = Pia 6 (15, one table won each),
# Ed = Quin 11/2, Jo 5, Max 4 (17.5), Ola 4 (20), Bo 3, Cy 2 (22.5), Kit 2 (25),
# Lu = Ned 3/2, Flo 1. Pia and Hal, Quin and Ed, Lu and Ned: drawn in the order the seed says.
TABLES_2 = [
    ("Ida", "Ann", "Di", "Hal"),
    ("Pia", "Ed", "Quin", "Jo"),
    ("Max", "Ola", "Bo", "Cy"),
    ("Kit", "Lu", "Ned", "Flo", "Rex"),  # Rex has no points yet: last
]
SERIES_2: Script = {
    # Ida Ann Di Hal: 40 50 10 40 -> 2 4 1 2 -> 5/2+2, 1+1, 5+3, 5/2+2 = 9/2 2 8 9/2
    1: [(1, {0: 20, 2: 10, 3: 30}), (2, {0: 20, 1: 50, 3: 10})],
    # Pia Ed Quin Jo: 0 15 75 20 -> 1 2 4 3 -> 5+3, 3+3, 1+0, 2+3 = 8 6 1 5
    2: [(0, {1: 5, 2: 45, 3: 15}), (0, {1: 10, 2: 30, 3: 5})],
    # Max Ola Bo Cy: 35 45 20 30 -> 3 4 1 2 -> 2+2, 1+1, 5+3, 3+2 = 4 2 8 5
    3: [(2, {0: 25, 1: 10, 3: 30}), (3, {0: 10, 1: 35, 2: 20})],
    # Kit Lu Ned Flo Rex: 10 35 30 45 30 -> 1 4 2 5 2 -> 6+3, 2+2, 7/2+2, 1+1, 7/2+2
    4: [(4, {0: 10, 1: 20, 2: 5, 3: 40}), (0, {1: 15, 2: 25, 3: 5, 4: 30})],
}
# After series 2: Pia 14 (30 in 4 rounds, 2 tables won), Di 14 (30, 1 won), Ida 25/2,
# Ed 23/2, Kit 11 (60), Bo 11 (65), Hal 21/2, Jo 10 (45), Ann 10 (65), Gus 9, Max 8,
# Cy 7 (75), Ned 7 (100), Quin 13/2, Ola 6, Rex 11/2 (30 in 2 rounds), Lu 11/2 (105), Flo 3.
TABLES_3 = [
    ("Pia", "Di", "Ida", "Ed"),
    ("Kit", "Bo", "Hal", "Jo"),
    ("Ann", "Max", "Cy", "Ned"),  # Gus, 10th, has left
    ("Quin", "Ola", "Rex", "Lu", "Flo"),
]
SERIES_3: Script = {
    # Pia Di Ida Ed: 70 35 25 10 -> 4 3 2 1 -> 1+0, 2+2, 3+2, 5+3 = 1 4 5 8
    1: [(2, {0: 40, 1: 15, 3: 10}), (3, {0: 30, 1: 20, 2: 25})],
    # Kit Bo Hal Jo: 40 40 35 5 -> 3 3 2 1 -> 3/2+2, 3/2+2, 3+2, 5+3 = 7/2 7/2 5 8
    2: [(2, {0: 20, 1: 15, 3: 5}), (3, {0: 20, 1: 25, 2: 35})],
    # Ann Max Cy Ned: 0 20 25 45 -> 1 2 3 4 -> 5+3, 3+3, 2+2, 1+1 = 8 6 4 2
    3: [(0, {1: 10, 2: 20, 3: 30}), (0, {1: 10, 2: 5, 3: 15})],
    # Quin Ola Rex Lu Flo: 10 45 25 55 65 -> 1 3 2 4 5 -> 6+3, 3+1, 4+2, 2+1, 1+0
    4: [(4, {0: 10, 1: 25, 2: 15, 3: 5}), (0, {1: 20, 2: 10, 3: 50, 4: 65})],
}
# The evening: (place, name, tournament points, points, rounds, tables won). Equal tournament
# points go to fewer points a round, then to more tables won.
BY_HAND = [
    (1, "Ed", Fraction(39, 2), 50, 6, 1),
    (2, "Jo", 18, 50, 6, 1),  # 18 each: Jo 50/6 a round, Ann and Di 65/6
    (3, "Ann", 18, 65, 6, 2),  # Ann and Di: 65 each, Ann won two tables
    (4, "Di", 18, 65, 6, 1),
    (5, "Ida", Fraction(35, 2), 70, 6, 1),
    (6, "Hal", Fraction(31, 2), 105, 6, 1),  # 17.5 a round
    (7, "Quin", Fraction(31, 2), 110, 6, 1),  # 18.3 a round
    (8, "Pia", 15, 100, 6, 2),
    (9, "Kit", Fraction(29, 2), 100, 6, 1),
    (10, "Bo", Fraction(29, 2), 105, 6, 1),
    (11, "Max", 14, 90, 6, 0),
    (12, "Rex", Fraction(23, 2), 55, 4, 0),
    (13, "Cy", 11, 100, 6, 0),
    (14, "Ola", 10, 130, 6, 0),
    (15, "Gus", 9, 10, 2, 1),  # left after series 1: 5 a round
    (16, "Ned", 9, 145, 6, 0),
    (17, "Lu", Fraction(17, 2), 160, 6, 0),
    (18, "Flo", 4, 255, 6, 0),
]


def test_an_evening_of_17_with_a_leaver_and_a_late_arrival_matches_the_hand_count() -> None:
    event = evening(later_draws="standings").draw_series(1)
    assert event.series[0].seats == (
        ("Ann", "Ola", "Jo", "Cy"),
        ("Max", "Pia", "Hal", "Kit"),
        ("Lu", "Di", "Ida", "Ned"),
        ("Quin", "Gus", "Ed", "Bo", "Flo"),
    )  # the seed's draw, kept
    event = play(event, 1, SERIES_1).leave("Gus").check_in("Rex").draw_series(2)
    assert event.series[1].seats == tuple(TABLES_2)
    event = play(event, 2, SERIES_2).draw_series(3)
    assert event.series[2].seats == tuple(TABLES_3)
    event = play(event, 3, SERIES_3)
    assert event.finished
    board = event.standings()
    got = [
        (r.place, r.name, r.tournament_points, r.points, r.rounds, r.tables_won) for r in board.rows
    ]
    assert got == BY_HAND
    assert board.ranking == (
        Criterion.TOURNAMENT_POINTS,
        Criterion.POINTS_PER_ROUND,
        Criterion.TABLES_WON,
    )
    assert [r.name for r in board.rows if not r.present] == ["Gus"]
    assert [s.series for s in board.row_of("Rex").scores] == [2, 3]  # type: ignore[union-attr]


def test_the_hand_counted_evening_by_raw_points_and_per_series() -> None:
    event = evening(later_draws="standings").draw_series(1)
    event = play(event, 1, SERIES_1).leave("Gus").check_in("Rex").draw_series(2)
    event = play(play(event, 2, SERIES_2).draw_series(3), 3, SERIES_3)
    raw = event.standings(by=RankBy.POINTS)
    assert raw.ranking == (
        Criterion.POINTS_PER_ROUND,
        Criterion.TOURNAMENT_POINTS,
        Criterion.TABLES_WON,
    )
    # Fewest points a round first: Gus 5; Ed and Jo 50/6 (Ed more tournament points); Ann and
    # Di 65/6 (18 each: Ann won more tables); Ida 70/6; Rex 55/4; Max 15; Pia, Kit, Cy 100/6 ...
    assert [r.name for r in raw.rows] == [
        "Gus", "Ed", "Jo", "Ann", "Di", "Ida", "Rex", "Max", "Pia", "Kit", "Cy", "Hal", "Bo",
        "Quin", "Ola", "Ned", "Lu", "Flo",
    ]  # fmt: skip
    # Series 2 alone: its tables, its players (Gus did not play it; Rex did).
    second = event.standings(series=2)
    assert second.series == (2,) and "Gus" not in [r.name for r in second.rows]
    top: list[tuple[int, str, Fraction | int]] = [
        (r.place, r.name, r.tournament_points) for r in second.rows[:4]
    ]
    # Kit 9; then 8 each: Pia 0 points, Di 10, Bo 20.
    assert top == [(1, "Kit", 9), (2, "Pia", 8), (3, "Di", 8), (4, "Bo", 8)]
    # Up to series 1: the board the second draw was seated by.
    first = event.standings(through=1)
    assert [(r.place, r.name) for r in first.rows[:6]] == [
        (1, "Gus"), (2, "Ida"), (3, "Ann"), (4, "Di"), (5, "Hal"), (5, "Pia"),
    ]  # fmt: skip


def test_an_evening_survives_json() -> None:
    event = evening(later_draws="standings").draw_series(1)
    event = (
        play(event, 1, SERIES_1).leave("Gus").check_in("Rex").draw_series(2).attach_game(2, 1, "g1")
    )
    assert Event.from_json(event.to_json()) == event
    custom = evening(
        scheme={"place_points": {"3": [3, 1, 0], "4": [4, 2, 1, 0], "5": [5, 3, 2, 1, 0]}}
    )
    assert Event.from_json(custom.to_json()) == custom and custom.scheme.id == "custom"


def test_unfinished_tables_count_only_when_asked() -> None:
    event = evening().draw_series(1)
    event = event.record_result(1, 1, TableResult(totals=(0, 5, 10, 15), rounds=1, finished=False))
    assert all(row.tournament_points == 0 for row in event.standings().rows)
    live = event.standings(unfinished=True)
    assert live.rows[0].tournament_points == 8 and not live.rows[0].scores[0].finished


# -- properties -----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(min_value=3, max_value=40),
    arrivals=st.lists(st.integers(min_value=0, max_value=3), min_size=3, max_size=3),
    leavers=st.lists(st.integers(min_value=0, max_value=2), min_size=3, max_size=3),
    seed=st.integers(min_value=0, max_value=MAX_SEED),
    method=st.sampled_from(list(DrawMethod)),
)
def test_every_player_checked_in_sits_exactly_once_in_every_series(
    players: int, arrivals: list[int], leavers: list[int], seed: int, method: DrawMethod
) -> None:
    event = evening([f"P{i}" for i in range(players)], series=4, seed=seed, later_draws=method)
    extra = 0
    for number in range(1, 5):
        if number > 1:
            for _ in range(arrivals[number - 2]):
                event = event.check_in(f"Late{extra}")
                extra += 1
            for name in event.pool(number)[: leavers[number - 2]]:
                if len(event.pool(number)) > 3:
                    event = event.leave(name)
        event = finish_blind(event.draw_series(number).start_series(number), number)
        drawn = event.series[number - 1]
        seated = [name for table in drawn.tables for name in table.seats]
        assert sorted(seated) == sorted(event.pool(number))
        assert all(3 <= len(table.seats) <= 5 for table in drawn.tables)
        assert [t.number for t in drawn.tables] == list(range(1, len(drawn.tables) + 1))
    assert len(event.standings().rows) == len(event.players)


def test_every_code_an_evening_refuses_with_is_listed() -> None:
    # The web layer words codes from these lists: a new refusal must be in one of them.
    engine = Path(__file__).resolve().parents[2] / "referee" / "engine"
    said = set()
    for module in ("events.py", "seating.py", "tournament.py"):
        said |= set(
            re.findall(r'(?:reason|_refuse)\(\s*"([a-z_]+)"', (engine / module).read_text())
        )
    assert said and said <= ERROR_CODES | GAME_CODES | EVENT_CODES
    assert not EVENT_CODES & (ERROR_CODES | GAME_CODES)
    assert said >= EVENT_CODES  # and none listed that nothing says
