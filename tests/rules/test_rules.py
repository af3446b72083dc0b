"""One test per rule of RULES.md, named after the rule, built from hands a table could hold.

Each name reads `test_<section>_<rule>`; the variant and seed are in the docstring.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.engine.cards import parse_card, parse_cards
from referee.engine.contracts import ContractVerdict, check_contract
from referee.engine.house_rules import get_variant
from referee.engine.layoffs import check_joker_swap, check_layoff
from referee.engine.melds import MeldKind, MeldVerdict, check_meld
from referee.engine.scoring import (
    PlayerResult,
    ScoringError,
    penalty_of,
    possible_penalty,
    score_round,
    standings,
)
from referee.engine.variants import VARIANTS, Contract, GoingOutDiscard, Variant

CONTRACT = get_variant("contract")
SHANGHAI = get_variant("shanghai")
ZIONCHECK = get_variant("zioncheck-nl")
RUMMY = get_variant("rummy")
CONTRACT_GAMES = [v for v in VARIANTS.values() if v.has_contracts]


def meld(text: str, variant: Variant = CONTRACT, **kwargs: Any) -> MeldVerdict:
    return check_meld(parse_cards(text), variant, **kwargs)


def codes(verdict: MeldVerdict | ContractVerdict) -> list[str]:
    return [v.code for v in verdict.violations]


def contract(
    variant: Variant, round_number: int, *melds: str, going_out: bool = False
) -> ContractVerdict:
    return check_contract(
        [parse_cards(m) for m in melds], variant, round_number, going_out=going_out
    )


# -- Cards -------------------------------------------------------------------------------------


def test_cards_several_decks_make_duplicates_normal() -> None:
    """Contract: 2 decks for 3-4 players, so two queens of spades may meet in one set."""
    assert meld("QS QS QH").valid
    assert CONTRACT.shoe_for(4).decks == 2


def test_cards_local_rank_letters_are_read_per_language() -> None:
    """RULES.md, Cards: de B D K A, nl B V H A, pt and fr V D R A; en and es J Q K A."""
    assert parse_cards("B♣ D♣ K♣ A♣", "de") == parse_cards("JC QC KC AC")
    assert parse_cards("B♥ V♥ H♥ A♥", "nl") == parse_cards("JH QH KH AH")
    assert parse_cards("V♠ D♠ R♠ A♠", "pt") == parse_cards("JS QS KS AS")
    assert parse_cards("V♦ D♦ R♦ A♦", "fr") == parse_cards("JD QD KD AD")
    assert parse_cards("J♦ Q♦ K♦", "es") == parse_cards("JD QD KD")


def test_cards_set_is_three_or_more_of_one_rank() -> None:
    verdict = meld("9C 9D 9S")
    assert verdict.valid and verdict.kind is MeldKind.SET
    assert codes(meld("9C 9D")) == ["too_few_cards"]


def test_cards_run_is_three_or_more_consecutive_of_one_suit() -> None:
    verdict = meld("4H 5H 6H")
    assert verdict.valid and verdict.kind is MeldKind.RUN
    assert codes(meld("4H 5H 6S")) == ["not_same_rank_or_suit"]
    assert codes(meld("4H 5H 7H")) == ["run_gap"]


def test_cards_run_order_is_worked_out_by_the_referee() -> None:
    """SPEC: the cards of a meld may come in any order; the referee orders a run itself."""
    assert [str(c) for c in meld("7H 5H 6H").ordered] == ["5H", "6H", "7H"]


def test_cards_ace_is_high_or_low_in_a_run() -> None:
    assert meld("AH 2H 3H").valid
    assert meld("QH KH AH").valid
    assert [str(c) for c in meld("AH KH QH").ordered] == ["QH", "KH", "AH"]


def test_cards_no_run_around_the_corner() -> None:
    """K-A-2 is not a run, unless a variant says so."""
    assert codes(meld("KH AH 2H")) == ["run_around_the_corner"]
    around = get_variant("contract", {"around_the_corner": True})
    assert meld("KH AH 2H", around).valid


def test_cards_ace_is_never_both_ends_of_one_run() -> None:
    """ "Ass hoch oder niedrig, nicht beides" (seed 000): A..K..A is not a run."""
    verdict = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    assert not verdict.valid
    assert meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH").valid


# -- Variants: players, shoe, deal -------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant_id", "low", "high"),
    [("contract", 3, 8), ("shanghai", 3, 6), ("zioncheck-nl", 3, 5), ("rummy", 2, 6)],
)
def test_variants_players(variant_id: str, low: int, high: int) -> None:
    variant = get_variant(variant_id)
    assert (variant.min_players, variant.max_players) == (low, high)


@pytest.mark.parametrize(
    ("variant_id", "players", "decks", "jokers"),
    [
        ("contract", 3, 2, 4),
        ("contract", 4, 2, 4),
        ("contract", 5, 3, 6),
        ("contract", 6, 3, 6),
        ("contract", 7, 3, 6),
        ("contract", 8, 3, 6),
        ("shanghai", 4, 2, 4),
        ("zioncheck-nl", 5, 1, 1),
        ("rummy", 4, 1, 0),
        ("joker-rummy", 4, 2, 6),
        ("joker-rummy", 6, 3, 8),
    ],
)
def test_variants_shoe_by_player_count(
    variant_id: str, players: int, decks: int, jokers: int
) -> None:
    shoe = get_variant(variant_id).shoe_for(players)
    assert (shoe.decks, shoe.jokers) == (decks, jokers)


def test_variants_shoe_for_seven_or_eight_is_a_house_rule() -> None:
    """Our default 3 decks + 6 jokers; the house may play 4 decks + 8 jokers."""
    house = get_variant(
        "contract",
        {
            "shoe": [
                {"min_players": 3, "max_players": 4, "decks": 2, "jokers": 4},
                {"min_players": 5, "max_players": 6, "decks": 3, "jokers": 6},
                {"min_players": 7, "max_players": 8, "decks": 4, "jokers": 8},
            ]
        },
    )
    assert (house.shoe_for(8).decks, house.shoe_for(8).jokers) == (4, 8)


@pytest.mark.parametrize(
    ("variant_id", "deal"),
    [
        ("contract", (10, 10, 10, 10, 12, 12, 12)),
        ("shanghai", (11,) * 7),
        ("zioncheck-nl", (10, 10, 10, 10, 12, 12, 12)),
        ("progressive", (10, 11, 12, 13, 14, 15, 16)),
        ("short", (10, 10, 10, 10, 12)),
    ],
)
def test_variants_cards_dealt_per_round(variant_id: str, deal: tuple[int, ...]) -> None:
    variant = get_variant(variant_id)
    assert tuple(variant.cards_dealt(n, 4) for n in range(1, len(deal) + 1)) == deal


def test_variants_thirteen_cards_in_round_seven_is_a_house_rule() -> None:
    house = get_variant("contract", {"deal": [10, 10, 10, 10, 12, 12, 13]})
    assert house.cards_dealt(7, 4) == 13


@pytest.mark.parametrize(("players", "cards"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_variants_rummy_deal_by_player_count(players: int, cards: int) -> None:
    assert RUMMY.cards_dealt(1, players) == cards


def test_variants_rounds() -> None:
    assert [CONTRACT.rounds, SHANGHAI.rounds, ZIONCHECK.rounds, RUMMY.rounds] == [7, 7, 7, None]
    assert get_variant("short").rounds == 5


def test_variants_deal_passes_to_the_left_each_round() -> None:
    assert [CONTRACT.dealer_of(n, 2, 4) for n in range(1, 8)] == [2, 3, 0, 1, 2, 3, 0]


# -- Contracts (rounds) ------------------------------------------------------------------------


@pytest.mark.parametrize("variant_id", ["contract", "shanghai"])
def test_contracts_table_contract_and_shanghai(variant_id: str) -> None:
    variant = get_variant(variant_id)
    assert [str(variant.contract_for(n)) for n in range(1, 8)] == [
        "2 sets of 3",
        "1 set of 3 + 1 run of 4",
        "2 runs of 4",
        "3 sets of 3",
        "2 sets of 3 + 1 run of 4",
        "1 set of 3 + 2 runs of 4",
        "3 runs of 4",
    ]


def test_contracts_table_zioncheck_runs_of_three() -> None:
    """Seed 001: "2 sets", "1 set en 1 reeks"... runs in a contract need only 3 cards."""
    assert [(c.sets, c.runs, c.run_size) for c in ZIONCHECK.contracts] == [
        (2, 0, 3),
        (1, 1, 3),
        (0, 2, 3),
        (3, 0, 3),
        (2, 1, 3),
        (1, 2, 3),
        (0, 3, 3),
    ]
    assert contract(ZIONCHECK, 2, "7H 7S 7D", "4C 5C 6C").valid


def test_contracts_exactly_the_contract_melds() -> None:
    """Round 1 is two sets: a run, or a third set, is not the contract."""
    assert contract(CONTRACT, 1, "7H 7S 7D", "KC KD KS").valid
    assert codes(contract(CONTRACT, 1, "7H 7S 7D", "4C 5C 6C 7C")) == ["wrong_sets_and_runs"]
    assert codes(contract(CONTRACT, 1, "7H 7S 7D", "KC KD KS", "2C 2D 2S")) == [
        "wrong_sets_and_runs"
    ]


def test_contracts_each_meld_at_least_its_size_longer_allowed() -> None:
    assert codes(contract(CONTRACT, 2, "7H 7S 7D", "4C 5C 6C")) == ["contract_run_too_short"]
    assert contract(CONTRACT, 2, "7H 7S 7D 7C", "4C 5C 6C 7C 8C").valid


def test_contracts_runs_differ_in_suit_or_start_contract() -> None:
    """Seed 000: two runs of 4 must be in different suits OR start on different ranks."""
    assert codes(contract(CONTRACT, 3, "5H 6H 7H 8H", "5H 6H 7H 8H")) == [
        "runs_same_suit_and_start"
    ]
    assert contract(CONTRACT, 3, "5H 6H 7H 8H", "9H 10H JH QH").valid
    assert contract(CONTRACT, 3, "5H 6H 7H 8H", "5S 6S 7S 8S").valid


def test_contracts_runs_in_different_suits_zioncheck() -> None:
    """Seed 001: several runs in one contract "mogen niet van dezelfde kleur zijn"."""
    assert codes(contract(ZIONCHECK, 3, "5H 6H 7H", "9H 10H JH")) == ["runs_same_suit"]
    assert contract(ZIONCHECK, 3, "5H 6H 7H", "9S 10S JS").valid


def test_contracts_a_joker_may_start_a_run_elsewhere() -> None:
    """5H 6H 7H JK next to 5H 6H 7H 8H: the joker is read as 4H so the starts differ."""
    verdict = contract(CONTRACT, 3, "5H 6H 7H 8H", "5H 6H 7H JK")
    assert verdict.valid
    assert [str(c) for c in verdict.melds[1].ordered] == ["JK=4H", "5H", "6H", "7H"]


def test_contracts_last_round_only_by_going_out() -> None:
    """Contract round 7: no discard, the whole hand is melded in the going-out turn."""
    melds = ("5H 6H 7H 8H", "5S 6S 7S 8S", "9D 10D JD QD KD")
    assert codes(contract(CONTRACT, 7, *melds)) == ["last_round_goes_out"]
    assert contract(CONTRACT, 7, *melds, going_out=True).valid
    assert contract(ZIONCHECK, 7, "5H 6H 7H 8H", "5S 6S 7S 8S", "9D 10D JD QD KD", going_out=True)
    assert contract(SHANGHAI, 7, *melds).valid  # Shanghai has no such rule


def test_contracts_custom_table_is_data() -> None:
    """Seed 000: "Runde 7 hat vier Sequenzen von 3", "Runde 4 hat vier Sätze von 3"."""
    custom = get_variant(
        "contract",
        {
            "contracts": [
                "2 sets of 3",
                "1 set of 3 + 1 run of 4",
                "2 runs of 4",
                "four sets of 3",
                "2 sets of 3 + 1 run of 4",
                "1 set of 3 + 2 runs of 4",
                "four runs of 3",
            ]
        },
    )
    assert custom.contract_for(7) == Contract(sets=0, runs=4, set_size=3, run_size=3)
    assert contract(
        custom, 7, "5H 6H 7H 8H", "5S 6S 7S", "9D 10D JD", "2C 3C 4C", going_out=True
    ).valid


def test_contracts_custom_table_changes_single_rounds() -> None:
    """Seed 000's words, "Runde 7 hat vier Sequenzen von 3": one round changed, the rest kept."""
    four_runs = Contract(sets=0, runs=4, set_size=3, run_size=3)
    four_sets = Contract(sets=4, runs=0, set_size=3, run_size=4)
    for table in (
        {"7": "four runs of 3"},
        {7: {"sets": 0, "runs": 4, "run_size": 3}},
        "round 7: four runs of 3",
        [
            "2 sets",
            "1 set + 1 run",
            "2 runs",
            "3 sets",
            "2 sets + 1 run",
            "1 set + 2 runs",
            "round 7: four runs of 3",
        ],
    ):
        custom = get_variant("contract", {"contracts": table})
        assert custom.contracts == (*CONTRACT.contracts[:6], four_runs), table
        assert custom.deal == CONTRACT.deal
    both = get_variant(
        "contract", {"contracts": "round 4: four sets of 3\nround 7: four runs of 3"}
    )
    assert both.contract_for(4) == four_sets
    assert both.contract_for(7) == four_runs
    longer = get_variant("contract", {"contracts": {"8": "four runs of 3"}})
    assert longer.rounds == 8
    assert longer.deal[-1] == 12
    assert contract(
        longer, 8, "5H 6H 7H 8H", "5S 6S 7S", "9D 10D JD", "2C 3C 4C", going_out=True
    ).valid
    assert not longer.is_last_round(7)


