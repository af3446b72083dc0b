"""RULES.md, "Decided in the third reading of the seeds": one test per rule, from real hands.

Each name reads `test_<rule>_<case>`: the hand size when going out (the engine, the API, the
/referee page and the command line alike), zioncheck-nl's table (lay-offs, joker swaps, players,
the card taken from the discard pile), and what the rule cards say (runs of 3 or more, a card
once per deck, defaults as defaults, where the seeds differ, the seeds' own words).
"""

from __future__ import annotations

import io
import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale

from referee.cli import main
from referee.engine.cards import parse_card, parse_cards
from referee.engine.contracts import check_contract
from referee.engine.errors import PlayersError, RefereeError
from referee.engine.game import Game, SeatResult, table_house_rules
from referee.engine.house_rules import get_variant
from referee.engine.layoffs import check_joker_swap, check_layoff
from referee.engine.melds import check_meld
from referee.engine.scoring import max_hand_size
from referee.engine.variants import ContractDown
from referee.web.vocabulary.house_rules import table_rules
from referee.web.vocabulary.rulebook import Rulebook, build_rulebook
from referee.web.vocabulary.words import contract_text, variant_summary

CONTRACT = get_variant("contract")
PROGRESSIVE = get_variant("progressive")
FRUSTRATION = get_variant("frustration")
ZIONCHECK = get_variant("zioncheck-nl")
LANGUAGES = ("en", "de", "nl", "pt", "fr", "es")
EARLIER = ContractDown.EARLIER_TURN

# Whole hands longer than any hand of their round can be (issue 21's probes, as real melds).
# Round 1 (10 dealt + 1 drawn): two sets of eight and a discard, 17 cards.
ROUND_ONE_17 = ["7H 7S 7D 7C 7H 7S 7D 7C", "9C 9D 9S 9H 9C 9D 9S 9H"]
# Round 7 (12 + 1, no discard): three runs, 14 cards.
ROUND_SEVEN_14 = ["4H 5H 6H 7H 8H", "4S 5S 6S 7S 8S", "4D 5D 6D 7D"]
# Round 2 (10 + 1): a set and a run of eight and a discard, 12 cards.
ROUND_TWO_12 = ["7H 7S 7D", "2C 3C 4C 5C 6C 7C 8C 9C"]


def melds(*texts: str) -> list[tuple[Any, ...]]:
    return [parse_cards(text) for text in texts]


def codes(verdict: Any) -> list[str]:
    return [v.code for v in verdict.violations]


def too_many(melds_: list[tuple[Any, ...]], variant: Any, number: int, **kwargs: Any) -> Any:
    with pytest.raises(RefereeError) as refused:
        check_contract(melds_, variant, number, going_out=True, **kwargs)
    return refused.value


# -- The hand size holds for going out too ----------------------------------------------------


def test_hand_size_going_out_round_one_seventeen_cards_is_too_many_cards() -> None:
    refused = too_many(melds(*ROUND_ONE_17), CONTRACT, 1, discard=parse_card("KD"))
    assert refused.code == "too_many_cards"
    assert refused.params == {"limit": 11, "count": 17}
    # The same melds without going out are a contract laid down, not a whole hand.
    assert check_contract(melds(*ROUND_ONE_17), CONTRACT, 1).valid


def test_hand_size_going_out_round_seven_fourteen_cards_is_too_many_cards() -> None:
    refused = too_many(melds(*ROUND_SEVEN_14), CONTRACT, 7)
    assert refused.params == {"limit": 13, "count": 14}
    thirteen = melds("4H 5H 6H 7H", "4S 5S 6S 7S 8S", "4D 5D 6D 7D")
    assert check_contract(thirteen, CONTRACT, 7, going_out=True).valid  # 12 dealt + 1 drawn


def test_hand_size_going_out_round_two_twelve_cards_is_too_many_cards() -> None:
    refused = too_many(melds(*ROUND_TWO_12), CONTRACT, 2, discard=parse_card("KD"))
    assert refused.params == {"limit": 11, "count": 12}
    eleven = melds("7H 7S 7D", "2C 3C 4C 5C 6C 7C 8C")
    assert check_contract(eleven, CONTRACT, 2, going_out=True, discard=parse_card("KD")).valid


