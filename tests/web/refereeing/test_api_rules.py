"""The JSON API's request fields for the rules at a real table (SPEC.md): `players`, `game`,
`going_out` with `discard`, `contract_down`; the shoe's verdicts for penalty and solve; and the
whole deal still held in a round laid down only by going out, over /api/v1/games."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient


def post(client: FlaskClient, call: str, body: Any, status: int = 200) -> dict[str, Any]:
    response = client.post(f"/api/v1/{call}", json=body)
    assert response.status_code == status, response.get_data(as_text=True)
    data = response.get_json()
    assert isinstance(data, dict)
    return data


def codes(answer: dict[str, Any]) -> list[str]:
    return [error["code"] for error in answer["errors"]]


def new_game(client: FlaskClient, variant: str, players: list[str]) -> dict[str, Any]:
    response = client.post("/api/v1/games", json={"variant": variant, "players": players})
    assert response.status_code == 201
    created: dict[str, Any] = response.get_json()
    return created


# -- players: the shoe of the table --------------------------------------------------------------


def test_players_fix_the_shoe_of_every_check(client: FlaskClient) -> None:
    three = {"variant": "contract", "cards": "7H 7H 7H"}
    assert post(client, "meld", three)["valid"] is True  # the largest shoe: three decks
    answer = post(client, "meld", {**three, "players": 4})
    assert answer["valid"] is False and codes(answer) == ["too_many_copies"]
    assert "2" in answer["errors"][0]["message"]
    assert post(client, "meld", {**three, "players": 5})["valid"] is True
    body = {"variant": "contract", "round": 1, "melds": ["7H 7H 7S", "7H 7D 7C"], "players": 3}
    assert codes(post(client, "contract", body)) == ["too_many_copies"]
    layoff = {"variant": "contract", "meld": "7H 7S 7H", "cards": "7H", "players": 4}
    assert codes(post(client, "layoff", layoff)) == ["too_many_copies"]


def test_players_out_of_range_or_not_a_number_is_a_400(client: FlaskClient) -> None:
    answer = post(client, "meld", {"variant": "contract", "cards": "7H", "players": 12}, 400)
    assert answer["error"]["code"] == "bad_players"
    answer = post(client, "meld", {"variant": "contract", "cards": "7H", "players": "4"}, 400)
    assert answer["error"]["code"] == "wrong_type"


def test_a_card_the_shoe_cannot_hold_is_a_verdict_in_penalty_and_solve(client: FlaskClient) -> None:
    """A joker in rummy, or the same card twice in a one-deck game: valid false, not a 400."""
    answer = post(client, "penalty", {"variant": "rummy", "cards": "JK 5H"})
    assert answer["valid"] is False and codes(answer) == ["jokers_not_allowed"]
    assert answer["penalty"] == 5
    fine = post(client, "penalty", {"variant": "rummy", "cards": "KD 5H"})
    assert fine["valid"] is True and fine["errors"] == [] and fine["penalty"] == 15
    solved = post(client, "solve", {"variant": "rummy", "round": 1, "hand": "5H 5H 6H 7H"})
    assert solved["valid"] is False and codes(solved) == ["too_many_copies"]
    # Rummy has no contract to meet: null (RULES.md, fourth reading), whatever the hand.
    assert solved["can_meet_contract"] is None and solved["melds"] == []
    assert solved["leftover"] == ["5H", "5H", "6H", "7H"] and solved["leftover_penalty"] == 23
    body = {"variant": "zioncheck-nl", "round": 1, "hand": "7H 7S 7D JK JK", "players": 4}
    assert codes(post(client, "solve", body)) == ["too_many_copies"]


# -- game: its variant, house rules, round and shoe ---------------------------------------------


def test_game_gives_variant_house_rules_round_and_shoe(client: FlaskClient) -> None:
    game = new_game(client, "contract", ["Ann", "Bo", "Cy", "Di"])
    answer = post(client, "meld", {"game": game["id"], "cards": "7H 7H 7H"})
    assert codes(answer) == ["too_many_copies"]  # four players: two decks
    # No round given: the game's next round, the first.
    body = {"game": game["id"], "melds": ["7H 7S 7D", "KC KD KS"]}
    assert post(client, "contract", body)["valid"] is True
    assert post(client, "contract", {**body, "round": 2})["valid"] is False
    assert post(client, "meld", {"game": game["id"], "variant": "contract", "cards": "7H 7S 7D"})[
        "valid"
    ]


def test_game_not_found_is_a_404_and_another_variant_a_400(client: FlaskClient) -> None:
    answer = post(client, "meld", {"game": "x" * 22, "cards": "7H 7S 7D"}, 404)
    assert answer["error"]["code"] == "game_not_found"
    game = new_game(client, "contract", ["Ann", "Bo", "Cy"])
    answer = post(client, "meld", {"game": game["id"], "variant": "rummy", "cards": "7H"}, 400)
    assert answer["error"]["code"] == "game_variant_differs"
    assert "Rummy" in answer["error"]["message"]


# -- going_out and discard -----------------------------------------------------------------------


def test_going_out_with_a_discard_follows_the_round(client: FlaskClient) -> None:
    # Whole hands: round 1 deals 10, round 7 12, and a card is drawn.
    eleven = ["7H 7S 7D 7C 7H 7S", "KC KD KS KH KC"]
    body = {"variant": "contract", "round": 1, "melds": eleven, "going_out": True}
    answer = post(client, "contract", body)
    assert answer["valid"] is False and codes(answer) == ["going_out_needs_discard"]
    assert answer["errors"][0]["meld"] is None
    ten = ["7H 7S 7D 7C 7H", "KC KD KS KH KC"]
    assert post(client, "contract", {**body, "melds": ten, "discard": "2C"})["valid"] is True
    last = {
        "variant": "contract",
        "round": 7,
        "melds": ["5H 6H 7H 8H 9H", "5S 6S 7S 8S", "9D 10D JD QD"],
        "going_out": True,
    }
    assert post(client, "contract", last)["valid"] is True
    twelve = ["5H 6H 7H 8H", "5S 6S 7S 8S", "9D 10D JD QD"]
    answer = post(client, "contract", {**last, "melds": twelve, "discard": "KD", "lang": "de"})
    assert codes(answer) == ["last_round_no_discard"] and "K♦" in answer["errors"][0]["message"]
    shanghai = {**body, "variant": "shanghai", "discard": "2C"}  # deals 11: 11 and a discard
    assert post(client, "contract", shanghai)["valid"] is True


def test_a_discard_without_going_out_or_of_two_cards_is_a_400(client: FlaskClient) -> None:
    body = {"variant": "contract", "round": 1, "melds": ["7H 7S 7D", "KC KD KS"], "discard": "2C"}
    assert post(client, "contract", body, 400)["error"]["code"] == "discard_needs_going_out"
    body = {**body, "going_out": True, "discard": "2C 3C"}
    answer = post(client, "contract", body, 400)
    assert answer["error"]["code"] == "wrong_type" and answer["error"]["field"] == "discard"
    bad = post(client, "contract", {**body, "discard": "ZZ"}, 400)
    assert bad["error"]["code"] == "bad_card" and bad["error"]["input"] == "ZZ"


# -- contract_down -------------------------------------------------------------------------------


def test_contract_down_decides_a_lay_off_and_unsaid_it_names_the_condition(
    client: FlaskClient,
) -> None:
    body = {"variant": "contract", "meld": "4C 5C 6C 7C", "cards": "8C"}
    unsaid = post(client, "layoff", body)
    assert unsaid["valid"] is True and unsaid["errors"] == []
    assert [c["code"] for c in unsaid["conditions"]] == ["once_contract_down_next_turn"]
    assert unsaid["conditions"][0]["message"] == (
        "Valid once your contract is down, from your next turn."
    )
    this_turn = post(client, "layoff", {**body, "contract_down": "this_turn"})
    assert this_turn["valid"] is False and codes(this_turn) == ["layoff_same_turn_as_contract"]
    assert this_turn["conditions"] == []
    earlier = post(client, "layoff", {**body, "contract_down": "earlier_turn"})
    assert earlier["valid"] is True and earlier["conditions"] == []
    shanghai = post(client, "layoff", {**body, "variant": "shanghai", "contract_down": "this_turn"})
    assert shanghai["valid"] is True
    rummy = post(client, "layoff", {**body, "variant": "rummy", "contract_down": "no"})
    assert rummy["valid"] is True and rummy["conditions"] == []


def test_contract_down_must_be_one_of_three_words(client: FlaskClient) -> None:
    body = {"variant": "contract", "meld": "4C 5C 6C 7C", "cards": "8C", "contract_down": "yes"}
    answer = post(client, "layoff", body, 400)
    assert answer["error"]["code"] == "wrong_type" and answer["error"]["field"] == "contract_down"
    assert "this_turn" in answer["error"]["message"]


# -- declared jokers and the contract's words ----------------------------------------------------


def test_declared_jokers_over_json(client: FlaskClient) -> None:
    answer = post(client, "meld", {"variant": "zioncheck-nl", "cards": "5H 6H 7H JK"})
    assert answer["valid"] is False and codes(answer) == ["joker_not_declared"]
    assert answer["errors"][0]["message"] == (
        "Say which card the joker stands for, like JK=4♥: here it could be 4♥ or 8♥."
    )
    declared = post(client, "meld", {"variant": "zioncheck-nl", "cards": "5H 6H 7H JK=8H"})
    assert declared["valid"] is True and declared["jokers"] == [{"card": "JK", "as": "8H"}]


# -- the whole deal over /api/v1/games -----------------------------------------------------------


def test_round_seven_below_the_whole_deal_is_refused_over_the_games_api(
    client: FlaskClient,
) -> None:
    game = new_game(client, "contract", ["Ann", "Bo", "Cy"])
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    url = f"/api/v1/games/{game['id']}/rounds"
    for number in range(1, 7):
        results = [
            {"player": "Ann", "went_out": True},
            {"player": "Bo", "penalty": 20},
            {"player": "Cy", "penalty": 25},
        ]
        assert (
            client.post(url, json={"round": number, "results": results}, headers=auth).status_code
            == 200
        )
    results = [
        {"player": "Ann", "went_out": True},
        {"player": "Bo", "penalty": 5},
        {"player": "Cy", "penalty": 60},
    ]
    answer = client.post(url, json={"round": 7, "results": results}, headers=auth)
    assert answer.status_code == 400
    error = answer.get_json()["errors"][0]
    assert (error["code"], error["player"], error["field"]) == (
        "penalty_below_whole_hand",
        "Bo",
        "penalty",
    )
    assert "12" in error["message"] and "60" in error["message"] and "Bo" in error["message"]
    results[1] = {"player": "Bo", "penalty": 60}
    assert client.post(url, json={"round": 7, "results": results}, headers=auth).status_code == 200


def test_rummy_has_no_round_without_a_winner_over_the_games_api(client: FlaskClient) -> None:
    game = new_game(client, "rummy", ["Ann", "Bo"])
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    results = [{"player": "Ann", "penalty": 10}, {"player": "Bo", "penalty": 20}]
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds", json={"round": 1, "results": results}, headers=auth
    )
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == "no_player_out"
