"""Bad input to the referee's JSON API: always a JSON 4xx with a translated reason, never a 500."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.web import create_app
from referee.web.jsonapi.bodies import MAX_BODY

CALLS = ("meld", "contract", "layoff", "penalty", "solve")

GOOD: dict[str, dict[str, Any]] = {
    "meld": {"variant": "contract", "cards": "7H 7S 7D"},
    "contract": {"variant": "contract", "round": 1, "melds": ["7H 7S 7D", "KC KD KS"]},
    "layoff": {"variant": "contract", "meld": "4C 5C 6C", "cards": "7C"},
    "penalty": {"variant": "contract", "cards": "7H 7S"},
    "solve": {"variant": "contract", "round": 1, "hand": "7H 7S 7D KC KD KS"},
}
CARD_FIELDS = {
    "meld": ("cards",),
    "contract": (),
    "layoff": ("meld", "cards"),
    "penalty": ("cards",),
    "solve": ("hand",),
}


@pytest.fixture(scope="module")
def api_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    instance: Path = tmp_path_factory.mktemp("api-errors")
    app = create_app(
        {"SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{instance / 'db.sqlite3'}"},
        instance_path=str(instance),
    )
    # Not TESTING: an exception must become the 500 a user would see, so the tests catch it.
    app.config["PROPAGATE_EXCEPTIONS"] = False
    yield app


@pytest.fixture
def api(api_app: Flask) -> FlaskClient:
    return api_app.test_client()


def refused(
    api: FlaskClient, call: str, data: bytes | str, status: int = 400, **kwargs: Any
) -> dict[str, Any]:
    response = api.post(f"/api/v1/{call}", data=data, content_type="application/json", **kwargs)
    assert response.status_code == status, (call, data[:200], response.get_data(as_text=True))
    assert response.is_json, response.get_data(as_text=True)[:200]
    error = response.get_json()["error"]
    assert isinstance(error["code"], str) and error["code"]
    assert isinstance(error["message"], str) and error["message"]
    assert "%(" not in error["message"]
    return dict(error)


def body(call: str, **changes: Any) -> str:
    data = {**GOOD[call], **changes}
    return json.dumps({k: v for k, v in data.items() if v is not ...})


def test_the_good_bodies_are_good(api: FlaskClient) -> None:
    for call in CALLS:
        assert api.post(f"/api/v1/{call}", json=GOOD[call]).status_code == 200


@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", "bad_json"),
        (b"not json", "bad_json"),
        (b"{'variant': 'contract'}", "bad_json"),
        (b"\xff\xfe{", "bad_json"),
        (b"[" * 20000 + b"]" * 20000, "bad_json"),
        (b"[]", "not_an_object"),
        (b'[{"variant": "contract"}]', "not_an_object"),
        (b'"text"', "not_an_object"),
        (b"42", "not_an_object"),
        (b"null", "not_an_object"),
        (b"{}", "missing_field"),
    ],
)
def test_a_body_that_is_not_a_json_object(
    api: FlaskClient, call: str, data: bytes, code: str
) -> None:
    assert refused(api, call, data)["code"] == code


@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize(
    ("changes", "code", "field"),
    [
        ({"variant": ...}, "missing_field", "variant"),
        ({"variant": None}, "missing_field", "variant"),
        ({"variant": "poker"}, "unknown_variant", None),
        ({"variant": 3}, "wrong_type", "variant"),
        ({"variant": ["contract"]}, "wrong_type", "variant"),
        ({"lang": "xx"}, "bad_language", None),
        ({"lang": 7}, "wrong_type", "lang"),
        ({"house_rules": {"wild_twos": True}}, "unknown_house_rule", None),
        ({"house_rules": {"max_jokers_per_meld": 99}}, "bad_house_rule", None),
        ({"house_rules": {"max_jokers_per_meld": "two"}}, "bad_house_rule", None),
        ({"house_rules": {"aces": "sideways"}}, "bad_house_rule", None),
        ({"house_rules": {"buying": 1}}, "bad_house_rule", None),
        ({"house_rules": {"contracts": []}}, "bad_house_rule", None),
        ({"house_rules": {"contracts": ["two sets and a pony"]}}, "bad_house_rule", None),
        ({"house_rules": {"min_players": 6, "max_players": 4}}, "bad_house_rule", None),
        ({"house_rules": {"rank_points": {"Z": 3}}}, "bad_house_rule", None),
        ({"house_rules": {"shoe": [{"decks": 2}]}}, "bad_house_rule", None),
        ({"house_rules": []}, "wrong_type", "house_rules"),
        ({"house_rules": "max_jokers_per_meld=2"}, "wrong_type", "house_rules"),
        ({"house_rules": False}, "wrong_type", "house_rules"),
    ],
)
def test_bad_variant_language_and_house_rules(
    api: FlaskClient, call: str, changes: dict[str, Any], code: str, field: str | None
) -> None:
    error = refused(api, call, body(call, **changes))
    assert error["code"] == code
    if field is not None:
        assert error["field"] == field


@pytest.mark.parametrize("call", ["contract", "solve"])
@pytest.mark.parametrize(
    ("number", "code"),
    [
        (..., "missing_field"),
        (0, "bad_round"),
        (99, "bad_round"),
        (-1, "bad_round"),
        ("3", "wrong_type"),
        (True, "wrong_type"),
        (2.0, "wrong_type"),
        (2.5, "wrong_type"),
        ([2], "wrong_type"),
        (10**30, "bad_round"),
    ],
)
def test_bad_round(api: FlaskClient, call: str, number: Any, code: str) -> None:
    assert refused(api, call, body(call, round=number))["code"] == code


def test_bad_round_message_names_the_rounds(api: FlaskClient) -> None:
    error = refused(api, "contract", body("contract", round=8, lang="nl"))
    assert "Ronde 8" in error["message"] and "1 tot en met 7" in error["message"]
    short = refused(api, "contract", body("contract", variant="short", round=6))
    assert "1 to 5" in short["message"]


@pytest.mark.parametrize(
    ("call", "field"),
    [(call, field) for call, fields in CARD_FIELDS.items() for field in fields],
)
@pytest.mark.parametrize(
    ("value", "code"),
    [
        (..., "missing_field"),
        (7, "wrong_type"),
        (True, "wrong_type"),
        ({"cards": "7H"}, "wrong_type"),
        (["7H", 7], "wrong_type"),
        (["7H", None], "wrong_type"),
        (["7H", ["7S"]], "wrong_type"),
        ("7H ZZ", "bad_card"),
        (["7H", "7S 7D"], "bad_card"),
        ("JK=JK", "bad_card"),
        ("7H=7S", "bad_card"),
        ("7H " * 10_000, "too_many_cards"),
    ],
)
def test_bad_cards(api: FlaskClient, call: str, field: str, value: Any, code: str) -> None:
    assert refused(api, call, body(call, **{field: value}))["code"] == code


def test_a_bad_card_names_the_token_in_the_request_language(api: FlaskClient) -> None:
    error = refused(api, "meld", body("meld", cards="7H 11X 7D", lang="fr"))
    assert error == {
        "code": "bad_card",
        "input": "11X",
        "message": "« 11X » n’est pas une carte. Écrivez une valeur et une couleur, "
        "comme 10H, D♠ ou JK.",
    }


def test_a_list_of_ten_thousand_cards(api: FlaskClient) -> None:
    error = refused(api, "penalty", body("penalty", cards=["7H"] * 10_000))
    assert error["code"] == "too_many_cards"
    assert error["limit"] == 200


@pytest.mark.parametrize(
    ("melds", "code"),
    [
        (..., "missing_field"),
        ("7H 7S 7D", "wrong_type"),
        ({"0": "7H 7S 7D"}, "wrong_type"),
        ([7], "wrong_type"),
        (["7H 7S 7D", [7]], "wrong_type"),
        (["7H 7S 7D", "7C ZZ 7D"], "bad_card"),
        (["7H"] * 21, "too_many_melds"),
        (["7H " * 150, "7S " * 60], "too_many_cards"),
    ],
)
def test_bad_contract_melds(api: FlaskClient, melds: Any, code: str) -> None:
    assert refused(api, "contract", body("contract", melds=melds))["code"] == code


@pytest.mark.parametrize("going_out", ["yes", 1, [True]])
def test_going_out_must_be_true_or_false(api: FlaskClient, going_out: Any) -> None:
    error = refused(api, "contract", body("contract", going_out=going_out, lang="de"))
    assert error["code"] == "wrong_type"
    assert error["message"] == "„going_out“ muss true oder false sein."


@pytest.mark.parametrize("lang", ["en", "de", "nl", "pt", "fr", "es"])
def test_errors_in_six_languages(api: FlaskClient, lang: str) -> None:
    messages = {
        refused(api, "meld", body("meld", variant="poker", lang=language))["message"]
        for language in ("en", lang)
    }
    assert len(messages) == (1 if lang == "en" else 2)
    # Not sent as JSON: a 415 (the body is not read), in the language the address asks for.
    response = api.post("/api/v1/meld", data=body("meld", variant="poker", lang=lang),
                        content_type="text/plain", query_string={"lang": lang})  # fmt: skip
    assert response.status_code == 415
    error = response.get_json()["error"]
    assert (
        error["code"] == "unsupported_media_type"
        and "Content-Type: application/json" in error["message"]
    )
    english = api.post("/api/v1/meld", data="{}", content_type="text/plain").get_json()
    assert (error["message"] == english["error"]["message"]) == (lang == "en")


def test_a_huge_body_is_a_json_413(api: FlaskClient) -> None:
    # A body that large is not read, so its language comes from the address (or the browser).
    data = body("penalty", note="x" * (MAX_BODY + 1))
    error = refused(api, "penalty", data, status=413, query_string={"lang": "pt"})
    assert error["code"] == "payload_too_large"
    assert error["limit"] == MAX_BODY
    assert "grande demais" in error["message"]


def test_a_huge_body_without_a_length_is_cut_off(api: FlaskClient) -> None:
    data = body("penalty", note="x" * (MAX_BODY * 2))
    # Chunked: the server learns the size only while reading.
    response = api.post(
        "/api/v1/penalty",
        data=data,
        content_type="application/json",
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "payload_too_large"


# -- hypothesis: whatever JSON comes, the answer is JSON and never a 500 ---------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["7H", "JK", "JK=8H", "10♠", "DC", "", "7H 7S 7D", "contract", "rummy"]),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=20,
)
FIELDS = [
    "variant",
    "cards",
    "round",
    "melds",
    "meld",
    "hand",
    "lang",
    "going_out",
    "house_rules",
    "players",
    "game",
    "discard",
    "contract_down",
]
bodies = st.one_of(
    json_values,
    st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=6),
    st.fixed_dictionaries(
        {"variant": st.sampled_from(["contract", "shanghai", "zioncheck-nl", "rummy", "short"])},
        optional={
            "cards": json_values,
            "round": st.integers(-2, 9) | json_values,
            "melds": st.lists(
                st.lists(st.sampled_from(["7H", "7S", "7D", "JK", "8H", "9H", "AH", "KH"]))
                | json_values,
                max_size=4,
            ),
            "meld": json_values,
            "hand": json_values,
            "house_rules": st.dictionaries(
                st.sampled_from(
                    [
                        "max_jokers_per_meld",
                        "aces",
                        "contracts",
                        "deal",
                        "buying",
                        "going_out_discard",
                        "stock_reshuffles",
                        # the fourth reading's: a table's size, sets of one rank, no buying
                        "max_players",
                        "distinct_set_ranks",
                        "buy_limit",
                        "max_set_size",
                    ]
                ),
                json_values,
                max_size=2,
            ),
            "going_out": json_values,
            "discard": st.sampled_from(["2C", "JK", "2C 3C"]) | json_values,
            "players": st.integers(-1, 10) | json_values,
            "game": json_values,
            "contract_down": st.sampled_from(["no", "this_turn", "earlier_turn"]) | json_values,
            "lang": st.sampled_from(["en", "de", "xx"]) | json_values,
        },
    ),
)


@pytest.mark.parametrize("call", CALLS)
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=bodies)
def test_any_json_body_is_answered_without_a_500(api: FlaskClient, call: str, data: Any) -> None:
    response = api.post(f"/api/v1/{call}", data=json.dumps(data), content_type="application/json")
    # 404: a `game` that names no game.
    assert response.status_code in (200, 400, 404), (data, response.get_data(as_text=True)[:300])
    assert response.is_json
    answer = response.get_json()
    if response.status_code in (400, 404):
        assert answer["error"]["code"] and answer["error"]["message"]
    else:
        assert "error" not in answer
