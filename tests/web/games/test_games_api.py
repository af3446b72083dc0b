"""The games JSON API of SPEC.md: shapes, tokens, refusals with translated reasons, 409."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient


def _create(client: FlaskClient, **extra: Any) -> dict[str, Any]:
    body = {"variant": "contract", "players": ["Ann", "Bo", "Cy"], **extra}
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 201, response.get_json()
    created: dict[str, Any] = response.get_json()
    return created


def _round(n: int, bo: int = 25) -> dict[str, Any]:
    return {
        "round": n,
        "results": [
            {"player": "Ann", "went_out": True},
            {"player": "Bo", "penalty": bo},
            {"player": "Cy", "cards": ["7H", "QS", "JK"]},
        ],
    }


def test_create_answers_the_spec_shape(client: FlaskClient) -> None:
    game = _create(client, first_dealer="Bo")
    for key in ("id", "edit_token", "view_url", "edit_url", "variant", "players", "rounds",
                "totals", "finished", "winner", "version"):  # fmt: skip
        assert key in game
    assert game["view_url"].endswith(f"/games/{game['id']}")
    assert game["edit_token"] in game["edit_url"]
    assert game["totals"] == {"Ann": 0, "Bo": 0, "Cy": 0} and game["rounds"] == []
    assert game["next_round"]["dealer"] == "Bo" and game["next_round"]["starter"] == "Cy"


def test_rounds_need_the_token_and_follow_the_rules(client: FlaskClient) -> None:
    game = _create(client)
    url = f"/api/v1/games/{game['id']}/rounds"
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    missing = client.post(url, json=_round(1))  # no token: 401, and how to send one
    assert missing.status_code == 401 and missing.headers["WWW-Authenticate"].startswith("Bearer")
    assert (
        client.post(url, json=_round(1), headers={"Authorization": "Bearer nope"}).status_code
        == 403
    )
    answer = client.post(url, json=_round(1), headers=auth)
    assert answer.status_code == 200
    data = answer.get_json()
    assert data["rounds"][0] == {
        "round": 1,
        "contract": "2 sets of 3",
        "dealer": "Ann",
        "deal": 10,
        "scores": {"Ann": 0, "Bo": 25, "Cy": 30},
        "went_out": "Ann",
        "results": data["rounds"][0]["results"],
    }
    assert data["totals"] == {"Ann": 0, "Bo": 25, "Cy": 30} and data["version"] == 2
    # a round skipped
    skipped = client.post(url, json=_round(3), headers=auth)
    assert skipped.status_code == 400
    assert skipped.get_json()["error"]["code"] == "round_out_of_order"
    # stale version
    stale = client.post(url, json={**_round(2), "version": 1}, headers=auth)
    assert stale.status_code == 409 and stale.get_json()["error"]["version"] == 2
    # correction
    fixed = client.put(f"{url}/1", json={**_round(1, bo=40), "version": 2}, headers=auth)
    assert fixed.status_code == 200 and fixed.get_json()["totals"]["Bo"] == 40
    read = client.get(f"/api/v1/games/{game['id']}")
    assert read.get_json()["version"] == 3
    etag = read.headers["ETag"]
    assert (
        client.get(f"/api/v1/games/{game['id']}", headers={"If-None-Match": etag}).status_code
        == 304
    )


def test_refusals_are_translated(client: FlaskClient) -> None:
    game = _create(client)
    url = f"/api/v1/games/{game['id']}/rounds"
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    body = _round(1)
    body["results"][1] = {"player": "Bo", "went_out": True}
    body["lang"] = "de"
    answer = client.post(url, json=body, headers=auth)
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["code"] == "two_players_out"
    assert "Ann" in error["message"] and "Bo" in error["message"]
    impossible = _round(1, bo=7)
    answer = client.post(url + "?lang=fr", json=impossible, headers=auth)
    assert answer.get_json()["error"]["code"] == "impossible_penalty"
    english = client.post(url, json=impossible, headers=auth).get_json()["error"]["message"]
    assert answer.get_json()["error"]["message"] != english
    bad_card = _round(1)
    bad_card["results"][2] = {"player": "Cy", "cards": "7H ZZ"}
    answer = client.post(url, json=bad_card, headers=auth).get_json()["error"]
    assert answer["code"] == "bad_card" and answer["input"] == "ZZ"


def test_bad_bodies_are_json_4xx(client: FlaskClient) -> None:
    assert (
        client.post("/api/v1/games", data="nope", content_type="application/json").status_code
        == 400
    )
    answer = client.post("/api/v1/games", json={"variant": "poker", "players": ["A", "B", "C"]})
    assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "unknown_variant"
    answer = client.post("/api/v1/games", json={"variant": "contract", "players": ["A", "A", "C"]})
    assert answer.get_json()["error"]["code"] == "duplicate_name"
    assert client.get("/api/v1/games/does-not-exist-at-all").status_code == 404
    game = _create(client)
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    answer = client.post(f"/api/v1/games/{game['id']}/rounds", json={"round": "x"}, headers=auth)
    assert answer.status_code == 400 and "error" in answer.get_json()
    answer = client.put(f"/api/v1/games/{game['id']}/rounds/4", json=_round(4), headers=auth)
    assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "no_such_round"


def test_rummy_game_to_the_target(client: FlaskClient) -> None:
    game = client.post(
        "/api/v1/games",
        json={"variant": "rummy", "players": ["You", "Ada", "Bo"], "house_rules": {"target": 50}},
    ).get_json()
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    body = {
        "round": 1,
        "results": [
            {"player": "You", "went_out": True, "rummy": True},
            {"player": "Ada", "cards": "3D 8D AC 5S"},
            {"player": "Bo", "cards": "7D 6C 2D 3C"},
        ],
    }
    data = client.post(f"/api/v1/games/{game['id']}/rounds", json=body, headers=auth).get_json()
    assert data["rounds"][0]["scores"] == {"You": 70, "Ada": 0, "Bo": 0}
    assert data["rounds"][0]["contract"] is None
    assert data["finished"] and data["winner"] == "You"


def test_odd_values_are_a_400_never_a_500(client: FlaskClient) -> None:
    game = _create(client)
    url = f"/api/v1/games/{game['id']}/rounds"
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    for penalty in ("²", "٢٥", "1e3", 25.0, " 25 "):
        body = _round(1)
        body["results"][1] = {"player": "Bo", "penalty": penalty}
        answer = client.post(url, json=body, headers=auth)
        if penalty == " 25 ":
            assert answer.status_code == 200
            continue
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "not_a_number"
    # The language is text naming one of ours (the referee's calls read it the same way).
    for lang, code in ((["de"], "bad_input"), ({"x": 1}, "bad_input"), (5, "bad_input"),
                       ("xx", "bad_language")):  # fmt: skip
        answer = client.post(url, json={**_round(2), "lang": lang}, headers=auth)
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == code
        assert answer.get_json()["error"]["field"] == "lang"
        body = {"variant": "contract", "lang": lang, "players": ["A", "B", "C"]}
        answer = client.post("/api/v1/games", json=body)
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == code
    for number in (2, 3, 4):
        answer = client.post(url, json={**_round(number), "lang": " DE "}, headers=auth)
        assert answer.status_code == 200, answer.get_json()
    for version in (10**30, -(10**30), 0):
        answer = client.post(url, json={**_round(5), "version": version}, headers=auth)
        assert answer.status_code == 409 and answer.get_json()["error"]["version"] == 5


def test_a_refused_round_answers_every_reason_with_its_player_and_field(
    client: FlaskClient,
) -> None:
    game = _create(client, variant="frustration", players=["Ann", "Bo", "Cy", "Di"])
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    body: dict[str, Any] = {
        "round": 1,
        "results": [
            {"player": "Ann", "went_out": True},
            {"player": "Bo", "penalty": 7, "buys": 4},
            {"player": "Cy", "cards": "7H 7H 7H"},
            {"player": "Di", "cards": "5H ZZ"},
        ],
    }
    answer = client.post(f"/api/v1/games/{game['id']}/rounds", json=body, headers=auth)
    assert answer.status_code == 400
    data = answer.get_json()
    found = [(e["code"], e.get("player"), e.get("field")) for e in data["errors"]]
    assert found == [("bad_card", "Di", "cards")]  # unreadable input first, on its own
    body["results"][3] = {"player": "Di", "penalty": 20}
    data = client.post(f"/api/v1/games/{game['id']}/rounds", json=body, headers=auth).get_json()
    found = [(e["code"], e.get("player"), e.get("field")) for e in data["errors"]]
    assert found == [
        ("too_many_buys", "Bo", "buys"),
        ("impossible_penalty", "Bo", "penalty"),
        ("too_many_copies", "Cy", "cards"),
    ]
    assert data["error"] == data["errors"][0]
    assert all(e["message"] for e in data["errors"])
    assert "Cy" in data["errors"][2]["message"]  # a sentence without the name gets it in front


def test_a_finished_game_names_its_winners(client: FlaskClient) -> None:
    game = _create(client)
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    for number in range(1, 8):
        # Round 7 is laid down only by going out: every other hand still holds 12 cards.
        low, high = (10, 20) if number < 7 else (60, 80)
        results = [
            {"player": "Ann", "went_out": True}
            if number % 2
            else {"player": "Ann", "penalty": low},
            {"player": "Bo", "penalty": low} if number % 2 else {"player": "Bo", "went_out": True},
            {"player": "Cy", "penalty": high},
        ]
        data = client.post(
            f"/api/v1/games/{game['id']}/rounds",
            json={"round": number, "results": results},
            headers=auth,
        ).get_json()
        assert data["winners"] == ([] if number < 7 else ["Ann"])
    assert data["finished"] and data["winner"] == "Ann"


def test_every_refused_body_answers_error_and_errors(client: FlaskClient) -> None:
    game = _create(client)
    url = f"/api/v1/games/{game['id']}/rounds"
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    for data, code in (
        ("{broken", "bad_json"),
        ("[1, 2]", "not_an_object"),
        ("[" * 5000, "bad_json"),
    ):
        answer = client.post(url, data=data, content_type="application/json", headers=auth)
        assert answer.status_code == 400, data[:20]
        body = answer.get_json()
        assert body["error"]["code"] == code and body["errors"] == [body["error"]]
    wrong = client.post(url, json=_round(1), headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403 and wrong.get_json()["error"]["code"] == "bad_token"
    assert wrong.get_json()["error"]["message"]
    huge = client.post(url, json={"round": 1, "note": "x" * 70_000}, headers=auth)
    assert huge.status_code == 413 and huge.get_json()["error"]["code"] == "payload_too_large"


def test_cards_that_are_not_text_are_a_reason_about_the_cards(client: FlaskClient) -> None:
    game = _create(client)
    body = _round(1)
    body["results"][2] = {"player": "Cy", "cards": {"7H": 1}}
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    answer = client.post(f"/api/v1/games/{game['id']}/rounds", json=body, headers=auth)
    assert answer.status_code == 400
    assert [(e["code"], e["player"], e["field"]) for e in answer.get_json()["errors"]] == [
        ("bad_input", "Cy", "cards")
    ]