def test_hand_size_going_out_is_checked_before_any_verdict() -> None:
    """A hand too long is an input error even where the melds would be wrong anyway."""
    wrong = melds("7H 7S 7D 7C 7H 7S 7D 7C", "2C 3C 4C 5C 6C 7C 8C 9C 10C")  # not 2 sets
    assert too_many(wrong, CONTRACT, 1, discard=parse_card("KD")).code == "too_many_cards"
    assert too_many(wrong, CONTRACT, 1).code == "too_many_cards"  # and no discard either


def test_hand_size_going_out_progressive_deals_stay_legal() -> None:
    """Progressive deals 16 in round 7: a whole hand of 17 goes out, 18 is too many."""
    seventeen = melds("3H 4H 5H 6H 7H 8H 9H", "3S 4S 5S 6S 7S", "3D 4D 5D 6D 7D")
    assert max_hand_size(PROGRESSIVE, 7) == 17
    assert check_contract(seventeen, PROGRESSIVE, 7, going_out=True).valid
    eighteen = melds("3H 4H 5H 6H 7H 8H 9H", "3S 4S 5S 6S 7S 8S", "3D 4D 5D 6D 7D")
    assert too_many(eighteen, PROGRESSIVE, 7).params == {"limit": 17, "count": 18}
    # Round 1 of progressive deals 10 like contract: the same 17 cards are too many there.
    assert too_many(melds(*ROUND_ONE_17), PROGRESSIVE, 1).params["limit"] == 11


def test_hand_size_going_out_counts_what_buying_can_bring() -> None:
    """Frustration buys 3 times a round, each the discard and a penalty card: 10 + 1 + 6."""
    kd = parse_card("KD")
    assert check_contract(melds(*ROUND_ONE_17), FRUSTRATION, 1, going_out=True, discard=kd).valid
    eighteen = melds("7H 7S 7D 7C 7H 7S 7D 7C", "9C 9D 9S 9H 9C 9D 9S 9H 9C")
    refused = too_many(eighteen, FRUSTRATION, 1, discard=kd, players=4)
    assert refused.params == {"limit": 17, "count": 18}


def post(http: FlaskClient, call: str, body: dict[str, Any], status: int = 200) -> Any:
    response = http.post(f"/api/v1/{call}", json=body)
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


@pytest.mark.parametrize(
    ("round_number", "hand", "discard", "limit", "count"),
    [
        (1, ROUND_ONE_17, "KD", 11, 17),
        (7, ROUND_SEVEN_14, None, 13, 14),
        (2, ROUND_TWO_12, "KD", 11, 12),
    ],
)
def test_hand_size_going_out_is_a_400_in_the_api(
    http: FlaskClient,
    round_number: int,
    hand: list[str],
    discard: str | None,
    limit: int,
    count: int,
) -> None:
    body: dict[str, Any] = {
        "variant": "contract",
        "round": round_number,
        "melds": hand,
        "going_out": True,
    }
    if discard:
        body["discard"] = discard
    error = post(http, "contract", body, 400)["error"]
    assert (error["code"], error["limit"]) == ("too_many_cards", limit)
    assert str(limit) in error["message"] and str(count) in error["message"]
    # Without going out the melds are only part of a hand: a verdict, not a 400.
    laid_down = post(
        http, "contract", {"variant": "contract", "round": round_number, "melds": hand}
    )
    assert "valid" in laid_down


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hand_size_going_out_is_said_in_every_language(http: FlaskClient, lang: str) -> None:
    body = {"variant": "contract", "round": 1, "melds": ROUND_ONE_17, "going_out": True}
    message = post(http, "contract", {**body, "discard": "KD", "lang": lang}, 400)["error"]
    assert "11" in message["message"] and "17" in message["message"]


