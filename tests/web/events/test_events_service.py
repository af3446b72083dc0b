"""The club nights' service on SQLite and PostgreSQL: an evening's writes kept in one
transaction with the club's members and games, a series drawn twice at once from two phones
(one wins, the other a conflict, nothing drawn twice), a table's result kept in its round's own
write, and an evening that cannot keep up never costing the round."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from referee.engine.game import SeatResult
from referee.web.clubs import service as clubs_service
from referee.web.clubs.models import club_games, club_members
from referee.web.core import signals
from referee.web.events import service
from referee.web.events.models import event_games
from referee.web.games import service as games_service
from referee.web.games.models import games
from referee.web.plumbing.database import database

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lu"]
SETTINGS: dict[str, Any] = {
    "name": "Club night", "date": "2025-03-07", "variant": "contract", "series": 3,
    "series_rounds": 2, "seed": 2024,
}  # fmt: skip


def _count(app: Flask, table: Any) -> int:
    with app.app_context(), database().reading() as conn:
        found: int = conn.execute(select(func.count()).select_from(table)).scalar_one()
    return found


def _evening(app: Flask, names: list[str] = NAMES) -> tuple[str, str, str]:
    """A club, its token and an evening with `names` checked in."""
    with app.test_request_context("/"):
        founded = clubs_service.found("League", lang="en")
        assert isinstance(founded, clubs_service.Founded)
        club_id, token = founded.club.id, founded.token
        created = service.create(club_id, token, SETTINGS, lang="en")
        assert isinstance(created, service.Created), created
        checked = service.check_in(club_id, created.stored.id, token, names)
        assert isinstance(checked, service.Changed), checked
        assert checked.joined == tuple(names)  # every new name became a member
    return club_id, token, created.stored.id


def test_a_series_drawn_twice_at_once_is_drawn_once(app: Flask, database_url: str) -> None:
    club_id, token, event_id = _evening(app)
    gate = threading.Barrier(2)

    def draw(_: int) -> Any:
        with app.test_request_context("/"):
            gate.wait(timeout=30)
            return service.draw(club_id, event_id, token, 1, start=True)

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(draw, range(2)))
    kinds = sorted(type(r).__name__ for r in results)
    assert kinds == ["Changed", "Conflict"], results
    conflict = next(r for r in results if isinstance(r, service.Conflict))
    assert conflict.reasons[0].code == "series_already_drawn"
    assert _count(app, games) == 3 and _count(app, event_games) == 3  # one draw's tables
    assert _count(app, club_games) == 3
    with app.app_context():
        stored = service.load(event_id)
    assert stored is not None and len(stored.event.series) == 1
    assert stored.event.series[0].started


def test_a_tables_rounds_make_its_result_in_the_same_write(app: Flask, database_url: str) -> None:
    club_id, token, event_id = _evening(app)
    with app.test_request_context("/"):
        drawn = service.draw(club_id, event_id, token, 1, start=True)
        assert isinstance(drawn, service.Changed)
        table = drawn.stored.event.series[0].tables[0]
        assert table.game_id is not None
        assert set(service.tokens(drawn.stored)) == {
            t.game_id for t in drawn.stored.event.series[0].tables
        }
        before = drawn.stored.version
        out = SeatResult(went_out=True)
        typed = games_service.Typed.read([out, *(SeatResult(penalty=10 * n) for n in (1, 2, 3))])
        saved = games_service.enter_round(table.game_id, 1, typed, version=None)
        assert isinstance(saved, games_service.Saved)
        after = service.load(event_id)
    assert after is not None and after.version == before + 1
    result = after.event.series[0].tables[0].result
    assert result is not None and result.totals == (0, 10, 20, 30) and not result.finished


def test_check_in_keeps_the_clubs_member_cap(app: Flask) -> None:
    club_id, token, event_id = _evening(app, ["Ann", "Bo", "Cy"])
    with app.test_request_context("/"):
        clubs_service.add_members(club_id, [f"M{n}" for n in range(57)])
        refused = service.check_in(club_id, event_id, token, ["New 1", "New 2", "New 3"])
        assert isinstance(refused, service.Refused)
        assert refused.reasons[0].code == "too_many_members"
        stored = service.load(event_id)
    assert stored is not None and [p.name for p in stored.event.players] == ["Ann", "Bo", "Cy"]
    assert _count(app, club_members) == 60


@pytest.mark.parametrize("size", [2, 9])
def test_a_table_size_of_2_or_9_is_refused(app: Flask, size: int) -> None:
    with app.test_request_context("/"):
        founded = clubs_service.found("League", lang="en")
        assert isinstance(founded, clubs_service.Founded)
        created = service.create(
            founded.club.id, founded.token, SETTINGS | {"table_size": size}, lang="en"
        )
    assert isinstance(created, service.Refused)
    assert [r.code for r in created.reasons] == ["bad_table_size"]


def test_a_stale_version_and_a_wrong_token_change_nothing(app: Flask) -> None:
    club_id, token, event_id = _evening(app)
    with app.test_request_context("/"):
        stale = service.leave(club_id, event_id, token, "Ann", version=1)
        assert isinstance(stale, service.Stale)
        assert isinstance(service.leave(club_id, event_id, "nope", "Ann"), service.Forbidden)
        assert isinstance(service.leave(club_id, "x" * 22, token, "Ann"), service.EventMissing)
        stored = service.load(event_id)
    assert stored is not None and all(p.present for p in stored.event.players)


def test_every_write_and_every_round_tells_the_evenings_stream(app: Flask) -> None:
    """The room's board follows the evening's topic (web/live/): each write of the evening,
    and each round at one of its tables, tells it the evening's new version."""
    told: list[tuple[str, int]] = []

    def hear(name: str, *, version: int, **_: Any) -> None:
        told.append((name, version))

    signals.changed.connect(hear)
    try:
        club_id, token, event_id = _evening(app, ["Ann", "Bo", "Cy", "Di"])
        with app.test_request_context("/"):
            drawn = service.draw(club_id, event_id, token, 1, start=True)
            assert isinstance(drawn, service.Changed)
            table = drawn.stored.event.series[0].tables[0]
            assert table.game_id is not None
            out = SeatResult(went_out=True)
            typed = games_service.Typed.read([out, *(SeatResult(penalty=5) for _ in range(3))])
            games_service.enter_round(table.game_id, 1, typed, version=None)
            now = service.load(event_id)
    finally:
        signals.changed.disconnect(hear)
    assert now is not None
    mine = [version for name, version in told if name == signals.topic("event", event_id)]
    # The check-in, the draw (with its start), the round: each tells the version it made.
    assert len(mine) == 3 and mine[1] == drawn.stored.version and mine[2] == now.version
    assert mine == sorted(set(mine))
