"""The referee over JSON (SPEC.md "JSON API, version 1"): variants, meld, contract, layoff,
penalty and solve, their answers in SPEC's shapes and in six languages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.engine.variants import HOUSE_RULES, VARIANTS
from referee.web import create_app

LANGUAGES = ("en", "de", "nl", "pt", "fr", "es")


@pytest.fixture(scope="module")
def api_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    # One app for the module: these calls keep no state, and hypothesis-free tests stay quick.
    instance: Path = tmp_path_factory.mktemp("api-instance")
    yield create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": f"sqlite:///{instance / 'db.sqlite3'}",
        },
        instance_path=str(instance),
    )


@pytest.fixture
def api(api_app: Flask) -> FlaskClient:
    return api_app.test_client()


def post(api: FlaskClient, call: str, body: Any, status: int = 200) -> dict[str, Any]:
    response = api.post(f"/api/v1/{call}", json=body)
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.is_json
    data = response.get_json()
    assert isinstance(data, dict)
    return data


# -- GET /api/v1/variants ------------------------------------------------------------------


def test_variants_lists_every_variant_with_its_full_data(api: FlaskClient) -> None:
    response = api.get("/api/v1/variants")
    assert response.status_code == 200
    variants = response.get_json()["variants"]
    assert [v["id"] for v in variants] == list(VARIANTS)
    assert [v["id"] for v in variants][:4] == ["contract", "shanghai", "zioncheck-nl", "rummy"]
    by_id = {v["id"]: v for v in variants}
    contract = by_id["contract"]
    for key in ("rounds", "shoe", "card_values", "melds", "house_rules", "players"):
        assert key in contract
    assert set(contract["house_rules"]) == set(HOUSE_RULES)
    assert len(contract["rounds"]) == 7
    assert contract["rounds"][1]["contract"] == {"sets": 1, "runs": 1, "set_size": 3, "run_size": 4}
    assert contract["rounds"][1]["contract_text"] == "1 set of 3 and 1 run of 4"
    assert contract["rounds"][6]["deal"] == 12
    assert by_id["shanghai"]["house_rules"]["max_jokers_per_meld"] == 1
    assert by_id["rummy"]["rounds"] == []
    assert by_id["rummy"]["target"] == 100
    assert by_id["rummy"]["card_values"]["A"] == 1
    assert by_id["zioncheck-nl"]["rounds"][2]["contract_text"] == "2 runs of 3"
    assert all(v["summary"] for v in variants)
    rules = response.get_json()["house_rules"]
    assert set(rules) == set(HOUSE_RULES)
    assert rules["max_jokers_per_meld"] == {
        "kind": "optional_int",
        "label": "Jokers per meld",
        "help": "The most jokers one meld may hold; empty for no limit.",
        "low": 0,
        "high": 12,
    }
    assert {c["value"] for c in rules["aces"]["choices"]} == {"high_or_low", "low_only"}


def test_house_rules_are_described_in_the_request_language(api: FlaskClient) -> None:
    rules = api.get("/api/v1/variants?lang=de").get_json()["house_rules"]
    assert rules["buying"]["label"] == "Kaufen"
    assert rules["aces"]["choices"][1] == {"value": "low_only", "label": "nur niedrig"}


@pytest.mark.parametrize(
    ("lang", "name", "round_2"),
    [
        ("en", "Contract Rummy", "1 set of 3 and 1 run of 4"),
        ("de", "Kontrakt-Rommé", "1 Satz zu 3 und 1 Folge zu 4"),
        ("nl", "Contract-rommé", "1 set van 3 en 1 reeks van 4"),
        ("pt", "Rummy de Contrato", "uma trinca e uma sequência de 4"),
        ("fr", "Rami à contrats", "1 série de 3 et 1 suite de 4"),
        ("es", "Rummy de contratos", "1 trío de 3 y 1 escalera de 4"),
    ],
)
def test_variants_speak_the_request_language(
    api: FlaskClient, lang: str, name: str, round_2: str
) -> None:
    contract = api.get(f"/api/v1/variants?lang={lang}").get_json()["variants"][0]
    assert contract["name"] == name
    assert contract["rounds"][1]["contract_text"] == round_2
    by_header = api.get("/api/v1/variants", headers={"Accept-Language": lang})
    assert by_header.get_json()["variants"][0]["name"] == name


# -- POST /api/v1/meld ---------------------------------------------------------------------


def test_meld_a_set(api: FlaskClient) -> None:
    answer = post(api, "meld", {"variant": "contract", "cards": "7H 7S 7D"})
    assert answer == {
        "valid": True,
        "kind": "set",
        "cards": ["7D", "7H", "7S"],
        "jokers": [],
        "errors": [],
        "readings": [{"kind": "set", "cards": ["7D", "7H", "7S"], "jokers": []}],
        "ambiguous": False,
    }


def test_meld_a_run_is_ordered_and_the_joker_worked_out(api: FlaskClient) -> None:
    answer = post(api, "meld", {"variant": "contract", "cards": ["9h", "JK", "7♥", "10H"]})
    assert answer["valid"] is True
    assert answer["kind"] == "run"
    assert answer["cards"] == ["7H", "JK", "9H", "10H"]
    assert answer["jokers"] == [{"card": "JK", "as": "8H"}]
    assert answer["ambiguous"] is False


def test_meld_says_when_more_than_one_reading_fits(api: FlaskClient) -> None:
    answer = post(api, "meld", {"variant": "contract", "cards": "5S 6S 7S JK"})
    assert answer["valid"] is True
    assert answer["ambiguous"] is True
    stands_for = sorted(r["jokers"][0]["as"] for r in answer["readings"])
    assert stands_for == ["4S", "8S"]
    assert answer["jokers"] == answer["readings"][0]["jokers"]


def test_meld_declared_joker_is_held_to_its_declaration(api: FlaskClient) -> None:
    answer = post(api, "meld", {"variant": "contract", "cards": "5S 6S 7S JK=8S"})
    assert answer["jokers"] == [{"card": "JK", "as": "8S"}]
    assert answer["ambiguous"] is False
    wrong = post(api, "meld", {"variant": "contract", "cards": "5S 6S 7S JK=8H"})
    assert wrong["valid"] is False
    assert wrong["errors"][0]["code"] == "joker_declaration_mismatch"
    assert wrong["kind"] is None


def test_meld_not_a_meld_says_why(api: FlaskClient) -> None:
    answer = post(api, "meld", {"variant": "contract", "cards": "7H 8S KD"})
    assert answer["valid"] is False
    assert answer["kind"] is None
    assert answer["cards"] == ["7H", "8S", "KD"]
    assert answer["readings"] == []
    assert [e["code"] for e in answer["errors"]] == ["not_same_rank_or_suit"]
    assert answer["errors"][0]["message"]


def test_meld_around_the_corner_is_refused(api: FlaskClient) -> None:
    answer = post(api, "meld", {"variant": "contract", "cards": "KH AH 2H"})
    assert answer["valid"] is False
    assert answer["errors"][0]["code"] == "run_around_the_corner"


@pytest.mark.parametrize(
    ("variant", "cards", "code"),
    [
        ("rummy", "7H JK 9H", "jokers_not_allowed"),
        ("rummy", "7H 7H 7S", "too_many_copies"),
        ("zioncheck-nl", "QC QC QC", "too_many_copies"),
        ("shanghai", "5S JK JK", "too_many_jokers"),
    ],
)
def test_a_card_that_cannot_be_in_the_game_is_a_verdict_not_a_400(
    api: FlaskClient, variant: str, cards: str, code: str
) -> None:
    answer = post(api, "meld", {"variant": variant, "cards": cards})
    assert answer["valid"] is False
    assert code in [e["code"] for e in answer["errors"]]


def test_house_rules_override_the_variant(api: FlaskClient) -> None:
    body = {"variant": "shanghai", "cards": "5S JK JK"}
    assert post(api, "meld", body)["valid"] is False
    answer = post(api, "meld", {**body, "house_rules": {"max_jokers_per_meld": 2}})
    assert answer["valid"] is True
    assert answer["kind"] == "set"
    low_only = {"variant": "contract", "cards": "QD KD AD", "house_rules": {"aces": "low_only"}}
    assert post(api, "meld", low_only)["errors"][0]["code"] == "ace_low_only"


@pytest.mark.parametrize(
    ("lang", "word"),
    [
        ("en", "joker"),
        ("de", "Joker"),
        ("nl", "joker"),
        ("pt", "Coringa"),
        ("fr", "joker"),
        ("es", "comodín"),
    ],
)
def test_meld_messages_in_six_languages(api: FlaskClient, lang: str, word: str) -> None:
    answer = post(api, "meld", {"variant": "shanghai", "cards": "5S JK JK", "lang": lang})
    message = answer["errors"][0]["message"]
    assert word in message
    english = post(api, "meld", {"variant": "shanghai", "cards": "5S JK JK"})
    if lang != "en":
        assert message != english["errors"][0]["message"]


def test_lang_also_reads_the_local_rank_letters(api: FlaskClient) -> None:
    german = post(api, "meld", {"variant": "contract", "cards": "DC DH DS", "lang": "de"})
    assert german["cards"] == ["QC", "QH", "QS"]
    dutch = post(api, "meld", {"variant": "contract", "cards": "HC HH HS", "lang": "nl"})
    assert dutch["cards"] == ["KC", "KH", "KS"]
    by_query = api.post("/api/v1/meld?lang=pt", json={"variant": "contract", "cards": "RC RD RS"})
    assert by_query.get_json()["cards"] == ["KC", "KD", "KS"]


def test_lang_nl_also_reads_a_dutch_tables_suit_letters(api: FlaskClient) -> None:
    run = post(api, "meld", {"variant": "contract", "cards": "8R 9R 10R BR", "lang": "nl"})
    assert run["valid"] and run["cards"] == ["8D", "9D", "10D", "JD"]
    clubs = post(api, "meld", {"variant": "contract", "cards": "VK VC VH", "lang": "nl"})
    assert clubs["cards"] == ["QC", "QC", "QH"]
    english = api.post("/api/v1/meld", json={"variant": "contract", "cards": "8R 9R 10R"})
    assert english.status_code == 400 and english.get_json()["error"]["code"] == "bad_card"


# -- POST /api/v1/contract -----------------------------------------------------------------


def test_contract_met(api: FlaskClient) -> None:
    body = {"variant": "contract", "round": 2, "melds": ["7H 7S 7D", ["4C", "5C", "6C", "7C"]]}
    answer = post(api, "contract", body)
    assert answer["valid"] is True
    assert answer["errors"] == []
    assert [m["kind"] for m in answer["melds"]] == ["set", "run"]
    assert answer["melds"][1]["cards"] == ["4C", "5C", "6C", "7C"]


def test_contract_wrong_melds_say_what_was_asked(api: FlaskClient) -> None:
    body = {"variant": "contract", "round": 1, "melds": ["7H 7S 7D", "4C 5C 6C 7C"]}
    answer = post(api, "contract", {**body, "lang": "de"})
    assert answer["valid"] is False
    error = answer["errors"][0]
    assert error["code"] == "wrong_sets_and_runs"
    assert error["meld"] is None
    assert "2 Sätze" in error["message"]


def test_contract_error_says_which_meld(api: FlaskClient) -> None:
    body = {"variant": "contract", "round": 2, "melds": ["7H 7S 7D", "4C 5C 6C"]}
    answer = post(api, "contract", body)
    assert answer["valid"] is False
    about_second = [e for e in answer["errors"] if e["meld"] == 1]
    assert about_second and about_second[0]["code"] == "contract_run_too_short"
    assert answer["melds"][1]["errors"][0]["code"] == "contract_run_too_short"
    assert about_second[0]["message"] == "This contract needs runs of 4 cards; this one has 3."


def test_contract_runs_of_the_same_suit_and_start(api: FlaskClient) -> None:
    body = {"variant": "contract", "round": 3, "melds": ["4C 5C 6C 7C", "4C 5C 6C 7C"]}
    answer = post(api, "contract", body)
    assert answer["valid"] is False
    assert answer["errors"][0]["code"] == "runs_same_suit_and_start"
    assert answer["errors"][0]["meld"] == 1


def test_last_round_is_laid_down_only_by_going_out(api: FlaskClient) -> None:
    melds = ["4C 5C 6C 7C 8C", "4H 5H 6H 7H", "9S 10S JS QS"]  # 12 dealt + 1 drawn
    body = {"variant": "contract", "round": 7, "melds": melds}
    answer = post(api, "contract", body)
    assert answer["valid"] is False
    assert [e["code"] for e in answer["errors"]] == ["last_round_goes_out"]
    assert post(api, "contract", {**body, "going_out": True})["valid"] is True


def test_contract_for_rummy_is_a_400(api: FlaskClient) -> None:
    body = {"variant": "rummy", "round": 1, "melds": ["7H 7S 7D"], "lang": "es"}
    error = post(api, "contract", body, status=400)["error"]
    assert error["code"] == "no_contract"
    assert "Rummy básico" in error["message"]


# -- POST /api/v1/layoff -------------------------------------------------------------------


def test_layoff_extends_a_run(api: FlaskClient) -> None:
    answer = post(api, "layoff", {"variant": "contract", "meld": "4C 5C 6C", "cards": "3C 7C"})
    assert answer["valid"] is True
    assert answer["errors"] == []
    assert answer["meld"]["cards"] == ["3C", "4C", "5C", "6C", "7C"]


def test_layoff_that_does_not_fit(api: FlaskClient) -> None:
    answer = post(api, "layoff", {"variant": "contract", "meld": "4C 5C 6C", "cards": "9C"})
    assert answer["valid"] is False
    assert answer["errors"]
    assert answer["meld"]["valid"] is False


# -- POST /api/v1/penalty ------------------------------------------------------------------


def test_seed_002_worked_example(api: FlaskClient) -> None:
    """RULES.md: Ada holds 3♦ 8♦ A♣ 5♠ = 17, Bo holds 7♦ 6♣ 2♦ 3♣ = 18."""
    ada = post(api, "penalty", {"variant": "rummy", "cards": "3♦ 8♦ A♣ 5♠"})
    assert ada["penalty"] == 17
    assert ada["cards"] == [
        {"card": "3D", "points": 3},
        {"card": "8D", "points": 8},
        {"card": "AC", "points": 1},
        {"card": "5S", "points": 5},
    ]
    bo = post(api, "penalty", {"variant": "rummy", "cards": ["7D", "6C", "2D", "3C"]})
    assert bo["penalty"] == 18
    # Had Ada gone out first, you would have been left with all seven cards: 44.
    you = post(api, "penalty", {"variant": "rummy", "cards": "4H 5H 6H 9C 9D KS 2C"})
    assert you["penalty"] == 4 + 5 + 6 + 9 + 9 + 10 + 2


def test_penalty_values_follow_the_variant_and_house_rules(api: FlaskClient) -> None:
    assert post(api, "penalty", {"variant": "contract", "cards": "AS 10H 9D JK"})["penalty"] == 45
    assert post(api, "penalty", {"variant": "shanghai", "cards": "JK"})["penalty"] == 50
    body = {"variant": "contract", "cards": "JK", "house_rules": {"joker_points": 25}}
    assert post(api, "penalty", body)["penalty"] == 25
    assert post(api, "penalty", {"variant": "contract", "cards": ""})["penalty"] == 0


# -- POST /api/v1/solve --------------------------------------------------------------------


def test_solve_finds_the_contract_and_the_least_left(api: FlaskClient) -> None:
    body = {"variant": "contract", "round": 1, "hand": "7H 7S 7D KC KD KS 2C"}
    answer = post(api, "solve", body)
    assert answer["can_meet_contract"] is True
    assert sorted(m["kind"] for m in answer["melds"]) == ["set", "set"]
    assert all(m["valid"] and m["errors"] == [] for m in answer["melds"])
    assert answer["leftover"] == ["2C"]
    assert answer["leftover_penalty"] == 5
    assert answer["exact"] is True
    assert "missing" not in answer  # only a request that asks for the nearest gets it


def test_solve_when_the_contract_cannot_be_met(api: FlaskClient) -> None:
    body = {"variant": "contract", "round": 3, "hand": "4H 5H 6H 9C"}
    answer = post(api, "solve", body)
    assert answer["can_meet_contract"] is False
    assert answer["melds"] == []
    assert answer["leftover_penalty"] == 20  # the whole hand
    assert sorted(answer["leftover"]) == sorted(["4H", "5H", "6H", "9C"])


def test_solve_names_the_missing_cards_only_when_asked_nearest(api: FlaskClient) -> None:
    """SPEC: `missing` is in the answer only with `nearest`; 7 7 and 4-5-6 of spades lack one
    card each for round 2 (a set of 3 and a run of 4)."""
    body = {"variant": "contract", "round": 2, "hand": "7H 7C 4S 5S 6S KD 2C 9H QD 10C"}
    plain = post(api, "solve", body)
    asked = post(api, "solve", {**body, "nearest": True})
    assert "missing" not in plain and plain["exact"] is True
    assert len(asked["missing"]) == 2
    assert {k: v for k, v in asked.items() if k != "missing"} == plain
    assert post(api, "solve", {**body, "nearest": False}) == plain
    wrong = post(api, "solve", {**body, "nearest": "yes"}, status=400)
    assert wrong["error"]["code"] == "wrong_type" and wrong["error"]["field"] == "nearest"


def test_a_hand_longer_than_the_round_allows_is_too_many_cards(api: FlaskClient) -> None:
    """RULES.md "Hand sizes": contract's round 7 deals at most 12 cards (3-8 players), one is
    drawn and buying is off: 13 cards pass, 14 are a 400 before any search."""
    hand = "4H 5H 6H 7H 8C 9C 10C JC QS KS AS 2S 3D"
    assert post(api, "solve", {"variant": "contract", "round": 7, "hand": hand})["exact"]
    error = post(api, "solve", {"variant": "contract", "round": 7, "hand": hand + " 4D"}, 400)
    assert error["error"]["code"] == "too_many_cards"
    assert error["error"]["limit"] == 13
    assert "13" in error["error"]["message"] and "14" in error["error"]["message"]


RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def test_the_660_byte_request_is_refused_at_once(api: FlaskClient) -> None:
    """The request that once ran for minutes: round 7 with 180 cards and 20 jokers."""
    naturals = [f"{rank}{suit}" for suit in "CDHS" for rank in RANKS]
    hand = " ".join((naturals * 4)[:180] + ["JK"] * 20)
    error = post(api, "solve", {"variant": "contract", "round": 7, "hand": hand}, 400)
    assert error["error"]["code"] == "too_many_cards"


@pytest.mark.parametrize(
    ("variant", "house_rules", "limit"),
    [
        ("contract", {}, 11),  # round 1: 10 dealt + 1 drawn
        ("frustration", {}, 17),  # buying on: 3 buys of the discard and 1 penalty card
        ("frustration", {"buy_penalty_cards": 2}, 20),
        ("shanghai", {}, 18),  # 11 + 1 + 3 "May I?" buys of 2 cards
        ("zioncheck-nl", {}, 30),  # several discards at once: bounded at 30
        ("rummy", {}, 11),  # 10 dealt to two players, the largest deal
    ],
)
def test_hand_sizes_per_variant(
    api: FlaskClient, variant: str, house_rules: dict[str, Any], limit: int
) -> None:
    naturals = [f"{rank}{suit}" for suit in "CDHS" for rank in RANKS]
    body = {"variant": variant, "round": 1, "house_rules": house_rules}
    assert post(api, "solve", {**body, "hand": naturals[:limit]})["exact"] is True
    error = post(api, "solve", {**body, "hand": naturals[: limit + 1]}, 400)
    assert (error["error"]["code"], error["error"]["limit"]) == ("too_many_cards", limit)


@pytest.mark.parametrize("lang", ["en", "de", "nl", "pt", "fr", "es"])
def test_too_many_cards_is_said_in_every_language(api: FlaskClient, lang: str) -> None:
    body = {"variant": "contract", "round": 1, "hand": ["7H"] * 12, "lang": lang}
    message = post(api, "solve", body, 400)["error"]["message"]
    english = post(api, "solve", {**body, "lang": "en"}, 400)["error"]["message"]
    assert "11" in message and "12" in message
    assert (message == english) == (lang == "en")


def test_solve_for_rummy_ignores_the_round(api: FlaskClient) -> None:
    hand = "4H 5H 6H 9C 9D KS 2C 9S"
    without = post(api, "solve", {"variant": "rummy", "hand": hand})
    for rubbish in (0, 99, "3", True, None):
        assert post(api, "solve", {"variant": "rummy", "round": rubbish, "hand": hand}) == without
    assert without["leftover_penalty"] == 12  # K♠ and 2♣ stay
    assert sorted(without["leftover"]) == ["2C", "KS"]


# -- answers are JSON and never cached by a browser by mistake -----------------------------


def test_answers_are_json_with_security_headers(api: FlaskClient) -> None:
    response = api.post("/api/v1/meld", json={"variant": "contract", "cards": "7H 7S 7D"})
    assert response.mimetype == "application/json"
    assert response.headers["Cache-Control"] == "no-store"
    assert "Content-Security-Policy" in response.headers


def test_unknown_path_and_wrong_method_are_json(api: FlaskClient) -> None:
    missing = api.post("/api/v1/nope", json={})
    assert missing.status_code == 404 and missing.is_json
    wrong = api.get("/api/v1/meld")
    assert wrong.status_code == 405 and wrong.is_json
    assert "POST" in wrong.headers["Allow"]
