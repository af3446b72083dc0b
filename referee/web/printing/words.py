"""The shared words the rule card and the score sheet print, from `referee.web.messages`.

Contracts, card letters, variant names and house rule labels are translated once, there; this
module only adds what printing needs on top: a house rule's value in words.
"""

from __future__ import annotations

import json
from typing import Any

from flask_babel import gettext, ngettext

from referee.engine.cards import Card, Rank, Suit
from referee.engine.variants import Contract, Variant
from referee.web import messages


def contract_text(contract: Contract) -> str:
    """ "2 sets of 3 and 1 run of 4" in the request's language."""
    return messages.contract_text(contract)


def variant_name(variant: Variant) -> str:
    return messages.variant_name(variant.id)


def rank_face(rank: Rank) -> str:
    """The letter in a card's corner in the request's language (B for a German jack)."""
    return messages.rank_label(rank)


def card_face(card: Card) -> str:
    """A card written the way the table says it: "D♥" in German, "Q♥" in English."""
    return messages.card_label(card)


def suit_name(suit: Suit) -> str:
    return messages.suit_name(suit)


def shoe_text(decks: int, jokers: int) -> str:
    """ "2 decks, 4 jokers", "1 deck, no jokers"."""
    deck_words = ngettext("%(num)d deck", "%(num)d decks", decks)
    joker_words = (
        ngettext("%(num)d joker", "%(num)d jokers", jokers) if jokers else gettext("no jokers")
    )
    return f"{deck_words}, {joker_words}"


def house_rule_label(name: str) -> str:
    return messages.house_rule_label(name)


def house_rule_value(name: str, value: Any) -> str:
    """A house rule's value in words: yes/no, numbers, contracts, the shoe, card values."""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if value is None:
        return gettext("no limit")
    if name in ("aces", "contract_runs", "scoring"):
        return messages.choice_label(value)
    if name == "contracts" and isinstance(value, list):
        return " · ".join(
            f"{number}: {contract_text(Contract(**item))}"
            for number, item in enumerate(value, start=1)
            if isinstance(item, dict)
        )
    if name == "shoe" and isinstance(value, list):
        parts = []
        for rule in value:
            players = "{}–{}".format(rule["min_players"], rule["max_players"])
            shoe = shoe_text(rule["decks"], rule["jokers"])
            parts.append(gettext("%(players)s players: %(shoe)s", players=players, shoe=shoe))
        return " · ".join(parts)
    if name == "rank_points" and isinstance(value, dict):
        faces = {rank.letter: rank_face(rank) for rank in Rank}
        return ", ".join(
            f"{faces.get(letter, letter)} {points}" for letter, points in value.items()
        )
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)