@pytest.mark.parametrize(
    "table",
    [
        {"9": "four runs of 3"},  # round 8 would have no contract
        {"0": "2 sets"},
        {"seven": "2 sets"},
        "four runs of 3",  # which round?
        "round 7 four runs of 3",
        ["round 2: 2 sets"],  # the label says another round than its place
        {},
    ],
)
def test_contracts_custom_table_refuses_what_it_cannot_read(table: Any) -> None:
    from referee.engine.errors import HouseRuleError

    with pytest.raises(HouseRuleError) as error:
        get_variant("contract", {"contracts": table})
    assert error.value.code == "bad_house_rule"


def test_contracts_wrong_count_counts_the_failing_meld_too() -> None:
    """Round 1 with a third meld: a run of 3, a meld of its own, is not what two sets ask for."""
    verdict = contract(CONTRACT, 1, "7H 7S 7D", "KC KD KS", "2C 3C 4C")
    assert codes(verdict) == ["wrong_sets_and_runs"]
    wrong = verdict.violations[0]
    assert (wrong.params["got_sets"], wrong.params["got_runs"]) == (2, 1)
    # Three sets, one failing: still three sets, not "2 sets" against a contract of 2 sets.
    verdict = contract(CONTRACT, 1, "7H 7S 7D", "KC KD KS", "2C 2C 2C 2C")
    wrong = verdict.violations[-1]
    assert wrong.code == "wrong_sets_and_runs"
    assert (wrong.params["got_sets"], wrong.params["got_runs"]) == (3, 0)
    # A meld of no kind at all is not counted, and the right count is not called wrong.
    assert codes(contract(CONTRACT, 1, "7H 7S 7D", "2C 5D 9S")) == ["not_same_rank_or_suit"]


