"""Engine benchmark: how long a meld verdict, a contract verdict and a solve take, and peak memory.

Plain script, not run in CI: `python bench/engine.py` (about a minute on two cores).
Hands are dealt from each variant's shoe for four players with a fixed seed, round by
round, plus the hands that make a solver sweat: 18-20 cards with 6-8 jokers, and hands
full of near-runs. Times are per call, in milliseconds.

Then the worst hands the rules allow (RULES.md "Hand sizes"), each solved once with the
budget a request gets: its time, whether the answer is exact, and the steps it took.

`--peer PATH` instead deals the same seeded hands to this solver and to wickman/liverpool's
`iter_melds` (a checkout at PATH, imported from there at run time; it is not a dependency),
round by round with the contract table both share, and prints each one's times per deal
size. liverpool lists every way to lay down the contract; ours finds the one that leaves
the least. Its rules differ in two places: aces are high only, and a run takes at most
three jokers; the hands both answer differently are counted.
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
from referee.engine.house_rules import get_variant
from referee.engine.melds import check_meld
from referee.engine.scoring import max_hand_size
from referee.engine.solver import Solution, solve
from referee.engine.variants import VARIANTS, Variant

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


def percentile(ordered: Sequence[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def summary(label: str, times: Sequence[float]) -> str:
    ordered = sorted(times)
    return (
        f"{label:<34} {len(ordered):>6} {statistics.median(ordered):>8.3f} "
        f"{percentile(ordered, 0.99):>8.3f} {ordered[-1]:>8.3f}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=40, help="random hands per variant and round")
    parser.add_argument("--worst", type=int, default=300, help="worst-case hands")
    parser.add_argument("--peer", type=Path, help="a checkout of wickman/liverpool: side by side")
    parser.add_argument("--deals", type=int, default=300, help="hands per round, side by side")
    args = parser.parse_args(argv)
    if args.peer is not None:
        return side_by_side(args.peer, args.deals)
    per_call(args.hands, args.worst)
    print()
    worst_allowed()
    return 0


def per_call(hands: int, worst_hands: int) -> None:
    """Meld and contract verdicts and solves on dealt hands and on hard ones."""
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
            for n in range(hands):
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
    for n in range(worst_hands):
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
    for n in range(min(worst_hands, 60)):
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


# -- the worst hands the rules allow ---------------------------------------------------------


def allowed_hand(
    rng: random.Random, variant: Variant, players: int, round_number: int
) -> list[Card]:
    """As many cards as RULES.md's "Hand sizes" allow, the shoe's jokers first, the rest drawn
    from its naturals crowded on two suits (runs everywhere, every gap tempting a joker)."""
    size = max_hand_size(variant, round_number, players)
    rule = variant.shoe_for(players)
    jokers = min(rule.jokers, size // 2)
    suits = rng.sample(SUITS, 2)
    naturals = [Card(rank, suit) for suit in suits for rank in Rank] * rule.decks
    rest = [c for c in shoe(variant, players) if c.is_natural and c.suit not in suits]
    rng.shuffle(naturals)
    rng.shuffle(rest)
    pool = naturals[: (size - jokers) * 2 // 3] + rest
    return pool[: size - jokers] + [JOKER] * jokers


def worst_allowed() -> None:
    """Each hand once, with the budget a request gets (the first call builds the tables)."""
    rng = random.Random(SEED)
    house_max = get_variant(
        "contract",
        {
            "deal": [20] * 7,
            "buying": True,
            "buy_limit": 20,
            "buy_penalty_cards": 5,
            "max_players": 8,
            "shoe": [{"min_players": 3, "max_players": 8, "decks": 8, "jokers": 16}],
        },
    )
    six_melds = get_variant(
        "joker-rummy",
        {
            "contracts": ["6 runs of 3", "6 sets of 3", "3 sets of 3 + 3 runs of 4"] * 2
            + ["6 runs of 4"],
            "deal": [20] * 7,
            "buying": True,
        },
    )
    cases = [
        ("contract, 8 players (3 decks, 6 jokers)", get_variant("contract"), 8),
        ("frustration, 8 players, buys", get_variant("frustration"), 8),
        ("joker-rummy, 8 players (8 jokers)", get_variant("joker-rummy"), 8),
        ("shanghai, 11 + 1 + 3 buys of 2", get_variant("shanghai"), 6),
        ("zioncheck-nl, 30 cards, 2 decks", get_variant("zioncheck-nl"), 8),
        ("custom: 6 melds, 20 dealt, buys", six_melds, 8),
        ("house rules at their limits", house_max, 8),
    ]
    print(f"{'worst hands the rules allow':<42} {'round':>5} {'cards':>5} {'ms':>8} exact  steps")
    slowest = 0.0
    for label, variant, players in cases:
        for round_number in range(1, (variant.rounds or 1) + 1):
            hand = allowed_hand(rng, variant, players, round_number)
            for nearest in (False, True):
                start = time.perf_counter()
                solution = solve(hand, variant, round_number, nearest=nearest)
                elapsed = (time.perf_counter() - start) * 1000
                slowest = max(slowest, elapsed)
                print(
                    f"{label + (' (nearest)' if nearest else ''):<42} {round_number:>5} "
                    f"{len(hand):>5} {elapsed:>8.1f} {solution.exact!s:<6} {solution.steps:>6}"
                )
    print(f"slowest: {slowest:.1f} ms")


# -- side by side with wickman/liverpool ---------------------------------------------------


def side_by_side(peer: Path, deals: int) -> int:
    """The same hands to both solvers, one process, each call the best of three."""
    sys.path.insert(0, str(peer.resolve()))
    from liverpool.common import Card as PeerCard  # type: ignore[import-not-found]
    from liverpool.common import Objective
    from liverpool.generation import iter_melds  # type: ignore[import-not-found]

    def peer_card(card: Card) -> object:
        if card.rank is None or card.suit is None:
            return PeerCard.joker()
        rank = 14 if card.rank == Rank.ACE else int(card.rank)  # its aces are high only
        return PeerCard.of(rank, "CSHD".index(card.suit.value))

    variant = get_variant("contract")  # 2 decks + 4 jokers for 3-4 players, as liverpool's
    rng = random.Random(SEED)
    rows: dict[int, list[tuple[float, float, bool, bool, int]]] = {}
    for round_number in range(1, 8):
        contract = variant.contract_for(round_number)
        objective = Objective(contract.sets, contract.runs)
        size = variant.cards_dealt(round_number, PLAYERS)
        for _ in range(deals):
            hand = deal(rng, variant, size)
            theirs = [peer_card(c) for c in hand]
            found: list[list[object]] = []
            ours: list[Solution] = []
            peer_ms = timed(lambda t=theirs, o=objective, f=found: f.append(list(iter_melds(t, o))))
            our_ms = timed(lambda h=hand, r=round_number, o=ours: o.append(solve(h, variant, r)))
            met = ours[0].can_meet_contract
            rows.setdefault(size, []).append((peer_ms, our_ms, bool(found[0]), met, len(found[0])))
    print("same seeded deals, contract table, 2 decks + 4 jokers; ms per hand, best of 3")
    print(
        f"{'cards':>5} {'solver':<22} {'hands':>6} {'median':>8} {'p90':>8} {'p99':>8} "
        f"{'max':>8}  answers"
    )
    for size, found_rows in sorted(rows.items()):
        for index, name in ((0, "liverpool iter_melds"), (1, "referee solve")):
            ordered = sorted(row[index] for row in found_rows)
            if index == 0:
                listed = sum(row[4] for row in found_rows)
                answers = f"{sum(row[2] for row in found_rows)} can meet; {listed} ways listed"
            else:
                answers = f"{sum(row[3] for row in found_rows)} can meet; least penalty of each"
            print(
                f"{size:>5} {name:<22} {len(ordered):>6} {statistics.median(ordered):>8.3f} "
                f"{percentile(ordered, 0.9):>8.3f} {percentile(ordered, 0.99):>8.3f} "
                f"{ordered[-1]:>8.3f}  {answers}"
            )
        differ = sum(row[2] != row[3] for row in found_rows)
        print(f"{'':>5} {'answers differ':<22} {differ:>6}  (aces low and jokers in runs)")
    every = [row for found_rows in rows.values() for row in found_rows]
    theirs_all = sorted(row[0] for row in every)
    ours_all = sorted(row[1] for row in every)
    median = statistics.median(ours_all) / statistics.median(theirs_all)
    p99 = percentile(ours_all, 0.99) / percentile(theirs_all, 0.99)
    print(
        f"all {len(every)} hands: referee solve at x{median:.2f} liverpool's median "
        f"({statistics.median(ours_all):.3f} / {statistics.median(theirs_all):.3f} ms), "
        f"x{p99:.2f} its p99 ({percentile(ours_all, 0.99):.3f} / "
        f"{percentile(theirs_all, 0.99):.3f} ms)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
