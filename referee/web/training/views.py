"""What the trainer's pages show, in words: a question's cards drawn as the round screen and
the referee page draw them, its facts, its answer form, the verdict on an answer."""

from __future__ import annotations

import json
from typing import Any

from flask import url_for
from flask_babel import gettext

from referee.engine import drills as engine
from referee.engine.cards import Card, parse_cards
from referee.engine.errors import RefereeError
from referee.engine.variants import Variant
from referee.web.plumbing.i18n import current_language
from referee.web.vocabulary.drill_words import situation_of
from referee.web.vocabulary.house_rules import TableRules
from referee.web.vocabulary.messages import describe
from referee.web.vocabulary.words import (
    card_label,
    contract_text,
    house_rules_in_words,
    variant_name,
)

from .session import QUESTIONS, Judged, Session

JSON = dict[str, Any]


def level_choices() -> list[tuple[int, str, str]]:
    """Each level, its name and what it means."""
    names = {1: gettext("Easy"), 2: gettext("Medium"), 3: gettext("Hard")}
    return [
        (
            level,
            names[level],
            gettext(
                "About %(percent)s in 100 questions hide a trap.",
                percent=engine.NEAR_MISS_PERCENT[level],
            ),
        )
        for level in engine.LEVELS
    ]


def house_rules_words(table: TableRules) -> list[tuple[str, str]]:
    return house_rules_in_words(table.variant, table.changed)


def card_view(text: str) -> JSON:
    """One card as the round screen draws it: its text as the table writes it, its colour."""
    card: Card = parse_cards([text])[0]
    if card.is_joker:
        stands = card.stands_for
        return {"text": "JK", "suit_class": "joker", "stands_for": stands and card_label(stands)}
    assert card.suit is not None
    return {
        "text": card_label(card),
        "suit_class": f"suit-{card.suit.value.lower()}",
        "stands_for": None,
    }


def _cards(texts: list[str]) -> list[JSON]:
    return [card_view(text) for text in texts]


def _contract(variant: Variant, round_number: int) -> str:
    try:
        contract = variant.contract_for(round_number)
    except RefereeError:
        return ""
    return gettext(
        "The contract of round %(round)s: %(contract)s.",
        round=round_number,
        contract=contract_text(contract),
    )


def shown(session: Session, drill: JSON) -> tuple[list[tuple[str, list[JSON]]], list[str]]:
    """What the question shows: its groups of cards (a caption each) and its facts in words."""
    question = drill["question"]
    kind = drill["kind"]
    groups: list[tuple[str, list[JSON]]] = []
    facts: list[str] = []
    if kind in ("meld", "value"):
        groups.append(("", _cards(question["cards"])))
    elif kind == "contract":
        facts.append(_contract(session.played(), int(question["round"])))
        for number, meld in enumerate(question["melds"], start=1):
            groups.append((gettext("Meld %(number)s", number=number), _cards(meld)))
    elif kind == "layoff":
        groups.append((gettext("The meld on the table"), _cards(question["meld"])))
        groups.append((gettext("The card to lay off"), _cards(question["cards"])))
    elif kind == "swap":
        groups.append((gettext("The meld with the joker"), _cards(question["meld"])))
    elif kind == "solve":
        if "round" in question:  # a variant without contracts: any melds go down
            facts.append(_contract(session.played(), int(question["round"])))
        groups.append((gettext("Your hand"), _cards(question["hand"])))
    # What the question takes as given (whose meld, the contract down, going out with a
    # discard), said as the quiz sheet says it: the verdict turns on it.
    facts.extend(situation_of(kind, question, with_round=False))
    return groups, [fact for fact in facts if fact]


def _url(session: Session, **more: Any) -> str:
    return url_for("training.session_page", variant=session.variant, **session.query(**more))


def _form(drill: JSON) -> str:
    if drill["choices"] is not None:
        return "choices"
    return "points" if drill["kind"] == "value" else "solve"


def question(
    session: Session,
    drill: JSON,
    number: int,
    right: int | str,
    judged: Judged | RefereeError | None,
    *,
    next_right: int | str | None = None,
) -> JSON:
    """The question page's context. `right` (answers right so far) and `next_right` may be
    placeholders the offline pack's pages are filled in with (offline.py)."""
    groups, facts = shown(session, drill)
    shoe = session.played().shoe_for(int(drill["question"]["players"]))
    error = describe(judged.code, judged.params) if isinstance(judged, RefereeError) else ""
    verdict = judged if isinstance(judged, Judged) else None
    if next_right is None:
        assert isinstance(right, int)
        next_right = right + (1 if verdict is not None and verdict.right else 0)
    return {
        "session": session,
        "variant_title": variant_name(session.variant),
        "drill": drill,
        "number": number,
        "count": QUESTIONS,
        "right": right,
        "groups": groups,
        "facts": facts,
        "form": _form(drill),
        "hidden": session.query(q=number, right=right),
        "action": url_for("training.session_page", variant=session.variant),
        "error": error,
        "verdict": verdict,
        "next_url": _url(session, q=number + 1, right=next_right),
        "decks": shoe.decks,
        "jokers": shoe.jokers,
        "lang": current_language(),
        "record": _record(session, drill, number, verdict),
    }


def _record(session: Session, drill: JSON, number: int, verdict: Judged | None) -> str:
    """What the phone remembers of an answer (static/js/training.js), as JSON."""
    if verdict is None or not verdict.checked:  # an answer not checked is not remembered
        return ""
    return json.dumps(
        {
            "key": f"{session.variant}:{session.seed}:{session.level}:{number}",
            "variant": session.variant,
            "kind": drill["kind"],
            "right": verdict.right,
            "rules": [
                {"code": reason["code"], "message": reason["message"]}
                for reason in drill["reasons"]
            ],
        },
        ensure_ascii=False,
    )


def done(session: Session, right: int | str) -> JSON:
    """The end of a session: how many were right, and another session."""
    return {
        "session": session,
        "variant_title": variant_name(session.variant),
        "right": right,
        "count": QUESTIONS,
        "again_url": url_for(
            "training.index", variant=session.variant, house_rules=session.house_rules or None
        ),
        "rules_url": session.rules_url,
        "lang": current_language(),
    }