def test_hand_size_going_out_on_the_referee_page(http: FlaskClient) -> None:
    query = {
        "check": "contract",
        "variant": "contract",
        "round": "1",
        "melds": "\n".join(ROUND_ONE_17),
        "going_out": "1",
        "discard": "KD",
    }
    response = http.get("/referee", query_string=query)
    assert response.status_code == 400
    text = unescape(response.get_data(as_text=True))
    assert "at most 11 cards here" in text and "this one has 17" in text
    assert "is met and the player goes out" not in text


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_hand_size_going_out_on_the_command_line() -> None:
    status, _, err = cli("contract", "--round", "7", "--going-out", *ROUND_SEVEN_14)
    assert status == 2  # bad input, not a verdict
    assert "at most 13 cards here" in err and "14" in err
    fits = ["4H 5H 6H 7H", "4S 5S 6S 7S 8S", "4D 5D 6D 7D"]
    assert cli("contract", "--round", "7", "--going-out", *fits)[0] == 0


# -- zioncheck-nl lays off in the same turn as its contract ---------------------------------


def test_zioncheck_lays_off_in_the_turn_of_its_own_contract(http: FlaskClient) -> None:
    """Seed 001 asks for an earlier turn only before a joker swap; contract still waits."""
    run, nine = parse_cards("5H 6H 7H 8H"), parse_cards("9H")
    assert check_layoff(run, nine, ZIONCHECK, contract_down=ContractDown.THIS_TURN).valid
    waits = check_layoff(run, nine, CONTRACT, contract_down=ContractDown.THIS_TURN)
    assert codes(waits) == ["layoff_same_turn_as_contract"]
    body = {"variant": "zioncheck-nl", "meld": "5H 6H 7H 8H", "cards": "9H"}
    assert post(http, "layoff", {**body, "contract_down": "this_turn"})["valid"] is True
    said = post(http, "layoff", body)["conditions"]
    assert [c["code"] for c in said] == ["once_contract_down"]


# -- zioncheck-nl joker swap: only from another player's run, for a card the swapper holds ----


def swap(meld: str, card: str, **kwargs: Any) -> Any:
    return check_joker_swap(parse_cards(meld), parse_card(card), ZIONCHECK, **kwargs)


def test_zioncheck_joker_swap_only_from_another_players_run() -> None:
    other = swap("5H JK 7H", "6H", contract_down=EARLIER, own_meld=False)
    assert other.valid and str(other.joker_as) == "6H"
    own = swap("5H JK 7H", "6H", contract_down=EARLIER, own_meld=True)
    assert codes(own) == ["swap_from_own_meld"]
    untold = swap("5H JK 7H", "6H", contract_down=EARLIER)
    assert untold.valid
    assert [c.code for c in untold.conditions] == [
        "swap_from_another_players_meld",
        "swap_use_joker_this_turn",
    ]
    # Contract lets any player swap from any run, their own included.
    mine = check_joker_swap(parse_cards("5H JK 7H"), parse_card("6H"), CONTRACT, own_meld=True)
    assert mine.valid and not mine.conditions


def test_zioncheck_joker_swap_still_needs_an_earlier_turn_and_a_run() -> None:
    assert codes(swap("5H JK 7H", "6H", contract_down=ContractDown.THIS_TURN, own_meld=False)) == [
        "swap_same_turn_as_contract"
    ]
    assert codes(swap("5H 5S JK=5D", "5D", contract_down=EARLIER, own_meld=False)) == [
        "joker_swap_in_set"
    ]


def test_zioncheck_joker_swap_on_the_referee_page(http: FlaskClient) -> None:
    query = {"check": "swap", "variant": "zioncheck-nl", "meld": "5H JK 7H", "card": "6H"}
    asked = http.get("/referee", query_string=query).get_data(as_text=True)
    assert "Whose meld is the joker in?" in asked and 'name="whose_meld"' in asked
    own = http.get("/referee", query_string={**query, "whose_meld": "own"})
    text = unescape(own.get_data(as_text=True))
    assert "only out of another player's meld" in text
    other = http.get(
        "/referee",
        query_string={**query, "whose_meld": "other", "contract_down": "earlier_turn"},
    )
    assert "takes the joker's place" in unescape(other.get_data(as_text=True))
    contract = http.get("/referee", query_string={**query, "variant": "contract"})
    assert 'name="whose_meld"' not in contract.get_data(as_text=True)


