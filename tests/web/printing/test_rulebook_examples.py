"""The rule card and page say what the engine decides: every example meld is judged by the engine
for its variant and each shoe the card covers, and the sentences follow the variant's fields
(a house rule that changes a field changes the sentence)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.engine.melds import check_meld
from referee.engine.variants import VARIANTS
from referee.web.vocabulary.rulebook import Rulebook, covered_shoes

# House rules that change what the examples show: aces, corners, sets, runs, jokers, decks.
HOUSE_TABLES: list[tuple[str, dict[str, Any]]] = [(variant_id, {}) for variant_id in VARIANTS] + [
    ("rummy", {"aces": "high_or_low"}),
    ("contract", {"around_the_corner": True}),
    ("contract", {"aces": "low_only", "min_run_size": 4}),
    ("shanghai", {"max_jokers_per_meld": 2, "min_run_size": 5}),
    ("zioncheck-nl", {"set_suits_distinct": False}),
    (
        "contract",
        {
            "shoe": [
                {"min_players": 3, "max_players": 4, "decks": 1, "jokers": 2},
                {"min_players": 5, "max_players": 8, "decks": 2, "jokers": 4},
            ]
        },
    ),
    ("contract", {"contracts": {"1": "2 sets of 4"}, "max_jokers_per_meld": 0}),
]


def paragraphs(rulebook: Rulebook) -> str:
    return " ".join(p for section in rulebook.sections for p in section.paragraphs)


@pytest.mark.parametrize(
    ("variant_id", "house"), HOUSE_TABLES, ids=lambda x: x if isinstance(x, str) else str(x)
)
def test_every_example_meld_is_marked_as_the_engine_judges_it_for_every_shoe(
    book: Any, variant_id: str, house: dict[str, Any]
) -> None:
    rulebook = book(variant_id, **house)
    variant = rulebook.variant
    assert len(rulebook.meld_examples) >= 4
    for example in rulebook.meld_examples:
        for shoe in covered_shoes(variant):
            verdict = check_meld(example.cards, variant, shoe=shoe)
            assert verdict.valid == example.valid, (
                variant_id,
                house,
                [str(c) for c in example.cards],
                example.caption,
                shoe,
                verdict.violations,
            )


def test_shanghai_shows_aces_in_runs_of_four(book: Any) -> None:
    """Shanghai never allows a run of 3: its ace examples are J-Q-K-A and A-2-3-4."""
    rulebook = book("shanghai")
    shown = [" ".join(str(c) for c in example.cards) for example in rulebook.meld_examples]
    assert "JD QD KD AD" in shown and "AC 2C 3C 4C" in shown
    assert "QD KD AD" not in shown and "AC 2C 3C" not in shown
    assert "KS AS 2S 3S" in shown  # around the corner, as long as a run must be
    assert "J-Q-K-A" in paragraphs(rulebook) and "A-2-3-4" in paragraphs(rulebook)
    assert "A-2-3 " in paragraphs(book("contract")) and "Q-K-A" in paragraphs(book("contract"))
    assert "B-D-K-A" in paragraphs(book("shanghai", "de"))


def test_a_set_with_the_same_card_twice_says_it_needs_two_decks(book: Any) -> None:
    """With 3 decks a card can be there three times (RULES.md, third reading), not "twice"."""
    rulebook = book("contract")
    (first, *_) = rulebook.meld_examples
    assert [str(c) for c in first.cards] == ["7C", "7H", "7H"]
    assert first.caption.endswith("with 2 decks a card may appear twice, with 3 decks three times")
    assert "a card may appear twice" in book("shanghai").meld_examples[0].caption
    assert "three times" not in book("shanghai").meld_examples[0].caption
    one_deck = book(
        "contract",
        shoe=[
            {"min_players": 3, "max_players": 4, "decks": 1, "jokers": 2},
            {"min_players": 5, "max_players": 8, "decks": 2, "jokers": 4},
        ],
    )
    assert len({str(c) for c in one_deck.meld_examples[0].cards}) == 3
    assert "twice" not in one_deck.meld_examples[0].caption
    german = book("contract", "de").meld_examples[0].caption
    assert "mit 2 Kartenspielen darf eine Karte zweimal vorkommen, mit 3 Kartenspielen dreimal" in (
        german
    )


def test_rummy_stock_never_ends_a_deal_in_words(book: Any) -> None:
    text = paragraphs(book("rummy"))
    assert "as often as needed: a deal always ends with someone going out" in text
    assert "everyone scores" not in text and "round ends" not in text
    house = paragraphs(book("rummy", stock_reshuffles=1))
    assert "only once in a round" in house and "Nobody scores for that deal." in house
    contract = paragraphs(book("contract"))
    assert "only once in a round. If it runs out again, the round ends." in contract
    assert "at most three times in a round" in paragraphs(book("contract", stock_reshuffles=3))
    assert "Everyone then scores the cards left in their hand." in contract


def test_buying_in_words(book: Any) -> None:
    """RULES.md "Buying, in words": call before the draw, the player in turn first, the
    nearest caller buys, the discard plus a penalty card, no turn for it."""
    for variant_id in ("frustration", "shanghai"):
        text = paragraphs(book(variant_id))
        assert "before the player whose turn it is draws" in text
        assert "may still take that card as their draw, and then nobody buys it" in text
        assert "the one nearest in turn order buys" in text
        assert "one penalty card from the stock, and gets no extra turn for it" in text
        assert "at most three times per round" in text
    assert "Once your contract is down, you may not buy any more." in paragraphs(book("shanghai"))
    assert "2 penalty cards" in paragraphs(book("frustration", buy_penalty_cards=2))
    assert "with no penalty card" in paragraphs(book("frustration", buy_penalty_cards=0))


def test_going_out_in_words_follows_the_discard_rule(book: Any) -> None:
    dutch = paragraphs(book("zioncheck-nl"))
    assert "No discard is needed when every card is melded." in dutch
    assert "In round 7 you go out without a discard" in dutch
    contract = paragraphs(book("contract"))
    assert "melded, laid off and one last discard" in contract
    assert "In round 7 you go out without a discard" in contract
    forbidden = paragraphs(book("contract", going_out_discard="forbidden"))
    assert "you may not go out with a discard" in forbidden
    assert "In round 7" not in forbidden  # nothing to single out: no round has a discard
    shanghai = paragraphs(book("shanghai"))
    assert "No discard is needed" in shanghai and "In round 7" not in shanghai
    assert "Kein Abwurf" not in paragraphs(book("zioncheck-nl", "de"))
    assert "brauchst du keinen Abwurf" in paragraphs(book("zioncheck-nl", "de"))


def test_lay_offs_simply_leave_the_hand(book: Any) -> None:
    for variant_id in VARIANTS:
        text = paragraphs(book(variant_id))
        assert "it simply leaves your hand" in text and "scores for no one" not in text


def test_declared_jokers_are_said_where_jokers_are_declared(book: Any) -> None:
    said = "counts only once the joker is declared; lay-offs and swaps go by the card declared"
    assert said in paragraphs(book("zioncheck-nl"))
    assert said not in paragraphs(book("contract"))
    assert said in paragraphs(book("contract", jokers_declared=True))


def test_ties_in_words(book: Any) -> None:
    assert "if that is equal too, the win is shared" in paragraphs(book("contract"))
    assert "Equal highest totals share the win." in paragraphs(book("rummy"))
    assert "Equal lowest totals share the win." in paragraphs(
        book("contract", tie_break_last_round=False)
    )
    assert "the higher score in the last deal wins" in paragraphs(
        book("rummy", tie_break_last_round=True)
    )
