"""Issue 32, point 4: how the service worker judges a solve answer without signal
(static/js/training-offline.js, `judge`), run in Chromium on the page's own card reader. The
pages it fills in are the server's (tests/web/training/test_offline_pack.py); here, what only the
worker decides: the referee's melds in any order are right, cards not in the hand or leaving
more are wrong, other melds leaving as little cannot be checked, and what cannot be read is
refused with the pack's own sentence."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from referee.web.vocabulary.house_rules import canonical_rules

PACK = {
    "words": {
        "no": "Nein",
        "no_answer_chosen": "Choose",
        "points_not_a_number": "Points",
        "no_melds_typed": "Melds",
        "bad_card": "“{card}” is not a card",
    },
    "letters": {"ranks": {"D": "Q", "B": "J"}, "suits": {}},
    "labels": {
        "ranks": {"A": "A", "7": "7", "9": "9", "10": "10", "J": "B", "Q": "D", "K": "K", "2": "2"},
        "joker": "Joker",
        "joker_as": "Joker als {card}",
    },
    "max_melds": 8,
}
# Round 1 of Contract Rummy (two sets): the referee lays down four sevens and three nines and
# keeps the queen and the two (15 points in this made-up count).
RULE = {
    "form": "solve",
    "can": True,
    "melds": [["7H", "7S", "7D", "7C"], ["9C", "9D", "JK=9H"]],
    "hand": ["7H", "7S", "7D", "7C", "9C", "9D", "JK", "QS", "2H"],
    "points": {"7H": 5, "7S": 5, "7D": 5, "7C": 5, "9C": 5, "9D": 5, "JK": 25, "QS": 10, "2H": 5},
    "least": 15,
}


@pytest.fixture
def page(browser: Browser, browser_context_args: dict[str, Any], live_server: str) -> Any:
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    page.goto(live_server + "/referee")  # a page with the card reader (card-picker.js)
    page.add_script_tag(url=live_server + "/static/js/training-offline.js")
    yield page
    context.close()


def _judge(page: Page, query: dict[str, str], rule: dict[str, Any] = RULE) -> Any:
    return page.evaluate(
        """([pack, rule, query]) =>
            RummyTrainerOffline.judge(pack, rule, new URLSearchParams(query))""",
        [PACK, rule, query],
    )


@pytest.mark.parametrize(
    ("melds", "verdict"),
    [
        ("7H 7S 7D 7C\n9C 9D JK", "right"),  # a joker left undeclared: the engine places it
        ("9d jk=9h 9c | 7c 7d 7s 7h", "right"),  # any order, the joker as the referee's stands
        ("7H 7S 7D 7C\n9C 9D JK=9S", "unsure"),  # another card for the joker: the engine's to say
        ("7H 7S 7D 7C\nD♠ 9C 9D", "wrong"),  # leaves the joker (more than the least)
        ("7H 7S 7D\n9C 9D JK", "wrong"),  # keeps a seven
        ("7H 7H 7S 7D\n9C 9D JK", "wrong"),  # a second seven of hearts is not in the hand
        ("7H 7S 7D JK\n9C 9D 7C", "unsure"),  # leaves as little: only the engine can say
    ],
)
def test_a_solve_answer_without_signal(page: Page, melds: str, verdict: str) -> None:
    assert _judge(page, {"down": "yes", "melds": melds})["page"] == verdict


def test_the_answer_is_said_as_the_server_says_it(page: Page) -> None:
    judged = _judge(page, {"down": "yes", "melds": "7h 7s 7d 7c | D♠ 9C jk=9h"})
    assert judged["given"] == "7♥ 7♠ 7♦ 7♣ | D♠ 9♣ Joker als 9♥"


def test_no_is_judged_by_the_answer(page: Page) -> None:
    assert _judge(page, {"down": "no"}) == {"page": "wrong", "given": "Nein"}
    assert _judge(page, {"down": "no"}, {**RULE, "can": False, "melds": []})["page"] == "right"
    assert _judge(page, {"down": "yes", "melds": "7H 7S 7D"}, {**RULE, "can": False})["page"] == (
        "wrong"
    )


def test_what_cannot_be_read_is_refused_in_the_packs_words(page: Page) -> None:
    assert _judge(page, {"down": "maybe"}) == {"error": "Choose"}
    assert _judge(page, {"down": "yes", "melds": "  \n "}) == {"error": "Melds"}
    assert _judge(page, {"down": "yes", "melds": "\n".join(["7H"] * 9)}) == {"error": "Melds"}
    assert _judge(page, {"down": "yes", "melds": "7H 7X 7D"}) == {"error": "“7X” is not a card"}
    points = {"form": "points", "answer": 35}
    assert _judge(page, {"answer": "35"}, points) == {"page": "right", "given": "35"}
    assert _judge(page, {"answer": "036"}, points) == {"page": "wrong", "given": "36"}
    assert _judge(page, {"answer": "3 5"}, points) == {"error": "Points"}
    choices = {"form": "choices", "labels": ["Ja", "Nein"], "answer": 1}
    assert _judge(page, {"answer": "1"}, choices) == {"page": "right", "given": "Nein"}
    assert _judge(page, {"answer": "0"}, choices) == {"page": "wrong", "given": "Ja"}
    assert _judge(page, {"answer": "2"}, choices) == {"error": "Choose"}


@pytest.mark.parametrize(
    "rules",
    [{}, {"target": 500}, {"target": 500, "buying": False, "max_set_size": 3}, {"ace": "low"}],
)
def test_house_rules_are_written_as_the_server_writes_them(page: Page, rules: Any) -> None:
    """A game's link writes its house rules with spaces (tojson); the worker keeps and finds a
    pack by the server's canonical text, so the link's session finds its pack without signal."""
    loose = json.dumps(dict(reversed(list(rules.items()))), indent=1)
    assert page.evaluate("text => RummyTrainerOffline.canonical(text)", loose) == (
        canonical_rules(rules)
    )
