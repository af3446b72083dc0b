"""The hand solver: the way to lay down a round's contract that leaves the least in the hand.

How it searches, in short (it has to answer in milliseconds on a cheap phone):

* The hand becomes counts: natural cards and declared jokers by card, free jokers as a number.
* Free jokers are a resource, not cards to place: a meld is described by its fixed cards
  (naturals and declared jokers) and by the fewest and the most free jokers it can take.
  Any total between the sums of those is reachable, and every free joker absorbed is
  worth its penalty, so the best use of jokers follows from the fixed cards alone.
* Most hands of a deal are far from the contract: `candidates.cannot_meet` (each meld on its
  own already needs more fillers than the hand has) answers them before any meld is
  enumerated, a relaxation that never turns away a hand the search could meet.
* Candidate melds are enumerated once per hand (`candidates`); the contract's slots are
  filled by a depth-first branch and bound over them: candidates best first, identical
  slots in non-decreasing candidate order (symmetry), and an admissible bound (what the
  remaining slots could still absorb, by suit layers for runs and rank chunks for sets).
* A solution is scored by one integer: penalty points first, then the number of cards,
  so among equally cheap answers the one that melds the most cards wins (going out).
* Asked for the nearest contract (`nearest=True`), a hand that cannot meet it is searched
  again with "missing" natural cards allowed to fill places (at most three), fewest first:
  those are the cards to wait for.
* Every search has a budget (`Budget`): steps counted the same way on every machine, and a
  wall-clock guard. Past it the best arrangement found so far is the answer, `exact=False`.
"""

from __future__ import annotations

import contextlib
import itertools
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from .candidates import (
    BITS,
    FIELD_MASK,
    ITEMS,
    NATURALS,
    UNLIMITED,
    Candidate,
    Hand,
    Rules,
    cannot_meet,
    fits,
    leftover_of,
    missing_cards,
    reading_of,
    rules_for,
    run_candidates,
    set_candidates,
)
from .cards import SUITS, Card
from .melds import MeldKind, Reading
from .variants import ContractRuns, Variant

# The most natural cards `missing` reports; beyond that nothing is "near".
MAX_MISSING: Final = 3


@dataclass(frozen=True)
class Budget:
    """How much work one solve may do before it answers the best arrangement found so far.

    `steps` counts the search's work (candidate melds built, arrangements tried, joker plans
    weighed), so the same hand always stops at the same place; `seconds` guards the wall
    clock on a machine slower or busier than the steps were measured on.
    """

    steps: int = 100_000
    seconds: float = 0.5


# What a request gets: the hardest hands a table deals take a third of it (bench/engine.py),
# and a whole budget is about 0.2 s of one core on this project's machines.
DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class Solution:
    """The solver's answer about one hand."""

    can_meet_contract: bool
    melds: tuple[Reading, ...]  # sets first, then runs; jokers carry what they stand for
    leftover: tuple[Card, ...]  # in the order the hand gave them
    leftover_penalty: int
    missing: tuple[Card, ...] = ()  # natural cards that would complete the nearest contract
    exact: bool = True  # False: the budget ran out, a better answer may exist
    steps: int = 0  # the budget's steps it took (the same for the same hand)


class _OutOfBudget(Exception):
    """The budget is spent: the search stops where it is."""


_TICK: Final = 1024  # steps between two looks at the clock
_CHOICE_STEPS: Final = 2  # a candidate meld weighed costs about two search steps
_CHOICES_PER_LOOK: Final = 256
_LEAF_STEPS: Final = 8  # weighing the jokers of a full arrangement: about eight steps


