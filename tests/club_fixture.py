"""The club of the stats tests: four games worked out by hand (tests/engine/test_records.py says the
numbers), played on the engine or through the JSON API."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from referee.engine.game import Game, SeatResult
from referee.web.plumbing.database import database

OUT = SeatResult(went_out=True)
Rounds = list[tuple[int | None, dict[int, int]]]
Played = tuple[str, list[str], Rounds]  # variant, players, rounds

# The club's four games in date order: (variant, players, rounds); a round is (seat out, or
# None when the stock ran out, {seat: penalty}). The numbers below are worked out by hand.
G1: Played = ("contract", ["Ann", "Bo", "Cy"], [
    (0, {1: 10, 2: 20}), (1, {0: 5, 2: 15}), (0, {1: 30, 2: 10}), (2, {0: 20, 1: 5}),
    (0, {1: 15, 2: 25}), (1, {0: 10, 2: 5}), (0, {1: 20, 2: 40}),
])  # fmt: skip  # totals Ann 35, Bo 80, Cy 115: Ann wins
G2: Played = ("contract", ["Ann", "Bo", "Di"], [
    (2, {0: 10, 1: 10}), (0, {1: 20, 2: 5}), (1, {0: 20, 2: 30}), (2, {0: 15, 1: 15}),
    (0, {1: 10, 2: 10}), (1, {0: 10, 2: 25}), (2, {0: 5, 1: 5}),
])  # fmt: skip  # Ann 60, Bo 60 (and 5 each in the last round: a shared win), Di 70
G3: Played = (
    "contract",
    ["Bo", "Cy", "Di"],
    [(1, {0: 25, 2: 5}), (0, {1: 10, 2: 15})],
)  # unfinished
G4: Played = ("rummy", ["Cy", "Di"], [(0, {1: 40}), (1, {0: 30}), (0, {1: 65})])  # Cy 105 wins
FIXTURE = [G1, G2, G3, G4]
# Round 7 of these hand-worked games has small hands: this table lays the last contract down
# like the others (a house rule), so the numbers need not hold a whole 12-card deal.
HOUSE_RULES: dict[str, dict[str, Any]] = {"contract": {"last_round_goes_out": False}}
MEMBERS = ["Ann", "Bo", "Cy", "Di"]


def play(variant: str, players: list[str], rounds: Rounds) -> Game:
    """The game with its rounds entered, on the engine."""
    game = Game.start(variant, players, house_rules=HOUSE_RULES.get(variant))
    for number, (out, penalties) in enumerate(rounds, start=1):
        results = [OUT if seat == out else SeatResult(penalty=penalties[seat])
                   for seat in range(len(players))]  # fmt: skip
        game = game.enter_round(number, results).game
    return game


def results_json(players: list[str], out: int | None, penalties: dict[int, int]) -> list[Any]:
    return [
        {"player": name, "went_out": True} if seat == out
        else {"player": name, "penalty": penalties[seat]}
        for seat, name in enumerate(players)
    ]  # fmt: skip


def new_club(client: FlaskClient, name: str = "Thursday table") -> dict[str, Any]:
    answer = client.post("/api/v1/clubs", json={"name": name})
    assert answer.status_code == 201, answer.get_json()
    data: dict[str, Any] = answer.get_json()
    return data


def play_in_club(
    client: FlaskClient, club: dict[str, Any], variant: str, players: list[str], rounds: Rounds
) -> dict[str, Any]:
    """A club game through the API: started with the club's token, rounds with the game's."""
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    created = client.post(
        "/api/v1/games",
        json={
            "variant": variant,
            "players": players,
            "club": club["id"],
            "house_rules": HOUSE_RULES.get(variant, {}),
        },
        headers=auth,
    )
    assert created.status_code == 201, created.get_json()
    game: dict[str, Any] = created.get_json()
    own = {"Authorization": f"Bearer {game['edit_token']}"}
    for number, (out, penalties) in enumerate(rounds, start=1):
        body = {"round": number, "results": results_json(players, out, penalties)}
        answer = client.post(f"/api/v1/games/{game['id']}/rounds", json=body, headers=own)
        assert answer.status_code == 200, answer.get_json()
    return game


@contextmanager
def writes(app: Flask) -> Iterator[list[str]]:
    """Every statement that writes to the database while inside (INSERT, UPDATE, DELETE)."""
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            seen.append(statement)

    engine = database(app).engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)
