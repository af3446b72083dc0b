"""Engine verdicts as the JSON of SPEC.md, the same for the API, the command line and pages.

Every function here needs a Flask app context with a locale (a request, or `force_locale`):
the `message` of each error is translated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from referee.engine.cards import Card, format_cards
from referee.engine.contracts import ContractVerdict
from referee.engine.errors import Violation
from referee.engine.layoffs import LayoffVerdict, SwapVerdict
from referee.engine.melds import MeldVerdict, Reading, shoe_violations
from referee.engine.scoring import penalty_breakdown, penalty_of
from referee.engine.variants import ShoeRule, Variant
from referee.web.vocabulary.messages import describe

JSON = dict[str, Any]

__all__ = [
    "contract_answer",
    "errors_answer",
    "hand_not_in_shoe_answer",
    "jokers_answer",
    "layoff_answer",
    "meld_answer",
    "penalty_answer",
    "reading_answer",
    "solution_answer",
    "swap_answer",
]


def jokers_answer(cards: Iterable[Card]) -> list[JSON]:
    """`[{"card": "JK", "as": "8H"}]` for each joker that stands for a card, in meld order."""
    return [{"card": str(c.plain), "as": str(c.stands_for)} for c in cards if c.stands_for]


def reading_answer(reading: Reading) -> JSON:
    """One way a meld is valid: its kind, its cards in meld order, what each joker stands for."""
    return {
        "kind": reading.kind.value,
        "cards": format_cards(reading.cards),
        "jokers": jokers_answer(reading.cards),
    }


def errors_answer(
    violations: Iterable[Violation],
    *,
    with_meld: bool = False,
    players: Sequence[str] | None = None,
) -> list[JSON]:
    """`[{"code", "message"}]`, plus `meld` (an index or null) where a contract is concerned."""
    answer = []
    for violation in violations:
        item: JSON = {
            "code": violation.code,
            "message": describe(violation.code, violation.params, players=players),
        }
        if with_meld:
            item["meld"] = violation.meld
        answer.append(item)
    return answer


def meld_answer(verdict: MeldVerdict) -> JSON:
    """SPEC's `meld` answer, with every reading and whether more than one fits.

    `cards` are in meld order (a run low to high) when valid, as given otherwise; `jokers`
    say what each joker stands for in the first reading (or as declared when invalid).
    """
    reading = verdict.reading
    cards = reading.cards if reading is not None else verdict.cards
    return {
        "valid": verdict.valid,
        "kind": reading.kind.value if reading is not None else None,
        "cards": format_cards(cards),
        "jokers": jokers_answer(cards),
        "errors": errors_answer(verdict.violations),
        "readings": [reading_answer(r) for r in verdict.readings],
        "ambiguous": verdict.ambiguous,
    }


def _reading_as_meld(reading: Reading) -> JSON:
    """A reading the solver chose, in the shape of a `meld` answer."""
    return {
        "valid": True,
        **reading_answer(reading),
        "errors": [],
        "readings": [reading_answer(reading)],
        "ambiguous": False,
    }


def contract_answer(verdict: ContractVerdict) -> JSON:
    """SPEC's `contract` answer: each meld as `meld` answers; errors say which meld (or null)."""
    return {
        "valid": verdict.valid,
        "melds": [meld_answer(meld) for meld in verdict.melds],
        "errors": errors_answer(verdict.violations, with_meld=True),
    }


def layoff_answer(verdict: LayoffVerdict) -> JSON:
    """SPEC's `layoff` answer: `meld` is the extended meld; `conditions` say what a valid
    lay-off still waits for where the check was not told (`contract_down`)."""
    return {
        "valid": verdict.valid,
        "meld": meld_answer(verdict.meld),
        "errors": errors_answer(verdict.violations),
        "conditions": errors_answer(verdict.conditions),
    }


def swap_answer(verdict: SwapVerdict) -> JSON:
    """A joker swap: the meld after it, what the freed joker stood for, and its conditions."""
    return {
        "valid": verdict.valid,
        "meld": meld_answer(verdict.meld),
        "joker_as": str(verdict.joker_as) if verdict.joker_as is not None else None,
        "errors": errors_answer(verdict.violations),
        "conditions": errors_answer(verdict.conditions),
    }


def penalty_answer(cards: Sequence[Card], variant: Variant, shoe: ShoeRule | None = None) -> JSON:
    """SPEC's `penalty` answer: the total and each card with its points, in the order given;
    `valid` false, with `errors`, when the cards cannot all be in the table's shoe."""
    breakdown = penalty_breakdown(cards, variant)
    outside = shoe_violations(cards, variant, shoe)
    return {
        "valid": not outside,
        "penalty": sum(points for _, points in breakdown),
        "cards": [{"card": str(card), "points": points} for card, points in breakdown],
        "errors": errors_answer(outside),
    }


def hand_not_in_shoe_answer(
    hand: Sequence[Card], variant: Variant, violations: Sequence[Violation], *, nearest: bool
) -> JSON:
    """SPEC's `solve` answer for a hand the shoe cannot deal: `valid` false with `errors`,
    nothing laid down, the whole hand left (`missing`, empty, only when asked)."""
    answer: JSON = {
        "valid": False,
        "errors": errors_answer(violations),
        "can_meet_contract": False if variant.has_contracts else None,
        "melds": [],
        "leftover": format_cards(hand),
        "leftover_penalty": penalty_of(hand, variant),
        "exact": True,
    }
    if nearest:
        answer["missing"] = []
    return answer


def solution_answer(solution: Any, variant: Variant, *, nearest: bool = False) -> JSON:
    """SPEC's `solve` answer (a `referee.engine.solver.Solution`); `missing` only when the
    request asked for the `nearest` arrangement. `can_meet_contract` is null for a variant
    without contracts (rummy: nothing to meet)."""
    met = bool(solution.can_meet_contract) if variant.has_contracts else None
    answer: JSON = {
        "can_meet_contract": met,
        "melds": [_reading_as_meld(reading) for reading in solution.melds],
        "leftover": format_cards(solution.leftover),
        "leftover_penalty": int(solution.leftover_penalty),
        "exact": bool(solution.exact),
    }
    if nearest:
        answer["missing"] = format_cards(solution.missing)
    return answer
