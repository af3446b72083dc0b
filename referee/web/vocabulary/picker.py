"""What the shared card picker (templates/_card_picker.html) needs: the grid, local letters, words.

`create_app` registers `card_picker_setup` as a template global, so every page of the app
(the referee and the score table) can call the macro.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app
from flask_babel import gettext

from referee.engine.cards import LOCAL_RANK_LETTERS, LOCAL_SUIT_LETTERS, RANKS, SUITS, Rank, Suit
from referee.web.plumbing.i18n import current_language
from referee.web.vocabulary.words import rank_label, rank_name, suit_name

# Ranks of one suit in the grid: two rows of seven columns fit a 360-px phone at 44 px or more.
RANK_ROWS: tuple[tuple[Rank, ...], ...] = (RANKS[:7], RANKS[7:])


@dataclass(frozen=True)
class PickerCard:
    code: str  # canonical: QC, 10H
    text: str  # as the table writes it: D♣ in German
    rank_text: str
    symbol: str
    suit_class: str  # suit-c ... for the shared card colours
    name: str  # for screen readers: "queen of clubs"


@dataclass(frozen=True)
class PickerSuit:
    letter: str
    symbol: str
    name: str
    rows: tuple[tuple[PickerCard, ...], ...]


@dataclass(frozen=True)
class PickerSetup:
    lang: str
    decks: int
    jokers: int
    suits: tuple[PickerSuit, ...]
    ranks_json: str  # local rank letter -> canonical letter, for the script's parser
    suits_json: str  # local suit letter -> canonical letter (Dutch R, K), the same
    texts_json: str  # the words the script writes itself
    labels: dict[str, str]  # the words of the picker's own buttons


def card_name(rank: Rank, suit: Suit) -> str:
    """ "queen of clubs" in the current language."""
    return gettext("%(rank)s of %(suit)s", rank=rank_name(rank), suit=suit_name(suit))


def _card(rank: Rank, suit: Suit, lang: str) -> PickerCard:
    letter = rank_label(rank, lang)
    return PickerCard(
        code=f"{rank.letter}{suit.value}",
        text=f"{letter}{suit.symbol}",
        rank_text=letter,
        symbol=suit.symbol,
        suit_class=f"suit-{suit.value.lower()}",
        name=card_name(rank, suit),
    )


def card_picker_setup(lang: str | None = None, decks: Any = 2, jokers: Any = 4) -> PickerSetup:
    """Everything the macro renders for one picker, in the current language.

    `lang` is the notation the field is written in (default the page's language); `decks` caps how
    often one card may be tapped in, `jokers` how many jokers (0 hides the joker key). Made once
    per language and shoe, and kept by the app (52 cards' names are a good part of a page).
    """
    lang = lang if lang is not None and lang in LOCAL_RANK_LETTERS else current_language()
    decks = max(1, min(int(decks or 1), 8))
    jokers = max(0, min(int(jokers or 0), 16))
    made: dict[tuple[str, str, int, int], PickerSetup]
    made = current_app.extensions.setdefault("card_picker_setups", {})
    key = (current_language(), lang, decks, jokers)
    if key not in made:
        made[key] = _setup(lang, decks, jokers)
    return made[key]


def _setup(lang: str, decks: int, jokers: int) -> PickerSetup:
    suits = tuple(
        PickerSuit(
            letter=suit.value,
            symbol=suit.symbol,
            name=suit_name(suit),
            rows=tuple(tuple(_card(rank, suit, lang) for rank in row) for row in RANK_ROWS),
        )
        for suit in SUITS
    )
    local = {letter: rank.letter for letter, rank in LOCAL_RANK_LETTERS.get(lang, {}).items()}
    local_suits = {letter: suit.value for letter, suit in LOCAL_SUIT_LETTERS.get(lang, {}).items()}
    texts = {
        # {card} and {count} are filled in by card-picker.js.
        "remove": gettext("Remove %(card)s", card="{card}"),
        "count": gettext("%(card)s, %(count)s chosen", card="{card}", count="{count}"),
        "unreadable": gettext("“%(token)s” is not a card", token="{card}"),
        "full": gettext("No more of %(card)s: the game has only that many.", card="{card}"),
        "meld": gettext("Meld %(number)s", number="{count}"),
    }
    labels = {
        "pad": gettext("Tap the cards"),
        "joker": gettext("joker"),
        "next": gettext("New meld"),
        "undo": gettext("Remove the last card"),
        "undo_short": gettext("Undo"),
        "clear": gettext("Clear"),
        "target": gettext("Tapped cards go to"),
    }
    return PickerSetup(
        lang=lang,
        decks=decks,
        jokers=jokers,
        suits=suits,
        ranks_json=json.dumps(local, ensure_ascii=False),
        suits_json=json.dumps(local_suits, ensure_ascii=False),
        texts_json=json.dumps(texts, ensure_ascii=False),
        labels=labels,
    )


def init_app(app: Flask) -> None:
    app.add_template_global(card_picker_setup)
