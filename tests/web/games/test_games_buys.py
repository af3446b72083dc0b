"""Buys where buying is on: a badge in the score table, what is left on the round form, exports.

Nothing of it shows where buying is off.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any
from urllib.parse import urlsplit

from flask.testing import FlaskClient

PLAYERS = ["Ann", "Bo", "Cy"]


def _create(client: FlaskClient, variant: str, **extra: Any) -> dict[str, Any]:
    answer = client.post("/api/v1/games", json={"variant": variant, "players": PLAYERS, **extra})
    assert answer.status_code == 201, answer.json
    data: dict[str, Any] = answer.get_json()
    data["edit_path"] = urlsplit(data["edit_url"]).path
    return data


def _add_round(
    client: FlaskClient, game: dict[str, Any], number: int, results: list[dict[str, Any]]
) -> None:
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"round": number, "results": results},
        headers={"Authorization": f"Bearer {game['edit_token']}"},
    )
    assert answer.status_code == 200, answer.json


ROUND_1 = [
    {"player": "Ann", "went_out": True, "buys": 1},
    {"player": "Bo", "penalty": 25, "buys": 2},
    {"player": "Cy", "penalty": 30},
]


def _cells(page: str) -> list[str]:
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<td[^>]*>(.*?)</td>", body, re.S)


def test_the_score_table_shows_each_players_buys_in_the_round(client: FlaskClient) -> None:
    game = _create(client, "shanghai")
    _add_round(client, game, 1, ROUND_1)
    for path in (game["edit_path"], f"/games/{game['id']}"):  # the table and the watchers' view
        page = client.get(path).get_data(as_text=True)
        ann, bo, cy = _cells(page)
        assert "buys-badge" in ann and "(1 buy)" in ann and "went out" in ann
        assert "buys-badge" in bo and "(2 buys)" in bo and re.search(r"</svg>\s*2</span>", bo)
        assert "buys-badge" not in cy  # no buys, no badge
        assert "Buys made in the round" in page  # the key below the table
    german = client.get(game["edit_path"] + "?lang=de").get_data(as_text=True)
    assert "(2 Käufe)" in german and "(1 Kauf)" in german and "Käufe in der Runde" in german


def test_the_round_form_says_how_many_buys_are_left(client: FlaskClient) -> None:
    game = _create(client, "frustration")
    page = client.get(game["edit_path"]).get_data(as_text=True)
    assert page.count("Buys left: 3 of 3") == len(PLAYERS)
    assert 'aria-describedby="seats-1-buys-left"' in page and 'for="seats-1-buys"' in page
    assert 'data-text="Buys left: {left} of 3"' in page  # what the page's script fills in
    _add_round(client, game, 1, ROUND_1)
    # Correcting a round counts the buys it holds; a new round starts with the whole limit.
    correct = client.get(game["edit_path"] + "/rounds/1").get_data(as_text=True)
    assert "Buys left: 2 of 3" in correct and "Buys left: 1 of 3" in correct
    assert "Buys left: 3 of 3" in correct  # Cy
    assert client.get(game["edit_path"]).get_data(as_text=True).count("Buys left: 3 of 3") == 3
    # A refused form shows what is left of what was typed; all used up is said plainly.
    data = {"version": "2", "round": "2", "went_out": "1", "seats-0-buys": "3",
            "seats-0-penalty": "12345", "seats-2-penalty": "5"}  # fmt: skip
    refused = client.post(game["edit_path"] + "/rounds", data=data)
    assert refused.status_code == 400
    text = refused.get_data(as_text=True)
    assert re.search(r'class="buys-left is-none"[^>]*>Buys left: 0 of 3<', text)
    german = client.get(game["edit_path"] + "?lang=de").get_data(as_text=True)
    assert "Käufe übrig: 3 von 3" in german


def test_contract_with_the_buying_house_rule_shows_buys(client: FlaskClient) -> None:
    game = _create(client, "contract", house_rules={"buying": True, "buy_limit": 2})
    page = client.get(game["edit_path"]).get_data(as_text=True)
    assert page.count("Buys left: 2 of 2") == len(PLAYERS)
    _add_round(client, game, 1, ROUND_1)
    page = client.get(game["edit_path"]).get_data(as_text=True)
    assert page.count('class="buys-badge"') == 2


def test_nothing_about_buys_where_buying_is_off(client: FlaskClient) -> None:
    game = _create(client, "contract")
    _add_round(client, game, 1, [{**r, "buys": 0} for r in ROUND_1])
    page = client.get(game["edit_path"]).get_data(as_text=True)
    for text in ("buys-badge", "Buys left", "Buys made in the round", "buys-input"):
        assert text not in page
    csv_text = client.get(f"/games/{game['id']}.csv").get_data(as_text=True)
    assert csv_text.splitlines()[0] == "round,contract,dealer,went_out,Ann,Bo,Cy"
    exported = client.get(f"/games/{game['id']}.json").get_json()
    assert "buys" not in exported["rounds"][0]


def test_csv_and_json_exports_keep_the_buys(client: FlaskClient) -> None:
    game = _create(client, "shanghai")
    _add_round(client, game, 1, ROUND_1)
    _add_round(
        client,
        game,
        2,
        [{"player": "Ann", "penalty": 10}, {"player": "Bo", "went_out": True},
         {"player": "Cy", "penalty": 20, "buys": 3}],
    )  # fmt: skip
    rows = list(csv.reader(io.StringIO(client.get(f"/games/{game['id']}.csv").text)))
    assert rows[0][4:] == ["Ann", "Bo", "Cy", "buys Ann", "buys Bo", "buys Cy"]
    assert rows[1][-3:] == ["1", "2", "0"] and rows[2][-3:] == ["0", "0", "3"]
    assert rows[-1][0] == "total" and rows[-1][-3:] == ["1", "2", "3"]

    exported = client.get(f"/games/{game['id']}.json").get_json()
    first = exported["rounds"][0]
    assert first["buys"] == {"Ann": 1, "Bo": 2, "Cy": 0}  # an extra beside SPEC's shape
    assert {"round", "contract", "dealer", "deal", "scores", "went_out"} <= set(first)
    answer = client.post(
        "/games/import", data={"text": client.get(f"/games/{game['id']}.json").text}
    )
    assert answer.status_code == 303
    copy_id = answer.headers["Location"].split("/")[2]
    copied = client.get(f"/api/v1/games/{copy_id}").get_json()
    assert [r["buys"] for r in copied["rounds"]] == [r["buys"] for r in exported["rounds"]]
    assert copied["rounds"][1]["results"] == exported["rounds"][1]["results"]
    page = client.get(f"/games/{copy_id}").get_data(as_text=True)
    assert "(3 buys)" in page