def test_contracts_rummy_has_none() -> None:
    from referee.engine.errors import RoundError

    with pytest.raises(RoundError) as error:
        contract(RUMMY, 1, "7H 7S 7D")
    assert error.value.code == "no_contract"


def test_contracts_short_game_leaves_out_rounds_five_and_six() -> None:
    short = get_variant("short")
    assert short.contracts == CONTRACT.contracts[:4] + CONTRACT.contracts[6:]


# -- Meld rules per variant --------------------------------------------------------------------


def test_melds_min_run_any_meld_shanghai_is_four() -> None:
    assert codes(meld("4H 5H 6H", SHANGHAI)) == ["too_few_cards"]
    assert meld("4H 5H 6H", CONTRACT).valid
    assert meld("4H 5H 6H", ZIONCHECK).valid
    assert meld("4H 5H 6H", RUMMY).valid


def test_melds_set_at_most_four_zioncheck_and_rummy() -> None:
    assert codes(meld("7H 7S 7D 7C JK", ZIONCHECK)) == ["set_too_large"]
    assert meld("7H 7S 7D 7C", ZIONCHECK).valid
    assert meld("7H 7S 7D 7C 7C", CONTRACT).valid


def test_melds_set_suits_all_different_zioncheck() -> None:
    """Seed 001: no two cards of the same suit in a group (two decks for > 5 players)."""
    assert "set_suits_repeat" in codes(meld("5D 5D 5H", ZIONCHECK))
    eight = get_variant("zioncheck-nl", {"max_players": 8})
    assert codes(meld("5D 5D 5H", eight)) == ["set_suits_repeat"]
    assert meld("5D 5S 5H", ZIONCHECK).valid


