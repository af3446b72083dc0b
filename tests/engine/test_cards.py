"""Card notation: every spelling SPEC.md allows, canonical output, a parser with one error."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine.cards import (
    JOKER,
    Card,
    Rank,
    Suit,
    full_deck,
    parse_card,
    parse_cards,
)
from referee.engine.errors import CardNotationError


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("qs", "QS"),
        ("A♣", "AC"),
        ("K♦", "KD"),
        ("2♥", "2H"),
        ("9♠", "9S"),
        ("7♥\ufe0f", "7H"),  # emoji presentation, as phones type it
        ("JK", "JK"),
        ("jk", "JK"),
        ("*", "JK"),
        ("🃏", "JK"),
        ("JK=7H", "JK=7H"),
        ("*=10♠", "JK=10S"),
    ],
)
def test_notation_english_letters_and_symbols(token: str, expected: str) -> None:
    assert str(parse_card(token)) == expected


def test_notation_local_letters_only_with_their_language() -> None:
    assert parse_card("D♣", "de") == Card(Rank.QUEEN, Suit.CLUBS)
    assert parse_card("H♥", "nl") == Card(Rank.KING, Suit.HEARTS)
    assert parse_card("R♠", "fr") == Card(Rank.KING, Suit.SPADES)
    assert parse_card("JK=D♣", "de").stands_for == Card(Rank.QUEEN, Suit.CLUBS)
    with pytest.raises(CardNotationError):
        parse_card("D♣")  # no rank D in English


def test_notation_a_dutch_table_writes_r_for_ruiten_and_k_for_klaveren() -> None:
    """nl: ruiten (R), klaveren (K), harten (H), schoppen (S), beside C D H S and the symbols."""
    assert parse_cards("7R 8R 9R", "nl") == parse_cards("7D 8D 9D")
    assert parse_card("VR", "nl") == Card(Rank.QUEEN, Suit.DIAMONDS)
    assert parse_card("KK", "nl") == Card(Rank.KING, Suit.CLUBS)  # the English K is a rank
    assert parse_card("HK", "nl") == Card(Rank.KING, Suit.CLUBS)  # heer van klaveren
    assert parse_card("10K", "nl") == parse_card("10C", "nl") == Card(Rank.TEN, Suit.CLUBS)
    assert parse_card("JK=BR", "nl").stands_for == Card(Rank.JACK, Suit.DIAMONDS)
    # the English letters stay what they are; a letter that would be another suit's is not read
    assert parse_card("5H", "nl") == Card(Rank.FIVE, Suit.HEARTS)
    for lang in (None, "en", "de", "pt", "fr", "es"):
        with pytest.raises(CardNotationError):
            parse_card("7R", lang)


def test_notation_lists_by_spaces_commas_or_json_list() -> None:
    expected = parse_cards("10H QS JK")
    assert parse_cards("10H, QS,JK") == expected
    assert parse_cards(["10H", "QS", "JK"]) == expected
    assert parse_cards("  10H\tQS\nJK ") == expected


@pytest.mark.parametrize("token", ["", "1H", "11H", "HH", "10X", "ZZ", "JK=JK", "7H=8H", "Q"])
def test_notation_bad_card_carries_code_and_token(token: str) -> None:
    with pytest.raises(CardNotationError) as error:
        parse_card(token)
    assert error.value.code == "bad_card"
    assert error.value.params["token"] == token.strip()


def test_notation_too_many_cards_is_refused_early() -> None:
    with pytest.raises(CardNotationError) as error:
        parse_cards(" ".join(["5H"] * 10_000))
    assert error.value.code == "too_many_cards"


def test_notation_canonical_round_trip_of_every_card() -> None:
    for natural in full_deck():
        assert parse_card(str(natural)) == natural
    assert parse_card(str(JOKER)) == JOKER


def test_notation_jokers_sort_last() -> None:
    hand = parse_cards("JK 5S AC 10H")
    assert [str(c) for c in sorted(hand, key=lambda c: c.sort_key)] == ["AC", "10H", "5S", "JK"]


@given(st.text(max_size=40), st.sampled_from([None, "en", "de", "nl", "pt", "fr", "es", "xx"]))
def test_parser_raises_nothing_but_its_own_error(text: str, lang: str | None) -> None:
    try:
        cards = parse_cards(text, lang)
    except CardNotationError:
        return
    assert all(isinstance(c, Card) for c in cards)


@given(st.lists(st.one_of(st.text(max_size=6), st.integers(), st.none(), st.floats()), max_size=8))
def test_parser_list_of_anything_raises_only_its_own_error(items: list[Any]) -> None:
    with contextlib.suppress(CardNotationError):
        parse_cards(items)


@given(st.lists(st.sampled_from([*full_deck(), JOKER]), max_size=20))
def test_notation_canonical_output_parses_back(cards: list[Card]) -> None:
    assert parse_cards(" ".join(str(c) for c in cards)) == tuple(cards)
