"""Properties of meld, contract and lay-off verdicts that hold for every hand (hypothesis)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.cards import JOKER, Card, full_deck
from referee.engine.contracts import check_contract
from referee.engine.errors import RefereeError
from referee.engine.layoffs import check_joker_swap, check_layoff
from referee.engine.melds import MeldKind, Reading, check_meld
from referee.engine.scoring import least_whole_hand, max_hand_size, penalty_of
from referee.engine.variants import VARIANTS, Variant

variants = st.sampled_from(list(VARIANTS.values()))
cards = st.sampled_from([*full_deck(), JOKER])
declared = st.builds(lambda c: Card(stands_for=c), st.sampled_from(full_deck()))
melds = st.lists(st.one_of(cards, cards, cards, declared), min_size=0, max_size=9)


def assert_reading_is_a_meld(reading: Reading, variant: Variant) -> None:
    effective = reading.effective
    if reading.kind is MeldKind.SET:
        assert len({c.rank for c in effective}) == 1
        if variant.set_suits_distinct:
            assert len({c.suit for c in effective}) == len(effective)
    else:
        assert len({c.suit for c in effective}) == 1
        places = list(reading.positions)
        assert len(places) == len(effective)
        if not variant.around_the_corner:
            assert places == list(range(places[0], places[0] + len(places)))
            assert not (1 in places and 14 in places)


@settings(max_examples=300, deadline=None)
@given(variants, melds)
def test_every_reading_is_a_real_meld_of_the_same_cards(variant: Variant, meld: list[Card]) -> None:
    verdict = check_meld(meld, variant)
    assert verdict.valid == (not verdict.violations)
    for reading in verdict.readings:
        assert Counter(c.plain for c in reading.cards) == Counter(c.plain for c in meld)
        assert_reading_is_a_meld(reading, variant)
        # What a reading says of its jokers is itself a valid meld when declared.
        assert check_meld(reading.cards, variant, kind=reading.kind).valid


@settings(max_examples=200, deadline=None)
@given(variants, st.lists(melds, max_size=4), st.integers(min_value=1, max_value=7), st.booleans())
def test_contract_verdicts_never_raise_and_melds_stay_in_order(
    variant: Variant, hand: list[list[Card]], number: int, going_out: bool
) -> None:
    if not variant.has_contracts or number > (variant.rounds or 0):
        return
    cards = sum(map(len, hand))
    if going_out and not least_whole_hand(variant, number) <= cards <= max_hand_size(
        variant, number
    ):
        # RULES.md "Hand sizes" and the fourth reading: a whole hand longer than any hand, or
        # shorter than the cards dealt and the one drawn, is an input error
        with pytest.raises(RefereeError) as refused:
            check_contract(hand, variant, number, going_out=going_out)
        too_long = cards > max_hand_size(variant, number)
        assert refused.value.code == ("too_many_cards" if too_long else "hand_too_short")
        return
    verdict = check_contract(hand, variant, number, going_out=going_out)
    assert len(verdict.melds) == len(hand)
    assert verdict.valid == (not verdict.violations)
    assert all(v.meld is None or 0 <= v.meld < len(hand) for v in verdict.violations)


@settings(max_examples=200, deadline=None)
@given(variants, melds, st.lists(cards, max_size=3), cards)
def test_layoffs_and_swaps_never_raise(
    variant: Variant, meld: list[Card], extra: list[Card], card: Card
) -> None:
    layoff = check_layoff(meld, extra, variant)
    if layoff.valid:
        assert layoff.meld.valid
    swap = check_joker_swap(meld, card, variant)
    if swap.valid:
        assert swap.meld.valid and swap.joker_as is not None


@given(variants, st.lists(cards, max_size=30))
def test_penalties_are_never_negative(variant: Variant, hand: list[Card]) -> None:
    assert penalty_of(hand, variant) >= 0
