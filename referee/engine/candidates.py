"""The solver's view of a hand: cards as counts, every meld they could make, and back to cards.

Only `solver` uses this module. A hand becomes counts of items (natural cards and jokers
declared as a card) plus a number of free jokers; a candidate meld is the items it takes
and the fewest and the most free jokers it can hold. Everything that depends only on the
variant and the contract's sizes (`Rules`) is worked out once and kept.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Final

from .cards import SUITS, Card, Rank, Suit
from .melds import MeldKind, Reading
from .variants import AceRule, ContractRuns, Variant

NATURALS: Final = 52  # item ids 0..51 are natural cards, 52..103 jokers declared as them
ITEMS: Final = 2 * NATURALS
UNLIMITED: Final = 1 << 30
LONGEST_RUN: Final = len(Rank)

# Counts packed into one integer, six bits an item with the top bit a guard: a meld's cards
# are all there when subtracting them borrows from no guard. One operation instead of a loop.
BITS: Final = 6
FIELD_MASK: Final = (1 << BITS) - 1  # counts stay below 32: 8 decks, 16 jokers at most
GUARDS: Final = sum(1 << (BITS * i + BITS - 1) for i in range(ITEMS))

_SUIT_INDEX: Final = {suit: index for index, suit in enumerate(SUITS)}
# The same by the member's identity: an Enum member's hash runs in Python, an int's does not
# (every card of every hand is looked up here; the members are singletons).
_SUIT_AT: Final = {id(suit): index for index, suit in enumerate(SUITS)}


def _pack_uses(uses: Sequence[tuple[int, int]]) -> int:
    return sum(copies << (BITS * item) for item, copies in uses)


def fits(packed: int, uses: int) -> bool:
    """Whether the packed counts hold every item of `uses`."""
    return ((packed | GUARDS) - uses) & GUARDS == GUARDS


def item_of(card: Card) -> int:
    """The item of a natural card, or of the card a joker stands for (as a natural)."""
    target = card.stands_for or card
    assert target.rank is not None and target.suit is not None
    return _SUIT_AT[id(target.suit)] * 13 + target.rank - 1


# Every natural card, and a joker standing for each, by item: made once (a Card is frozen).
_NATURAL_CARDS: Final = tuple(Card(Rank(n % 13 + 1), SUITS[n // 13]) for n in range(NATURALS))
_JOKERS_AS: Final = tuple(Card(stands_for=card) for card in _NATURAL_CARDS)


def natural_of(item: int) -> Card:
    return _NATURAL_CARDS[item % NATURALS]


def _card(rank: int, suit_index: int) -> Card:
    return _NATURAL_CARDS[suit_index * 13 + rank - 1]


def _joker_as(rank: int, suit_index: int) -> Card:
    return _JOKERS_AS[suit_index * 13 + rank - 1]


def weight(points: int) -> int:
    # Points first, then one for the card itself: equal penalties prefer melding more cards.
    return points * 1024 + 1


class Candidate:
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
        "starts",
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
        jokers: tuple[int, int, int],
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
        # fewest and most free jokers, and the missing naturals it needs at least (0 in a
        # normal search)
        self.jmin, self.jcap, self.plow = jokers
        self.order = 0
        self.packed = _pack_uses(uses) if packed is None else packed
        self.starts: dict[int, tuple[int, int]] | None = None  # a run's, once asked for

    def sort_key(self) -> tuple[int, int, int, int, int]:
        return (-self.weight, self.plow, self.jmin, self.key, self.packed)

    @property
    def place_mask(self) -> int:
        mask = 0
        for place, _ in self.places:
            mask |= 1 << place
        return mask

    def run_starts(self, rules: Rules) -> dict[int, tuple[int, int]]:
        """For each start the run may take: the fewest and the most free jokers it then needs."""
        if self.starts is None:
            mask = self.place_mask
            starts: dict[int, tuple[int, int]] = {}
            for start, window_mask, window in rules.windows:
                if mask & ~window_mask:
                    continue
                jokers = len(window) - self.fixed
                low, high = starts.get(start, (jokers, jokers))
                starts[start] = (min(low, jokers), max(high, jokers))
            cap = rules.max_jokers - self.decl
            self.starts = {
                start: (low, min(high, cap))
                for start, (low, high) in sorted(starts.items())
                if low <= cap
            }
        return self.starts

    def items(self) -> Iterator[tuple[int, int]]:
        """(item, copies) of everything it takes from the hand."""
        yield from self.uses
        for _, item in self.places:
            yield item, 1


# -- what the search knows of a variant and a round --------------------------------------------

Window = tuple[int, int, tuple[int, ...]]


class Rules:
    """What the search needs to know of the variant and the round, worked out once."""

    def __init__(self, variant: Variant, set_size: int, run_size: int) -> None:
        self.set_size = set_size
        self.run_size = run_size
        self.min_natural = variant.min_natural_cards
        self.max_jokers = (
            UNLIMITED if variant.max_jokers_per_meld is None else variant.max_jokers_per_meld
        )
        distinct = variant.set_suits_distinct
        size = UNLIMITED if variant.max_set_size is None else variant.max_set_size
        self.max_set = min(size, len(SUITS)) if distinct else size
        self.distinct = distinct
        self.around = variant.around_the_corner
        self.top = 14 if variant.aces is AceRule.HIGH_OR_LOW else 13
        self.runs_rule = variant.contract_runs
        self.distinct_set_ranks = variant.distinct_set_ranks
        self.decks = variant.max_decks
        self.jokers = variant.max_jokers if variant.uses_jokers else 0  # at most, in the shoe
        self.rank_points = variant.rank_points
        self.joker_points = variant.joker_points
        self.windows = _windows(self.top, self.around, run_size)
        self.windows_of: dict[int, list[Window]] = {}  # by length
        for window in self.windows:
            self.windows_of.setdefault(len(window[2]), []).append(window)
        self.joker_weight = weight(variant.joker_points)
        self.weights = [0] * ITEMS
        for item in range(NATURALS):
            self.weights[item] = weight(variant.rank_points[item % 13])
            self.weights[NATURALS + item] = self.joker_weight
        self.rank_items = [[_item(suit, rank) for suit in range(len(SUITS))] for rank in range(14)]
        # A run's offers by suit: (place, natural item) low to high.
        last_place = 13 if self.around else self.top
        self.places = [
            [(p, _item(suit, 1 if p == 14 else p)) for p in range(1, last_place + 1)]
            for suit in range(len(SUITS))
        ]
        # For `cannot_meet`: the places of a rank (an ace is low and high where it may be), and
        # the places of every window of `run_size`, each as a mask of places.
        self.rank_places = [0] + [1 << rank for rank in range(1, 14)]
        if self.top == 14 and not self.around:
            self.rank_places[1] |= 1 << 14
        self.run_masks = [mask for _, mask, window in self.windows if len(window) == run_size]
        self.widest: dict[int, int] = {}  # places held -> the most in one window (filled as met)


_RULES: dict[tuple[object, ...], Rules] = {}
_RULES_KEPT: Final = 256


_LAST: list[tuple[Variant, int, int, Rules]] = []  # the variants asked for last, by identity


def rules_for(variant: Variant, set_size: int, run_size: int) -> Rules:
    """The Rules of these meld rules and sizes, built once (house rules make few variants)."""
    for known, sets, runs, rules in _LAST:
        if known is variant and sets == set_size and runs == run_size:
            return rules
    rules = _rules_by_fields(variant, set_size, run_size)
    _LAST.insert(0, (variant, set_size, run_size, rules))
    del _LAST[_LAST_KEPT:]
    return rules


_LAST_KEPT: Final = 16


def _rules_by_fields(variant: Variant, set_size: int, run_size: int) -> Rules:
    key = (
        set_size,
        run_size,
        variant.min_natural_cards,
        variant.max_jokers_per_meld,
        variant.set_suits_distinct,
        variant.max_set_size,
        variant.around_the_corner,
        variant.aces,
        variant.contract_runs,
        variant.distinct_set_ranks,
        variant.played_shoes,  # the decks and jokers the search may use
        variant.joker_points,
        variant.rank_points,
    )
    rules = _RULES.get(key)
    if rules is None:
        if len(_RULES) >= _RULES_KEPT:
            _RULES.clear()
        rules = _RULES[key] = Rules(variant, set_size, run_size)
    return rules


def _item(suit_index: int, rank: int) -> int:
    return suit_index * 13 + rank - 1


def _windows(top: int, around: bool, minimum: int) -> list[Window]:
    """Every place a run may occupy: (start, mask of places, places); as melds.py reads runs."""
    found: list[Window] = []
    seen: set[tuple[int, ...]] = set()
    for size in range(max(minimum, 1), LONGEST_RUN + 1):
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


class Hand:
    """The usable part of a hand as counts, and what the shoe would not allow."""

    def __init__(self, hand: Sequence[Card], rules: Rules) -> None:
        self.cards = tuple(hand)
        counts = [0] * ITEMS
        jokers: list[Card] = []
        decks = rules.decks
        rank_points = rules.rank_points
        points = 0
        touched: list[int] = []
        for card in self.cards:
            rank = card.rank
            if rank is None:
                jokers.append(card)
                continue
            points += rank_points[rank - 1]
            item = _SUIT_AT[id(card.suit)] * 13 + rank - 1
            if counts[item] < decks:
                if not counts[item]:
                    touched.append(item)
                counts[item] += 1
        self.points = points + len(jokers) * rules.joker_points  # the whole hand's penalty
        if len(jokers) > rules.jokers:
            # Free jokers first, so a shoe limit leaves the declarations unused.
            jokers.sort(key=_joker_order)
            del jokers[rules.jokers :]
        self.declared: dict[int, Card] = {}
        free = 0
        for card in jokers:
            if card.stands_for is None:
                free += 1
            else:
                item = NATURALS + item_of(card)
                if not counts[item]:
                    touched.append(item)
                counts[item] += 1
                self.declared[item] = card
        self.counts = counts
        self.jokers = free
        self.held = [(item, counts[item]) for item in sorted(touched)]
        self.weight = sum(rules.weights[item] * count for item, count in self.held)
        self.packed = sum(count << (BITS * item) for item, count in self.held)
        self.size = sum(count for _, count in self.held)
        # Fixed cards by suit: a suit with too few holds no run.
        self.by_suit = [0] * len(SUITS)
        for item, count in self.held:
            self.by_suit[item % NATURALS // 13] += count


def cannot_meet(hand: Hand, rules: Rules, sets: int, runs: int) -> bool:
    """True when the hand surely cannot lay down `sets` sets and `runs` runs: even taking each
    meld on its own, the free jokers are too few. A relaxation of the search (it ignores that
    melds share cards, and every rule but sizes and suits), so it never says so of a hand that
    could: it only spares the search the hands that are far off, most of a random deal.

    Each set of a rank needs a fixed card of that rank, and k sets of a rank with h fixed cards
    need k x set_size - h fillers at least (each one more, no fewer than the one before: the
    cheapest `sets` of them all are the least); a run needs run_size less the most places any
    window of its suit holds, and k runs of a suit with g fixed cards k x run_size - g."""
    by_rank = [0] * 14
    places = [0] * len(SUITS)
    rank_places = rules.rank_places
    for item, count in hand.held:
        natural = item % NATURALS
        rank = natural % 13 + 1
        by_rank[rank] += count
        places[natural // 13] |= rank_places[rank]
    jokers = hand.jokers
    need = _least_sets(by_rank, rules.set_size, sets) if sets else 0
    if need > jokers or not runs:
        return need > jokers
    return need + _least_runs(hand.by_suit, places, rules, runs) > jokers


def _least_sets(by_rank: list[int], size: int, sets: int) -> int:
    extra: list[int] = []  # the fillers each set more of a rank needs, over every rank
    for held in by_rank:
        if held:
            before = 0
            for k in range(1, min(held, sets) + 1):
                cost = k * size - held
                if cost > 0:
                    extra.append(cost - before)
                    before = cost
                else:
                    extra.append(0)
    if len(extra) < sets:
        return UNLIMITED
    extra.sort()
    return sum(extra[:sets])


def _least_runs(by_suit: list[int], places: list[int], rules: Rules, runs: int) -> int:
    size = rules.run_size
    most = 1 if rules.runs_rule is ContractRuns.DIFFERENT_SUITS else runs
    widest = rules.widest
    best = [0] + [UNLIMITED] * runs  # the fewest fillers for so many runs, suit by suit
    for suit, held in enumerate(by_suit):
        if not held:
            continue
        taken = places[suit]
        room = widest.get(taken)
        if room is None:
            room = widest[taken] = max((taken & mask).bit_count() for mask in rules.run_masks)
        costs = [0, max(0, size - room)]
        for k in range(2, min(held, most) + 1):
            costs.append(max(costs[-1], k * size - held))
        for total in range(runs, 0, -1):
            for k in range(1, min(total, len(costs) - 1) + 1):
                if best[total - k] + costs[k] < best[total]:
                    best[total] = best[total - k] + costs[k]
    return best[runs]


def _joker_order(card: Card) -> tuple[int, int]:
    return card.stands_for.sort_key if card.stands_for is not None else (-1, 0)


# -- candidates --------------------------------------------------------------------------------

# A suit's share of a set: (uses, naturals, declared, weight, packed).
_Option = tuple[tuple[tuple[int, int], ...], int, int, int, int]


def set_candidates(hand: Hand, rules: Rules, slack: int) -> Iterator[Candidate | None]:
    """Every set the hand could lay down: each rank's choices of copies per suit (None for a
    choice that makes no set, so that the caller can count the work)."""
    counts = hand.counts
    jokers = hand.jokers
    reach = jokers + slack
    for rank in range(1, 14):
        items = rules.rank_items[rank]
        naturals = declared = held = 0
        for item in items:
            natural, joker = counts[item], counts[NATURALS + item]
            naturals += natural
            declared += joker
            held += 1 if rules.distinct and natural + joker else 0
        held = held if rules.distinct else naturals + declared
        # Even all of this rank would need more fillers, or more naturals, than there are.
        if held == 0 or rules.set_size - min(held, rules.max_set) > reach:
            continue
        if rules.min_natural - naturals > slack:
            continue
        # A suit the hand holds none of offers only "none": it changes no combination.
        per_suit = [
            _suit_options(counts, item, rules)
            for item in items
            if counts[item] or counts[NATURALS + item]
        ]
        for combination in itertools.product(*per_suit):
            yield _set_candidate(rank, combination, rules, jokers, slack)


def _suit_options(counts: list[int], item: int, rules: Rules) -> list[_Option]:
    naturals, declared = counts[item], counts[NATURALS + item]
    weights = rules.weights
    options: list[_Option] = []
    for n in range(naturals + 1):
        for d in range(declared + 1):
            if rules.distinct and n + d > 1:
                continue
            uses: tuple[tuple[int, int], ...] = ((item, n),) if n else ()
            if d:
                uses += ((NATURALS + item, d),)
            worth = weights[item] * n + weights[NATURALS + item] * d
            packed = (n << (BITS * item)) + (d << (BITS * (NATURALS + item)))
            options.append((uses, n, d, worth, packed))
    return options


def _set_candidate(
    rank: int, combination: Sequence[_Option], rules: Rules, jokers: int, slack: int
) -> Candidate | None:
    nat = decl = 0
    for option in combination:
        nat += option[1]
        decl += option[2]
    fixed = nat + decl
    if fixed == 0 or fixed > rules.max_set or decl > rules.max_jokers:
        return None
    jmin = max(0, rules.set_size - fixed)
    room = rules.max_set - fixed if rules.max_set < UNLIMITED else UNLIMITED
    jcap = min(room, rules.max_jokers - decl)
    plow = max(0, rules.min_natural - nat, jmin - (rules.max_jokers - decl))
    if plow > slack or (plow > jmin and plow > 0) or jmin > jokers + slack or jmin > room:
        return None
    taken: tuple[tuple[int, int], ...] = ()
    worth = packed = 0
    for uses, _, _, weight, bits in combination:
        taken += uses
        worth += weight
        packed += bits
    return Candidate(MeldKind.SET, rank, taken, (), worth, nat, decl, (jmin, jcap, plow), packed)


_Subset = tuple[tuple[tuple[int, int], ...], int, int, int, int]


def run_candidates(hand: Hand, rules: Rules, slack: int, room: int) -> Iterator[Candidate | None]:
    """Every run the hand could lay down: each suit's choices of places, gaps for fillers
    (None for a choice that makes no run, so that the caller can count the work).

    The suits take turns; where a suit's choices could outgrow the `room` the caller has
    for them, runs with fewer gaps come first: when a budget cuts the list short, what is
    kept are the likeliest runs of every suit.
    """
    fillers = hand.jokers + slack
    offered = [offers for offers in _run_offers(hand, rules, slack)]
    crowded = room // max(1, sum(1 for offers in offered if offers))
    suits = [
        _suit_runs(suit_index, offers, rules, (fillers, slack), crowded)
        for suit_index, offers in enumerate(offered)
        if offers
    ]
    while suits:
        for runs in list(suits):
            turn = list(itertools.islice(runs, _TURN))
            if len(turn) < _TURN:
                suits.remove(runs)
            yield from turn


_TURN: Final = 64  # choices a suit makes before the next suit's turn


def _run_offers(hand: Hand, rules: Rules, slack: int) -> Iterator[list[tuple[int, int]]]:
    """Each suit's (place, item) choices, low to high (a place may offer a natural and a
    declared joker); empty for a suit that holds too few cards for a run."""
    counts = hand.counts
    fillers = hand.jokers + slack
    for suit_index in range(len(SUITS)):
        offers: list[tuple[int, int]] = []
        if hand.by_suit[suit_index] + fillers < rules.run_size:
            yield offers
            continue
        naturals = 0
        for place, item in rules.places[suit_index]:
            if counts[item]:
                offers.append((place, item))
                naturals += 1
            if counts[NATURALS + item]:
                offers.append((place, NATURALS + item))
        if len(offers) + fillers < rules.run_size or rules.min_natural - naturals > slack:
            offers = []
        yield offers


def _suit_runs(
    suit_index: int,
    offers: list[tuple[int, int]],
    rules: Rules,
    reach: tuple[int, int],
    room: int,
) -> Iterator[Candidate | None]:
    fillers, slack = reach
    subsets: Iterator[_Subset | None]
    if rules.around:
        subsets = _cyclic_subsets(offers, rules.weights, fillers)
    elif 1 << min(len(offers), LONGEST_RUN + 1) <= room:  # at most that many choices
        subsets = _linear_subsets(offers, rules.weights, fillers, 0)
    else:
        subsets = (
            subset
            for gaps in range(fillers + 1)
            for subset in _linear_subsets(offers, rules.weights, gaps, gaps)
        )
    size = rules.run_size
    for subset in subsets:
        # Too short for the fillers there are (most choices of one or two cards): no run.
        if subset is None or (size if size > subset[1] else subset[1]) - len(subset[0]) > fillers:
            yield None
        else:
            yield _run_candidate(suit_index, subset, rules, fillers, slack)


def _run_candidate(
    suit_index: int, subset: _Subset, rules: Rules, fillers: int, slack: int
) -> Candidate | None:
    chosen, span, nat, worth, packed = subset
    size = len(chosen)
    decl = size - nat
    max_jokers = rules.max_jokers
    if decl > max_jokers:
        return None
    jmin = (rules.run_size if rules.run_size > span else span) - size
    jcap = min(LONGEST_RUN - size, max_jokers - decl)
    plow = max(0, rules.min_natural - nat, jmin - (max_jokers - decl))
    if plow > slack or (plow > jmin and plow > 0) or jmin > fillers or jcap < 0:
        return None
    return Candidate(
        MeldKind.RUN, suit_index, (), chosen, worth, nat, decl, (jmin, jcap, plow), packed
    )


def _linear_subsets(
    offers: list[tuple[int, int]], weights: list[int], fillers: int, least: int
) -> Iterator[_Subset | None]:
    """Choices of places (at most one item a place) with `least` to `fillers` gaps:
    (chosen, span, naturals, weight, packed), each extended in place order (depth first);
    None for a choice with fewer gaps, passed on the way."""
    count = len(offers)
    bits = [1 << (BITS * item) for _, item in offers]
    # (chosen, low place, high place, next offer, gaps, naturals, weight, packed)
    stack: list[tuple[tuple[tuple[int, int], ...], int, int, int, int, int, int, int]] = [
        (
            (offer,),
            offer[0],
            offer[0],
            i + 1,
            0,
            int(offer[1] < NATURALS),
            weights[offer[1]],
            bits[i],
        )
        for i, offer in reversed(list(enumerate(offers)))
    ]
    while stack:
        chosen, low, high, after, gaps, nat, worth, packed = stack.pop()
        yield (chosen, high - low + 1, nat, worth, packed) if gaps >= least else None
        longer: list[tuple[tuple[tuple[int, int], ...], int, int, int, int, int, int, int]] = []
        for index in range(after, count):
            place, item = offers[index]
            if place == high:
                continue
            more = gaps + place - high - 1
            if more > fillers or place - low >= LONGEST_RUN:
                break
            longer.append(
                (
                    (*chosen, offers[index]),
                    low,
                    place,
                    index + 1,
                    more,
                    nat + (item < NATURALS),
                    worth + weights[item],
                    packed + bits[index],
                )
            )
        stack.extend(reversed(longer))


def _cyclic_subsets(
    offers: list[tuple[int, int]], weights: list[int], fillers: int
) -> Iterator[_Subset | None]:
    """Around the corner: any places that fit in one arc of the 13 ranks (None: not one)."""
    for size in range(1, len(offers) + 1):
        for chosen in itertools.combinations(offers, size):
            places = [place for place, _ in chosen]
            if len(set(places)) != len(places):
                yield None
                continue
            gaps = [b - a for a, b in itertools.pairwise(places)] + [places[0] + 13 - places[-1]]
            span = 13 - max(gaps) + 1
            if span - len(places) > fillers:
                yield None
                continue
            nat = sum(1 for _, item in chosen if item < NATURALS)
            worth = sum(weights[item] for _, item in chosen)
            yield chosen, span, nat, worth, _pack_uses([(item, 1) for _, item in chosen])


# -- from the chosen melds back to cards -------------------------------------------------------


def run_window(
    candidate: Candidate, rules: Rules, length: int, start: int | None
) -> tuple[int, ...]:
    mask = candidate.place_mask
    low_place = candidate.places[0][0]
    best: tuple[int, ...] | None = None
    for window_start, window_mask, window in rules.windows_of.get(length, ()):
        if mask & ~window_mask:
            continue
        if start is not None and window_start != start:
            continue
        # Prefer the window that keeps the run's own low card at its start, then the lowest.
        if best is None or (window_start == low_place and best[0] != low_place):
            best = window
    assert best is not None
    return best


def reading_of(
    candidate: Candidate,
    rules: Rules,
    hand: Hand,
    free: int,
    start: int | None,
    phantoms: int = 0,
) -> tuple[Reading, list[Card]]:
    """The meld as check_meld reads it, and the natural cards still missing from it."""
    if candidate.kind is MeldKind.SET:
        return _set_reading(candidate, rules, hand, free, phantoms)
    return _run_reading(candidate, rules, hand, free, start, phantoms)


def _set_reading(
    candidate: Candidate, rules: Rules, hand: Hand, free: int, phantoms: int
) -> tuple[Reading, list[Card]]:
    # Suits by index here: an Enum member's hash runs in Python, and this is every answer.
    missing: list[Card] = []
    rank = candidate.key
    naturals: list[Card] = []
    declared: list[Card] = []
    used = [False] * len(SUITS)
    for item, copies in candidate.uses:
        if item < NATURALS:
            naturals += [_NATURAL_CARDS[item]] * copies
        else:
            declared += [hand.declared[item]] * copies
        used[item % NATURALS // 13] = True
    if phantoms:
        free_suits = [i for i, taken in enumerate(used) if not taken] or list(range(len(SUITS)))
        for _ in range(phantoms):
            if rules.distinct:
                suit = free_suits.pop(0)
            else:
                suit = SUITS.index(_phantom_suit(Rank(rank), hand, missing))
            missing.append(_card(rank, suit))
            used[suit] = True
        naturals = sorted(naturals + missing, key=lambda c: c.sort_key)
    else:
        naturals.sort(key=lambda c: c.sort_key)
    free_suits = [i for i, taken in enumerate(used) if not taken] or list(range(len(SUITS)))
    jokers = [_joker_as(rank, free_suits[i % len(free_suits)]) for i in range(free)]
    return Reading(MeldKind.SET, tuple(naturals + declared + jokers)), missing


def _run_reading(
    candidate: Candidate, rules: Rules, hand: Hand, free: int, start: int | None, phantoms: int
) -> tuple[Reading, list[Card]]:
    missing: list[Card] = []
    suit = candidate.key
    length = candidate.fixed + free + phantoms
    window = run_window(candidate, rules, length, start)
    by_place = {place: item for place, item in candidate.places}
    if rules.around:
        by_place = {(14 if 14 in window and p == 1 else p): i for p, i in by_place.items()}
    open_places = [place for place in window if place not in by_place]
    # Missing naturals take the gaps inside the run first, jokers the rest.
    low, high = min(by_place), max(by_place)
    inside = [p for p in open_places if low < p < high]
    outside = [p for p in open_places if p not in inside]
    missing_places = set((inside + outside)[:phantoms])
    cards: list[Card] = []
    for place in window:
        rank = 1 if place == 14 else place
        if place in by_place:
            item = by_place[place]
            cards.append(natural_of(item) if item < NATURALS else hand.declared[item])
        elif place in missing_places:
            natural = _card(rank, suit)
            missing.append(natural)
            cards.append(natural)
        else:
            cards.append(_joker_as(rank, suit))
    return Reading(MeldKind.RUN, tuple(cards), window), missing


def _phantom_suit(rank: Rank, hand: Hand, missing: list[Card]) -> Suit:
    """The suit of a missing set card: the one the hand holds fewest copies of."""

    def held(suit: Suit) -> int:
        item = _item(SUITS.index(suit), int(rank))
        return hand.counts[item] + sum(1 for c in missing if c == Card(rank, suit))

    return min(SUITS, key=lambda suit: (held(suit), SUITS.index(suit)))


def missing_cards(chosen: Sequence[Candidate], hand: Hand, rules: Rules) -> list[Card] | None:
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
        reading, cards = reading_of(candidate, rules, hand, fillers[index], None, phantoms[index])
        missing += cards
        if reading.kind is MeldKind.RUN:
            runs.append(reading)
    held = list(hand.counts)
    for card in missing:
        item = item_of(card)
        held[item] += 1
        if held[item] > rules.decks:
            return None
    return missing if _runs_may_differ(runs, rules) else None


def _runs_may_differ(runs: Sequence[Reading], rules: Rules) -> bool:
    """The runs of one contract still differ where the variant asks it."""
    if rules.runs_rule is ContractRuns.ANY:
        return True
    for first, second in itertools.combinations(runs, 2):
        if first.suit is not second.suit:
            continue
        if rules.runs_rule is ContractRuns.DIFFERENT_SUITS or first.start == second.start:
            return False
    return True


def leftover_of(hand: Sequence[Card], used: list[int], free: int) -> tuple[Card, ...]:
    """The hand's cards not in a meld, in the hand's order."""
    leftover: list[Card] = []
    for card in hand:
        if card.rank is None and card.stands_for is None:
            if free > 0:
                free -= 1
                continue
        else:
            item = item_of(card) + (NATURALS if card.rank is None else 0)
            if used[item] > 0:
                used[item] -= 1
                continue
        leftover.append(card)
    return tuple(leftover)
