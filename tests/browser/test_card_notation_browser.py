"""One card notation on both sides: the pages' reader (RummyCards in static/js/card-picker.js,
which the card picker and the round screen's sums use) accepts exactly what the engine's
parser accepts (referee/engine/cards.py parse_cards and parse_card), in every language with the
local letters the page gives it, and reads each card as the engine does.

The JS runs where it runs for a player: in Chromium, on the referee page of each language (its
picker carries that language's letters). The table holds every rank and suit spelling, jokers
declared or not, separators Python and JavaScript disagree about, invisible characters, hands
at and over the limit, and a few hundred seeded random strings near the notation.
"""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Page

from referee.engine.cards import MAX_CARDS, parse_card, parse_cards
from referee.engine.errors import CardNotationError
from referee.engine.languages import LANGUAGES

RANK_TEXTS = ["A", "2", "5", "9", "10", "T", "J", "Q", "K", "1", "11", "0", "B", "D", "V", "H",
              "R", "X", "", "a", "t", "b", "d", "v", "h", "r", "q", "1O"]  # fmt: skip
SUIT_TEXTS = ["C", "D", "H", "S", "♣", "♦", "♥", "♠", "♧", "♢", "♡", "♤", "R", "K", "X", "♥️",
              "♠\ufe0e", "c", "r", "k", "s"]  # fmt: skip
SPECIAL = [
    "", " ", ",", ",,", "JK", "jk", "*", "🃏", "🃏️", "JK=7H", "jk=qs", "*=10♦", "🃏=D♣", "JK=VR",
    "JK=7R", "JK=", "JK=JK", "JK=7H=", "=7H", "7H=", "J K", "JK=*", "**", "JKJK", "JK7H",
    "7H,8H  9H", " ,7H, ", "7H\u00a08H", "7H\u20288H", "7H\u30008H", "7H\u202f8H", "7H\ufeff8H",
    "7H\x1c8H", "7H\x858H", "7H\t8H\n9H\r\nTH\x0b\x0cJH", "7H|8H", "7H;8H", "7\u200bH",
    "Q♠\ufe0f", "\u200d", "\u200b" * 20 + "7H", "1" * 15 + "H", "JK=" + "1" * 14 + "H",
    "7H " * MAX_CARDS, "7H " * (MAX_CARDS + 1), "ß", "ﬀ", "ǆ", "İH", "10h 10♡ t♥ T♥️",
    "D♣ B♦ V♥ H♠ R♣ K♦ A♠", "7R 8K HK VR", "AH, 2H,3H", "\u3000QS\u3000",
]  # fmt: skip
ALPHABET = [*"A2910TJQKBDVHRCS*=,kjqdrvhs ", "♣", "♥", "🃏", "\u00a0", "\ufe0f", "\u200b",
            "\u2028", "\ufeff", "|"]  # fmt: skip


def notations() -> list[str]:
    rng = random.Random(30)
    table = [rank + suit for rank in RANK_TEXTS for suit in SUIT_TEXTS]
    table += SPECIAL
    table += ["".join(rng.choices(ALPHABET, k=rng.randint(1, 10))) for _ in range(300)]
    # Hands near the notation: real cards joined by separators, some of them slightly wrong.
    for _ in range(200):
        tokens = [rng.choice(RANK_TEXTS) + rng.choice(SUIT_TEXTS) for _ in range(rng.randint(1, 5))]
        joiner = rng.choice([" ", ",", ", ", "\u00a0", "  ", "\n", "|", "\ufeff"])
        table.append(joiner.join(tokens))
    return table


def engine_reads(text: str, lang: str, *, one: bool = False) -> list[str] | None:
    """The engine's cards for `text` (each as the engine writes it), or None when it refuses."""
    try:
        return [str(parse_card(text, lang))] if one else [str(c) for c in parse_cards(text, lang)]
    except CardNotationError:
        return None


READ_IN_THE_PAGE = """([texts, tokens]) => {
  const letters = RummyCards.lettersOf(document.querySelector("[data-card-picker]"));
  const notation = (cards) => cards && cards.map(
    (card) => (card.standsFor ? `JK=${card.standsFor.code}` : card.code));
  return {
    hands: texts.map((text) => notation(RummyCards.parseAll(text, letters))),
    cards: tokens.map((token) => notation([RummyCards.parse(token, letters)].filter(Boolean)))
  };
}"""


def test_the_pages_read_card_notation_exactly_as_the_engine_in_every_language(
    page: Page, live_server: str
) -> None:
    texts = notations()
    # One card at a time (parse_card): with the edges a field's text may have.
    tokens = [*texts, " 7H", "7H\u3000", "\ufeff7H", "7H\x85", "\x1cQS\x1f", "\u200bJK=7H "]
    for lang in LANGUAGES:
        page.goto(f"{live_server}/referee?lang={lang}")
        read: dict[str, Any] = page.evaluate(READ_IN_THE_PAGE, [texts, tokens])
        hands = {text: engine_reads(text, lang) for text in texts}
        cards = {token: engine_reads(token, lang, one=True) for token in tokens}
        assert dict(zip(texts, read["hands"], strict=True)) == hands, lang
        assert dict(zip(tokens, [c or None for c in read["cards"]], strict=True)) == cards, lang
        # The table is worth its name: most languages read some of it and refuse some of it.
        assert 0 < sum(hand is None for hand in hands.values()) < len(hands)


def test_the_local_letters_come_from_the_page(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/referee?lang=de")
    german = page.evaluate(READ_IN_THE_PAGE, [["D♣ B♦ K♥ A♠"], []])["hands"][0]
    page.goto(f"{live_server}/referee?lang=nl")
    dutch = page.evaluate(READ_IN_THE_PAGE, [["VR HK 7R BH"], []])["hands"][0]
    assert german == ["QC", "JD", "KH", "AS"]
    assert dutch == ["QD", "KC", "7D", "JH"]