class _Clock:
    """What is left of a budget. `spend` raises _OutOfBudget once it is gone."""

    __slots__ = ("deadline", "exact", "left", "seconds", "start", "steps", "tick")

    def __init__(self, budget: Budget) -> None:
        self.steps = self.left = budget.steps
        self.start = time.monotonic()
        self.seconds = budget.seconds
        self.deadline = self.start + budget.seconds
        self.tick = _TICK
        self.exact = True

    @property
    def spent(self) -> int:
        return self.steps - max(self.left, 0)

    def spend(self, steps: int = 1) -> None:
        self.left -= steps
        self.tick -= steps
        if self.tick <= 0:
            self.tick = _TICK
            if time.monotonic() > self.deadline:
                self.left = -1
        if self.left < 0:
            self.exact = False
            raise _OutOfBudget

    def room(self, share: int) -> int:
        """The choices `collect` looks at, at most, for this share."""
        return self.left // share // _CHOICE_STEPS

    def collect(self, choices: Iterable[Candidate | None], share: int) -> list[Candidate]:
        """The candidates among `choices` (None: a choice that makes no meld), weighing at most
        1/`share` of the steps and of the time left: the search needs the rest. What lies
        beyond is never looked at."""
        kept: list[Candidate] = []
        allowance = self.room(share)
        until = time.monotonic() + (self.deadline - time.monotonic()) / share
        count = 0
        for candidate in choices:
            count += 1
            if count > allowance or (count % _CHOICES_PER_LOOK == 0 and time.monotonic() > until):
                self.exact = False
                break
            if candidate is not None:
                kept.append(candidate)
        self.left -= count * _CHOICE_STEPS
        return kept


# -- bounds ------------------------------------------------------------------------------------


def _unpack(packed: int) -> Iterator[tuple[int, int]]:
    """(item, copies) of packed counts."""
    rest = packed
    while rest:
        low = (rest & -rest).bit_length() - 1
        item = low // BITS
        shift = item * BITS
        yield item, (rest >> shift) & FIELD_MASK
        rest &= ~(FIELD_MASK << shift)


def _bound(packed: int, rules: Rules, runs: int, sets: int, total: int) -> int:
    """The most fixed-card weight `runs` runs and `sets` sets could still absorb.

    A run takes at most one card of a place: the k-th copies of a suit form its k-th layer,
    and `runs` runs absorb at most the heaviest `runs` layers. A set takes cards of one rank:
    all of them, or chunks of the largest set size, or (suits distinct) one card a suit.
    Declared jokers are layered apart from the naturals of their place, which only adds.
    """
    if runs == 0 and sets == 0:
        return 0
    held = list(_unpack(packed))
    found = 0
    if runs:
        found += _heaviest(_layers(held, rules.weights, by_rank=False), runs)
    if sets:
        found += _heaviest(_set_chunks(held, rules), sets)
    return min(total, found)


def _heaviest(weights: list[int], count: int) -> int:
    if len(weights) <= count:
        return sum(weights)
    weights.sort(reverse=True)
    return sum(weights[:count])


