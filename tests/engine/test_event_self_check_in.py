"""An evening's check-in by the players' own phones (engine): the mark for the host, a new
name, the closed link (it stops phones, never the host), the host's undo, and an evening kept
before any of it reads as it was."""

from __future__ import annotations

import datetime

import pytest

from referee.engine.errors import EventRefused
from referee.engine.events import Event


def _evening() -> Event:
    return Event.create(
        name="Friday night", date=datetime.date(2025, 3, 7), variant="contract", series=3, seed=7
    )


def _codes(refused: pytest.ExceptionInfo[EventRefused]) -> list[str]:
    return [r.code for r in refused.value.reasons]


def test_a_phones_check_in_is_marked_and_a_new_name_says_so() -> None:
    event = _evening().check_in("Ann", by_player=True).check_in("Zoë", by_player=True, new=True)
    ann, zoe = event.player("Ann"), event.player("Zoë")
    assert ann is not None and ann.self_service and not ann.new and ann.joined == 1
    assert zoe is not None and zoe.new
    hosts = _evening().check_in("Ann")
    assert not hosts.players[0].self_service  # the host's own check-in is not marked


def test_a_closed_link_stops_the_phones_never_the_host() -> None:
    event = _evening().check_in("Ann", by_player=True).close_check_in()
    with pytest.raises(EventRefused) as refused:
        event.check_in("Bo", by_player=True)
    assert _codes(refused) == ["check_in_closed"]
    with pytest.raises(EventRefused):
        event.leave("Ann", by_player=True)
    assert event.check_in("Bo").leave("Ann").player("Ann").present is False  # type: ignore[union-attr]
    assert event.open_check_in().can_check_in("Bo")


def test_undo_takes_a_check_in_back_whole_until_the_player_is_seated() -> None:
    event = _evening().check_in("Ann", by_player=True)
    assert event.undo_self_service("Ann").players == ()
    with pytest.raises(EventRefused) as refused:
        _evening().check_in("Ann").undo_self_service("Ann")
    assert _codes(refused) == ["no_check_in_to_undo"]
    names = ["Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    seated = event
    for name in names:
        seated = seated.check_in(name)
    seated = seated.draw_series(1).start_series(1)
    after = seated.undo_self_service("Ann")  # seated once: they leave, what they score stays
    ann = after.player("Ann")
    assert ann is not None and not ann.present and not ann.self_service


def test_undo_of_a_check_out_brings_the_player_back_unmarked() -> None:
    event = _evening().check_in("Ann").leave("Ann", by_player=True)
    ann = event.player("Ann")
    assert ann is not None and ann.self_service and not ann.present
    back = event.undo_self_service("Ann").player("Ann")
    assert back is not None and back.present and not back.self_service


def test_the_marks_and_the_closed_link_survive_json_and_an_old_evening_reads() -> None:
    event = _evening().check_in("Zoë", by_player=True, new=True).close_check_in()
    assert Event.from_json(event.to_json()) == event
    old = _evening().check_in("Ann").to_json()
    del old["check_in_closed"]
    assert "self_service" not in old["players"][0]  # a host's check-in writes no mark
    read = Event.from_json(old)
    assert not read.check_in_closed and not read.players[0].self_service