def test_melds_joker_in_distinct_suit_set_takes_a_missing_suit() -> None:
    verdict = meld("5D 5S 5H JK", ZIONCHECK)
    assert verdict.reading is not None
    (joker_as,) = [as_ for _, as_ in verdict.reading.jokers]
    assert str(joker_as) == "5C"
    assert codes(meld("5D 5S JK=5D", ZIONCHECK)) == ["set_suits_repeat"]


def test_melds_rummy_aces_low_only() -> None:
    assert codes(meld("QH KH AH", RUMMY)) == ["ace_low_only"]
    assert meld("AH 2H 3H", RUMMY).valid
    assert meld("QH KH AH", get_variant("rummy", {"aces": "high_or_low"})).valid


def test_melds_jokers_at_least_one_natural_card() -> None:
    assert codes(meld("JK JK JK")) == ["no_natural_card"]
    assert meld("JK JK 7H").valid


def test_melds_jokers_no_limit_in_contract() -> None:
    assert meld("5H JK JK JK JK").valid


def test_melds_jokers_at_most_one_per_meld_shanghai() -> None:
    assert codes(meld("5H 6H JK JK", SHANGHAI)) == ["too_many_jokers"]
    assert meld("5H 6H 7H JK", SHANGHAI).valid


def test_melds_no_jokers_in_rummy() -> None:
    """A card that parses but cannot be in the game is a verdict, not an error."""
    assert codes(meld("5H 6H JK", RUMMY)) == ["jokers_not_allowed"]