# -- zioncheck-nl table: 3-5 players, more only as a house rule with 2 decks + 2 jokers --------


def test_zioncheck_table_three_to_five_players() -> None:
    assert (ZIONCHECK.min_players, ZIONCHECK.max_players) == (3, 5)
    Game.start("zioncheck-nl", ["Ann", "Bo", "Cy", "Di", "Ed"])
    with pytest.raises(RefereeError) as refused:
        Game.start("zioncheck-nl", ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"])
    assert refused.value.code == "bad_players"
    with pytest.raises(PlayersError):
        ZIONCHECK.shoe_for(6)


def test_zioncheck_table_more_players_as_a_house_rule_play_two_decks_and_two_jokers() -> None:
    eight = get_variant("zioncheck-nl", {"max_players": 8})
    shoe = eight.shoe_for(6)
    assert (shoe.decks, shoe.jokers) == (2, 2)
    Game.start("zioncheck-nl", ["A", "B", "C", "D", "E", "F"], house_rules={"max_players": 8})
    # The player count unknown, the largest shoe played is assumed: one deck by default.
    assert {v.code for v in check_meld(parse_cards("5D 5D 5H 5S"), ZIONCHECK).violations} == {
        "set_suits_repeat",
        "too_many_copies",
    }
    assert [v.code for v in check_meld(parse_cards("5D 5D 5H 5S"), eight).violations] == [
        "set_suits_repeat"
    ]
    assert [v.code for v in check_meld(parse_cards("JK 7H JK"), ZIONCHECK).violations][-1] == (
        "too_many_copies"
    )


def test_zioncheck_table_the_summary_names_both_shoes(web: Flask) -> None:
    with web.test_request_context("/?lang=en"):
        summary = variant_summary("zioncheck-nl")
        book = build_rulebook(table_rules("zioncheck-nl"), "en")
    assert "3 to 5 players with one deck and one joker" in summary
    assert "two decks and two jokers" in summary and "house rule" in summary
    assert book.facts[0] == "3 to 5 players"
    assert [row.cells for row in book.shoe_rows] == [
        ("3–5", "1", "1", "53"),
        ("6–8", "2", "2", "106"),
    ]
    assert book.shoe_rows[0].note == "" and "house rule" in book.shoe_rows[1].note


# -- zioncheck-nl: a card taken from the discard pile is not discarded again that turn --------


def test_zioncheck_discard_a_card_taken_from_the_pile_not_again_the_same_turn() -> None:
    # A whole hand of deal 4 (10 dealt + 1 drawn; several cards taken from the pile add more):
    # zioncheck-nl's first deal cannot go out in melds alone, its sets hold at most 4.
    out = melds("7H 7S 7D 7C", "9C 9D 9S 9H", "KC KD KS")
    taken = check_contract(
        out,
        ZIONCHECK,
        4,
        going_out=True,
        discard=parse_card("4C"),
        from_discard_pile=[parse_card("4C")],
    )
    assert codes(taken) == ["discard_taken_this_turn"]
    assert taken.violations[0].params == {"card": "4C"}
    other = check_contract(
        out,
        ZIONCHECK,
        4,
        going_out=True,
        discard=parse_card("4C"),
        from_discard_pile=[parse_card("9S")],
    )
    assert other.valid
    # Of several cards taken, one may be discarded again (seed 001).
    several = [parse_card("4C"), parse_card("9S"), parse_card("7D")]
    assert check_contract(
        out, ZIONCHECK, 4, going_out=True, discard=parse_card("4C"), from_discard_pile=several
    ).valid
    # Contract's seeds are silent: our default lets the card go again (its hand: 10 + 1).
    assert check_contract(
        melds("7H 7S 7D", "9C 9D 9S 9H", "KC KD KS"),
        CONTRACT,
        4,
        going_out=True,
        discard=parse_card("4C"),
        from_discard_pile=[parse_card("4C")],
    ).valid


def test_zioncheck_discard_taken_card_in_the_api_the_page_and_the_command_line(
    http: FlaskClient,
) -> None:
    body = {
        "variant": "zioncheck-nl",
        "round": 4,
        "melds": ["7H 7S 7D 7C", "9C 9D 9S 9H", "KC KD KS"],
        "going_out": True,
        "discard": "4C",
        "from_discard_pile": "4C",
    }
    answer = post(http, "contract", body)
    assert answer["valid"] is False
    assert [e["code"] for e in answer["errors"]] == ["discard_taken_this_turn"]
    assert post(http, "contract", {**body, "from_discard_pile": ["4C", "9S"]})["valid"] is True
    wrong = post(http, "contract", {**body, "from_discard_pile": 4}, 400)["error"]
    assert (wrong["code"], wrong["field"]) == ("wrong_type", "from_discard_pile")

    query = {
        "check": "contract",
        "variant": "zioncheck-nl",
        "round": "4",
        "melds": "7H 7S 7D 7C\n9C 9D 9S 9H\nKC KD KS",
        "going_out": "1",
        "discard": "4C",
    }
    page = http.get("/referee", query_string=query).get_data(as_text=True)
    assert 'name="from_discard_pile"' in page
    taken = http.get("/referee", query_string={**query, "from_discard_pile": "4C"})
    assert "was taken from the discard pile this turn" in unescape(taken.get_data(as_text=True))
    contract = http.get("/referee", query_string={**query, "variant": "contract"})
    assert 'name="from_discard_pile"' not in contract.get_data(as_text=True)

    args = ["contract", "--variant", "zioncheck-nl", "--round", "4", "--going-out"]
    hand = ("7H 7S 7D 7C", "9C 9D 9S 9H", "KC KD KS")
    status, out, _ = cli(*args, "--discard", "4C", "--from-discard-pile", "4C", *hand)
    assert status == 1 and "taken from the discard pile this turn" in out


# -- Rule cards: runs of 3 or more, a card once per deck, defaults as defaults ---------------


def full_text(rulebook: Rulebook) -> str:
    return " ".join(p for section in rulebook.sections for p in section.paragraphs)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "variant_id", ["contract", "frustration", "joker-rummy", "progressive", "short"]
)
def test_rule_cards_a_run_is_three_or_more_in_every_language(
    book: Any, variant_id: str, lang: str
) -> None:
    """The contract asks for runs of 4; a run is 3 or more (said with the contract)."""
    rulebook = book(variant_id, lang)
    run = rulebook.meld_examples[1]
    assert len(run.cards) == 3 and len({c.suit for c in run.cards}) == 1
    assert re.search(r"(?<!\d)3(?!\d)", run.caption) and "4" not in run.caption
    assert "4" in rulebook.contract_rows[1].cells[1]  # "1 set of 3 and 1 run of 4"
    melds_section, contract_section = rulebook.sections[2], rulebook.sections[3]
    assert not any("4" in paragraph for paragraph in melds_section.paragraphs)
    assert "4" in contract_section.paragraphs[1]  # "A run in a contract needs at least 4 cards"


