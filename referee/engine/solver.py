"""The hand solver: the way to lay down a round's contract that leaves the least in the hand.

How it searches, in short (it has to answer in milliseconds on a cheap phone):

* The hand becomes counts: natural cards and declared jokers by card, free jokers as a number.
* Free jokers are a resource, not cards to place: a meld is described by its fixed cards
  (naturals and declared jokers) and by the fewest and the most free jokers it can take.
  Any total between the sums of those is reachable, and every free joker absorbed is
  worth its penalty, so the best use of jokers follows from the fixed cards alone.
* Candidate melds are enumerated once per hand; the contract's slots are filled by a
  depth-first branch and bound over them: candidates best first, identical slots in
  non-decreasing candidate order (symmetry), and an admissible bound (what the remaining
  slots could still absorb, by suit layers for runs and rank chunks for sets).
* A solution is scored by one integer: penalty points first, then the number of cards,
  so among equally cheap answers the one that melds the most cards wins (going out).
* When the contract cannot be met, the same search runs with "missing" natural cards
  allowed to fill places (at most three), fewest first: those are the cards to wait for.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import SUITS, Card, Rank, Suit
from .melds import MeldKind, Reading
from .variants import AceRule, ContractRuns, Variant

# The most natural cards `missing` reports; beyond that nothing is "near".
MAX_MISSING: Final = 3

_NATURALS: Final = 52  # item ids 0..51 are natural cards, 52..103 jokers declared as them
_ITEMS: Final = 2 * _NATURALS
_UNLIMITED: Final = 1 << 30
_LONGEST_RUN: Final = len(Rank)


@dataclass(frozen=True)
class Solution:
    """The solver's answer about one hand."""

    can_meet_contract: bool
    melds: tuple[Reading, ...]  # sets first, then runs; jokers carry what they stand for
    leftover: tuple[Card, ...]  # in the order the hand gave them
    leftover_penalty: int
    missing: tuple[Card, ...] = ()  # natural cards that would complete the nearest contract


# Counts packed into one integer, six bits an item with the top bit a guard: a meld's cards
# are all there when subtracting them borrows from no guard. One operation instead of a loop.
_BITS: Final = 6
_FIELD: Final = (1 << (_BITS - 1)) - 1
_GUARDS: Final = sum(1 << (_BITS * i + _BITS - 1) for i in range(_ITEMS))


def _pack(counts: Sequence[int]) -> int:
    return sum(min(count, _FIELD) << (_BITS * item) for item, count in enumerate(counts) if count)


def _pack_uses(uses: Sequence[tuple[int, int]]) -> int:
    return sum(copies << (_BITS * item) for item, copies in uses)


def _item(suit_index: int, rank: int) -> int:
    return suit_index * 13 + rank - 1