def test_melds_two_identical_cards_in_a_one_deck_game() -> None:
    assert codes(meld("5H 5H 5S", RUMMY)) == ["too_many_copies"]


def test_melds_joker_reading_worked_out_and_ambiguity_said() -> None:
    """SPEC: otherwise the referee works it out, and says so where more than one reading fits."""
    verdict = meld("5H 6H 7H JK")
    assert verdict.valid and verdict.ambiguous
    assert sorted(str(r.jokers[0][1]) for r in verdict.readings) == ["4H", "8H"]
    single = meld("5H JK 7H")
    assert not single.ambiguous and single.reading is not None
    assert str(single.reading.jokers[0][1]) == "6H"


def test_melds_declared_joker_is_held_to_its_declaration() -> None:
    """Seed 001: a joker's suit and rank are declared and stay fixed."""
    verdict = meld("5H 6H 7H JK=8H", ZIONCHECK)
    assert verdict.valid and not verdict.ambiguous
    assert codes(meld("5H 6H 7H JK=9H", ZIONCHECK)) == ["run_gap"]
    assert codes(meld("7H 7S JK=8D", ZIONCHECK)) == ["joker_declaration_mismatch"]


# -- Lay-offs and joker swaps ------------------------------------------------------------------


def test_layoff_at_either_end_of_a_run() -> None:
    meld_cards = parse_cards("5H 6H 7H 8H")
    assert check_layoff(meld_cards, parse_cards("9H"), CONTRACT).valid
    assert check_layoff(meld_cards, parse_cards("4H 3H"), CONTRACT).valid
    assert not check_layoff(meld_cards, parse_cards("10H"), CONTRACT).valid


def test_layoff_needs_a_card() -> None:
    verdict = check_layoff(parse_cards("5H 6H 7H"), (), CONTRACT)
    assert [v.code for v in verdict.violations] == ["nothing_to_lay_off"]


def test_layoff_onto_a_set_within_its_limits() -> None:
    assert check_layoff(parse_cards("7H 7S 7D"), parse_cards("7C"), ZIONCHECK).valid
    assert not check_layoff(parse_cards("7H 7S 7D 7C"), parse_cards("7C"), ZIONCHECK).valid
    assert check_layoff(parse_cards("7H 7S 7D 7C"), parse_cards("7C"), CONTRACT).valid


def test_layoff_a_joker_on_the_table_keeps_its_place() -> None:
    verdict = check_layoff(parse_cards("5H 6H JK 8H"), parse_cards("7H"), CONTRACT)
    assert [v.code for v in verdict.violations] == ["layoff_changes_meld"]


def test_joker_swap_in_a_run_contract() -> None:
    """Seed 000: a joker in a run may be replaced by the natural card it stands for."""
    verdict = check_joker_swap(parse_cards("5H 6H JK 8H"), parse_card("7H"), CONTRACT)
    assert verdict.valid and str(verdict.joker_as) == "7H"
    assert not check_joker_swap(parse_cards("5H 6H JK 8H"), parse_card("7S"), CONTRACT).valid