def test_rule_cards_shanghai_runs_stay_four_or_more(book: Any) -> None:
    """Seed 003: 'mindestens 4 aufeinanderfolgende Karten' is any run of Shanghai's."""
    run = book("shanghai").meld_examples[1]
    assert len(run.cards) == 4 and "Run: 4 or more" in run.caption


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "with 2 decks a card may appear twice, with 3 decks three times"),
        (
            "de",
            "mit 2 Kartenspielen darf eine Karte zweimal vorkommen, mit 3 Kartenspielen dreimal",
        ),
        (
            "nl",
            "met 2 kaartspellen mag een kaart twee keer voorkomen, met 3 kaartspellen drie keer",
        ),
        ("pt", "com 2 baralhos uma carta pode aparecer duas vezes, com 3 baralhos três vezes"),
        ("fr", "avec 2 jeux, une carte peut figurer deux fois, avec 3 jeux trois fois"),
        ("es", "con 2 barajas una carta puede aparecer dos veces, con 3 barajas tres veces"),
    ],
)
def test_rule_cards_with_three_decks_a_card_can_be_there_three_times(
    book: Any, lang: str, said: str
) -> None:
    assert book("contract", lang).meld_examples[0].caption.endswith(said)


def test_rule_cards_rummy_low_aces_are_a_default_not_never(book: Any) -> None:
    rummy = book("rummy")
    crossed = [e for e in rummy.meld_examples if not e.valid and "ace" in e.caption.lower()]
    assert [e.caption for e in crossed] == ["Not ace high, unless the table agrees"]
    assert "unless the table agrees that aces may be high too (house rule “Aces”)" in full_text(
        rummy
    )
    assert "another score the table agrees on (house rule “Target score”)" in full_text(rummy)
    german = book("rummy", "de")
    assert "sofern ihr nichts anderes vereinbart" in full_text(german)
    assert "Nie Ass hoch" not in [e.caption for e in german.meld_examples]
    # A table that changed the rule plays its own: nothing left to call a default.
    house = full_text(book("rummy", target=200))
    assert "reaches 200 points; the highest total wins" in house
    assert "another score the table agrees on" not in house


