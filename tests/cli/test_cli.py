"""`python -m referee`: the API's calls on the command line, the same JSON with --json."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.cli import main
from referee.web import create_app

ROOT = Path(__file__).resolve().parents[2]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def api_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    instance = tmp_path_factory.mktemp("cli-api")
    yield create_app(
        {"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{instance / 'db'}"},
        instance_path=str(instance),
    )


@pytest.fixture
def api(api_app: Flask) -> FlaskClient:
    return api_app.test_client()


# The same question asked both ways: (CLI arguments, API call, API body).
SAME_QUESTIONS: list[tuple[list[str], str, dict[str, Any]]] = [
    (["meld", "7H", "JK", "9H"], "meld", {"variant": "contract", "cards": "7H JK 9H"}),
    (
        ["meld", "5S 6S 7S JK", "--lang", "de"],
        "meld",
        {"variant": "contract", "cards": "5S 6S 7S JK", "lang": "de"},
    ),
    (
        ["meld", "--variant", "rummy", "7H 7H 7S", "--lang", "fr"],
        "meld",
        {"variant": "rummy", "cards": "7H 7H 7S", "lang": "fr"},
    ),
    (
        ["meld", "--variant", "shanghai", "--house-rule", "max_jokers_per_meld=2", "JK 5S JK"],
        "meld",
        {"variant": "shanghai", "cards": "JK 5S JK", "house_rules": {"max_jokers_per_meld": 2}},
    ),
    (
        ["contract", "--round", "2", "7H 7S 7D", "4C 5C 6C JK", "--lang", "nl"],
        "contract",
        {"variant": "contract", "round": 2, "melds": ["7H 7S 7D", "4C 5C 6C JK"], "lang": "nl"},
    ),
    (
        [
            "contract",
            "--round",
            "7",
            "--going-out",
            "4C 5C 6C 7C 8C",
            "4H 5H 6H 7H",
            "9S 10S JS QS",
        ],
        "contract",
        {
            "variant": "contract",
            "round": 7,
            "melds": ["4C 5C 6C 7C 8C", "4H 5H 6H 7H", "9S 10S JS QS"],
            "going_out": True,
        },
    ),
    (
        ["contract", "--round", "1", "7H 7S 7D", "KC KD", "--lang", "pt"],
        "contract",
        {"variant": "contract", "round": 1, "melds": ["7H 7S 7D", "KC KD"], "lang": "pt"},
    ),
    (
        ["layoff", "4C 5C 6C", "3C", "7C", "--lang", "es"],
        "layoff",
        {"variant": "contract", "meld": "4C 5C 6C", "cards": "3C 7C", "lang": "es"},
    ),
    (
        ["penalty", "--variant", "rummy", "3D", "8D", "AC", "5S"],
        "penalty",
        {"variant": "rummy", "cards": "3D 8D AC 5S"},
    ),
    (
        ["solve", "--round", "1", "7H 7S 7D KC KD KS 2C"],
        "solve",
        {"variant": "contract", "round": 1, "hand": "7H 7S 7D KC KD KS 2C"},
    ),
    (
        ["solve", "--variant", "rummy", "4H 5H 6H 9C 9D KS 2C 9S", "--lang", "de"],
        "solve",
        {"variant": "rummy", "hand": "4H 5H 6H 9C 9D KS 2C 9S", "lang": "de"},
    ),
]


@pytest.mark.parametrize(("argv", "call", "body"), SAME_QUESTIONS)
def test_json_output_equals_the_apis_answer(
    api: FlaskClient, argv: list[str], call: str, body: dict[str, Any]
) -> None:
    status, out, err = run(*argv, "--json")
    response = api.post(f"/api/v1/{call}", json=body)
    assert response.status_code == 200
    assert json.loads(out) == response.get_json()
    assert err == ""
    answer = response.get_json()
    # `can_meet_contract` is null for rummy: nothing to meet, an answer all the same.
    met = answer.get("valid", True) and answer.get("can_meet_contract") is not False
    expected = 0 if met else 1
    assert status == expected


@pytest.mark.parametrize(
    ("argv", "call", "body"),
    [
        (["meld", "7H", "ZZ", "--lang", "de"], "meld", {"variant": "contract", "cards": "7H ZZ"}),
        (
            ["contract", "--variant", "rummy", "--round", "1", "7H 7S 7D"],
            "contract",
            {"variant": "rummy", "round": 1, "melds": ["7H 7S 7D"]},
        ),
        (
            ["contract", "--round", "three", "7H 7S 7D"],
            "contract",
            {"variant": "contract", "round": "three", "melds": ["7H 7S 7D"]},
        ),
        (
            ["contract", "7H 7S 7D"],
            "contract",
            {"variant": "contract", "melds": ["7H 7S 7D"]},
        ),
        (["meld", "--variant", "poker", "7H"], "meld", {"variant": "poker", "cards": "7H"}),
        (
            ["meld", "--house-rule", "wild_twos=true", "7H"],
            "meld",
            {"variant": "contract", "cards": "7H", "house_rules": {"wild_twos": True}},
        ),
        (
            ["meld", "--house-rule", "aces=sideways", "7H"],
            "meld",
            {"variant": "contract", "cards": "7H", "house_rules": {"aces": "sideways"}},
        ),
        (
            ["solve", "--round", "9", "7H"],
            "solve",
            {"variant": "contract", "round": 9, "hand": "7H"},
        ),
    ],
)
def test_bad_input_exits_2_with_the_apis_error(
    api: FlaskClient, argv: list[str], call: str, body: dict[str, Any]
) -> None:
    status, out, err = run(*argv, "--json")
    response = api.post(f"/api/v1/{call}", json={**body, **_lang_of(argv)})
    assert response.status_code == 400
    assert status == 2
    assert json.loads(out) == response.get_json()
    assert err.strip() == response.get_json()["error"]["message"]


def _lang_of(argv: list[str]) -> dict[str, str]:
    return {"lang": argv[argv.index("--lang") + 1]} if "--lang" in argv else {}


def test_human_readable_meld() -> None:
    status, out, err = run("meld", "9h", "JK", "7♥")
    assert status == 0
    assert out.splitlines() == ["Valid: 7♥ joker 9♥ (run)", "  joker as 8♥"]
    assert err == ""


def test_human_readable_in_german_with_local_letters() -> None:
    status, out, _ = run("meld", "--lang", "de", "DC DH DS")
    assert status == 0
    assert out.strip() == "Gültig: D♣ D♥ D♠ (Satz)"


def test_invalid_meld_exits_1_with_the_reason() -> None:
    status, out, _ = run("meld", "--variant", "rummy", "QD", "KD", "AD")
    assert status == 1
    assert out.splitlines()[0] == "Not valid: Q♦ K♦ A♦"
    assert "ace is low only" in out


def test_ambiguous_meld_lists_the_readings() -> None:
    status, out, _ = run("meld", "5S 6S 7S JK", "--lang", "es")
    assert status == 0
    assert "Encaja más de una lectura:" in out
    assert "comodín 5♠ 6♠ 7♠ (escalera)" in out
    assert "5♠ 6♠ 7♠ comodín (escalera)" in out


def test_human_readable_contract_names_the_contract_and_the_meld() -> None:
    status, out, _ = run("contract", "--round", "2", "7H 7S 7D", "4C 5C 6C")
    assert status == 1
    assert out.splitlines()[0] == "The contract is not met: 1 set of 3 and 1 run of 4."
    assert "- Meld 2: This contract needs runs of 4 cards; this one has 3." in out


def test_human_readable_penalty_and_solve() -> None:
    status, out, _ = run("penalty", "--variant", "rummy", "--lang", "nl", "7D 6C 2D 3C")
    assert status == 0
    assert out.splitlines()[0] == "Straf: 18 punten"
    status, out, _ = run("solve", "--round", "3", "4H 5H 6H 9C")
    assert status == 1
    assert out.splitlines()[0] == "The hand cannot meet the contract yet."
    assert "Penalty left: 20 points" in out


def test_solve_names_missing_cards_with_nearest() -> None:
    hand = "7H 7C 4S 5S 6S KD 2C 9H QD 10C"
    status, out, _ = run("solve", "--round", "2", hand)
    assert status == 1 and "Still missing" not in out
    status, out, _ = run("solve", "--round", "2", "--nearest", hand)
    assert status == 1 and "Still missing: " in out
    status, out, _ = run("solve", "--round", "2", "--nearest", "--json", hand)
    answer = json.loads(out)
    assert len(answer["missing"]) == 2 and answer["exact"] is True


def test_solve_says_when_the_budget_ran_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line has the API's budget: past it, the best way found and a warning."""
    from referee.engine import solver

    monkeypatch.setattr(solver, "DEFAULT_BUDGET", solver.Budget(steps=60))
    hand = "4H 5H 6H 7H 4S 5S 6S 7S 4C 5C 6C JK JK"  # about a hundred steps to be sure
    _, out, _ = run("solve", "--round", "7", "--variant", "joker-rummy", "--json", hand)
    answer = json.loads(out)
    assert answer["exact"] is False
    _status, out, _ = run("solve", "--round", "7", "--variant", "joker-rummy", hand)
    assert "The search stopped at its limit: a better way may exist." in out


