"""Hand-size checks benchmark: what holding a whole hand going out to its size costs a verdict.

Plain script, not run in CI: `python bench/hand_sizes.py` (a few seconds). RULES.md "Hand sizes"
and its fourth reading: a contract check with `going_out` first holds the whole hand between
dealt + drawn (`hand_too_short`) and dealt + drawn + what buying brings (`too_many_cards`),
`scoring.verify_whole_hand`. It must stay under 50 µs of a verdict. Printed per variant and
round, with and without a table size (without one, every player count of the variant is
asked), in microseconds per call: the check alone (a hand that passes, the common case), a
hand refused as too short, and a whole contract verdict beside it for scale.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.engine.cards import parse_card, parse_cards
from referee.engine.contracts import check_contract
from referee.engine.errors import RefereeError
from referee.engine.scoring import least_whole_hand, verify_whole_hand
from referee.engine.variants import VARIANTS, Variant

LIMIT_US = 50.0
# A whole hand of contract's round 1: two sets of five and a discard, 11 cards.
HAND = [parse_cards("7H 7S 7D 7C 7H"), parse_cards("KC KD KS KH KC")]
DISCARD = parse_card("2C")


def per_call_us(call: Callable[[], object], repeat: int = 5, number: int = 2000) -> float:
    """The fastest of `repeat` runs of `number` calls, in microseconds per call."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            call()
        runs.append((time.perf_counter() - start) / number * 1e6)
    return min(runs)


def refused_short(variant: Variant, number: int) -> None:
    try:
        verify_whole_hand(3, variant, number)
    except RefereeError:
        return
    raise AssertionError("three cards are never a whole hand")


def main() -> int:
    worst = 0.0
    rows = []
    for variant in VARIANTS.values():
        if not variant.has_contracts:
            continue  # rummy has no contract check
        for number in (1, variant.rounds or 1):
            least = least_whole_hand(variant, number)
            untold = per_call_us(lambda v=variant, n=number, c=least: verify_whole_hand(c, v, n))
            told = per_call_us(
                lambda v=variant, n=number, c=least: verify_whole_hand(c, v, n, v.min_players)
            )
            short = per_call_us(lambda v=variant, n=number: refused_short(v, n), number=500)
            worst = max(worst, untold, told, short)
            rows.append((variant.id, number, untold, told, short))
    verdict = statistics.median(
        per_call_us(
            lambda: check_contract(HAND, VARIANTS["contract"], 1, going_out=True, discard=DISCARD),
            number=300,
        )
        for _ in range(3)
    )
    print(f"{'variant':<14}{'round':>6}{'check':>10}{'players':>10}{'too short':>11}   (µs)")
    for variant_id, number, untold, told, short in rows:
        print(f"{variant_id:<14}{number:>6}{untold:>10.2f}{told:>10.2f}{short:>11.2f}")
    print(f"a whole contract verdict going out (contract, round 1, 11 cards): {verdict:.1f} µs")
    print(f"slowest hand-size check: {worst:.2f} µs (limit {LIMIT_US:.0f} µs)")
    return 0 if worst < LIMIT_US else 1


if __name__ == "__main__":
    raise SystemExit(main())
