"""A series' clock as the engine keeps it (SPEC.md "Club nights", the clock): every moment is
given by a test clock, the time left follows from any "now", a pause stands, extra minutes are
one table's, and at zero the round in progress is the last (or one more). No Flask here."""

from __future__ import annotations

import datetime

from test_events import OUT, evening, reasons_of_call

from referee.engine.events import Event
from referee.engine.game import Game, SeatResult
from referee.engine.series_clock import ClockRule

T0 = datetime.datetime(2026, 12, 5, 19, 0, tzinfo=datetime.UTC)


def at(minutes: float) -> datetime.datetime:
    return T0 + datetime.timedelta(minutes=minutes)


def running(minutes: int = 20, rule: str = "finish_round") -> Event:
    """A whole-game evening with a clock of `minutes`, series 1 started at T0."""
    event = evening(series_rounds=None, series_minutes=minutes, clock_rule=rule)
    return event.draw_series(1).start_series(1, now=T0)


def _round(game: Game) -> Game:
    seats = len(game.players)
    results = [OUT if seat == 0 else SeatResult(penalty=10) for seat in range(seats)]
    return game.enter_round(len(game.rounds) + 1, results).game


def write_round(event: Event, table: int, game: Game, now: datetime.datetime) -> tuple[Event, Game]:
    """What the web layer does when a table writes a round at `now`: the round refused past
    the table's last, else written, the last round kept, the result filed."""
    event.verify_next_round(1, table, len(game.rounds), now)
    event = event.fix_last_round(1, table, len(game.rounds), now)
    game = _round(game)
    return event.record_result(1, table, event.result_of_game(1, table, game)), game


def test_the_clock_starts_with_the_series_and_counts_from_any_now() -> None:
    event = running(20)
    clock = event.series[0].clock
    assert clock is not None and clock.started_at == T0 and clock.rule is ClockRule.FINISH_ROUND
    assert clock.seconds_left(T0) == 20 * 60
    assert clock.seconds_left(at(7.5)) == 12 * 60 + 30
    assert clock.ends_at() == at(20) and not clock.time_up(at(19.99))
    assert clock.time_up(at(20)) and clock.seconds_left(at(90)) == 0


def test_no_minutes_no_clock_and_a_new_setting_waits_for_the_next_series() -> None:
    event = evening(series_rounds=None).draw_series(1).start_series(1, now=T0)
    assert event.series[0].clock is None
    later = event.set_clock(30, "one_more")
    assert later.series[0].clock is None and later.series_minutes == 30
    assert later.version == event.version + 1


def test_a_pause_stands_and_its_length_is_added_on_resume() -> None:
    event = running(20).pause_clock(1, at(5))
    clock = event.series[0].clock
    assert clock is not None and clock.paused and clock.ends_at() is None
    assert clock.seconds_left(at(5)) == clock.seconds_left(at(60)) == 15 * 60
    event = event.resume_clock(1, at(12))
    clock = event.series[0].clock
    assert clock is not None and not clock.paused and clock.paused_seconds == 7 * 60
    assert clock.ends_at() == at(27) and clock.seconds_left(at(20)) == 7 * 60


def test_extra_minutes_are_one_tables_only() -> None:
    event = running(20).give_extra(1, 2, 5)
    clock = event.series[0].clock
    assert clock is not None
    assert clock.ends_at(2) == at(25) and clock.ends_at(1) == at(20) and clock.ends_at(3) == at(20)
    assert clock.time_up(at(21), 1) and not clock.time_up(at(21), 2)
    assert event.give_extra(1, 2, 3).series[0].clock.extra_of(2) == 8  # type: ignore[union-attr]


def test_a_bad_clock_is_refused_with_its_reason() -> None:
    assert reasons_of_call(lambda: evening(series_minutes=-5)) == [
        ("bad_series_minutes", "series_minutes")
    ]
    assert reasons_of_call(lambda: evening(series_minutes=4)) == [
        ("bad_series_minutes", "series_minutes")
    ]
    assert reasons_of_call(lambda: evening(series_minutes=20, clock_rule="sudden_death")) == [
        ("unknown_clock_rule", "clock_rule")
    ]
    event = running(20)
    assert reasons_of_call(lambda: event.give_extra(1, 9, 5)) == [("no_such_table", "table")]
    assert reasons_of_call(lambda: event.give_extra(1, 1, -3)) == [("bad_extra_minutes", "minutes")]
    assert reasons_of_call(lambda: event.give_extra(1, 1, 61)) == [("bad_extra_minutes", "minutes")]
    assert reasons_of_call(lambda: event.resume_clock(1, at(1))) == [("clock_not_paused", "action")]
    paused = event.pause_clock(1, at(1))
    assert reasons_of_call(lambda: paused.pause_clock(1, at(2))) == [
        ("clock_already_paused", "action")
    ]
    assert reasons_of_call(lambda: event.pause_clock(1, at(21))) == [("clock_ran_out", "action")]
    plain = evening(series_rounds=None).draw_series(1).start_series(1, now=T0)
    assert reasons_of_call(lambda: plain.pause_clock(1, at(1))) == [
        ("series_has_no_clock", "series")
    ]


def test_at_zero_the_round_in_progress_is_the_last_and_the_table_is_finished_after_it() -> None:
    event = running(20)
    table = event.series[0].tables[0]
    game = Game.start("contract", table.seats)
    event, game = write_round(event, 1, game, at(8))
    event, game = write_round(event, 1, game, at(16))
    assert event.last_round(1, 1, 2, at(19)) is None
    # Zero at minute 20, round 3 in progress: it is written at minute 24, and is the last.
    assert event.last_round(1, 1, 2, at(21)) == 3
    event, game = write_round(event, 1, game, at(24))
    result = event.series[0].tables[0].result
    assert result is not None and result.finished and result.rounds == 3
    assert event.last_round(1, 1, 3, at(25)) == 3  # kept: a fourth round is refused
    assert reasons_of_call(lambda: write_round(event, 1, game, at(26))) == [
        ("series_time_up", "round")
    ]


def test_with_one_more_the_table_plays_the_round_in_progress_and_one_more() -> None:
    event = running(20, "one_more")
    game = Game.start("contract", event.series[0].tables[1].seats)
    event, game = write_round(event, 2, game, at(10))
    event, game = write_round(event, 2, game, at(22))  # round 2 was in progress at zero
    assert event.series[0].clock.last_round_kept(2) == 3  # type: ignore[union-attr]
    assert not event.series[0].tables[1].finished
    event, game = write_round(event, 2, game, at(30))
    result = event.series[0].tables[1].result
    assert result is not None and result.finished and result.rounds == 3


def test_a_tables_extra_minutes_put_its_last_round_later() -> None:
    event = running(20).give_extra(1, 1, 10)
    game = Game.start("contract", event.series[0].tables[0].seats)
    event, game = write_round(event, 1, game, at(22))  # table 1 still has time
    assert event.series[0].clock.last_round_kept(1) is None  # type: ignore[union-attr]
    assert event.last_round(1, 2, 0, at(22)) == 1  # table 2 has none left


def test_the_clock_survives_json_and_an_evening_kept_before_clocks_reads_as_none() -> None:
    event = running(20, "one_more").give_extra(1, 2, 5).pause_clock(1, at(3))
    assert Event.from_json(event.to_json()) == event
    old = evening(series_rounds=None).draw_series(1).start_series(1).to_json()
    assert "series_minutes" not in old and "clock" not in old["series"][0]
    read = Event.from_json(old)
    assert read.series_minutes is None and read.series[0].clock is None
