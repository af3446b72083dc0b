"""Engine benchmark: how long a meld verdict, a contract verdict and a solve take, and peak memory.

Plain script, not run in CI: `python bench/engine.py` (about a minute on two cores).
Hands are dealt from each variant's shoe for four players with a fixed seed, round by
round, plus the hands that make a solver sweat: 18-20 cards with 6-8 jokers, and hands
full of near-runs. Times are per call, in milliseconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.engine.cards import JOKER, SUITS, Card, Rank, full_deck
from referee.engine.contracts import check_contract
from referee.engine.melds import check_meld
from referee.engine.solver import solve
from referee.engine.variants import VARIANTS, Variant, get_variant

SEED = 20240601
PLAYERS = 4


def shoe(variant: Variant, players: int = PLAYERS) -> list[Card]:
    rule = variant.shoe_for(players)
    return list(full_deck()) * rule.decks + [JOKER] * rule.jokers


def deal(rng: random.Random, variant: Variant, size: int, players: int = PLAYERS) -> list[Card]:
    cards = shoe(variant, players)
    rng.shuffle(cards)
    return cards[:size]


def worst_hand(rng: random.Random, variant: Variant, size: int, jokers: int) -> list[Card]:
    """Many jokers and the rest drawn from the shoe's naturals."""
    naturals = [c for c in shoe(variant, 8) if c.is_natural]
    rng.shuffle(naturals)
    return naturals[: size - jokers] + [JOKER] * jokers


def near_runs(rng: random.Random, size: int, jokers: int) -> list[Card]:
    """Two or three suits of almost-consecutive cards: every gap tempts a joker."""
    suits = rng.sample(SUITS, rng.choice((2, 3)))
    hand: list[Card] = []
    while len(hand) < size - jokers:
        suit = rng.choice(suits)
        start = rng.randint(1, 9)
        for offset in range(rng.randint(2, 5)):
            if rng.random() < 0.8 and len(hand) < size - jokers:
                hand.append(Card(Rank(start + offset), suit))
    return hand + [JOKER] * jokers


def timed(call: Callable[[], object], repeat: int = 3) -> float:
    """Milliseconds of one call, the best of `repeat` (as timeit does): the machine is shared,
    and a call preempted by another process says nothing about the code."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def summary(label: str, times: Sequence[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"{label:<34} {len(ordered):>6} {statistics.median(ordered):>8.3f} "
        f"{p99:>8.3f} {ordered[-1]:>8.3f}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=40, help="random hands per variant and round")
    parser.add_argument("--worst", type=int, default=300, help="worst-case hands")
    args = parser.parse_args(argv)
    rng = random.Random(SEED)

    solve_times: dict[str, list[float]] = {}
    meld_times: list[float] = []
    contract_found: list[float] = []
    contract_random: list[float] = []
    worst: tuple[float, str] = (0.0, "")

    def run_solve(label: str, hand: list[Card], variant: Variant, round_number: int) -> None:
        nonlocal worst
        result: list[object] = []
        elapsed = timed(lambda: result.append(solve(hand, variant, round_number)))
        assert all(r == result[0] for r in result), "the solver must be deterministic"
        solve_times.setdefault(label, []).append(elapsed)
        if elapsed > worst[0]:
            cards = " ".join(str(c) for c in hand)
            worst = (elapsed, f"{variant.id} round {round_number}: {cards}")
        solution = result[0]
        melds = [list(r.cards) for r in getattr(solution, "melds", ())]
        if melds and variant.has_contracts:
            plain = [[c.plain for c in m] for m in melds]
            going_out = variant.is_last_round(round_number)
            contract_found.append(
                timed(lambda: check_contract(plain, variant, round_number, going_out=going_out))
            )

    for variant in VARIANTS.values():
        rounds = range(1, (variant.rounds or 1) + 1)
        for round_number in rounds:
            for n in range(args.hands):
                size = variant.cards_dealt(round_number, PLAYERS) + (n % 2)  # before/after a draw
                hand = deal(rng, variant, size)
                run_solve(f"solve {variant.id}", hand, variant, round_number)
                # A meld verdict on a random group of 3-6 cards from the hand.
                group = rng.sample(hand, min(len(hand), rng.randint(3, 6)))
                meld_times.append(timed(lambda g=group, v=variant: check_meld(g, v)))
                if variant.has_contracts:
                    contract = variant.contract_for(round_number)
                    pool = list(hand)
                    rng.shuffle(pool)
                    melds = [pool[i * 3 : i * 3 + 3] for i in range(contract.meld_count)]
                    contract_random.append(
                        timed(lambda m=melds, v=variant, r=round_number: check_contract(m, v, r))
                    )

    joker_rummy = get_variant("joker-rummy")
    big = get_variant("joker-rummy", {"deal": [18, 18, 19, 19, 20, 20, 20]})
    custom = get_variant(
        "joker-rummy",
        {"contracts": ["four runs of 3", "four sets of 3", "2 sets of 3 + 2 runs of 4"]},
    )
    for n in range(args.worst):
        size = 18 + n % 3
        jokers = 6 + n % 3
        round_number = 1 + n % 7
        run_solve(
            "worst 18-20 cards, 6-8 jokers", worst_hand(rng, big, size, jokers), big, round_number
        )
        run_solve(
            "worst near-runs, 6-8 jokers", near_runs(rng, size, jokers), joker_rummy, round_number
        )
        run_solve(
            "worst custom 4-meld contracts",
            worst_hand(rng, custom, size, jokers),
            custom,
            1 + n % 3,
        )
    # Peak memory on its own pass: tracing slows every allocation, so it is not timed.
    tracemalloc.start()
    for n in range(min(args.worst, 60)):
        solve(worst_hand(rng, big, 18 + n % 3, 6 + n % 3), big, 1 + n % 7)
        solve(near_runs(rng, 18 + n % 3, 6 + n % 3), joker_rummy, 1 + n % 7)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    print(f"{'what':<34} {'calls':>6} {'median':>8} {'p99':>8} {'max':>8}   (ms)")
    print(summary("meld verdict (3-6 cards)", meld_times))
    print(summary("contract verdict, solver's melds", contract_found))
    print(summary("contract verdict, random melds", contract_random))
    everything: list[float] = []
    for label, times in solve_times.items():
        print(summary(label, times))
        everything += times
    print(summary("solve, all hands", everything))
    print(f"peak memory (tracemalloc): {peak / 1024:.0f} KiB")
    print(f"slowest solve: {worst[0]:.1f} ms, {worst[1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
