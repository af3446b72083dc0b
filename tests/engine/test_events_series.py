"""A club night's series as the engine keeps it (RULES.md "Club nights"): a series of N rounds
is a game of the variant's first N rounds as they are, the host moves one player to another
table before a series starts, and a series is fixed once the next one is drawn unless the host
reopens it. No Flask here."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_events import OUT, evening, reasons_of_call

from referee.engine.errors import GameRefused
from referee.engine.events import Event, TableResult
from referee.engine.game import Game, SeatResult
from referee.engine.house_rules import get_variant


def _round(seats: int, out: int, penalty: int) -> list[SeatResult]:
    return [OUT if seat == out else SeatResult(penalty=penalty) for seat in range(seats)]


def _played(game: Game, rounds: int, penalty: int = 10) -> Game:
    for number in range(1, rounds + 1):
        game = game.enter_round(number, _round(len(game.players), 0, penalty)).game
    return game


# -- a series of N rounds: the variant's first N rounds, as they are -------------------------


def test_a_series_of_3_rounds_is_a_game_of_the_first_3_rounds_that_ends_with_them() -> None:
    event = evening(series_rounds=3).draw_series(1)
    game = event.table_game(1, 1)
    assert game.variant.game_rounds == 3 and game.variant.rounds == 7
    assert game.house_rules == {"rounds_played": 3}
    whole = Game.start("contract", game.players)
    for number in (1, 2, 3):  # round 3 keeps round 3's contract and deal
        assert game.deal(number) == whole.deal(number)
    game = _played(game, 3)
    assert game.finished and game.next_round is None and game.winners == (0,)
    with pytest.raises(GameRefused) as caught:
        game.enter_round(4, _round(4, 0, 10))
    assert caught.value.code == "game_finished"


def test_the_last_rounds_own_rules_stay_with_the_tables_last_round() -> None:
    # RULES.md "Still holding the whole deal": contract round 7 (12 cards of 5) at least 60.
    # Round 3 of a 3-round series is not that round: a hand of one card stands.
    short = Game.start("contract", ["Ann", "Bo", "Cy"], house_rules={"rounds_played": 3})
    short = _played(short, 2)
    assert not short.variant.goes_out_only(3) and short.variant.is_final_round(3)
    assert short.can_enter_round(3, _round(3, 0, 5))
    whole = _played(Game.start("contract", ["Ann", "Bo", "Cy"]), 6)
    assert whole.variant.goes_out_only(7) and not whole.can_enter_round(7, _round(3, 0, 5))
    # A series of all 7 rounds keeps round 7's rule.
    seven = _played(
        Game.start("contract", ["Ann", "Bo", "Cy"], house_rules={"rounds_played": 7}), 6
    )
    assert not seven.can_enter_round(7, _round(3, 0, 5))


def test_a_tie_after_a_series_goes_to_the_lower_score_in_its_last_round() -> None:
    # RULES.md "Ties": the last round is the last one played, here round 2 of a 2-round series.
    game = Game.start("contract", ["Ann", "Bo", "Cy"], house_rules={"rounds_played": 2})
    game = game.enter_round(1, [OUT, SeatResult(penalty=30), SeatResult(penalty=40)]).game
    game = game.enter_round(2, [SeatResult(penalty=30), OUT, SeatResult(penalty=5)]).game
    assert game.finished and game.standings.totals == (30, 30, 45)
    assert game.winners == (1,)  # Bo went out in round 2: 0 against Ann's 30


def test_a_rummy_series_ends_after_its_deals_or_at_the_target() -> None:
    rummy = Game.start("rummy", ["Ann", "Bo"], house_rules={"rounds_played": 2})
    rummy = rummy.enter_round(1, [OUT, SeatResult(penalty=20)]).game
    assert not rummy.finished and rummy.next_round == 2
    rummy = rummy.enter_round(2, [SeatResult(penalty=10), OUT]).game
    assert rummy.finished and rummy.winners == (0,)
    target = Game.start("rummy", ["Ann", "Bo"], house_rules={"rounds_played": 5})
    target = target.enter_round(1, [OUT, SeatResult(penalty=100)]).game
    assert target.finished and target.winners == (0,)


def test_a_game_plays_at_most_the_rounds_its_table_has() -> None:
    for bad in (0, 8, True, "3"):
        with pytest.raises(ValueError):
            get_variant("contract", {"rounds_played": bad})
    assert get_variant("short", {"rounds_played": 5}).game_rounds == 5
    with pytest.raises(ValueError):
        get_variant("short", {"rounds_played": 6})
    assert get_variant("rummy", {"rounds_played": 60}).game_rounds == 60


def test_a_series_tables_result_is_its_games_and_older_whole_games_still_count() -> None:
    event = evening(series_rounds=2).draw_series(1)
    game = _played(event.table_game(1, 1), 2, penalty=15)
    assert event.result_of_game(1, 1, game) == TableResult(
        totals=(0, 30, 30, 30), rounds=2, finished=True
    )
    # A table game started before games knew their series' length: its first 2 rounds.
    older = _played(Game.start("contract", event.series[0].tables[0].seats), 3, penalty=15)
    assert event.result_of_game(1, 1, older) == TableResult(
        totals=(0, 30, 30, 30), rounds=2, finished=True
    )
    other = Game.start("contract", older.players, house_rules={"rounds_played": 3})
    assert reasons_of_call(lambda: event.result_of_game(1, 1, other)) == [
        ("game_rules_differ", "game")
    ]


def test_a_whole_game_series_plays_the_variant_as_it_is() -> None:
    event = evening(series_rounds=None).draw_series(1)
    assert event.table_game(1, 1).variant == event.variant and event.table_house_rules == {}


# -- the host moves one player to another table ------------------------------------------------


def test_the_host_moves_one_player_to_another_table_before_the_series_starts() -> None:
    event = evening().draw_series(1)  # 17 players: tables of 4, 4, 4 and 5
    five = event.series[0].tables[3]
    mover = five.seats[0]  # the first dealer of table 4
    moved = event.move(1, mover.lower(), 2)
    after = moved.series[0]
    assert after.tables[1].seats == (*event.series[0].tables[1].seats, mover)
    assert after.tables[3].seats == five.seats[1:] and after.tables[3].first_dealer == 0
    assert moved.version == event.version + 1
    assert sorted(n for t in after.tables for n in t.seats) == sorted(event.pool(1))


def test_a_move_is_refused_when_a_table_would_leave_its_sizes() -> None:
    event = evening().draw_series(1)
    four = event.series[0].tables[0].seats[0]
    five = event.series[0].tables[3].seats[0]
    # 4 -> 5: table 1 keeps 3 (allowed), table 4 would seat 6.
    assert reasons_of_call(lambda: event.move(1, four, 4)) == [("table_too_large", "table")]
    three = event.move(1, four, 2)
    second = three.series[0].tables[0].seats[0]
    assert reasons_of_call(lambda: three.move(1, second, 3)) == [("table_too_small", "name")]
    assert reasons_of_call(lambda: event.move(1, five, 4)) == [("already_at_table", "table")]
    assert reasons_of_call(lambda: event.move(1, "Zed", 1)) == [("unknown_player", "name")]
    assert reasons_of_call(lambda: event.move(1, five, 9)) == [("no_such_table", "table")]
    started = event.start_series(1)
    assert reasons_of_call(lambda: started.move(1, five, 1)) == [("series_started", "series")]
    late = event.check_in("Rex")
    assert reasons_of_call(lambda: late.move(1, "Rex", 1)) == [("not_seated", "name")]


# -- a series fixed once the next is drawn, reopened by the host -------------------------------


def _two_series(event: Event) -> Event:
    for table in event.series[0].tables:
        totals = tuple(10 * seat for seat in range(len(table.seats)))
        event = event.record_result(
            1, table.number, TableResult(totals=totals, rounds=2, finished=True)
        )
    return event.draw_series(2)


def test_a_series_is_fixed_once_the_next_is_drawn() -> None:
    event = evening().draw_series(1)
    assert not event.closed(1)
    event = _two_series(event)
    assert event.closed(1) and not event.closed(2)
    undone = TableResult(totals=(0, 0, 0, 0), rounds=1, finished=False)
    assert reasons_of_call(lambda: event.record_result(1, 1, undone)) == [
        ("series_closed", "series")
    ]
    assert reasons_of_call(lambda: event.verify_open(1)) == [("series_closed", "series")]
    assert event.withdraw_series(2).closed(1) is False  # series 2 taken back: 1 is the newest


def test_the_host_reopens_a_past_series_and_closes_it_before_the_next_draw() -> None:
    event = _two_series(evening().draw_series(1))
    event = event.start_series(2)
    for table in event.series[1].tables:
        totals = tuple(5 * seat for seat in range(len(table.seats)))
        event = event.record_result(
            2, table.number, TableResult(totals=totals, rounds=2, finished=True)
        )
    opened = event.reopen_series(1)
    assert opened.reopened == (1,) and not opened.closed(1)
    assert reasons_of_call(lambda: opened.reopen_series(1)) == [
        ("series_already_reopened", "series")
    ]
    assert reasons_of_call(lambda: event.reopen_series(2)) == [("series_not_closed", "series")]
    playing = opened.record_result(1, 1, TableResult(totals=(0, 0, 0, 0), rounds=1, finished=False))
    assert ("series_reopened", "series") in reasons_of_call(lambda: playing.draw_series(3))
    assert reasons_of_call(lambda: playing.close_series(1)) == [("series_still_playing", "series")]
    done = playing.record_result(1, 1, TableResult(totals=(0, 9, 9, 9), rounds=2, finished=True))
    closed = done.close_series(1)
    assert closed.closed(1) and closed.reopened == () and closed.can_draw(3)
    assert reasons_of_call(lambda: closed.close_series(1)) == [("series_not_reopened", "series")]
    assert Event.from_json(opened.to_json()) == opened


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["reopen", "close", "result"]), max_size=8))
def test_a_closed_series_results_change_only_while_the_host_has_it_reopened(
    acts: list[str],
) -> None:
    event = _two_series(evening().draw_series(1))
    done = TableResult(totals=(1, 2, 3, 4), rounds=2, finished=True)
    steps = {
        "reopen": lambda e: e.reopen_series(1),
        "close": lambda e: e.close_series(1),
        "result": lambda e: e.record_result(1, 1, done),
    }
    for act in acts:
        before = event
        try:
            event = steps[act](event)
        except GameRefused:
            continue
        if act == "result":
            assert before.series[0].reopened
        assert event.series[0].tables == before.series[0].tables or not before.closed(1)
