"""A club's season over four real club nights (12 to 15 players of 17, some absent each
night), best 3 of 4: the season's table equals the hand calculation below, and moves as the
fourth evening's tables save (each save tells the club's stream, which the season page
follows)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from season_fixture import EVENINGS, club_with_evenings, play_evenings, play_table, tables_of

from referee.web.clubs import service as clubs_service

# By hand, best 3 of 4 (points per evening; [dropped]):
#   Ann 12 8 [5] 12 = 32, two evenings won    Bo 8 12 [5] 8 = 28     Cy 5 8 12 [2] = 25
#   Ida 8 [2] 5 8 = 21     Di [2] 5 8 5 = 18   Flo 8 0 - 8 = 16
#   Hal 2 5 8 [2] = 15, 17 over all four: ahead of Ed [0] 2 8 5, Gus 5 8 2 [0], Max - 8 2 5,
#   15 each over all they played: they share 8th
#   Jo 5 0 - 5, Kit 0 - 8 2, Ola - 2 - 8 = 10: 11th;  Lu 2 - 5 0, Pia - 5 - 2 = 7: 14th
#   Ned - 5 0 -, Quin - - 5 - = 5: 16th
FINAL = [
    (1, "Ann", 32), (2, "Bo", 28), (3, "Cy", 25), (4, "Ida", 21), (5, "Di", 18),
    (6, "Flo", 16), (7, "Hal", 15), (8, "Ed", 15), (8, "Gus", 15), (8, "Max", 15),
    (11, "Jo", 10), (11, "Kit", 10), (11, "Ola", 10), (14, "Lu", 7), (14, "Pia", 7),
    (16, "Ned", 5), (16, "Quin", 5),
]  # fmt: skip
DROPPED = {"Ann": [2], "Bo": [2], "Cy": [3], "Ida": [1], "Di": [0], "Ed": [0], "Gus": [3],
           "Hal": [3]}  # fmt: skip
# Before the fourth evening (all three count): Ann, Bo, Cy 25 (1st); Di, Gus, Hal, Ida 15
# (4th); Ed, Max 10 (8th); Flo, Kit 8 (10th); Lu 7 (12th); Jo, Ned, Pia, Quin 5 (13th); Ola 2.
MOVEMENT = {
    "Ann": "=", "Bo": "▼1", "Cy": "▼2", "Ida": "=", "Di": "▼1", "Flo": "▲4", "Hal": "▼3",
    "Ed": "=", "Gus": "▼4", "Max": "=", "Jo": "▲2", "Kit": "▼1", "Ola": "▲6", "Lu": "▼2",
    "Pia": "▼1", "Ned": "▼3", "Quin": "▼3",
}  # fmt: skip


def _season(client: FlaskClient, club_id: str, season_id: str) -> dict[str, Any]:
    answer = client.get(f"/api/v1/clubs/{club_id}/seasons/{season_id}")
    assert answer.status_code == 200, answer.get_json()
    found: dict[str, Any] = answer.get_json()
    return found


def test_best_3_of_4_equals_the_hand_calculation_and_moves_as_the_last_evening_saves(
    app: Flask, client: FlaskClient
) -> None:
    club_id, token, event_ids = club_with_evenings(app)
    play_evenings(app, event_ids, 3)
    created = client.post(
        f"/api/v1/clubs/{club_id}/seasons",
        json={
            "name": "Autumn",
            "starts": "2026-09-01",
            "ends": "2026-09-30",
            "rule": "best",
            "best": 3,
        },
        headers={"Authorization": f"Bearer {token}"},
    )
    assert created.status_code == 201, created.get_json()
    season_id = created.get_json()["id"]
    before = _season(client, club_id, season_id)
    assert [e["id"] for e in before["evenings"]] == event_ids
    assert [e["played"] for e in before["evenings"]] == [True, True, True, False]

    last, bands = event_ids[3], EVENINGS[3][1]
    shown = [before["rows"]]
    with app.app_context():
        told = [clubs_service.live_version(club_id)]
    for table in range(tables_of(app, last)):
        play_table(app, last, table, bands)
        shown.append(_season(client, club_id, season_id)["rows"])
        with app.app_context():
            told.append(clubs_service.live_version(club_id))
    assert all(a != b for a, b in pairwise(shown))  # each save moved it
    assert all(a is not None and b is not None and a < b for a, b in pairwise(told))

    rows = shown[-1]
    assert sorted((r["place"], r["name"], r["total"]) for r in rows) == FINAL
    assert {r["name"]: r["dropped"] for r in rows if r["dropped"]} == DROPPED
    assert {r["name"]: r["movement"]["sign"] for r in rows} == MOVEMENT
    ann = next(r for r in rows if r["name"] == "Ann")
    assert ann["cells"] == [12, 8, 5, 12] and ann["won"] == 2 and ann["played"] == 4
    flo = next(r for r in rows if r["name"] == "Flo")
    assert flo["cells"] == [8, 0, None, 8]
