"""A club's four club nights in September 2026 (12 to 15 players of 17, some absent each
night), played to their end through the services, for the seasons' tests: each player's
evening is their own penalty alone, so a season's table can be worked out by hand whatever the
draw (tests/web/seasons/test_seasons_table.py does)."""

from __future__ import annotations

import datetime
from typing import Any

from flask import Flask
from sqlalchemy import select, update

from referee.engine.game import SeatResult
from referee.web.clubs import service as clubs_service
from referee.web.clubs.models import club_games
from referee.web.events import service as events_service
from referee.web.events.models import event_games, events
from referee.web.games import service as games_service
from referee.web.plumbing.database import database

# Tournament points by the points a player is left with, whatever the table: no place points,
# a bonus by band. Every round is one where nobody went out (the stock ran out), so a player's
# evening is their own penalty alone and the hand calculation holds for any draw.
SCHEME: dict[str, Any] = {
    "id": "bands",
    "place_points": {"3": [0] * 3, "4": [0] * 4, "5": [0] * 5},
    "bonus": [
        {"per_round": 5, "points": 12},
        {"per_round": 15, "points": 8},
        {"per_round": 25, "points": 5},
        {"per_round": 35, "points": 2},
    ],
}
PENALTY = {0: 5, 1: 15, 2: 25, 3: 35, 4: 45}  # band -> penalty: 12, 8, 5, 2, 0 points

# Each evening: player -> band (one player alone in band 0 wins the evening).
EVENINGS: list[tuple[str, dict[str, int]]] = [
    ("2026-09-03", dict(Ann=0, Bo=1, Cy=2, Di=3, Ed=4, Flo=1, Gus=2, Hal=3, Ida=1, Jo=2, Kit=4,
                        Lu=3)),
    ("2026-09-10", dict(Bo=0, Ann=1, Cy=1, Di=2, Ed=3, Flo=4, Gus=1, Hal=2, Ida=3, Jo=4, Max=1,
                        Ned=2, Ola=3, Pia=2)),
    ("2026-09-17", dict(Cy=0, Ann=2, Bo=2, Di=1, Ed=1, Gus=3, Hal=1, Ida=2, Kit=1, Lu=2, Max=3,
                        Ned=4, Quin=2)),
    ("2026-09-24", dict(Ann=0, Bo=1, Cy=3, Di=2, Ed=2, Flo=1, Gus=4, Hal=3, Ida=1, Jo=2, Kit=3,
                        Lu=4, Max=2, Ola=1, Pia=3)),
]  # fmt: skip


Evenings = list[tuple[str, dict[str, int]]]


def club_with_evenings(
    app: Flask, evenings: Evenings = EVENINGS, *, name: str = "Thursday table", lang: str = "en"
) -> tuple[str, str, list[str]]:
    """A club and its four evenings, players checked in and series 1 drawn and started."""
    with app.test_request_context("/"):
        founded = clubs_service.found(name, lang=lang)
        assert isinstance(founded, clubs_service.Founded)
        club_id, token = founded.club.id, founded.token
        ids = []
        for day, bands in evenings:
            settings = {"name": f"Night {day}", "date": day, "variant": "contract", "series": 1,
                        "series_rounds": 1, "scheme": SCHEME, "seed": 7}  # fmt: skip
            created = events_service.create(club_id, token, settings, lang=lang)
            assert isinstance(created, events_service.Created), created
            event_id = created.stored.id
            checked = events_service.check_in(club_id, event_id, token, list(bands))
            assert isinstance(checked, events_service.Changed), checked
            drawn = events_service.draw(club_id, event_id, token, 1, start=True)
            assert isinstance(drawn, events_service.Changed), drawn
            ids.append(event_id)
    return club_id, token, ids


def play_table(app: Flask, event_id: str, table: int, bands: dict[str, int]) -> None:
    with app.test_request_context("/"):
        stored = events_service.load(event_id)
        assert stored is not None
        seated = stored.event.series[0].tables[table]
        assert seated.game_id is not None
        typed = games_service.Typed.read(
            [SeatResult(penalty=PENALTY[bands[name]]) for name in seated.seats]
        )
        saved = games_service.enter_round(seated.game_id, 1, typed, version=None)
        assert isinstance(saved, games_service.Saved), saved


def tables_of(app: Flask, event_id: str) -> int:
    with app.app_context():
        stored = events_service.load(event_id)
    assert stored is not None
    return len(stored.event.series[0].tables)


def play_evenings(
    app: Flask, event_ids: list[str], count: int, evenings: Evenings = EVENINGS
) -> None:
    """The first `count` evenings played to their end, every table."""
    for event_id, (_, bands) in zip(event_ids[:count], evenings[:count], strict=True):
        for table in range(tables_of(app, event_id)):
            play_table(app, event_id, table, bands)


def play_club_game(
    app: Flask,
    club_id: str,
    day: str,
    per_round: dict[str, int],
    *,
    rounds: int = 7,
    at: str = "19:00",
) -> str:
    """An ordinary game of the club (no club night's table), begun on `day` at `at` UTC, each
    player left with the same penalty every round (nobody went out): after 7 rounds it is
    finished, each player's total 7 times theirs. Its id."""
    with app.test_request_context("/"):
        filed = clubs_service.start_game(
            club_id, variant="contract", players=list(per_round), lang="en",
            house_rules={"last_round_goes_out": False},
        )  # fmt: skip
        assert isinstance(filed, clubs_service.GameFiled), filed
        game_id = filed.game.id
        play_rounds(app, game_id, per_round, range(1, rounds + 1))
        moment = datetime.datetime.fromisoformat(f"{day}T{at}:00+00:00")
        with database().writing() as conn:
            conn.execute(
                update(club_games).where(club_games.c.game_id == game_id).values(played_at=moment)
            )
    return game_id


def date_tables(app: Flask, event_ids: list[str]) -> None:
    """Each evening's tables' games dated on the evening (19:00 UTC), as if filed that day:
    they then fall within a season of the evenings' dates, where ordinary games are read."""
    with app.app_context(), database().writing() as conn:
        for event_id in event_ids:
            day = conn.execute(select(events.c.date).where(events.c.id == event_id)).scalar_one()
            moment = datetime.datetime.combine(day, datetime.time(19), datetime.UTC)
            tables = select(event_games.c.game_id).where(event_games.c.event_id == event_id)
            conn.execute(
                update(club_games).where(club_games.c.game_id.in_(tables)).values(played_at=moment)
            )


def play_rounds(app: Flask, game_id: str, per_round: dict[str, int], rounds: range) -> None:
    """The game's `rounds` entered, each player left with their penalty (nobody out)."""
    with app.test_request_context("/"):
        for number in rounds:
            typed = games_service.Typed.read([SeatResult(penalty=p) for p in per_round.values()])
            saved = games_service.enter_round(game_id, number, typed, version=None)
            assert isinstance(saved, games_service.Saved), saved