def _layers(held: Iterable[tuple[int, int]], weights: list[int], *, by_rank: bool) -> list[int]:
    """Weight of each (group, depth) layer: the k-th copies of every item of a group (its
    suit, or its rank), keyed by group x 32 + depth (counts stay below 32)."""
    layers: dict[int, int] = {}
    for item, copies in held:
        natural = item % NATURALS
        key = (natural % 13 if by_rank else natural // 13) * 32
        weight = weights[item]
        for depth in range(key, key + copies):
            layers[depth] = layers.get(depth, 0) + weight
    return list(layers.values())


def _set_chunks(held: list[tuple[int, int]], rules: Rules) -> list[int]:
    """The heaviest pieces sets of each rank could take, one piece a set."""
    if rules.distinct:
        return _layers(held, rules.weights, by_rank=True)
    weights = rules.weights
    if rules.max_set >= UNLIMITED:
        whole: dict[int, int] = {}
        for item, copies in held:
            # item % 13 is the rank of a natural and of a declared joker alike (52 = 4 x 13)
            whole[item % 13] = whole.get(item % 13, 0) + weights[item] * copies
        return list(whole.values())
    stacks: dict[int, list[int]] = {}
    for item, copies in held:
        stacks.setdefault(item % 13, []).extend([weights[item]] * copies)
    size = rules.max_set
    chunks: list[int] = []
    for stack in stacks.values():
        stack.sort(reverse=True)
        chunks += [sum(stack[i : i + size]) for i in range(0, len(stack), size)]
    return chunks


# -- jokers between chosen melds ---------------------------------------------------------------

_Plan = tuple[int, int, tuple[int | None, ...]]  # fewest jokers, most jokers, each run's start


def _joker_plans(chosen: Sequence[Candidate], rules: Rules, clock: _Clock | None) -> list[_Plan]:
    """Pareto options (fewest jokers, most jokers, starts) for the chosen melds together.

    Only runs of one suit under "suit or start" constrain each other; everything else
    simply adds up.
    """
    starts: tuple[int | None, ...] = (None,) * len(chosen)
    plans: list[_Plan] = [
        (sum(c.jmin for c in chosen), sum(c.jcap for c in chosen), starts),
    ]
    if rules.runs_rule is not ContractRuns.SUIT_OR_START:
        return plans
    groups: dict[int, list[int]] = {}
    for index, candidate in enumerate(chosen):
        if candidate.kind is MeldKind.RUN:
            groups.setdefault(candidate.key, []).append(index)
    for members in groups.values():
        if len(members) > 1:
            plans = _with_distinct_starts(plans, chosen, members, rules, clock)
    return plans


def _with_distinct_starts(
    plans: list[_Plan],
    chosen: Sequence[Candidate],
    members: list[int],
    rules: Rules,
    clock: _Clock | None,
) -> list[_Plan]:
    """The plans again, the runs `members` (one suit) now each at a start of its own."""
    base_low = sum(chosen[i].jmin for i in members)
    base_high = sum(chosen[i].jcap for i in members)
    options = [chosen[i].run_starts(rules) for i in members]
    group_plans: list[_Plan] = []
    for picked in itertools.product(*(list(o) for o in options)):
        if clock is not None:
            clock.spend()
        if len(set(picked)) != len(picked):
            continue
        low = sum(options[k][s][0] for k, s in enumerate(picked))
        high = sum(options[k][s][1] for k, s in enumerate(picked))
        group_plans.append((low, high, picked))
    combined: list[_Plan] = []
    for plan_low, plan_high, plan_starts in plans:
        for low, high, group_starts in _pareto(group_plans):
            new_starts = list(plan_starts)
            for k, index in enumerate(members):
                new_starts[index] = group_starts[k]
            combined.append(
                (plan_low - base_low + low, plan_high - base_high + high, tuple(new_starts))
            )
    return _pareto(combined)


def _starts_can_differ(runs: Sequence[Candidate], rules: Rules) -> bool:
    """Whether runs of one suit can each take a start of its own: a matching of runs to
    starts, grown one run at a time by augmenting paths."""
    owner: dict[int, int] = {}

    def place(index: int, seen: set[int]) -> bool:
        for start in runs[index].run_starts(rules):
            if start in seen:
                continue
            seen.add(start)
            if start not in owner or place(owner[start], seen):
                owner[start] = index
                return True
        return False

    return all(place(index, set()) for index in range(len(runs)))


def _pareto(plans: Sequence[_Plan]) -> list[_Plan]:
    kept: list[_Plan] = []
    best_high = -1
    for plan in sorted(plans, key=lambda p: (p[0], -p[1])):
        if plan[1] > best_high:
            kept.append(plan)
            best_high = plan[1]
    return kept


def _absorbed(chosen: Sequence[Candidate], rules: Rules, jokers: int, clock: _Clock) -> int | None:
    """Free jokers the chosen melds absorb at best, or None when they cannot all be filled."""
    best: int | None = None
    clock.spend(_LEAF_STEPS)
    for low, high, _ in _joker_plans(chosen, rules, clock):
        if low <= jokers:
            absorbed = min(jokers, high)
            best = absorbed if best is None else max(best, absorbed)
    return best


# -- the search --------------------------------------------------------------------------------


_KINDS: Final = (MeldKind.SET, MeldKind.RUN)


def _kind(kind: MeldKind) -> int:
    return 0 if kind is MeldKind.SET else 1


class _Search:
    """Branch and bound over the contract's slots (or any number of melds, for rummy)."""

    def __init__(
        self,
        hand: Hand,
        rules: Rules,
        slots: list[MeldKind] | None,
        slack: int,
        clock: _Clock,
    ) -> None:
        self.hand = hand
        self.rules = rules
        self.clock = clock
        self.counts = hand.counts
        self.jokers = hand.jokers
        # By kind, as _KINDS orders them (an Enum member's hash and value run in Python).
        self.candidates: list[list[Candidate]] = [[], []]
        share = 1
        for kind in _KINDS:
            if slots is not None and kind not in slots:
                continue
            share += 1
            if kind is MeldKind.SET:
                choices = set_candidates(hand, rules, slack)
            else:
                choices = run_candidates(hand, rules, slack, clock.room(share))
            found = clock.collect(choices, share)
            found.sort(key=Candidate.sort_key)
            for order, candidate in enumerate(found):
                candidate.order = order
            self.candidates[_kind(kind)] = found
        if slots is not None:
            # The most constrained kind first; identical slots stay together.
            slots = sorted(slots, key=lambda k: (len(self.candidates[_kind(k)]), _kind(k)))
        self.slots = slots or []
        by_need = [sorted(found, key=lambda c: (c.jmin, c.order)) for found in self.candidates]
        # Per slot: its candidates, and the kinds of the slots from there on with how many.
        self.slot_candidates = [self.candidates[_kind(kind)] for kind in self.slots]
        self.needs_from = [
            [
                (by_need[_kind(kind)], self.slots[slot:].count(kind))
                for kind in _KINDS
                if kind in self.slots[slot:]
            ]
            for slot in range(len(self.slots) + 1)
        ]
        self.chosen: list[Candidate] = []
        self.best_score = -1
        self.best: tuple[Candidate, ...] | None = None
        self.best_missing = MAX_MISSING + 1
        self.total = hand.weight
        self.jokers_worth = self.jokers * rules.joker_weight
        # A bound weighs every item the hand holds: a big hand's bound costs more steps.
        self.bound_cost = 1 + len(hand.held) // 8
        self.runs_rule = rules.runs_rule
        self.suits_differ = rules.runs_rule is ContractRuns.DIFFERENT_SUITS

    @staticmethod
    def run(search: Callable[[], None]) -> None:
        """Run one of the searches; past the budget the best found so far stays."""
        with contextlib.suppress(_OutOfBudget):
            search()

    def _fewest_fillers(self, packed: int, slot: int) -> int | None:
        """Fillers (jokers, missing cards) the slots from `slot` on need at least, or None: some
        slot can't be filled at all. Each slot is counted with the neediest-free candidate
        still in hand."""
        total = 0
        for by_need, count in self.needs_from[slot]:
            least = None
            for scanned, candidate in enumerate(by_need):
                if fits(packed, candidate.packed):
                    least = candidate.jmin
                    self.clock.spend(scanned // 8)
                    break
            if least is None:
                self.clock.spend(len(by_need) // 8)
                return None
            total += least * count
        return total

    def _suit_taken(self, candidate: Candidate) -> bool:
        """A run that cannot join the runs chosen so far: in a suit another run has, where the
        suits must differ, or where runs of one suit must start apart and cannot all. A set of
        a rank another set has, where the sets must differ in rank (`distinct_set_ranks`)."""
        if candidate.kind is MeldKind.SET:
            return self.rules.distinct_set_ranks and any(
                c.kind is MeldKind.SET and c.key == candidate.key for c in self.chosen
            )
        if self.runs_rule is ContractRuns.ANY:
            return False
        same = [c for c in self.chosen if c.kind is MeldKind.RUN and c.key == candidate.key]
        if not same:
            return False
        return self.suits_differ or not _starts_can_differ([*same, candidate], self.rules)

    def _first(self, slot: int, first: int) -> int:
        """Where a slot's candidates start: after the last slot's pick when it is the same kind
        (identical slots in non-decreasing order), else at the start."""
        return first if slot and self.slots[slot - 1] is self.slots[slot] else 0

    # - lay down exactly the contract, leaving the least -

    def contract(self) -> None:
        slots = self.slots
        rules = self.rules
        if not all(self.slot_candidates):
            return
        last = len(slots)
        self.upto = [
            (
                sum(1 for k in slots[i:] if k is MeldKind.RUN),
                sum(1 for k in slots[i:] if k is MeldKind.SET),
            )
            for i in range(last + 1)
        ]
        sizes = [rules.run_size if k is MeldKind.RUN else rules.set_size for k in slots]
        # Cards the slots from here on need at least, fixed cards and jokers together.
        self.need = [sum(sizes[i:]) for i in range(last + 1)]
        self.bounds: dict[tuple[int, int], int] = {}
        packed = self.hand.packed
        items = self.hand.size
        # Nothing can beat the bound of the whole contract: reaching it ends the search.
        self.perfect = min(self.total, self._bound(packed, 0, self.total)) + self.jokers_worth
        self._visit(0, 0, packed, 0, 0, self.total, items)

    def _bound(self, packed: int, slot: int, remaining: int) -> int:
        """What the slots from `slot` on could absorb at most (the last entry is none)."""
        key = (packed, slot)
        found = self.bounds.get(key)
        if found is None:
            self.clock.spend(self.bound_cost)
            runs, sets = self.upto[slot]
            found = self.bounds[key] = _bound(packed, self.rules, runs, sets, remaining)
        return found

    def _visit(
        self, slot: int, first: int, packed: int, score: int, jmin: int, remaining: int, items: int
    ) -> bool:
        """Search on; True once nothing better than the best found can exist."""
        self.clock.spend()
        if slot == len(self.slots):
            return self._arrived(score)
        if self._hopeless(slot, packed, score, jmin, remaining, items):
            return False
        rest = self._bound(packed, slot + 1, remaining)
        jokers, jokers_worth = self.jokers, self.jokers_worth
        candidates = self.slot_candidates[slot]
        spend = self.clock.spend
        for index in range(self._first(slot, first), len(candidates)):
            candidate = candidates[index]
            worth = candidate.weight
            if score + worth + rest + jokers_worth <= self.best_score:
                break
            spend()
            if jmin + candidate.jmin > jokers or not fits(packed, candidate.packed):
                continue
            if score + remaining + jokers_worth <= self.best_score:
                break
            if self._suit_taken(candidate):
                continue
            self.chosen.append(candidate)
            done = self._visit(
                slot + 1,
                index,
                packed - candidate.packed,
                score + worth,
                jmin + candidate.jmin,
                remaining - worth,
                items - candidate.fixed,
            )
            self.chosen.pop()
            if done:
                return True
        return False

    def _arrived(self, score: int) -> bool:
        """Every slot is filled: keep it if it is the best; True if nothing can beat it."""
        absorbed = _absorbed(self.chosen, self.rules, self.jokers, self.clock)
        if absorbed is None:
            return False
        total = score + absorbed * self.rules.joker_weight
        if total > self.best_score:
            self.best_score = total
            self.best = tuple(self.chosen)
        return total >= self.perfect

    def _hopeless(
        self, slot: int, packed: int, score: int, jmin: int, remaining: int, items: int
    ) -> bool:
        """Whether the slots from `slot` on cannot be filled, or cannot beat the best."""
        last = len(self.slots)
        if items < last - slot or items + self.jokers - jmin < self.need[slot]:
            return True
        fewest = self._fewest_fillers(packed, slot)
        if fewest is None or jmin + fewest > self.jokers:
            return True
        return score + self._bound(packed, slot, remaining) + self.jokers_worth <= self.best_score

    # - rummy: any melds at all -

    def any_melds(self) -> None:
        self.everything = sorted(
            self.candidates[0] + self.candidates[1],
            key=Candidate.sort_key,
        )
        self._any(0, self.hand.packed, 0, 0, 0, self.total)

    def _any(self, first: int, packed: int, score: int, jmin: int, jcap: int, left: int) -> None:
        self.clock.spend()
        jokers = self.jokers
        if self.chosen:
            total = score + min(jokers, jcap) * self.rules.joker_weight
            if total > self.best_score:
                self.best_score = total
                self.best = tuple(self.chosen)
        everything = self.everything
        spend = self.clock.spend
        for index in range(first, len(everything)):
            candidate = everything[index]
            if score + left + self.jokers_worth <= self.best_score:
                return
            spend()
            if jmin + candidate.jmin > jokers or not fits(packed, candidate.packed):
                continue
            self.chosen.append(candidate)
            self._any(
                index,
                packed - candidate.packed,
                score + candidate.weight,
                jmin + candidate.jmin,
                jcap + candidate.jcap,
                left - candidate.weight,
            )
            self.chosen.pop()

    # - the nearest contract: fewest natural cards to add -

    def nearest(self) -> None:
        for found in self.candidates:
            found.sort(key=lambda c: (c.plow, c.jmin - c.plow, -c.weight, c.key, c.packed))
        self._near(0, 0, self.hand.packed, 0, 0)

    def _near(self, slot: int, first: int, packed: int, plow: int, filler: int) -> None:
        self.clock.spend()
        slots = self.slots
        if plow + max(0, filler - self.jokers) >= self.best_missing:
            return
        if slot == len(slots):
            self._near_arrived(plow, filler)
            return
        fewest = self._fewest_fillers(packed, slot)
        if fewest is None or max(plow, plow + filler + fewest - self.jokers) >= self.best_missing:
            return
        candidates = self.slot_candidates[slot]
        spend = self.clock.spend
        for index in range(self._first(slot, first), len(candidates)):
            candidate = candidates[index]
            if plow + candidate.plow >= self.best_missing:
                break
            spend()
            if not fits(packed, candidate.packed) or self._suit_taken(candidate):
                continue
            self.chosen.append(candidate)
            self._near(
                slot + 1,
                index,
                packed - candidate.packed,
                plow + candidate.plow,
                filler + candidate.jmin - candidate.plow,
            )
            self.chosen.pop()

    def _near_arrived(self, plow: int, filler: int) -> None:
        if missing_cards(self.chosen, self.hand, self.rules) is not None:
            self.best_missing = plow + max(0, filler - self.jokers)
            self.best = tuple(self.chosen)


# -- the public call ---------------------------------------------------------------------------


def solve(
    hand: Sequence[Card],
    variant: Variant,
    round_number: int,
    *,
    nearest: bool = False,
    budget: Budget | None = None,
) -> Solution:
    """The melds that meet this round's contract leaving the least penalty in the hand.

    For a game without contracts (rummy) the round is ignored and any melds may be laid
    down. When the contract cannot be met, `melds` is empty and the whole hand is left over;
    with `nearest`, `missing` then names the natural cards that would complete the nearest
    contract. Past the `budget` the answer is the best found so far, with `exact` False.
    Raises RoundError for a round the variant does not have.

    Most hands of a random deal are far from the contract: `cannot_meet` says so of them at
    once, and only the others are searched.
    """
    slots: list[MeldKind] | None = None
    if variant.has_contracts:
        contract = variant.contract_for(round_number)
        rules = rules_for(variant, contract.set_size, contract.run_size)
        slots = [MeldKind.SET] * contract.sets + [MeldKind.RUN] * contract.runs
    else:
        rules = rules_for(variant, variant.min_set_size, variant.min_run_size)
    counted = Hand(hand, rules)
    clock = _Clock(budget or DEFAULT_BUDGET)
    best: tuple[Candidate, ...] | None = None
    if slots is None or not cannot_meet(counted, rules, contract.sets, contract.runs):
        search = _Search(counted, rules, slots, 0, clock)
        search.run(search.any_melds if slots is None else search.contract)
        best = search.best
    if best is None:
        missing: tuple[Card, ...] = ()
        if nearest and slots is not None:
            missing = _nearest_missing(counted, rules, slots, clock)
        return Solution(
            can_meet_contract=False,
            melds=(),
            leftover=counted.cards,
            leftover_penalty=counted.points,
            missing=missing,
            exact=clock.exact,
            steps=clock.spent,
        )
    melds, used, free = _melds(best, rules, counted)
    leftover = leftover_of(hand, used, free)
    return Solution(
        can_meet_contract=True,
        melds=melds,
        leftover=leftover,
        leftover_penalty=sum(variant.points_of(c) for c in leftover),
        exact=clock.exact,
        steps=clock.spent,
    )


def _nearest_missing(
    hand: Hand, rules: Rules, slots: list[MeldKind], clock: _Clock
) -> tuple[Card, ...]:
    """The fewest natural cards (at most MAX_MISSING) that would complete the contract."""
    if clock.left <= 0:
        return ()
    near = _Search(hand, rules, slots, MAX_MISSING, clock)
    near.run(near.nearest)
    if near.best is None:
        return ()
    found = missing_cards(near.best, hand, rules)
    return tuple(sorted(found or (), key=lambda c: c.sort_key))


def _melds(
    chosen: Sequence[Candidate], rules: Rules, hand: Hand
) -> tuple[tuple[Reading, ...], list[int], int]:
    """The readings, and what they take from the hand: items by count and free jokers."""
    amounts, starts = _fill(chosen, rules, hand.jokers)
    readings = [
        reading_of(candidate, rules, hand, amounts[index], starts[index])[0]
        for index, candidate in enumerate(chosen)
    ]
    used = [0] * ITEMS
    for candidate in chosen:
        for item, copies in candidate.items():
            used[item] += copies
    return tuple(sorted(readings, key=_meld_order)), used, sum(amounts)


def _fill(
    chosen: Sequence[Candidate], rules: Rules, jokers: int
) -> tuple[list[int], list[int | None]]:
    """Free jokers per meld and each run's start, taking as many jokers as fit."""
    # The search weighed these plans within its budget already: this is the same work again.
    plans = _joker_plans(chosen, rules, None)
    absorbed, starts = max(
        ((min(jokers, high), starts) for low, high, starts in plans if low <= jokers),
        key=lambda plan: plan[0],
    )
    amounts: list[int] = []
    limits: list[int] = []
    for index, candidate in enumerate(chosen):
        start = starts[index]
        if start is None:
            amounts.append(candidate.jmin)
            limits.append(candidate.jcap)
        else:
            low, high = candidate.run_starts(rules)[start]
            amounts.append(low)
            limits.append(high)
    spare = absorbed - sum(amounts)
    for index in range(len(chosen)):
        extra = min(spare, limits[index] - amounts[index])
        amounts[index] += extra
        spare -= extra
    return amounts, list(starts)


def _meld_order(reading: Reading) -> tuple[int, int, int, int]:
    if reading.kind is MeldKind.SET:
        return (0, int(reading.rank or 0), 0, 0)
    suit = reading.suit
    return (1, SUITS.index(suit) if suit is not None else 0, reading.start, len(reading.cards))
