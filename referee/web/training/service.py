"""A pack of drills for the API: the query read, the engine asked, the answer in words.

The drills and their answers are the engine's (`referee.engine.drills`); here each gets its
question in words (`prompt`), its choices in words and each reason's sentence (the same
`messages.describe` the check calls use), in the request's language.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from flask import url_for

from referee.engine import drills as engine
from referee.engine.errors import RefereeError
from referee.web.plumbing.hosting import external_values
from referee.web.plumbing.i18n import current_language
from referee.web.plumbing.numbers import plain_count
from referee.web.vocabulary import rule_citations
from referee.web.vocabulary.drill_words import choice_label, prompt
from referee.web.vocabulary.house_rules import overrides_from_query, table_rules
from referee.web.vocabulary.messages import describe
from referee.web.vocabulary.rulebook import Rulebook, build_rulebook

JSON = dict[str, Any]
#: Drills in a pack when the query does not say.
DEFAULT_COUNT = 10
#: What each number of the query may be (a table's size: the largest any variant allows).
_BOUNDS = {
    "level": (engine.LEVELS[0], engine.LEVELS[-1]),
    "count": (1, engine.MAX_COUNT),
    "seed": (0, engine.MAX_SEED),
    "players": (2, 8),
}


def _number(args: Mapping[str, str], name: str) -> int | None:
    """A whole number from the query (None when not given); `wrong_type` for anything else."""
    text = args.get(name, "").strip()
    if not text:
        return None
    number = plain_count(text, digits=12)
    if number is None and text.isascii() and text.isdigit():
        low, high = _BOUNDS[name]
        raise RefereeError("out_of_range", field=name, value=text[:12] + "…", low=low, high=high)
    if number is None:
        raise RefereeError("wrong_type", field=name, expected="integer")
    return number


def pack(args: Mapping[str, str]) -> JSON:
    """SPEC's answer to `GET /api/v1/drills` for this query; RefereeError for bad input."""
    variant_id = args.get("variant", "").strip()
    if not variant_id:
        raise RefereeError("missing_field", field="variant")
    table = table_rules(variant_id, overrides_from_query(args))
    kind = args.get("kind", "").strip() or None
    level = _number(args, "level")
    level = 1 if level is None else level
    count = _number(args, "count")
    seed = _number(args, "seed")
    seed = secrets.randbelow(engine.MAX_SEED + 1) if seed is None else seed
    players = _number(args, "players")
    count = DEFAULT_COUNT if count is None else count
    drawn = engine.drills(
        table.variant, kind=kind, level=level, count=count, seed=seed, players=players
    )
    rules_url = _rules_url(table.variant.id, table.query())
    book = build_rulebook(table, current_language())
    return {
        "variant": table.variant.id,
        "kind": kind,
        "level": level,
        "count": count,
        "seed": seed,
        "near_miss_percent": engine.NEAR_MISS_PERCENT[level],
        "near_misses": engine.near_misses(count, level),
        "house_rules": dict(table.changed),
        "rules_url": rules_url,
        "drills": [drill_answer(drill, book, rules_url) for drill in drawn],
    }


def _rules_url(variant_id: str, house_rules: Mapping[str, str]) -> str:
    """The table's rules page, its house rules kept, in the request's language."""
    args: dict[str, Any] = {"variant": variant_id, "lang": current_language(), **house_rules}
    return url_for("printing.rules", **args, **external_values())


def drill_answer(drill: engine.Drill, book: Rulebook, rules_url: str) -> JSON:
    """One drill as the API answers it, its words in the current language; its rule the
    card's sentences in `book` (the table's rules) and their section on `rules_url`."""
    topics = rule_citations.drill_topics(
        drill.kind, drill.question, [reason.code for reason in drill.reasons]
    )
    cited = rule_citations.cite(book, topics)
    return {
        "id": drill.id,
        "kind": drill.kind,
        "level": drill.level,
        "near_miss": drill.near_miss,
        "prompt": prompt(drill),
        "question": dict(drill.question),
        "choices": list(drill.choices) if drill.choices is not None else None,
        "choice_labels": (
            [choice_label(drill, choice) for choice in drill.choices]
            if drill.choices is not None
            else None
        ),
        "answer": drill.answer,
        "reasons": [
            {"code": reason.code, "message": describe(reason.code, reason.params)}
            for reason in drill.reasons
        ],
        "detail": dict(drill.detail),
        "rule": cited.text if cited else "",
        "rule_url": f"{rules_url}#{cited.anchor}" if cited else rules_url,
    }