def test_joker_swap_jokers_in_sets_are_dead_zioncheck() -> None:
    verdict = check_joker_swap(parse_cards("7H 7S JK=7D"), parse_card("7D"), ZIONCHECK)
    assert [v.code for v in verdict.violations] == ["joker_swap_in_set"]


def test_joker_swap_shanghai_swap_and_keep_also_from_sets() -> None:
    assert check_joker_swap(parse_cards("7H 7S JK"), parse_card("7D"), SHANGHAI).valid


def test_joker_swap_only_after_own_contract_shanghai_and_zioncheck() -> None:
    """Seed 003: "nach dem eigenen Kontrakt"; seed 001: after meeting it on an earlier turn."""
    assert SHANGHAI.joker_swap_after_contract and not CONTRACT.joker_swap_after_contract
    assert ZIONCHECK.joker_swap_after_contract and ZIONCHECK.joker_swap_after_earlier_turn


def test_joker_swap_rules_are_fields() -> None:
    assert ZIONCHECK.joker_swap_after_earlier_turn and ZIONCHECK.joker_swap_use_same_turn
    assert SHANGHAI.layoff_same_turn and not CONTRACT.layoff_same_turn


# -- Buying, discards, going out, the stock ----------------------------------------------------


def test_buying_optional_in_contract_on_in_frustration_and_shanghai() -> None:
    assert not CONTRACT.buying
    assert get_variant("frustration").buying and get_variant("frustration").buy_limit == 3
    assert SHANGHAI.buying and SHANGHAI.buy_before_contract_only
    assert get_variant("contract", {"buying": True}).buying


def test_taking_several_discards_zioncheck() -> None:
    assert ZIONCHECK.take_several_discards and not CONTRACT.take_several_discards


def test_going_out_fields() -> None:
    assert CONTRACT.last_round_goes_out and ZIONCHECK.last_round_goes_out
    assert not SHANGHAI.last_round_goes_out
    assert SHANGHAI.going_out_discard is GoingOutDiscard.EITHER
    assert ZIONCHECK.going_out_discard is GoingOutDiscard.EITHER
    assert RUMMY.going_out_discard is CONTRACT.going_out_discard is GoingOutDiscard.REQUIRED


def test_stock_runs_out_round_scored_from_every_hand() -> None:
    """Seed 000: the second time the stock runs out ends the round; everyone scores their hand."""
    scores = score_round(CONTRACT, 3, [PlayerResult(penalty=25), PlayerResult(penalty=40)] * 2)
    assert scores == (25, 40, 25, 40)
    assert CONTRACT.stock_reshuffles == 1


# -- Penalty values ----------------------------------------------------------------------------


def test_penalty_values_contract() -> None:
    """A 15 · 10 J Q K 10 · 2-9 5 · joker 15."""
    assert penalty_of(parse_cards("AS 10S KS 2S 9S JK"), CONTRACT) == 15 + 10 + 10 + 5 + 5 + 15


def test_penalty_values_shanghai_joker_fifty() -> None:
    assert penalty_of(parse_cards("AS 10S KS 2S JK"), SHANGHAI) == 15 + 10 + 10 + 5 + 50


def test_penalty_values_zioncheck_face_value() -> None:
    """A 15 · J Q K 10 · 2-10 face value · joker 15."""
    assert penalty_of(parse_cards("AS 10S KS 2S 7S JK"), ZIONCHECK) == 15 + 10 + 10 + 2 + 7 + 15


def test_penalty_values_rummy_ace_one() -> None:
    assert penalty_of(parse_cards("AS 10S KS 2S 7S"), RUMMY) == 1 + 10 + 10 + 2 + 7


def test_penalty_impossible_values_are_refused() -> None:
    assert not possible_penalty(7, CONTRACT, 1, 4)  # contract counts in fives
    assert possible_penalty(7, ZIONCHECK, 1, 4)
    assert not possible_penalty(1, ZIONCHECK, 1, 4)
    assert not possible_penalty(10_000, CONTRACT, 1, 4)


# -- Round score and game end ------------------------------------------------------------------