def _natural_of(item: int) -> Card:
    natural = item % _NATURALS
    return Card(Rank(natural % 13 + 1), SUITS[natural // 13])


class _Candidate:
    """A meld described by its fixed items; free jokers fill it between `jmin` and `jcap`."""

    __slots__ = (
        "decl",
        "fixed",
        "jcap",
        "jmin",
        "key",
        "kind",
        "nat",
        "order",
        "packed",
        "places",
        "plow",
        "uses",
        "weight",
    )

    def __init__(
        self,
        kind: MeldKind,
        key: int,
        uses: tuple[tuple[int, int], ...],
        places: tuple[tuple[int, int], ...],
        weight: int,
        nat: int,
        decl: int,
        jmin: int,
        jcap: int,
        plow: int,
        packed: int | None = None,
    ) -> None:
        self.kind = kind
        self.key = key  # the rank of a set, the suit index of a run
        self.uses = uses  # (item, copies) of a set; a run's items are in `places`
        self.places = places  # a run's (place, item) from low to high
        self.weight = weight
        self.fixed = nat + decl
        self.nat = nat
        self.decl = decl
        self.jmin = jmin
        self.jcap = jcap
        self.plow = plow  # missing naturals it needs at least (0 in a normal search)
        self.order = 0
        self.packed = _pack_uses(uses) if packed is None else packed

    def sort_key(self) -> tuple[int, int, int, int, int]:
        return (-self.weight, self.plow, self.jmin, self.key, self.packed)

    @property
    def place_mask(self) -> int:
        mask = 0
        for place, _ in self.places:
            mask |= 1 << place
        return mask


class _Rules:
    """What the search needs to know of the variant and the round, worked out once."""

    def __init__(self, variant: Variant, set_size: int, run_size: int) -> None:
        self.variant = variant
        self.set_size = set_size
        self.run_size = run_size
        self.min_natural = variant.min_natural_cards
        self.max_jokers = (
            _UNLIMITED if variant.max_jokers_per_meld is None else variant.max_jokers_per_meld
        )
        distinct = variant.set_suits_distinct
        size = _UNLIMITED if variant.max_set_size is None else variant.max_set_size
        self.max_set = min(size, len(SUITS)) if distinct else size
        self.distinct = distinct
        self.around = variant.around_the_corner
        self.top = 14 if variant.aces is AceRule.HIGH_OR_LOW else 13
        self.runs_rule = variant.contract_runs
        self.windows = _windows(self.top, self.around, run_size)
        self.joker_weight = _weight(variant.joker_points)


def _weight(points: int) -> int:
    # Points first, then one for the card itself: equal penalties prefer melding more cards.
    return points * 1024 + 1


def _windows(top: int, around: bool, minimum: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """Every place a run may occupy: (start, mask of places, places); as melds.py reads runs."""
    found: list[tuple[int, int, tuple[int, ...]]] = []
    seen: set[tuple[int, ...]] = set()
    for size in range(max(minimum, 1), _LONGEST_RUN + 1):
        windows = [tuple(range(start, start + size)) for start in range(1, top - size + 2)]
        if around:
            for start in range(top - size + 2, 14):
                windows.append(tuple((start + i - 1) % 13 + 1 for i in range(size)))
        for window in windows:
            if window in seen:
                continue
            seen.add(window)
            mask = 0
            for place in window:
                # Around the corner a high ace is matched as place 1, as the candidates hold it.
                mask |= 1 << (1 if around and place == 14 else place)
            found.append((window[0], mask, window))
    return found


# -- the hand as counts ------------------------------------------------------------------------


class _Hand:
    """The usable part of a hand as counts, and what the shoe would not allow."""

    def __init__(self, hand: Sequence[Card], variant: Variant) -> None:
        self.cards = tuple(hand)
        self.counts = [0] * _ITEMS
        self.declared: dict[int, Card] = {}
        free = 0
        jokers_allowed = variant.max_jokers if variant.uses_jokers else 0
        decks = variant.max_decks
        for card in sorted(self.cards, key=_canonical):
            if card.is_natural:
                assert card.rank is not None and card.suit is not None
                item = _item(SUITS.index(card.suit), int(card.rank))
                if self.counts[item] < decks:
                    self.counts[item] += 1
            elif jokers_allowed > 0:
                jokers_allowed -= 1
                if card.stands_for is None:
                    free += 1
                else:
                    target = card.stands_for
                    assert target.rank is not None and target.suit is not None
                    item = _NATURALS + _item(SUITS.index(target.suit), int(target.rank))
                    self.counts[item] += 1
                    self.declared[item] = card
        self.jokers = free


def _canonical(card: Card) -> tuple[int, int, int, int]:
    # Free jokers before declared ones, so a shoe limit leaves the declarations unused.
    declared = card.stands_for.sort_key if card.stands_for is not None else (0, 0)
    return (*card.sort_key, *declared)


def _item_weights(variant: Variant) -> list[int]:
    weights = [0] * _ITEMS
    for item in range(_NATURALS):
        weights[item] = _weight(variant.rank_points[item % 13])
        weights[_NATURALS + item] = _weight(variant.joker_points)
    return weights


# -- candidates --------------------------------------------------------------------------------


def _set_candidates(
    counts: list[int], weights: list[int], rules: _Rules, jokers: int, slack: int
) -> list[_Candidate]:
    found: list[_Candidate] = []
    for rank in range(1, 14):
        per_suit: list[list[tuple[tuple[tuple[int, int], ...], int, int]]] = []
        for suit_index in range(len(SUITS)):
            item = _item(suit_index, rank)
            naturals, declared = counts[item], counts[_NATURALS + item]
            options: list[tuple[tuple[tuple[int, int], ...], int, int]] = []
            for n in range(naturals + 1):
                for d in range(declared + 1):
                    if rules.distinct and n + d > 1:
                        continue
                    uses: tuple[tuple[int, int], ...] = ((item, n),) if n else ()
                    if d:
                        uses += ((_NATURALS + item, d),)
                    options.append((uses, n, d))
            per_suit.append(options)
        if all(len(options) == 1 for options in per_suit):
            continue
        for combination in itertools.product(*per_suit):
            nat = sum(option[1] for option in combination)
            decl = sum(option[2] for option in combination)
            fixed = nat + decl
            if fixed == 0 or fixed > rules.max_set or decl > rules.max_jokers:
                continue
            jmin = max(0, rules.set_size - fixed)
            room = rules.max_set - fixed if rules.max_set < _UNLIMITED else _UNLIMITED
            jcap = min(room, rules.max_jokers - decl)
            plow = max(0, rules.min_natural - nat, jmin - (rules.max_jokers - decl))
            if plow > slack or (plow > jmin and plow > 0) or jmin > jokers + slack:
                continue
            if jmin > room:
                continue
            taken = tuple(pair for option in combination for pair in option[0])
            weight = sum(weights[item] * copies for item, copies in taken)
            found.append(
                _Candidate(MeldKind.SET, rank, taken, (), weight, nat, decl, jmin, jcap, plow)
            )
    return found


def _run_candidates(
    counts: list[int], weights: list[int], rules: _Rules, jokers: int, slack: int
) -> list[_Candidate]:
    found: list[_Candidate] = []
    fillers = jokers + slack
    last_place = 13 if rules.around else rules.top
    for suit_index in range(len(SUITS)):
        # (place, item) choices, low to high; a place may offer a natural and a declared joker.
        offers: list[tuple[int, int]] = []
        for place in range(1, last_place + 1):
            item = _item(suit_index, 1 if place == 14 else place)
            if counts[item]:
                offers.append((place, item))
            if counts[_NATURALS + item]:
                offers.append((place, _NATURALS + item))
        if not offers:
            continue
        if rules.around:
            chosen_sets = [
                (
                    chosen,
                    span,
                    sum(1 for _, item in chosen if item < _NATURALS),
                    sum(weights[item] for _, item in chosen),
                    _pack_uses([(item, 1) for _, item in chosen]),
                )
                for chosen, span in _cyclic_subsets(offers, rules, fillers)
            ]
        else:
            chosen_sets = _linear_subsets(offers, weights, fillers)
        run_size = rules.run_size
        max_jokers = rules.max_jokers
        min_natural = rules.min_natural
        for chosen, span, nat, weight, packed in chosen_sets:
            size = len(chosen)
            decl = size - nat
            if decl > max_jokers:
                continue
            jmin = (run_size if run_size > span else span) - size
            jcap = min(_LONGEST_RUN - size, max_jokers - decl)
            plow = max(0, min_natural - nat, jmin - (max_jokers - decl))
            if plow > slack or (plow > jmin and plow > 0) or jmin > fillers or jcap < 0:
                continue
            found.append(
                _Candidate(
                    MeldKind.RUN,
                    suit_index,
                    (),
                    chosen,
                    weight,
                    nat,
                    decl,
                    jmin,
                    jcap,
                    plow,
                    packed,
                )
            )
    return found


_Subset = tuple[tuple[tuple[int, int], ...], int, int, int, int]


def _linear_subsets(
    offers: list[tuple[int, int]], weights: list[int], fillers: int
) -> list[_Subset]:
    """Choices of places (at most one item a place) whose gaps the fillers can close:
    (chosen, span, naturals, weight, packed)."""
    found: list[_Subset] = []
    count = len(offers)
    bits = [1 << (_BITS * item) for _, item in offers]

    def extend(
        chosen: tuple[tuple[int, int], ...],
        low: int,
        high: int,
        after: int,
        gaps: int,
        nat: int,
        weight: int,
        packed: int,
    ) -> None:
        found.append((chosen, high - low + 1, nat, weight, packed))
        for index in range(after, count):
            offer = offers[index]
            place = offer[0]
            if place == high:
                continue
            more = gaps + place - high - 1
            if more > fillers or place - low >= _LONGEST_RUN:
                break
            item = offer[1]
            extend(
                (*chosen, offer),
                low,
                place,
                index + 1,
                more,
                nat + (item < _NATURALS),
                weight + weights[item],
                packed + bits[index],
            )

    for index in range(count):
        place, item = offers[index]
        extend(
            (offers[index],),
            place,
            place,
            index + 1,
            0,
            int(item < _NATURALS),
            weights[item],
            bits[index],
        )
    return found


def _cyclic_subsets(
    offers: list[tuple[int, int]], rules: _Rules, fillers: int
) -> list[tuple[tuple[tuple[int, int], ...], int]]:
    """Around the corner: any places that fit in one arc of the 13 ranks."""
    found: list[tuple[tuple[tuple[int, int], ...], int]] = []
    for size in range(1, len(offers) + 1):
        for chosen in itertools.combinations(offers, size):
            places = [place for place, _ in chosen]
            if len(set(places)) != len(places):
                continue
            gaps = [b - a for a, b in itertools.pairwise(places)] + [places[0] + 13 - places[-1]]
            span = 13 - max(gaps) + 1
            if span - len(places) > fillers:
                continue
            found.append((chosen, span))
    return found


# -- bounds ------------------------------------------------------------------------------------


def _bound(packed: int, weights: list[int], rules: _Rules, runs: int, sets: int, total: int) -> int:  # noqa: C901 - simplified with the solver work of the rules issue
    """The most fixed-card weight `runs` runs and `sets` sets could still absorb.

    A run takes at most one card of a place: the k-th copies of a suit form its k-th layer,
    and `runs` runs absorb at most the heaviest `runs` layers. A set takes cards of one rank:
    all of them, or chunks of the largest set size, or (suits distinct) one card a suit.
    Declared jokers are layered apart from the naturals of their place, which only adds.
    """
    if runs == 0 and sets == 0:
        return 0
    run_layers: dict[int, int] = {}
    set_layers: dict[int, int] = {}
    stacks: dict[int, list[int]] = {}
    distinct = rules.distinct
    limited = rules.max_set < _UNLIMITED
    rest = packed
    while rest:
        low = (rest & -rest).bit_length() - 1
        item = low // _BITS
        shift = item * _BITS
        copies = (rest >> shift) & ((1 << _BITS) - 1)
        rest &= ~(((1 << _BITS) - 1) << shift)
        weight = weights[item]
        natural = item % _NATURALS
        suit = natural // 13
        rank = natural % 13
        if runs:
            for depth in range(copies):
                key = suit * 64 + depth
                run_layers[key] = run_layers.get(key, 0) + weight
        if sets:
            if distinct:
                for depth in range(copies):
                    key = rank * 64 + depth
                    set_layers[key] = set_layers.get(key, 0) + weight
            elif limited:
                stacks.setdefault(rank, []).extend([weight] * copies)
            else:
                set_layers[rank] = set_layers.get(rank, 0) + weight * copies
    found = 0
    if runs:
        found += sum(sorted(run_layers.values(), reverse=True)[:runs])
    if sets:
        chunks = list(set_layers.values())
        if stacks:
            size = rules.max_set
            for stack in stacks.values():
                stack.sort(reverse=True)
                chunks += [sum(stack[i : i + size]) for i in range(0, len(stack), size)]
        found += sum(sorted(chunks, reverse=True)[:sets])
    return min(total, found)


# -- jokers between chosen melds ---------------------------------------------------------------


def _run_starts(candidate: _Candidate, rules: _Rules) -> dict[int, tuple[int, int]]:
    """For each start a run may take: the fewest and the most free jokers it then needs."""
    mask = candidate.place_mask
    starts: dict[int, tuple[int, int]] = {}
    for start, window_mask, window in rules.windows:
        if mask & ~window_mask:
            continue
        jokers = len(window) - candidate.fixed
        low, high = starts.get(start, (jokers, jokers))
        starts[start] = (min(low, jokers), max(high, jokers))
    cap = rules.max_jokers - candidate.decl
    return {
        start: (low, min(high, cap)) for start, (low, high) in sorted(starts.items()) if low <= cap
    }


def _joker_plans(
    chosen: Sequence[_Candidate], rules: _Rules
) -> list[tuple[int, int, tuple[int | None, ...]]]:
    """Pareto options (fewest jokers, most jokers, starts) for the chosen melds together.

    Only runs of one suit under "suit or start" constrain each other; everything else
    simply adds up.
    """
    starts: list[int | None] = [None] * len(chosen)
    low = sum(c.jmin for c in chosen)
    high = sum(c.jcap for c in chosen)
    if rules.runs_rule is not ContractRuns.SUIT_OR_START:
        return [(low, high, tuple(starts))]
    groups: dict[int, list[int]] = {}
    for index, candidate in enumerate(chosen):
        if candidate.kind is MeldKind.RUN:
            groups.setdefault(candidate.key, []).append(index)
    shared = [members for members in groups.values() if len(members) > 1]
    if not shared:
        return [(low, high, tuple(starts))]
    plans: list[tuple[int, int, tuple[int | None, ...]]] = [(low, high, tuple(starts))]
    for members in shared:
        base_low = sum(chosen[i].jmin for i in members)
        base_high = sum(chosen[i].jcap for i in members)
        options = [_run_starts(chosen[i], rules) for i in members]
        group_plans: list[tuple[int, int, tuple[int | None, ...]]] = []
        for picked in itertools.product(*(list(o) for o in options)):
            if len(set(picked)) != len(picked):
                continue
            lo = sum(options[k][s][0] for k, s in enumerate(picked))
            hi = sum(options[k][s][1] for k, s in enumerate(picked))
            group_plans.append((lo, hi, picked))
        group_plans = _pareto(group_plans)
        combined: list[tuple[int, int, tuple[int | None, ...]]] = []
        for plan_low, plan_high, plan_starts in plans:
            for lo, hi, group_starts in group_plans:
                new_starts = list(plan_starts)
                for k, index in enumerate(members):
                    new_starts[index] = group_starts[k]
                combined.append(
                    (plan_low - base_low + lo, plan_high - base_high + hi, tuple(new_starts))
                )
        plans = _pareto(combined)
    return plans


def _pareto(
    plans: Sequence[tuple[int, int, tuple[int | None, ...]]],
) -> list[tuple[int, int, tuple[int | None, ...]]]:
    kept: list[tuple[int, int, tuple[int | None, ...]]] = []
    best_high = -1
    for plan in sorted(plans, key=lambda p: (p[0], -p[1])):
        if plan[1] > best_high:
            kept.append(plan)
            best_high = plan[1]
    return kept


def _absorbed(chosen: Sequence[_Candidate], rules: _Rules, jokers: int) -> int | None:
    """Free jokers the chosen melds absorb at best, or None when they cannot all be filled."""
    best: int | None = None
    for low, high, _ in _joker_plans(chosen, rules):
        if low <= jokers:
            absorbed = min(jokers, high)
            best = absorbed if best is None else max(best, absorbed)
    return best


# -- the search --------------------------------------------------------------------------------


class _Search:
    """Branch and bound over the contract's slots (or any number of melds, for rummy)."""

    def __init__(
        self,
        hand: _Hand,
        rules: _Rules,
        weights: list[int],
        slots: list[MeldKind] | None,
        slack: int,
    ) -> None:
        self.hand = hand
        self.rules = rules
        self.weights = weights
        self.counts = list(hand.counts)
        self.jokers = hand.jokers
        self.slack = slack
        kinds = [MeldKind.SET, MeldKind.RUN] if slots is None else sorted(set(slots), key=str)
        self.candidates: dict[MeldKind, list[_Candidate]] = {}
        for kind in kinds:
            make = _set_candidates if kind is MeldKind.SET else _run_candidates
            found = make(self.counts, weights, rules, self.jokers, slack)
            found.sort(key=_Candidate.sort_key)
            for order, candidate in enumerate(found):
                candidate.order = order
            self.candidates[kind] = found
        if slots is not None:
            # The most constrained kind first; identical slots stay together.
            slots = sorted(slots, key=lambda k: (len(self.candidates[k]), k.value))
        self.slots = slots
        self.by_need = {
            kind: sorted(found, key=lambda c: (c.jmin, c.order))
            for kind, found in self.candidates.items()
        }
        self.best_score = -1
        self.best: tuple[_Candidate, ...] | None = None
        self.best_missing = MAX_MISSING + 1
        self.total = sum(weights[i] * n for i, n in enumerate(self.counts))

    def _fewest_fillers(self, packed: int, slots: Sequence[MeldKind]) -> int | None:
        """Fillers (jokers, missing cards) the slots need at least, or None: some slot can't be
        filled at all. Each slot is counted with the neediest-free candidate still in hand."""
        total = 0
        for kind in set(slots):
            least = None
            for candidate in self.by_need[kind]:
                if ((packed | _GUARDS) - candidate.packed) & _GUARDS == _GUARDS:
                    least = candidate.jmin
                    break
            if least is None:
                return None
            total += least * sum(1 for k in slots if k is kind)
        return total

    # - lay down exactly the contract, leaving the least -

    def contract(self) -> None:  # noqa: C901 - simplified with the solver work of the rules issue
        assert self.slots is not None
        slots = self.slots
        last = len(slots)
        upto = [
            (
                sum(1 for k in slots[i:] if k is MeldKind.RUN),
                sum(1 for k in slots[i:] if k is MeldKind.SET),
            )
            for i in range(last + 1)
        ]
        sizes = [self.rules.run_size if k is MeldKind.RUN else self.rules.set_size for k in slots]
        # Cards the slots from here on need at least, fixed cards and jokers together.
        need = [sum(sizes[i:]) for i in range(last + 1)]
        weights = self.weights
        rules = self.rules
        jokers = self.jokers
        jokers_worth = jokers * rules.joker_weight
        chosen: list[_Candidate] = []
        different_suits = rules.runs_rule is ContractRuns.DIFFERENT_SUITS
        bounds: dict[tuple[int, int], int] = {}

        def bound(packed: int, slot: int, remaining: int) -> int:
            """What the slots from `slot` on could absorb at most (the last entry is none)."""
            key = (packed, slot)
            found = bounds.get(key)
            if found is None:
                runs, sets = upto[slot]
                found = _bound(packed, weights, rules, runs, sets, remaining)
                bounds[key] = found
            return found

        packed_hand = _pack(self.counts)
        # Nothing can beat the bound of the whole contract: reaching it ends the search.
        perfect = min(self.total, bound(packed_hand, 0, self.total)) + jokers_worth

        def visit(  # noqa: C901 - simplified with the solver work of the rules issue
            slot: int, first: int, packed: int, score: int, jmin: int, remaining: int, items: int
        ) -> bool:
            """Search on; True once nothing better than the best found can exist."""
            if slot == last:
                absorbed = _absorbed(chosen, rules, jokers)
                if absorbed is None:
                    return False
                total = score + absorbed * rules.joker_weight
                if total > self.best_score:
                    self.best_score = total
                    self.best = tuple(chosen)
                return total >= perfect
            if items < last - slot or items + jokers - jmin < need[slot]:
                return False
            fewest = self._fewest_fillers(packed, slots[slot:])
            if fewest is None or jmin + fewest > jokers:
                return False
            if score + bound(packed, slot, remaining) + jokers_worth <= self.best_score:
                return False
            kind = slots[slot]
            rest = bound(packed, slot + 1, remaining)
            if slot == 0 or slots[slot - 1] is not kind:
                first = 0
            candidates = self.candidates[kind]
            for index in range(first, len(candidates)):
                candidate = candidates[index]
                weight = candidate.weight
                if score + weight + rest + jokers_worth <= self.best_score:
                    break
                if jmin + candidate.jmin > jokers:
                    continue
                uses = candidate.packed
                if ((packed | _GUARDS) - uses) & _GUARDS != _GUARDS:
                    continue
                if score + remaining + jokers_worth <= self.best_score:
                    break
                if (
                    different_suits
                    and kind is MeldKind.RUN
                    and any(c.kind is MeldKind.RUN and c.key == candidate.key for c in chosen)
                ):
                    continue
                chosen.append(candidate)
                done = visit(
                    slot + 1,
                    index,
                    packed - uses,
                    score + weight,
                    jmin + candidate.jmin,
                    remaining - weight,
                    items - candidate.fixed,
                )
                chosen.pop()
                if done:
                    return True
            return False

        items = sum(self.counts)
        visit(0, 0, packed_hand, 0, 0, self.total, items)

    # - rummy: any melds at all -

    def any_melds(self) -> None:
        rules = self.rules
        jokers = self.jokers
        jokers_worth = jokers * rules.joker_weight
        everything = sorted(
            self.candidates[MeldKind.SET] + self.candidates[MeldKind.RUN],
            key=_Candidate.sort_key,
        )
        chosen: list[_Candidate] = []

        def visit(
            first: int, packed: int, score: int, jmin: int, jcap: int, remaining: int
        ) -> None:
            if chosen:
                total = score + min(jokers, jcap) * rules.joker_weight
                if total > self.best_score:
                    self.best_score = total
                    self.best = tuple(chosen)
            for index in range(first, len(everything)):
                candidate = everything[index]
                if score + remaining + jokers_worth <= self.best_score:
                    return
                if jmin + candidate.jmin > jokers:
                    continue
                if ((packed | _GUARDS) - candidate.packed) & _GUARDS != _GUARDS:
                    continue
                chosen.append(candidate)
                visit(
                    index,
                    packed - candidate.packed,
                    score + candidate.weight,
                    jmin + candidate.jmin,
                    jcap + candidate.jcap,
                    remaining - candidate.weight,
                )
                chosen.pop()

        visit(0, _pack(self.counts), 0, 0, 0, self.total)

    # - the nearest contract: fewest natural cards to add -

    def nearest(self) -> None:  # noqa: C901 - simplified with the solver work of the rules issue
        assert self.slots is not None
        slots = self.slots
        jokers = self.jokers
        rules = self.rules
        chosen: list[_Candidate] = []
        for found in self.candidates.values():
            found.sort(key=lambda c: (c.plow, c.jmin - c.plow, -c.weight, c.key, c.packed))
        different_suits = rules.runs_rule is ContractRuns.DIFFERENT_SUITS

        def visit(slot: int, first: int, packed: int, plow: int, filler: int) -> None:
            if plow + max(0, filler - jokers) >= self.best_missing:
                return
            if slot < len(slots):
                fewest = self._fewest_fillers(packed, slots[slot:])
                if (
                    fewest is None
                    or max(plow, plow + filler + fewest - jokers) >= self.best_missing
                ):
                    return
            if slot == len(slots):
                if _missing_cards(chosen, self.hand, rules) is None:
                    return
                self.best_missing = plow + max(0, filler - jokers)
                self.best = tuple(chosen)
                return
            kind = slots[slot]
            if slot == 0 or slots[slot - 1] is not kind:
                first = 0
            candidates = self.candidates[kind]
            for index in range(first, len(candidates)):
                candidate = candidates[index]
                if plow + candidate.plow >= self.best_missing:
                    break
                if ((packed | _GUARDS) - candidate.packed) & _GUARDS != _GUARDS:
                    continue
                if (
                    different_suits
                    and kind is MeldKind.RUN
                    and any(c.kind is MeldKind.RUN and c.key == candidate.key for c in chosen)
                ):
                    continue
                chosen.append(candidate)
                visit(
                    slot + 1,
                    index,
                    packed - candidate.packed,
                    plow + candidate.plow,
                    filler + candidate.jmin - candidate.plow,
                )
                chosen.pop()

        visit(0, 0, _pack(self.counts), 0, 0)


# -- from the chosen melds back to cards -------------------------------------------------------


def _fill(
    chosen: Sequence[_Candidate], rules: _Rules, jokers: int
) -> tuple[list[int], list[int | None]] | None:
    """Free jokers per meld and each run's start, taking as many jokers as fit."""
    best: tuple[int, tuple[int | None, ...]] | None = None
    for low, high, starts in _joker_plans(chosen, rules):
        if low <= jokers:
            absorbed = min(jokers, high)
            if best is None or absorbed > best[0]:
                best = (absorbed, starts)
    if best is None:
        return None
    absorbed, starts = best
    amounts: list[int] = []
    limits: list[int] = []
    for index, candidate in enumerate(chosen):
        start = starts[index]
        if start is None:
            amounts.append(candidate.jmin)
            limits.append(candidate.jcap)
        else:
            low, high = _run_starts(candidate, rules)[start]
            amounts.append(low)
            limits.append(high)
    spare = absorbed - sum(amounts)
    for index in range(len(chosen)):
        extra = min(spare, limits[index] - amounts[index])
        amounts[index] += extra
        spare -= extra
    return amounts, list(starts)


def _run_window(
    candidate: _Candidate, rules: _Rules, length: int, start: int | None
) -> tuple[int, ...]:
    mask = candidate.place_mask
    low_place = candidate.places[0][0]
    best: tuple[int, ...] | None = None
    for window_start, window_mask, window in rules.windows:
        if len(window) != length or mask & ~window_mask:
            continue
        if start is not None and window_start != start:
            continue
        # Prefer the window that keeps the run's own low card at its start, then the lowest.
        if best is None or (window_start == low_place and best[0] != low_place):
            best = window
    assert best is not None
    return best


def _reading(
    candidate: _Candidate,
    rules: _Rules,
    hand: _Hand,
    free: int,
    start: int | None,
    phantoms: int = 0,
) -> tuple[Reading, list[Card]]:
    """The meld as check_meld reads it, and the natural cards still missing from it."""
    missing: list[Card] = []
    if candidate.kind is MeldKind.SET:
        rank = Rank(candidate.key)
        naturals: list[Card] = []
        declared: list[Card] = []
        for item, copies in candidate.uses:
            if item < _NATURALS:
                naturals += [_natural_of(item)] * copies
            else:
                declared += [hand.declared[item]] * copies
        used = {c.suit for c in naturals} | {
            c.stands_for.suit for c in declared if c.stands_for is not None
        }
        free_suits = [suit for suit in SUITS if suit not in used] or list(SUITS)
        for _ in range(phantoms):
            suit = free_suits.pop(0) if rules.distinct else _phantom_suit(rank, hand, missing)
            missing.append(Card(rank, suit))
        naturals = sorted(naturals + missing, key=lambda c: c.sort_key)
        used |= {c.suit for c in missing}
        free_suits = [suit for suit in SUITS if suit not in used] or list(SUITS)
        jokers = [Card(stands_for=Card(rank, free_suits[i % len(free_suits)])) for i in range(free)]
        return Reading(MeldKind.SET, tuple(naturals + declared + jokers)), missing
    suit = SUITS[candidate.key]
    length = candidate.fixed + free + phantoms
    window = _run_window(candidate, rules, length, start)
    by_place = {place: item for place, item in candidate.places}
    if rules.around:
        by_place = {(14 if 14 in window and p == 1 else p): i for p, i in by_place.items()}
    open_places = [place for place in window if place not in by_place]
    # Missing naturals take the gaps inside the run first, jokers the rest.
    inside = [p for p in open_places if min(by_place) < p < max(by_place)]
    outside = [p for p in open_places if p not in inside]
    missing_places = set((inside + outside)[:phantoms])
    cards: list[Card] = []
    for place in window:
        rank = Rank(1 if place == 14 else place)
        if place in by_place:
            item = by_place[place]
            cards.append(_natural_of(item) if item < _NATURALS else hand.declared[item])
        elif place in missing_places:
            natural = Card(rank, suit)
            missing.append(natural)
            cards.append(natural)
        else:
            cards.append(Card(stands_for=Card(rank, suit)))
    return Reading(MeldKind.RUN, tuple(cards), window), missing


def _phantom_suit(rank: Rank, hand: _Hand, missing: list[Card]) -> Suit:
    """The suit of a missing set card: the one the hand holds fewest copies of."""

    def held(suit: Suit) -> int:
        item = _item(SUITS.index(suit), int(rank))
        return hand.counts[item] + sum(1 for c in missing if c == Card(rank, suit))

    return min(SUITS, key=lambda suit: (held(suit), SUITS.index(suit)))


def _missing_cards(chosen: Sequence[_Candidate], hand: _Hand, rules: _Rules) -> list[Card] | None:
    """The natural cards the chosen melds lack, or None when they would not make a contract.

    Each meld takes its fewest fillers; missing naturals stand in where a joker may not
    (too many jokers, too few naturals) and where the hand's free jokers run out.
    """
    phantoms = [c.plow for c in chosen]
    fillers = [c.jmin - c.plow for c in chosen]
    short = sum(fillers) - hand.jokers
    for index in range(len(chosen)):
        if short <= 0:
            break
        moved = min(short, fillers[index])
        fillers[index] -= moved
        phantoms[index] += moved
        short -= moved
    missing: list[Card] = []
    runs: list[Reading] = []
    for index, candidate in enumerate(chosen):
        reading, cards = _reading(candidate, rules, hand, fillers[index], None, phantoms[index])
        missing += cards
        if reading.kind is MeldKind.RUN:
            runs.append(reading)
    decks = rules.variant.max_decks
    held = list(hand.counts)
    for card in missing:
        assert card.rank is not None and card.suit is not None
        item = _item(SUITS.index(card.suit), int(card.rank))
        held[item] += 1
        if held[item] > decks:
            return None
    # The runs of one contract must still differ where the variant asks it.
    for first, second in itertools.combinations(runs, 2):
        if first.suit is not second.suit or rules.runs_rule is ContractRuns.ANY:
            continue
        if rules.runs_rule is ContractRuns.DIFFERENT_SUITS or first.start == second.start:
            return None
    return missing


# -- the public call ---------------------------------------------------------------------------


def solve(hand: Sequence[Card], variant: Variant, round_number: int) -> Solution:
    """The melds that meet this round's contract leaving the least penalty in the hand.

    For a game without contracts (rummy) the round is ignored and any melds may be laid
    down. When the contract cannot be met, `melds` is empty, the whole hand is left over,
    and `missing` names the natural cards that would complete the nearest contract.
    Raises RoundError for a round the variant does not have.
    """
    if variant.has_contracts:
        contract = variant.contract_for(round_number)
        rules = _Rules(variant, contract.set_size, contract.run_size)
        slots = [MeldKind.SET] * contract.sets + [MeldKind.RUN] * contract.runs
    else:
        rules = _Rules(variant, variant.min_set_size, variant.min_run_size)
        slots = None
    counted = _Hand(hand, variant)
    weights = _item_weights(variant)
    search = _Search(counted, rules, weights, slots, 0)
    if slots is None:
        search.any_melds()
    else:
        search.contract()
    if search.best is None:
        missing: tuple[Card, ...] = ()
        if slots is not None:
            near = _Search(counted, rules, weights, slots, MAX_MISSING)
            near.nearest()
            if near.best is not None:
                found = _missing_cards(near.best, counted, rules)
                missing = tuple(sorted(found or (), key=lambda c: c.sort_key))
        cards = tuple(hand)
        return Solution(
            can_meet_contract=False,
            melds=(),
            leftover=cards,
            leftover_penalty=sum(variant.points_of(c) for c in cards),
            missing=missing,
        )
    melds, used, free = _melds(search.best, rules, counted)
    leftover = _leftover(hand, used, free)
    return Solution(
        can_meet_contract=True,
        melds=melds,
        leftover=leftover,
        leftover_penalty=sum(variant.points_of(c) for c in leftover),
    )


def _melds(
    chosen: Sequence[_Candidate], rules: _Rules, hand: _Hand
) -> tuple[tuple[Reading, ...], list[int], int]:
    """The readings, and what they take from the hand: items by count and free jokers."""
    filled = _fill(chosen, rules, hand.jokers)
    assert filled is not None
    amounts, starts = filled
    readings = [
        _reading(candidate, rules, hand, amounts[index], starts[index])[0]
        for index, candidate in enumerate(chosen)
    ]
    used = [0] * _ITEMS
    for candidate in chosen:
        for item, copies in candidate.uses:
            used[item] += copies
        for _, item in candidate.places:
            used[item] += 1
    return tuple(sorted(readings, key=_meld_order)), used, sum(amounts)


def _meld_order(reading: Reading) -> tuple[int, int, int, int]:
    if reading.kind is MeldKind.SET:
        return (0, int(reading.rank or 0), 0, 0)
    suit = reading.suit
    return (1, SUITS.index(suit) if suit is not None else 0, reading.start, len(reading.cards))


def _leftover(hand: Sequence[Card], used: list[int], free: int) -> tuple[Card, ...]:
    """The hand's cards not in a meld, in the hand's order."""
    leftover: list[Card] = []
    for card in hand:
        target = card if card.is_natural else card.stands_for
        if target is None:
            if free > 0:
                free -= 1
                continue
        else:
            assert target.rank is not None and target.suit is not None
            item = _item(SUITS.index(target.suit), int(target.rank))
            if card.is_joker:
                item += _NATURALS
            if used[item] > 0:
                used[item] -= 1
                continue
        leftover.append(card)
    return tuple(leftover)
