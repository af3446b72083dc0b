"""Cards and their notation: ranks, suits, jokers, and the parser for every table's letters.

A card is written rank then suit: ``10H``, ``QS``, ``D♣`` (German Dame = queen).
A joker is ``JK``, ``*`` or ``🃏`` and may carry what it stands for: ``JK=7H``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Final

from .errors import CardNotationError
from .languages import LANGUAGES


class Suit(Enum):
    """A suit, valued by its canonical letter."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_SUIT_SYMBOLS: Final = {
    Suit.CLUBS: "♣",
    Suit.DIAMONDS: "♦",
    Suit.HEARTS: "♥",
    Suit.SPADES: "♠",
}

SUITS: Final = tuple(Suit)


class Rank(IntEnum):
    """A rank, valued by its place in a run with the ace low (ace high is 14 in a run)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        return _RANK_LETTERS[self]


RANKS: Final = tuple(Rank)

_RANK_LETTERS: Final = {
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    **{rank: str(int(rank)) for rank in Rank if 2 <= rank <= 10},
}

# Rank letters a table says aloud where they are not the English ones (RULES.md).
_OWN_RANK_LETTERS: Final[Mapping[str, Mapping[str, Rank]]] = {
    "de": {"B": Rank.JACK, "D": Rank.QUEEN, "K": Rank.KING, "A": Rank.ACE},
    "nl": {"B": Rank.JACK, "V": Rank.QUEEN, "H": Rank.KING, "A": Rank.ACE},
    "pt": {"V": Rank.JACK, "D": Rank.QUEEN, "R": Rank.KING, "A": Rank.ACE},
    "fr": {"V": Rank.JACK, "D": Rank.QUEEN, "R": Rank.KING, "A": Rank.ACE},
}
# Rank letters a table says aloud, by language (every one we speak, in `LANGUAGES` order).
# English letters are always read too.
LOCAL_RANK_LETTERS: Final[Mapping[str, Mapping[str, Rank]]] = {
    lang: _OWN_RANK_LETTERS.get(lang, {}) for lang in LANGUAGES
}

# Suit letters a table writes, by language, read beside C D H S and the symbols. Only where they
# cannot be read as another suit's English letter: a Dutch table writes R (ruiten) and K
# (klaveren), its H (harten) and S (schoppen) are the English ones. The others' initials would
# change what an English letter means (C is copas, cœur, corazones: hearts) or are shared by
# two suits (Kreuz and Karo): those tables use the symbols or the English letters.
LOCAL_SUIT_LETTERS: Final[Mapping[str, Mapping[str, Suit]]] = {
    "nl": {"R": Suit.DIAMONDS, "K": Suit.CLUBS},
}

_ENGLISH_RANKS: Final[Mapping[str, Rank]] = {
    **{letter: rank for rank, letter in _RANK_LETTERS.items()},
    "T": Rank.TEN,
}

_SUITS_BY_TOKEN: Final[Mapping[str, Suit]] = {
    **{suit.value: suit for suit in Suit},
    **{symbol: suit for suit, symbol in _SUIT_SYMBOLS.items()},
    # The outline symbols some keyboards offer.
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "♤": Suit.SPADES,
}

JOKER_TOKENS: Final = frozenset({"JK", "*", "🃏"})

# Emoji presentation selectors follow suit symbols typed on phones (♥️).
_INVISIBLE: Final = re.compile("[\ufe0e\ufe0f\u200b\u200d]")
_SEPARATORS: Final = re.compile(r"[\s,]+")

# A hand is never longer than this; longer input is refused before any work is done.
MAX_CARDS: Final = 200
_MAX_TOKEN: Final = 16


@dataclass(frozen=True)
class Card:
    """A natural card (rank and suit) or a joker (neither), which may stand for a natural card."""

    rank: Rank | None = None
    suit: Suit | None = None
    stands_for: Card | None = None

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise ValueError("a natural card needs both a rank and a suit")
        if self.stands_for is not None and (
            not self.stands_for.is_natural or self.rank is not None
        ):
            raise ValueError("only a joker stands for a card, and only for a natural one")

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def is_natural(self) -> bool:
        return self.rank is not None

    @property
    def plain(self) -> Card:
        """The physical card: a joker without its declaration."""
        return JOKER if self.is_joker else self

    @property
    def sort_key(self) -> tuple[int, int]:
        """Suit then rank, jokers last: the order a hand is shown in."""
        if self.rank is None or self.suit is None:
            return (len(SUITS), 0)
        return (SUITS.index(self.suit), int(self.rank))

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return "JK" if self.stands_for is None else f"JK={self.stands_for}"
        return f"{self.rank.letter}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card({self})"


JOKER: Final = Card()


def card(rank: Rank, suit: Suit) -> Card:
    """A natural card."""
    return Card(rank, suit)


def joker(stands_for: Card | None = None) -> Card:
    """A joker, declared or not."""
    return Card(stands_for=stands_for)


def _natural(token: str, original: str, lang: str | None) -> Card:
    if len(token) < 2:
        raise CardNotationError(token=original)
    suit = _SUITS_BY_TOKEN.get(token[-1])
    rank_text = token[:-1]
    rank = _ENGLISH_RANKS.get(rank_text)
    if lang is not None:
        local = LOCAL_RANK_LETTERS.get(lang, {})
        rank = local.get(rank_text, rank)
        suit = suit or LOCAL_SUIT_LETTERS.get(lang, {}).get(token[-1])
    if suit is None or rank is None:
        raise CardNotationError(token=original)
    return Card(rank, suit)


def parse_card(token: str, lang: str | None = None) -> Card:
    """Read one card; raise CardNotationError (code ``bad_card``) for anything else.

    ``lang`` adds the local letters of that language (``D♣`` is the queen of clubs in
    German, ``VR`` the queen of diamonds in Dutch); the English letters are read in every
    language.
    """
    if not isinstance(token, str):
        raise CardNotationError(token=repr(token)[: _MAX_TOKEN * 2])
    original = token.strip()
    text = _INVISIBLE.sub("", original).upper()
    if not text or len(text) > _MAX_TOKEN:
        raise CardNotationError(token=original[: _MAX_TOKEN * 2])
    joker_text, sep, declared = text.partition("=")
    if joker_text in JOKER_TOKENS:
        if not sep:
            return JOKER
        return Card(stands_for=_natural(declared, original, lang))
    if sep:
        raise CardNotationError(token=original)
    return _natural(text, original, lang)


def parse_cards(
    cards: str | Sequence[str], lang: str | None = None, *, limit: int = MAX_CARDS
) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas, or a list of card strings."""
    if isinstance(cards, str):
        tokens: Iterable[str] = [t for t in _SEPARATORS.split(cards) if t]
    elif isinstance(cards, Sequence):
        tokens = cards
    else:
        raise CardNotationError("bad_input", token=type(cards).__name__)
    parsed: list[Card] = []
    for token in tokens:
        if len(parsed) >= limit:
            raise CardNotationError("too_many_cards", limit=limit)
        parsed.append(parse_card(token, lang))
    return tuple(parsed)


def format_cards(cards: Iterable[Card]) -> list[str]:
    """Canonical strings: ``10H``, ``QS``, ``JK`` (declarations are reported apart)."""
    return [str(c.plain) for c in cards]


def full_deck() -> tuple[Card, ...]:
    """The 52 natural cards of one deck, suit by suit."""
    return tuple(Card(rank, suit) for suit in Suit for rank in Rank)