def test_rule_cards_zioncheck_last_round_is_usually_laid_down_whole(book: Any) -> None:
    text = full_text(book("zioncheck-nl"))
    assert "So it is usually played; a table may agree otherwise" in text
    assert "(house rule “Last round: go out at once”)" in text
    assert "usually played" not in full_text(book("contract"))  # seed 000: "muss"


def test_rule_cards_zioncheck_player_count_swaps_and_the_taken_card(book: Any) -> None:
    dutch = book("zioncheck-nl")
    text = full_text(dutch)
    assert dutch.facts[0] == "3 to 5 players"
    assert "take a joker from another player's run" in text
    assert "the natural card from your hand" in text and "never from your own" in text
    assert "may not be discarded again in the same turn; if you took several" in text
    # Seed 001 (fourth reading): a single card taken may not go back; of several, one may.
    assert dutch.turn_steps[-1].endswith(
        "not a single card you took from the discard pile; of several taken, one may go back."
    )
    assert "You may start in the same turn as your contract." in text


def test_rule_cards_where_the_seeds_differ_the_card_says_which_we_took(book: Any) -> None:
    for variant_id in ("contract", "frustration", "joker-rummy", "progressive", "short"):
        text = full_text(book(variant_id))
        assert "some tables discard face down. We discard face up" in text, variant_id
        assert "some tables allow a last discard. We play without one" in text, variant_id
        assert "(house rule “Last discard in the last round”)" in text, variant_id
    for variant_id in ("shanghai", "zioncheck-nl", "rummy"):
        text = full_text(book(variant_id))
        assert "discard face down" not in text and "We play without one" not in text, variant_id
    # The table chose the other reading: the card says that one, and no longer "we took".
    either = full_text(book("contract", last_round_discard="either"))
    assert "a last card may be discarded" in either and "We play without one" not in either
    assert "In round 7 a last discard is allowed, not needed." in either


def test_last_round_discard_is_a_house_rule_the_engine_follows() -> None:
    """Seed 000 says both 'no discard required' and 'must go without': we take 'without'."""
    hand = melds("4H 5H 6H 7H", "4S 5S 6S 7S", "4D 5D 6D 7D")  # 12 cards and a discard: 13
    whole = melds("4H 5H 6H 7H 8H", "4S 5S 6S 7S", "4D 5D 6D 7D")  # 13 cards, no discard
    assert codes(check_contract(hand, CONTRACT, 7, going_out=True, discard=parse_card("KD"))) == [
        "last_round_no_discard"
    ]
    either = get_variant("contract", {"last_round_discard": "either"})
    assert check_contract(hand, either, 7, going_out=True, discard=parse_card("KD")).valid
    assert check_contract(whole, either, 7, going_out=True).valid
    required = get_variant("contract", {"last_round_discard": "required"})
    assert codes(check_contract(whole, required, 7, going_out=True)) == ["going_out_needs_discard"]


# -- Words as the seeds' players say them ------------------------------------------------------


