"""RULES.md, "Decided where a rule depends on the table": one test per rule, from real hands.

Each name reads `test_<rule>_<case>`, the rule as RULES.md names it: the whole deal, the shoe,
going out, timing, declared jokers, ties, the stock, and the contract's words.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.strategies import DataObject

from referee.engine.cards import Card, full_deck, parse_card, parse_cards
from referee.engine.contracts import ContractVerdict, check_contract
from referee.engine.errors import GameRefused
from referee.engine.game import Game, SeatResult
from referee.engine.house_rules import get_variant
from referee.engine.layoffs import LayoffVerdict, SwapVerdict, check_joker_swap, check_layoff
from referee.engine.melds import MeldVerdict, check_meld, shoe_violations
from referee.engine.scoring import (
    PlayerResult,
    ScoringError,
    fewest_cards_held,
    least_penalty,
    max_hand_size,
    penalty_of,
    possible_penalty,
    score_round,
    standings,
)
from referee.engine.variants import VARIANTS, ContractDown, GoingOutDiscard, Variant

CONTRACT = get_variant("contract")
SHANGHAI = get_variant("shanghai")
ZIONCHECK = get_variant("zioncheck-nl")
# More than 5 players only as a house rule, with 2 decks + 2 jokers (RULES.md, third reading).
ZIONCHECK_EIGHT = get_variant("zioncheck-nl", {"max_players": 8})
RUMMY = get_variant("rummy")
FRUSTRATION = get_variant("frustration")
NO, THIS_TURN, EARLIER = ContractDown.NO, ContractDown.THIS_TURN, ContractDown.EARLIER_TURN
OUT = SeatResult(went_out=True)


def codes(verdict: MeldVerdict | ContractVerdict | LayoffVerdict | SwapVerdict) -> list[str]:
    return [v.code for v in verdict.violations]


def contract(variant: Variant, number: int, *melds: str, **kwargs: Any) -> ContractVerdict:
    return check_contract([parse_cards(m) for m in melds], variant, number, **kwargs)


def refused(game: Game, number: int, results: list[SeatResult]) -> list[tuple[str, int | None]]:
    with pytest.raises(GameRefused) as caught:
        game.verify_round(number, results)
    return [(r.code, r.player) for r in caught.value.reasons]


def held(points: int, buys: int = 0) -> SeatResult:
    return SeatResult(penalty=points, buys=buys)


# -- Still holding the whole deal --------------------------------------------------------------


def test_whole_deal_contract_round_seven_at_least_60() -> None:
    """Contract round 7 is laid down only by going out: 12 cards of 5 at least, never 5."""
    assert least_penalty(CONTRACT, 7, 4) == 60 and fewest_cards_held(CONTRACT, 7, 4) == 12
    game = Game.start("contract", ["Ann", "Bo", "Cy", "Di"])
    for number in range(1, 7):
        game = game.enter_round(number, [OUT, held(20), held(25), held(5)]).game
    assert refused(game, 7, [OUT, held(5), held(60), held(95)]) == [("penalty_below_whole_hand", 1)]
    with pytest.raises(ScoringError) as error:
        score_round(CONTRACT, 7, [PlayerResult(went_out=True), *[PlayerResult(penalty=5)] * 3])
    assert error.value.code == "penalty_below_whole_hand"
    assert error.value.params == {"player": 1, "penalty": 5, "least": 60, "cards": 12}
    assert game.can_enter_round(7, [OUT, held(60), held(60), held(95)])
    assert not possible_penalty(61, CONTRACT, 7, 4)  # contract counts in fives
    assert possible_penalty(5, CONTRACT, 6, 4)  # rounds 1-6: one card left is enough


@pytest.mark.parametrize(("players", "least"), [(3, 36), (5, 36), (6, 28), (8, 28)])
def test_whole_deal_zioncheck_round_seven_one_deck_36_two_decks_28(
    players: int, least: int
) -> None:
    """Four 2s, four 3s, four 4s with one deck; eight 2s and four 3s with two (12 cards)."""
    variant = ZIONCHECK if players <= 5 else ZIONCHECK_EIGHT
    assert least_penalty(variant, 7, players) == least
    assert not possible_penalty(least - 1, variant, 7, players)
    assert possible_penalty(least, variant, 7, players)
    assert possible_penalty(least + 1, variant, 7, players)  # a 4 for a 5


def test_whole_deal_each_buy_brings_the_discard_and_its_penalty_cards() -> None:
    """Frustration buys: two buys bring 2 x (discard + 1 penalty card), 16 cards at least."""
    assert fewest_cards_held(FRUSTRATION, 7, 4, buys=2) == 16
    assert least_penalty(FRUSTRATION, 7, 4, buys=2) == 80
    game = Game.start("frustration", ["Ann", "Bo", "Cy"])
    for number in range(1, 7):
        game = game.enter_round(number, [OUT, held(20), held(25)]).game
    assert refused(game, 7, [OUT, held(70, buys=2), held(60)]) == [("penalty_below_whole_hand", 1)]
    assert game.can_enter_round(7, [OUT, held(80, buys=2), held(60)])


def test_whole_deal_a_hand_given_by_its_cards_holds_every_card_dealt() -> None:
    game = Game.start("contract", ["Ann", "Bo", "Cy"])
    for number in range(1, 7):
        game = game.enter_round(number, [OUT, held(20), held(25)]).game
    eleven = SeatResult(cards=parse_cards("2C 3C 4C 5C 6C 7C 8C 9C 2D 3D 4D"))
    assert refused(game, 7, [OUT, eleven, held(60)]) == [("hand_too_small", 1)]
    twelve = SeatResult(cards=parse_cards("2C 3C 4C 5C 6C 7C 8C 9C 2D 3D 4D 5D"))
    assert game.can_enter_round(7, [OUT, twelve, held(60)])


def test_whole_deal_also_when_the_stock_ends_the_last_round() -> None:
    """Nobody out in round 7: nobody laid anything down, so every hand is whole."""
    with pytest.raises(ScoringError) as error:
        score_round(CONTRACT, 7, [PlayerResult(penalty=60), PlayerResult(penalty=45)] * 2)
    assert error.value.code == "penalty_below_whole_hand"
    assert score_round(CONTRACT, 7, [PlayerResult(penalty=60), PlayerResult(penalty=75)] * 2)


def test_whole_deal_other_rounds_hold_at_least_one_card() -> None:
    assert fewest_cards_held(CONTRACT, 6, 4) == 1 and fewest_cards_held(SHANGHAI, 7, 4) == 1
    assert least_penalty(SHANGHAI, 7, 4) == 5  # Shanghai's last round is like any other
    assert not possible_penalty(0, CONTRACT, 3, 4)


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_whole_deal_every_hand_the_shoe_can_deal_is_a_possible_score(data: DataObject) -> None:
    """Any hand of the size a player can hold in that round is a score the referee accepts."""
    variant = data.draw(st.sampled_from([CONTRACT, ZIONCHECK, SHANGHAI, FRUSTRATION]))
    number = data.draw(st.integers(1, 7))
    players = data.draw(st.integers(variant.min_players, variant.max_players))
    buys = data.draw(st.integers(0, variant.buy_limit if variant.buying else 0))
    shoe = variant.shoe_for(players)
    pool = [c for _ in range(shoe.decks) for c in full_deck()] + [Card()] * shoe.jokers
    low = fewest_cards_held(variant, number, players, buys)
    size = data.draw(st.integers(low, max(low, max_hand_size(variant, number, players))))
    hand = data.draw(st.permutations(pool))[:size]
    points = penalty_of(hand, variant)
    assert possible_penalty(points, variant, number, players, buys)
    assert points >= least_penalty(variant, number, players, buys)


# -- The shoe limits the cards -----------------------------------------------------------------


def test_shoe_two_decks_hold_two_of_each_card() -> None:
    """Contract with 3-4 players plays 2 decks: 7H 7H 7H cannot be; with 5-8 (3 decks) it can."""
    three = parse_cards("7H 7H 7H")
    verdict = check_meld(three, CONTRACT, shoe=CONTRACT.shoe_for(4))
    assert codes(verdict) == ["too_many_copies"]
    assert dict(verdict.violations[0].params) == {"card": "7H", "count": 3, "max": 2}
    assert check_meld(three, CONTRACT, shoe=CONTRACT.shoe_for(5)).valid
    assert check_meld(three, CONTRACT).valid  # players unknown: the largest shoe


def test_shoe_jokers_are_counted_too() -> None:
    """Zioncheck-nl with 3-5 players has one joker: JK JK 5H cannot be laid."""
    two_jokers = parse_cards("JK JK 5H")
    assert codes(check_meld(two_jokers, ZIONCHECK, shoe=ZIONCHECK.shoe_for(4))) == [
        "too_many_copies"
    ]
    assert [v.code for v in shoe_violations(parse_cards("5H JK"), RUMMY)] == ["jokers_not_allowed"]
    assert [v.code for v in shoe_violations(parse_cards("5H 5H"), RUMMY)] == ["too_many_copies"]


# Whole hands going out in round 1 of contract (10 dealt + 1 drawn = 11 cards): two sets and
# the last discard, or (where no discard may end the turn) two sets alone.
SETS_OF_TEN = ("7H 7S 7D 7C 7H", "KC KD KS KH KC")
SETS_OF_ELEVEN = ("7H 7S 7D 7C 7H 7S", "KC KD KS KH KC")


def test_shoe_counts_every_meld_of_a_contract_and_its_discard() -> None:
    shoe = CONTRACT.shoe_for(3)
    hand = ("7H 7S 7H 7C 7D", "KC KD KS KH KC")
    verdict = contract(CONTRACT, 1, *hand, going_out=True, discard=parse_card("7H"))
    assert codes(verdict) == []  # largest shoe: three 7H are fine
    verdict = contract(CONTRACT, 1, *hand, going_out=True, discard=parse_card("7H"), shoe=shoe)
    assert codes(verdict) == ["too_many_copies"] and verdict.violations[0].meld is None


def test_shoe_lay_offs_and_swaps_count_the_meld_and_the_hand() -> None:
    shoe = CONTRACT.shoe_for(4)
    layoff = check_layoff(parse_cards("7H 7S 7H"), parse_cards("7H"), CONTRACT, shoe=shoe)
    assert codes(layoff) == ["too_many_copies"]
    assert check_layoff(parse_cards("7H 7S 7H"), parse_cards("7H"), CONTRACT).valid
    swap = check_joker_swap(parse_cards("6H 7H JK 9H 8H"), parse_card("8H"), CONTRACT, shoe=shoe)
    assert not swap.valid  # 8H is already in the run: the joker stands for 10H or 5H


# -- Going out ---------------------------------------------------------------------------------


def test_going_out_contract_rounds_one_to_six_need_a_last_discard() -> None:
    assert codes(contract(CONTRACT, 1, *SETS_OF_ELEVEN, going_out=True)) == [
        "going_out_needs_discard"
    ]
    assert contract(CONTRACT, 1, *SETS_OF_TEN, going_out=True, discard=parse_card("2C")).valid
    assert contract(CONTRACT, 1, "7H 7S 7D", "KC KD KS").valid  # not going out: no discard asked


def test_going_out_contract_last_round_forbids_a_discard() -> None:
    runs = ("5H 6H 7H 8H", "5S 6S 7S 8S", "9D 10D JD QD")  # 12 cards of 13
    assert contract(CONTRACT, 7, "5H 6H 7H 8H 9H", *runs[1:], going_out=True).valid
    verdict = contract(CONTRACT, 7, *runs, going_out=True, discard=parse_card("KD"))
    assert codes(verdict) == ["last_round_no_discard"]
    assert verdict.violations[0].params == {"card": "KD"}


@pytest.mark.parametrize(
    ("variant", "number", "whole", "with_discard"),
    [
        # Shanghai deals 11: 12 cards in two sets, or 11 and a discard.
        (
            SHANGHAI,
            1,
            ("7H 7S 7D 7C 7H 7S", "KC KD KS KH KC KD"),
            ("7H 7S 7D 7C 7H 7S", "KC KD KS KH KC"),
        ),
        # zioncheck-nl's sets hold at most 4: its first deal cannot go out in melds alone (9 of
        # 11 cards), its fourth can: three sets of 4, or 4 + 4 + 3 and a discard.
        (
            ZIONCHECK,
            4,
            ("7H 7S 7D 7C", "KC KD KS KH", "9C 9D 9S 9H"),
            ("7H 7S 7D 7C", "KC KD KS KH", "9C 9D 9S"),
        ),
    ],
    ids=["shanghai", "zioncheck-nl"],
)
def test_going_out_shanghai_and_zioncheck_with_or_without_a_discard(
    variant: Variant, number: int, whole: tuple[str, ...], with_discard: tuple[str, ...]
) -> None:
    assert variant.going_out_discard is GoingOutDiscard.EITHER
    assert contract(variant, number, *whole, going_out=True).valid
    assert contract(variant, number, *with_discard, going_out=True, discard=parse_card("2C")).valid


def test_going_out_zioncheck_last_round_melds_everything() -> None:
    runs = ("5H 6H 7H 8H", "5S 6S 7S 8S", "9D 10D JD QD KD")  # 12 dealt + 1 drawn
    assert contract(ZIONCHECK, 7, *runs, going_out=True).valid
    discarded = contract(ZIONCHECK, 7, *runs, going_out=True, discard=parse_card("2C"))
    assert codes(discarded) == ["last_round_no_discard"]


def test_going_out_rummy_needs_a_discard() -> None:
    """Seed 002: meld or lay off everything and discard the last card."""
    assert RUMMY.going_out_discard is GoingOutDiscard.REQUIRED


def test_going_out_discard_house_rule_is_a_choice_for_the_rounds_before_the_last() -> None:
    forbidden = get_variant("contract", {"going_out_discard": "forbidden"})
    assert contract(forbidden, 1, *SETS_OF_ELEVEN, going_out=True).valid
    discarded = contract(forbidden, 1, *SETS_OF_TEN, going_out=True, discard=parse_card("2C"))
    assert codes(discarded) == ["going_out_no_discard"]
    either = get_variant("contract", {"going_out_discard": "either"})
    assert contract(either, 1, *SETS_OF_ELEVEN, going_out=True).valid
    assert either.going_out_discard_in(7) is GoingOutDiscard.FORBIDDEN  # the last stays as is
    required = get_variant("shanghai", {"going_out_discard": "required"})
    twelve = ("7H 7S 7D 7C 7H 7S", "KC KD KS KH KC KD")  # Shanghai deals 11
    assert codes(contract(required, 1, *twelve, going_out=True)) == ["going_out_needs_discard"]
    assert required.going_out_discard_in(7) is GoingOutDiscard.REQUIRED  # no go-out-only round
    # Games saved while the rule was a yes/no switch still read: yes required, no either.
    assert get_variant("contract", {"going_out_discard": True}).going_out_discard.value == (
        "required"
    )
    assert get_variant("contract", {"going_out_discard": False}).going_out_discard.value == (
        "either"
    )


# -- Timing of lay-offs and joker swaps --------------------------------------------------------

RUN = parse_cards("4C 5C 6C 7C")
NINE = parse_cards("8C")


def layoff_codes(variant: Variant, when: ContractDown | None) -> tuple[list[str], list[str]]:
    verdict = check_layoff(RUN, NINE, variant, contract_down=when)
    return codes(verdict), [c.code for c in verdict.conditions]


def test_timing_contract_lays_off_from_the_turn_after_its_own_contract() -> None:
    assert layoff_codes(CONTRACT, NO) == (["layoff_before_contract"], [])
    assert layoff_codes(CONTRACT, THIS_TURN) == (["layoff_same_turn_as_contract"], [])
    assert layoff_codes(CONTRACT, EARLIER) == ([], [])


def test_timing_shanghai_lays_off_after_its_own_contract_same_turn_included() -> None:
    assert layoff_codes(SHANGHAI, NO) == (["layoff_before_contract"], [])
    assert layoff_codes(SHANGHAI, THIS_TURN) == ([], [])
    assert layoff_codes(SHANGHAI, EARLIER) == ([], [])


def test_timing_zioncheck_lays_off_after_its_own_contract_same_turn_included() -> None:
    """Seed 001 asks for an earlier turn only before a joker swap (RULES.md, third reading)."""
    assert layoff_codes(ZIONCHECK, NO) == (["layoff_before_contract"], [])
    assert layoff_codes(ZIONCHECK, THIS_TURN) == ([], [])
    assert layoff_codes(ZIONCHECK, EARLIER) == ([], [])
    assert layoff_codes(ZIONCHECK, None) == ([], ["once_contract_down"])


def test_timing_rummy_lays_off_any_time() -> None:
    for when in (None, NO, THIS_TURN, EARLIER):
        assert layoff_codes(RUMMY, when) == ([], [])


def test_timing_not_told_the_verdict_states_the_condition() -> None:
    """ "Valid once your contract is down, from your next turn." """
    assert layoff_codes(CONTRACT, None) == ([], ["once_contract_down_next_turn"])
    assert layoff_codes(SHANGHAI, None) == ([], ["once_contract_down"])
    assert check_layoff(RUN, NINE, CONTRACT).valid


def swap_codes(
    variant: Variant, meld: str, card: str, when: ContractDown | None, own_meld: bool = False
) -> tuple[list[str], list[str]]:
    verdict = check_joker_swap(
        parse_cards(meld), parse_card(card), variant, contract_down=when, own_meld=own_meld
    )
    return codes(verdict), [c.code for c in verdict.conditions]


def test_timing_contract_any_player_swaps_a_run_joker_on_their_turn() -> None:
    for when in (None, NO, THIS_TURN, EARLIER):
        assert swap_codes(CONTRACT, "5H 6H JK 8H", "7H", when) == ([], [])


def test_timing_shanghai_swaps_only_after_its_own_contract_and_keeps_the_joker() -> None:
    assert swap_codes(SHANGHAI, "7H 7S JK", "7D", NO) == (["swap_before_contract"], [])
    assert swap_codes(SHANGHAI, "7H 7S JK", "7D", THIS_TURN) == ([], [])
    assert swap_codes(SHANGHAI, "7H 7S JK", "7D", None) == ([], ["once_contract_down"])


def test_timing_zioncheck_swaps_after_an_earlier_turn_and_uses_the_joker_at_once() -> None:
    meld = "5H JK 7H"  # the joker can only be 6H
    assert swap_codes(ZIONCHECK, meld, "6H", NO) == (["swap_before_contract"], [])
    assert swap_codes(ZIONCHECK, meld, "6H", THIS_TURN) == (["swap_same_turn_as_contract"], [])
    assert swap_codes(ZIONCHECK, meld, "6H", EARLIER) == ([], ["swap_use_joker_this_turn"])
    assert swap_codes(ZIONCHECK, meld, "6H", None) == (
        [],
        ["once_contract_down_next_turn", "swap_use_joker_this_turn"],
    )


# -- Declared jokers (zioncheck-nl) ------------------------------------------------------------


def test_declared_jokers_an_ambiguous_joker_is_not_valid_until_declared() -> None:
    verdict = check_meld(parse_cards("5H 6H 7H JK"), ZIONCHECK)
    assert codes(verdict) == ["joker_not_declared"]
    assert verdict.violations[0].params == {"options": ["4H", "8H"]}
    assert check_meld(parse_cards("5H 6H 7H JK=8H"), ZIONCHECK).valid
    assert check_meld(parse_cards("5H JK 7H"), ZIONCHECK).valid  # one reading: nothing to say


def test_declared_jokers_a_set_joker_names_its_suit_where_suits_differ() -> None:
    verdict = check_meld(parse_cards("7H 7S JK"), ZIONCHECK)
    assert codes(verdict) == ["joker_not_declared"]
    assert verdict.violations[0].params == {"options": ["7C", "7D"]}
    assert check_meld(parse_cards("7H 7S 7D JK"), ZIONCHECK).valid  # only clubs is left
    assert check_meld(parse_cards("7H 7S JK=7C"), ZIONCHECK).valid


def test_declared_jokers_lay_offs_follow_the_declared_card() -> None:
    declared = parse_cards("5H 6H 7H JK=8H")
    assert check_layoff(declared, parse_cards("9H"), ZIONCHECK).valid
    assert check_layoff(declared, parse_cards("4H"), ZIONCHECK).valid
    assert not check_layoff(declared, parse_cards("8H"), ZIONCHECK).valid
    # The same meld undeclared is not on the table yet.
    assert codes(check_layoff(parse_cards("5H 6H 7H JK"), parse_cards("9H"), ZIONCHECK)) == [
        "joker_not_declared"
    ]


def test_declared_jokers_swaps_follow_the_declared_card() -> None:
    declared = parse_cards("5H 6H 7H JK=8H")
    assert check_joker_swap(declared, parse_card("8H"), ZIONCHECK, contract_down=EARLIER).valid
    assert not check_joker_swap(declared, parse_card("4H"), ZIONCHECK, contract_down=EARLIER).valid


def test_declared_jokers_a_contract_that_leaves_two_readings_asks_for_the_declaration() -> None:
    verdict = contract(ZIONCHECK, 3, "4C 5C 6C JK", "7H 8H 9H")
    assert codes(verdict) == ["joker_not_declared"] and verdict.violations[0].meld == 0
    assert contract(ZIONCHECK, 3, "4C 5C 6C JK=7C", "7H 8H 9H").valid


def test_declared_jokers_elsewhere_both_readings_are_said() -> None:
    verdict = check_meld(parse_cards("5H 6H 7H JK"), CONTRACT)
    assert verdict.valid and verdict.ambiguous
    assert sorted(str(r.jokers[0][1]) for r in verdict.readings) == ["4H", "8H"]


# -- Ties --------------------------------------------------------------------------------------


def test_ties_fixed_rounds_go_to_the_lower_last_round_then_are_shared() -> None:
    """Short has 5 rounds: equal totals, then the lower round-5 score; still equal, shared."""
    short = get_variant("short")
    rounds = [[0, 20, 40], [20, 0, 40], [0, 20, 40], [20, 0, 40]]
    broken = standings(short, [*rounds, [60, 0, 90]], 3)
    assert broken.finished and broken.totals[:2] == (100, 40) and broken.winner == 1
    tied = standings(short, [*rounds, [0, 0, 60]], 3)
    assert tied.totals[:2] == (40, 40) and tied.leaders == (0, 1) and tied.winner is None


def test_ties_rummy_equal_highest_totals_share_the_win() -> None:
    """Seed 002 is silent: our default is a shared win, not the last deal's score.

    Only the winner of a deal scores, so a tie stands at the top while playing, and at the
    end of a game to a target so high that it runs out of deals.
    """
    assert not RUMMY.tie_break_last_round
    playing = standings(RUMMY, [[40, 0, 0], [0, 40, 0]], 3)
    assert not playing.finished and playing.leaders == (0, 1)
    game = Game.start("rummy", ["Ann", "Bo", "Cy"], house_rules={"target": 10000})
    for number in range(1, 61):
        results = [held(5), held(5), held(5)]
        results[(number - 1) % 2] = OUT
        game = game.enter_round(number, results).game
    assert game.finished and game.standings.totals == (300, 300, 0)
    assert game.winners == (0, 1) and game.winner is None
    kept = Game.start("rummy", ["Ann", "Bo"], house_rules={"tie_break_last_round": True})
    kept = kept.enter_round(1, [OUT, held(40)]).game.enter_round(2, [held(40), OUT]).game
    assert kept.standings.leaders == (1,)  # the house rule: the last deal's score breaks it


# -- The stock ---------------------------------------------------------------------------------


def test_stock_rummy_never_ends_a_deal() -> None:
    """The discards become the stock as often as needed: a deal ends with someone out."""
    assert RUMMY.stock_reshuffles is None and not RUMMY.stock_can_end_a_round
    game = Game.start("rummy", ["Ann", "Bo"])
    assert refused(game, 1, [held(10), held(20)]) == [("no_player_out", None)]


def test_stock_contract_running_out_twice_ends_the_round() -> None:
    assert CONTRACT.stock_reshuffles == 1 and CONTRACT.stock_can_end_a_round
    game = Game.start("contract", ["Ann", "Bo", "Cy"])
    assert game.enter_round(1, [held(10), held(20), held(30)]).game.rounds[0].scores == (10, 20, 30)


def test_stock_a_house_rule_may_end_a_rummy_deal_and_then_nobody_collects() -> None:
    house = get_variant("rummy", {"stock_reshuffles": 2})
    assert house.stock_can_end_a_round
    assert score_round(house, 1, [PlayerResult(penalty=10), PlayerResult(penalty=20)]) == (0, 0)


# -- Contract wording --------------------------------------------------------------------------


def test_contract_words_a_run_of_three_in_a_contract_of_runs_of_four() -> None:
    verdict = contract(CONTRACT, 2, "7H 7S 7D", "4C 5C 6C")
    assert codes(verdict) == ["contract_run_too_short"]
    assert verdict.violations[0].params == {"count": 3, "size": 4}
    # Too short for any run at all stays the meld's own rule.
    assert codes(contract(CONTRACT, 2, "7H 7S 7D", "4C 5C")) == ["too_few_cards"]


def test_contract_words_a_set_of_three_in_a_contract_of_sets_of_four() -> None:
    house = get_variant("contract", {"contracts": {"4": "four sets of 4"}})
    verdict = contract(house, 4, "7H 7S 7D", "8H 8S 8D 8C", "9H 9S 9D 9C", "KH KS KD KC")
    assert codes(verdict) == ["contract_set_too_short"]
    assert verdict.violations[0].params == {"count": 3, "size": 4}


def test_contract_words_a_kind_the_contract_does_not_ask_for_is_counted_not_sized() -> None:
    """Round 1 asks for two sets: a run of 3 is a meld of its own, just not this contract's."""
    verdict = contract(CONTRACT, 1, "7H 7S 7D", "4C 5C 6C")
    assert codes(verdict) == ["wrong_sets_and_runs"]


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=lambda v: v.id)
def test_every_variant_states_its_timing_and_discard_as_fields(variant: Variant) -> None:
    """Nothing here asks which variant it is: each answer comes from a field."""
    assert isinstance(variant.going_out_discard, GoingOutDiscard)
    if variant.has_contracts and variant.last_round_goes_out:
        assert variant.rounds is not None
        assert variant.going_out_discard_in(variant.rounds) is GoingOutDiscard.FORBIDDEN
