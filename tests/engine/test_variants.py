"""Variants as data: the registry, house rules by name, a conformance suite over every variant."""

from __future__ import annotations

import dataclasses
import json
from enum import Enum
from typing import Any

import pytest

from referee.engine.cards import JOKER, full_deck
from referee.engine.errors import HouseRuleError, PlayersError, RoundError, UnknownVariantError
from referee.engine.house_rules import READERS, get_variant, parse_contract
from referee.engine.melds import check_meld
from referee.engine.scoring import penalty_of, value_classes
from referee.engine.variants import (
    HOUSE_RULE,
    HOUSE_RULES,
    VARIANTS,
    Contract,
    RuleKind,
    Variant,
    find_variant,
)

SPEC_IDS = [
    "contract",
    "shanghai",
    "zioncheck-nl",
    "rummy",
    "frustration",
    "joker-rummy",
    "progressive",
    "short",
]


def test_registry_has_exactly_the_spec_ids_in_order() -> None:
    assert list(VARIANTS) == SPEC_IDS


def test_house_rules_are_the_variant_fields_that_say_so_each_kind_read_one_way() -> None:
    """Issue 30: a house rule is declared once, in its field's metadata; its kind is an Enum
    every reader, form and document goes by."""
    marked = [f.name for f in dataclasses.fields(Variant) if HOUSE_RULE in f.metadata]
    assert list(HOUSE_RULES) == marked and "scoring" not in marked
    assert set(READERS) == set(RuleKind)
    contract = VARIANTS["contract"]
    for name, rule in HOUSE_RULES.items():
        value = getattr(contract, name)
        assert (rule.kind is RuleKind.CHOICE) == isinstance(value, Enum), name
        if rule.kind is RuleKind.CHOICE:
            assert rule.choices == tuple(member.value for member in type(value))
    assert find_variant(" Zioncheck ") is VARIANTS["contract"]
    with pytest.raises(UnknownVariantError):
        find_variant("canasta")


@pytest.mark.parametrize(
    ("alias", "variant_id"),
    [("zioncheck", "contract"), ("Shanghai", "shanghai"), ("rommé", "rummy")],
)
def test_registry_lookup_by_alias(alias: str, variant_id: str) -> None:
    assert get_variant(alias).id == variant_id


def test_registry_unknown_variant() -> None:
    with pytest.raises(UnknownVariantError) as error:
        get_variant("canasta")
    assert error.value.code == "unknown_variant"


@pytest.mark.parametrize(
    ("rules", "code"),
    [
        ({"no_such_rule": True}, "unknown_house_rule"),
        ({"buying": "yes"}, "bad_house_rule"),
        ({"buy_limit": -1}, "bad_house_rule"),
        ({"buy_limit": True}, "bad_house_rule"),
        ({"aces": "sideways"}, "bad_house_rule"),
        ({"contracts": ["three dragons"]}, "bad_house_rule"),
        ({"contracts": []}, "bad_house_rule"),
        ({"deal": [10, 10]}, "deal_length"),
        ({"rank_points": {"Z": 3}}, "bad_house_rule"),
        ({"shoe": [{"decks": 2}]}, "bad_house_rule"),
        ({"min_players": 7, "max_players": 4}, "bad_house_rule"),
        # Jokers alone would be a meld nobody can read (and the referee had no reason to give).
        ({"min_natural_cards": 0}, "bad_house_rule"),
        # Digits that are not ASCII, and numbers too long to read: refused, never a crash.
        ({"contracts": {"²": "2 sets"}}, "bad_house_rule"),
        ({"contracts": {"7": "9" * 5000 + " runs"}}, "bad_house_rule"),
        ({"contracts": "round " + "7" * 5000 + ": 2 sets"}, "bad_house_rule"),
        ({"contracts": ["2 sets of " + "3" * 5000]}, "bad_house_rule"),
    ],
)
def test_house_rules_bad_name_or_value_is_a_clear_error(rules: dict[str, Any], code: str) -> None:
    with pytest.raises(HouseRuleError) as error:
        get_variant("contract", rules)
    assert error.value.code == code


def test_house_rules_override_fields_and_leave_the_preset_alone() -> None:
    house = get_variant("contract", {"buying": True, "rank_points": {"A": 20}, "joker_points": 25})
    assert house.buying and house.points_of(full_deck()[0]) == 20 and house.points_of(JOKER) == 25
    assert not get_variant("contract").buying


def test_house_rules_custom_contract_table_keeps_deal_sizes() -> None:
    house = get_variant("contract", {"contracts": [{"sets": 4, "runs": 0}, "2 runs of 5"]})
    assert house.contracts == (Contract(4, 0, 3, 4), Contract(0, 2, 3, 5))
    assert house.deal == (10, 10)


def test_parse_contract_words_and_numbers() -> None:
    assert parse_contract("four runs of 3") == Contract(0, 4, 3, 3)
    assert parse_contract("1 set of 3 + 2 runs of 4") == Contract(1, 2, 3, 4)
    assert parse_contract("two sets and a run") == Contract(2, 1, 3, 4)


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=lambda v: v.id)
class TestEveryVariant:
    """What must hold whatever the variant (OpenSpiel's conformance idea)."""

    def test_data_is_json_and_names_every_house_rule(self, variant: Variant) -> None:
        data = json.loads(json.dumps(variant.to_dict()))
        assert set(data["house_rules"]) == set(HOUSE_RULES)
        assert data["id"] == variant.id

    def test_house_rules_round_trip(self, variant: Variant) -> None:
        assert get_variant(variant.id, variant.house_rules()) == variant

    def test_every_player_count_has_a_shoe_and_a_deal(self, variant: Variant) -> None:
        for players in range(variant.min_players, variant.max_players + 1):
            shoe = variant.shoe_for(players)
            dealt = variant.cards_dealt(1, players)
            assert players * dealt < 52 * shoe.decks + shoe.jokers

    def test_players_outside_the_range_are_refused(self, variant: Variant) -> None:
        with pytest.raises(PlayersError):
            variant.shoe_for(variant.max_players + 1)

    def test_rounds_outside_the_game_are_refused(self, variant: Variant) -> None:
        if variant.rounds is None:
            with pytest.raises(RoundError):
                variant.contract_for(1)
            return
        for bad in (0, variant.rounds + 1):
            with pytest.raises(RoundError):
                variant.contract_for(bad)

    def test_penalties_are_never_negative(self, variant: Variant) -> None:
        assert all(points >= 0 for points in variant.rank_points)
        assert penalty_of([*full_deck(), JOKER], variant) > 0

    def test_value_classes_cover_every_rank_once(self, variant: Variant) -> None:
        ranks = [rank for vc in value_classes(variant) for rank in vc.ranks]
        assert sorted(ranks) == sorted(set(ranks)) and len(ranks) == 13

    def test_every_natural_set_of_three_of_a_kind_in_distinct_suits_is_valid(
        self, variant: Variant
    ) -> None:
        deck = full_deck()
        for rank_index in range(13):
            cards = [deck[rank_index], deck[13 + rank_index], deck[26 + rank_index]]
            assert check_meld(cards, variant).valid

    def test_every_natural_run_of_the_minimum_length_is_valid_or_refused_for_a_reason(
        self, variant: Variant
    ) -> None:
        deck = full_deck()
        size = variant.min_run_size
        for start in range(0, 13 - size + 1):
            assert check_meld(deck[start : start + size], variant).valid