def test_round_score_going_out_zero_others_their_hand() -> None:
    scores = score_round(
        CONTRACT,
        1,
        [PlayerResult(went_out=True), PlayerResult(penalty=35), PlayerResult(penalty=5)],
    )
    assert scores == (0, 35, 5)


def test_round_score_a_player_still_in_holds_at_least_one_card() -> None:
    """Nobody who stayed in can score 0: with no card left, they went out."""
    assert not possible_penalty(0, CONTRACT, 1, 4)
    assert possible_penalty(0, get_variant("contract", {"rank_points": {"2": 0}}), 1, 4)
    with pytest.raises(ScoringError) as error:
        score_round(
            CONTRACT, 1, [PlayerResult(went_out=True), PlayerResult(), PlayerResult(penalty=5)]
        )
    assert error.value.code == "impossible_penalty"


def test_round_score_two_players_out_is_refused() -> None:
    with pytest.raises(ScoringError) as error:
        score_round(CONTRACT, 1, [PlayerResult(went_out=True)] * 2 + [PlayerResult(penalty=5)])
    assert error.value.code == "two_players_out"


def test_game_end_after_seven_rounds_lowest_total_wins() -> None:
    rounds = [[0, 20, 35]] * 6
    assert not standings(CONTRACT, rounds, 3).finished
    final = standings(CONTRACT, [*rounds, [10, 0, 0]], 3)
    assert final.finished and final.winner == 0 and final.totals == (10, 120, 210)


def test_game_end_tie_lower_round_seven_score_wins() -> None:
    """Seed 000: "Bei Gleichstand entscheidet der Punktestand in Runde 7 (niedrigster gewinnt)"."""
    rounds = [[10, 0, 50]] * 6 + [[0, 60, 5]]
    final = standings(CONTRACT, rounds, 3)
    assert final.totals[0] == final.totals[1] == 60
    assert final.winner == 0


def test_game_end_rummy_first_to_target_highest_wins() -> None:
    assert RUMMY.target == 100
    rounds = [[70, 0, 0], [0, 45, 0], [35, 0, 0]]
    final = standings(RUMMY, rounds, 3)
    assert final.finished and final.winner == 0
    assert not standings(RUMMY, rounds[:2], 3).finished


def test_game_end_agreed_target_is_a_house_rule() -> None:
    assert get_variant("rummy", {"target": 250}).target == 250


# -- The worked example (seed 002) -------------------------------------------------------------


def test_worked_example_seed_002_rummy_scores_70() -> None:
    """You go out in one turn with ♥4-5-6-7 and three nines, discarding 2♣: rummy."""
    from referee.engine.cards import parse_cards as read

    assert check_meld(read("4♥ 5♥ 6♥ 7♥"), RUMMY).kind is MeldKind.RUN
    assert check_meld(read("9♣ 9♦ 9♠"), RUMMY).kind is MeldKind.SET
    ada = penalty_of(read("3♦ 8♦ A♣ 5♠"), RUMMY)
    bo = penalty_of(read("7♦ 6♣ 2♦ 3♣"), RUMMY)
    assert (ada, bo) == (17, 18)
    you = PlayerResult(went_out=True, rummy=True)
    assert score_round(RUMMY, 1, [you, PlayerResult(penalty=ada), PlayerResult(penalty=bo)]) == (
        70,
        0,
        0,
    )
    # Had you melded earlier, the same hands were worth 35; had Ada gone out, you held 44.
    plain = PlayerResult(went_out=True)
    assert (
        score_round(RUMMY, 1, [plain, PlayerResult(penalty=17), PlayerResult(penalty=18)])[0] == 35
    )
    assert penalty_of(read("4♥ 5♥ 6♥ 9♣ 9♦ 9♠ 2♣"), RUMMY) == 44


def test_worked_example_rummy_needs_going_out() -> None:
    with pytest.raises(ScoringError) as error:
        score_round(RUMMY, 1, [PlayerResult(rummy=True, penalty=5), PlayerResult(went_out=True)])
    assert error.value.code == "rummy_needs_going_out"


@pytest.mark.parametrize("variant", CONTRACT_GAMES, ids=lambda v: v.id)
def test_every_contract_round_can_be_met_with_the_cards_dealt(variant: Variant) -> None:
    """Each contract fits in the hand it is dealt (plus the card drawn)."""
    for number, round_contract in enumerate(variant.contracts, start=1):
        assert round_contract.min_cards <= variant.cards_dealt(number, variant.min_players) + 1