def test_solve_refuses_a_hand_longer_than_the_round_allows() -> None:
    status, out, err = run("solve", "--round", "1", " ".join(["7H"] * 12))
    assert (status, out) == (2, "")
    assert "at most 11 cards" in err


def test_a_house_rule_without_a_value_is_bad_input() -> None:
    status, out, err = run("meld", "--house-rule", "buying", "7H 7S 7D")
    assert (status, out) == (2, "")
    assert "name=value" in err


def test_house_rule_values_are_json_or_plain_words() -> None:
    assert run("meld", "--house-rule", "aces=low_only", "QD KD AD")[0] == 1
    assert run("meld", "--house-rule", 'aces="high_or_low"', "QD KD AD")[0] == 0
    assert (
        run(
            "meld", "--variant", "shanghai", "--house-rule", "max_jokers_per_meld=null", "5S JK JK"
        )[0]
        == 0
    )


@pytest.mark.slow  # a Python of its own, the whole app imported
def test_python_dash_m_referee() -> None:
    """The real entry point, in a fresh process, with the exit status as documented."""
    done = subprocess.run(
        [sys.executable, "-m", "referee", "penalty", "--variant", "rummy", "--json", "3♦ 8♦ A♣ 5♠"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["penalty"] == 17
    bad = subprocess.run(
        [sys.executable, "-m", "referee", "meld", "--lang", "fr", "7H", "XX"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.strip().startswith("« XX » n’est pas une carte.")


def test_usage_errors_exit_2() -> None:
    with pytest.raises(SystemExit) as raised:
        main(["shuffle"], stdout=io.StringIO(), stderr=io.StringIO())
    assert raised.value.code == 2


def test_players_going_out_and_timing_on_the_command_line(api: FlaskClient) -> None:
    """--players fixes the shoe, --discard ends a going out, --contract-down times a lay-off;
    each prints what the API answers for the same body."""
    status, out, _ = run("meld", "--players", "4", "--json", "7H 7H 7H")
    assert status == 1 and json.loads(out)["errors"][0]["code"] == "too_many_copies"
    assert (
        json.loads(out)
        == api.post(
            "/api/v1/meld", json={"variant": "contract", "players": 4, "cards": "7H 7H 7H"}
        ).get_json()
    )
    eleven = ("7H 7S 7D 7C 7H 7S", "KC KD KS KH KC")  # round 1: 10 dealt + 1 drawn
    status, out, _ = run("contract", "--round", "1", "--going-out", *eleven)
    assert status == 1 and "name the card discarded last" in out
    ten = ("7H 7S 7D 7C 7H", "KC KD KS KH KC")
    status, _, _ = run("contract", "--round", "1", "--going-out", "--discard", "2C", *ten)
    assert status == 0
    status, out, _ = run("layoff", "4C 5C 6C 7C", "8C")
    assert status == 0 and "- Valid once your contract is down, from your next turn." in out
    status, out, _ = run("layoff", "--contract-down", "this_turn", "4C 5C 6C 7C", "8C")
    assert status == 1 and "Lay-offs start on your next turn" in out
    status, out, _ = run("penalty", "--variant", "rummy", "JK", "5H")
    assert status == 1 and "This game is played without jokers." in out
