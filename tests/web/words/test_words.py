"""The vocabulary (`referee.web.vocabulary.words`): cards, contracts, variants and house rules in
words, the same in every place that shows them, in all six languages."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask_babel import force_locale

from referee.engine.cards import Card, Rank, Suit
from referee.engine.house_rules import get_variant
from referee.engine.variants import HOUSE_RULES, VARIANTS, Contract, ShoeRule
from referee.web.vocabulary.words import (
    card_label,
    cards_notation,
    choice_label,
    contract_text,
    house_rule_help,
    house_rule_label,
    house_rule_value,
    meld_kind_label,
    melds_count_text,
    rank_label,
    shoe_text,
    suit_name,
    variant_name,
    variant_summary,
)

LANGUAGES = ("en", "de", "nl", "pt", "fr", "es")
OTHER_LANGUAGES = LANGUAGES[1:]
PLACEHOLDER = re.compile(r"%\(|%[sd]\b|\{\w*\}")

# Where a language rightly uses the English word (checked by hand, not by the test).
SAME_AS_ENGLISH = {
    ("nl", "set"),
    ("nl", "joker"),
    ("fr", "joker"),
    ("fr", "six"),
    ("nl", "acht"),
}


@pytest.fixture(scope="module")
def app() -> Flask:
    from referee.web import create_app

    return create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": "sqlite://"})


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.test_request_context("/"):
        yield


def words(lang: str, function: Any, *args: Any, **kwargs: Any) -> str:
    with force_locale(lang):
        return str(function(*args, **kwargs))


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "2 sets of 3 and 1 run of 4"),
        ("de", "2 Sätze zu 3 und 1 Folge zu 4"),
        ("nl", "2 sets van 3 en 1 reeks van 4"),
        ("pt", "duas trincas e uma sequência de 4"),  # seed 004, as its players say it
        ("fr", "2 séries de 3 et 1 suite de 4"),
        ("es", "2 tríos de 3 y 1 escalera de 4"),
    ],
)
def test_contract_text_is_pluralised(lang: str, expected: str) -> None:
    assert words(lang, contract_text, Contract(sets=2, runs=1)) == expected


@pytest.mark.usefixtures("ctx")
def test_contract_text_for_every_round_of_every_variant() -> None:
    assert words("de", contract_text, Contract(sets=0, runs=3)) == "3 Folgen zu 4"
    assert words("nl", contract_text, Contract(sets=1, runs=2, run_size=3)) == (
        "1 set van 3 en 2 reeksen van 3"
    )
    assert words("es", contract_text, Contract(sets=3, runs=0)) == "3 tríos de 3"
    for variant in VARIANTS.values():
        for contract in variant.contracts:
            for lang in LANGUAGES:
                text = words(lang, contract_text, contract)
                assert text and not PLACEHOLDER.search(text)
    assert words("en", melds_count_text, 0, 2) == "2 runs"
    assert words("pt", melds_count_text, 1, 0) == "1 trinca"


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize(
    ("lang", "queen_of_clubs", "king_of_hearts", "jack_of_spades"),
    [
        ("en", "Q♣", "K♥", "J♠"),
        ("de", "D♣", "K♥", "B♠"),
        ("nl", "V♣", "H♥", "B♠"),
        ("pt", "D♣", "R♥", "V♠"),
        ("fr", "D♣", "R♥", "V♠"),
        ("es", "Q♣", "K♥", "J♠"),
    ],
)
def test_card_labels_use_the_tables_letters(
    lang: str, queen_of_clubs: str, king_of_hearts: str, jack_of_spades: str
) -> None:
    assert words(lang, card_label, "QC") == queen_of_clubs
    assert words(lang, card_label, Card(Rank.KING, Suit.HEARTS)) == king_of_hearts
    assert words(lang, card_label, "js") == jack_of_spades
    assert words(lang, card_label, "10D") == "10♦"
    assert words(lang, rank_label, Rank.ACE) == "A"


@pytest.mark.usefixtures("ctx")
def test_jokers_and_unreadable_cards() -> None:
    assert words("es", card_label, "JK") == "comodín"
    assert words("de", card_label, "JK=QH") == "Joker als D♥"
    assert words("en", card_label, "??") == "??"
    assert words("fr", suit_name, "S") == "pique"
    assert words("pt", suit_name, Suit.CLUBS) == "paus"


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_every_house_rule_has_a_label_and_help_in_every_language(name: str) -> None:
    english_label = words("en", house_rule_label, name)
    english_help = words("en", house_rule_help, name)
    assert english_label != name
    assert english_help != english_label
    for lang in OTHER_LANGUAGES:
        label = words(lang, house_rule_label, name)
        text = words(lang, house_rule_help, name)
        assert (lang, label) in SAME_AS_ENGLISH or label != english_label, (lang, name)
        assert text != english_help, (lang, name)
        assert not PLACEHOLDER.search(label + text)


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_every_variant_has_a_name_and_a_summary_in_every_language(variant_id: str) -> None:
    english = words("en", variant_name, variant_id)
    summary = words("en", variant_summary, variant_id)
    assert english == VARIANTS[variant_id].name
    assert summary != english
    for lang in OTHER_LANGUAGES:
        assert words(lang, variant_name, variant_id) != english, lang
        assert words(lang, variant_summary, variant_id) != summary, lang
    # A Variant object works as well as its id.
    assert words("de", variant_name, VARIANTS[variant_id]) == words("de", variant_name, variant_id)


@pytest.mark.usefixtures("ctx")
def test_meld_kinds_and_choices() -> None:
    from referee.engine.melds import MeldKind

    assert [words("de", meld_kind_label, k) for k in MeldKind] == ["Satz", "Folge"]
    assert words("es", meld_kind_label, "run") == "escalera"
    assert words("fr", choice_label, "low_only") == "seulement bas"
    for value in ("high_or_low", "low_only", "suit_or_start", "different_suits", "any"):
        assert words("nl", choice_label, value) != words("en", choice_label, value)


@pytest.mark.usefixtures("ctx")
def test_the_shoe_in_words() -> None:
    assert words("en", shoe_text, 2, 4) == "2 decks, 4 jokers"
    assert words("en", shoe_text, 1, 0) == "1 deck, no jokers"
    assert words("de", shoe_text, 1, 1) != words("en", shoe_text, 1, 1)


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_every_house_rule_value_reads_in_words(name: str) -> None:
    """Each kind of house rule (yes/no, numbers, choices, tables) as a table reads it."""
    for variant in VARIANTS.values():
        text = words("de", house_rule_value, name, getattr(variant, name))
        assert text and "{" not in text and "Contract(" not in text and "ShoeRule(" not in text


@pytest.mark.usefixtures("ctx")
def test_house_rule_values_of_each_kind() -> None:
    contract = get_variant("contract")
    assert words("en", house_rule_value, "buying", True) == "yes"
    assert words("de", house_rule_value, "buying", False) == "nein"
    assert words("en", house_rule_value, "target", None) == "no limit"
    assert words("en", house_rule_value, "aces", contract.aces) == "high or low"
    assert words("en", house_rule_value, "deal", (10, 11)) == "10, 11"
    table = (Contract(2, 0), Contract(0, 4, run_size=3))
    assert words("en", house_rule_value, "contracts", table) == "1: 2 sets of 3 · 2: 4 runs of 3"
    shoe = (ShoeRule(3, 4, 2, 4),)
    assert words("en", house_rule_value, "shoe", shoe) == "3–4 players: 2 decks, 4 jokers"
    points = words("de", house_rule_value, "rank_points", contract.rank_points)
    assert points.startswith("A 15, 2 5") and "D 10" in points  # the German queen is D


def test_local_letters_both_ways() -> None:
    from referee.engine.cards import RANKS, SUITS, parse_cards

    for lang in LANGUAGES:
        for suit in SUITS:
            for rank in RANKS:
                text = f"{rank_label(rank, lang)}{suit.symbol}"
                assert parse_cards(text, lang)[0].rank is rank
    cards = parse_cards("QC 10H JK=7H JK", "en")
    assert cards_notation(cards, "de") == "D♣ 10♥ JK=7♥ JK"
    assert cards_notation(cards, "nl") == "V♣ 10♥ JK=7♥ JK"
