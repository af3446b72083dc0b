"""Club nights over /api/v1 (SPEC.md "Club nights"): the 17-player evening of the engine's
hand count (tests/engine/test_events.py: its seats and every table's rounds), played here
through the API, each table's rounds entered on its own game with its own edit link; the
standings equal the hand calculation. And the refusals: a view link changes nothing (403), a
series drawn twice (409), a table size of 2 or 9, an evening of 0 players, a player at two
tables: clear 4xx, translated, nothing lost."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from club_fixture import new_club, results_json
from flask.testing import FlaskClient
from test_events import BY_HAND, NAMES, SERIES_1, SERIES_2, SERIES_3, TABLES_2, TABLES_3, Script

SETTINGS: dict[str, Any] = {
    "name": "Club night", "date": "2025-03-07", "variant": "contract", "series": 3,
    "series_rounds": 2, "seed": 2024, "later_draws": "standings",
}  # fmt: skip


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _evening(client: FlaskClient, **settings: Any) -> tuple[dict[str, Any], str]:
    club = new_club(client)
    answer = client.post(
        f"/api/v1/clubs/{club['id']}/events",
        json=SETTINGS | settings,
        headers=_auth(club["edit_token"]),
    )
    assert answer.status_code == 201, answer.get_json()
    base = f"/api/v1/clubs/{club['id']}/events/{answer.get_json()['id']}"
    return club, base


def _post(client: FlaskClient, url: str, club: dict[str, Any], body: Any) -> Any:
    return client.post(url, json=body, headers=_auth(club["edit_token"]))


def _play(client: FlaskClient, series: dict[str, Any], script: Script) -> None:
    """Every table's rounds, on its own game, with the game's own edit token."""
    for table in series["tables"]:
        token = table["edit_url"].rstrip("/").rsplit("/", 1)[-1]
        for number, (out, penalties) in enumerate(script[table["number"]], start=1):
            body = {"round": number, "results": results_json(table["seats"], out, penalties)}
            answer = client.post(
                f"/api/v1/games/{table['game']}/rounds", json=body, headers=_auth(token)
            )
            assert answer.status_code == 200, answer.get_json()


def test_the_17_player_evening_through_the_api_equals_the_hand_count(
    client: FlaskClient,
) -> None:
    club, base = _evening(client)
    checked = _post(client, f"{base}/players", club, {"names": NAMES})
    assert checked.status_code == 200, checked.get_json()
    drawn = _post(client, f"{base}/series", club, {"series": 1}).get_json()
    first = drawn["series"][0]
    assert [tuple(t["seats"]) for t in first["tables"]] == [
        ("Ann", "Ola", "Jo", "Cy"),
        ("Max", "Pia", "Hal", "Kit"),
        ("Lu", "Di", "Ida", "Ned"),
        ("Quin", "Gus", "Ed", "Bo", "Flo"),
    ]
    assert first["started"] and all(t["edit_url"] for t in first["tables"])
    _play(client, first, SERIES_1)
    assert (
        _post(client, f"{base}/players", club, {"action": "leave", "names": ["Gus"]}).status_code
        == 200
    )
    assert _post(client, f"{base}/players", club, {"names": ["Rex"]}).status_code == 200
    second = _post(client, f"{base}/series", club, {"series": 2}).get_json()["series"][1]
    assert [tuple(t["seats"]) for t in second["tables"]] == TABLES_2
    _play(client, second, SERIES_2)
    third = _post(client, f"{base}/series", club, {"series": 3}).get_json()["series"][2]
    assert [tuple(t["seats"]) for t in third["tables"]] == TABLES_3
    _play(client, third, SERIES_3)

    board = client.get(f"{base}/standings").get_json()
    got = [
        (r["place"], r["name"], Fraction(r["tournament_points_exact"]), r["points"],
         r["rounds"], r["tables_won"])
        for r in board["rows"]
    ]  # fmt: skip
    assert got == BY_HAND
    assert board["ranking"] == ["tournament_points", "points_per_round", "tables_won"]
    assert board["tie_breaks"].startswith("Ranked by more tournament points")
    evening = client.get(base).get_json()
    assert evening["finished"] and evening["next_series"] is None
    assert all(t["edit_url"] is None for s in evening["series"] for t in s["tables"])  # no token
    # A table's page says its series is over (its game ended with the series' 2 rounds).
    page = client.get(third["tables"][0]["edit_url"]).get_data(as_text=True)
    assert "Series 3 is over at this table." in page
    # The club's ratings moved with each finished table, as for any club game.
    stats = client.get(f"/api/v1/clubs/{club['id']}/stats").get_json()
    rated = [p for p in stats["players"] if p["rating"] is not None]
    assert len(rated) == 18


def test_a_view_link_sees_everything_and_changes_nothing(client: FlaskClient) -> None:
    club, base = _evening(client)
    _post(client, f"{base}/players", club, {"names": NAMES[:8]})
    for url, body in ((f"{base}/players", {"names": ["Zed"]}), (f"{base}/series", {"series": 1})):
        assert client.post(url, json=body).status_code == 401  # no token: how to send one
        wrong = client.post(url, json=body, headers=_auth("not-the-token"))
        assert wrong.status_code == 403 and wrong.get_json()["error"]["code"] == "bad_club_token"
    assert client.get(base).get_json()["series"] == []
    assert len(client.get(base).get_json()["players"]) == 8


def test_a_series_drawn_twice_is_a_409_and_nothing_is_drawn_twice(client: FlaskClient) -> None:
    club, base = _evening(client)
    _post(client, f"{base}/players", club, {"names": NAMES[:8]})
    assert _post(client, f"{base}/series", club, {"series": 1}).status_code == 200
    again = _post(client, f"{base}/series", club, {"series": 1})
    assert again.status_code == 409
    assert again.get_json()["error"]["code"] == "series_already_drawn"
    assert len(client.get(base).get_json()["series"]) == 1


@pytest.mark.parametrize("size", [2, 9])
def test_a_table_size_of_2_or_9_is_a_clear_400(client: FlaskClient, size: int) -> None:
    club = new_club(client)
    answer = client.post(
        f"/api/v1/clubs/{club['id']}/events?lang=de",
        json=SETTINGS | {"table_size": size},
        headers=_auth(club["edit_token"]),
    )
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["code"] == "bad_table_size" and error["field"] == "table_size.preferred"


def test_an_evening_of_0_players_cannot_draw(client: FlaskClient) -> None:
    club, base = _evening(client)
    answer = _post(client, f"{base}/series", club, {"series": 1})
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == "too_few_players"


def test_a_player_at_two_tables_cannot_be_made_by_a_swap(client: FlaskClient) -> None:
    """The swap moves two players between tables; asking one table's two players, or the same
    player twice, is refused and the seating stays."""
    club, base = _evening(client)
    _post(client, f"{base}/players", club, {"names": NAMES[:8]})
    drawn = _post(client, f"{base}/series", club, {"series": 1, "start": False}).get_json()
    table = drawn["series"][0]["tables"][0]["seats"]
    for pair, code in (([table[0], table[0]], "same_player"), (table[:2], "same_table")):
        body = {"series": 1, "action": "swap", "swap": pair}
        answer = _post(client, f"{base}/series", club, body)
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == code
    seats = [s for t in client.get(base).get_json()["series"][0]["tables"] for s in t["seats"]]
    assert sorted(seats) == sorted(NAMES[:8])