def test_words_portuguese_contracts_are_counted_in_words(web: Flask, book: Any) -> None:
    """Seed 004: "Duas trincas", "Uma trinca e uma sequência de 4", not "2 trincas de 3"."""
    with web.test_request_context("/?lang=pt"), force_locale("pt"):
        said = [contract_text(contract) for contract in CONTRACT.contracts]
    assert said[:4] == [
        "duas trincas",
        "uma trinca e uma sequência de 4",
        "duas sequências de 4",
        "três trincas",
    ]
    cells = [row.cells[1] for row in book("contract", "pt").contract_rows]
    assert cells[0] == "Duas trincas" and cells[6] == "Três sequências de 4"
    assert book("contract").contract_rows[0].cells[1] == "2 sets of 3"


def test_words_portuguese_coringa_is_the_card_and_fechar_stands_beside_bater(book: Any) -> None:
    rulebook = book("contract", "pt")
    text = full_text(rulebook)
    assert "Um Coringa é curinga" in text and "curinga" not in text.replace("é curinga", "")
    assert any(section.title == "Bater (fechar)" for section in rulebook.sections)
    assert "Você bate (fecha)" in text


def test_words_german_ace_not_as_a_bridge_and_buying_allowed(book: Any) -> None:
    rulebook = book("frustration", "de")
    assert "K-A-2 gilt nicht" in [e.caption for e in rulebook.meld_examples]
    assert "Das Ass gilt nicht als Übergang" in full_text(rulebook)
    assert rulebook.brief[-1].startswith("Kaufen erlaubt:")
    assert "über Eck" not in full_text(rulebook)


def test_words_dutch_decks_stock_and_buying(book: Any) -> None:
    frustration = book("frustration", "nl")
    assert frustration.shoe_head[1] == "Kaartspellen"
    assert "voorraadstapel" in full_text(frustration)
    assert frustration.brief[-1] == "Kopen mag: hoogstens 3 keer per speler per ronde."
    # Fourth reading: buying off is an optional house rule this table does not play.
    assert (
        book("contract", "nl")
        .sections[6]
        .paragraphs[0]
        .startswith("Kopen (de afgegooide kaart buiten je beurt pakken) is een optionele huisregel")
    )
    assert "H-A-2 geldt niet" in [e.caption for e in frustration.meld_examples]
    assert "rond de hoek" not in full_text(frustration)


# -- zioncheck-nl tables saved before the third reading ------------------------------------


def test_zioncheck_table_a_game_saved_with_six_players_reads_on_as_the_house_rule() -> None:
    """Before the third reading zioncheck-nl took 3-8 players: such a game keeps its table
    (and its 2 decks + 2 jokers) as the house rule `max_players`, never a broken page."""
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
    out = [SeatResult(went_out=True)] + [SeatResult(penalty=20)] * 5
    old = Game.restore(
        variant=ZIONCHECK,
        house_rules={},
        players=names,
        first_dealer=0,
        results=[out],
        version=2,
    )
    assert old.house_rules == {"max_players": 6}
    assert (old.shoe.decks, old.shoe.jokers) == (2, 2)
    assert old.deal(2).cards == 10
    assert old.enter_round(2, out).game.standings.totals == (0, 40, 40, 40, 40, 40)
    # A table of 5 reads as it was saved; a new table of 6 still needs the house rule.
    five = Game.restore(
        variant=ZIONCHECK, house_rules={}, players=names[:5], first_dealer=0, results=[], version=1
    )
    assert five.house_rules == {}
    assert table_house_rules("zioncheck-nl", {}, 6) == {"max_players": 6}
    assert table_house_rules("zioncheck-nl", {"max_players": 5}, 6) == {"max_players": 5}
    assert table_house_rules("contract", {}, 9) == {}  # no shoe, no house rule: Game.start says so


def test_zioncheck_table_an_old_export_of_six_players_imports_as_the_house_rule(
    http: FlaskClient,
) -> None:
    export = {
        "variant": "zioncheck-nl",
        "players": ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"],
        "rounds": [
            {
                "round": 1,
                "results": [{"player": "Ann", "went_out": True}]
                + [{"player": name, "penalty": 20} for name in ("Bo", "Cy", "Di", "Ed", "Flo")],
            }
        ],
    }
    from referee.web.games.exports import read_export

    with http.application.test_request_context("/"):
        start, steps, _ = read_export(export)
    assert start.house_rules == {"max_players": 6}
    assert steps[-1].game.standings.totals == (0, 20, 20, 20, 20, 20)
