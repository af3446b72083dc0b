"""Melds: is a group of cards a set or a run, which card each joker stands for, and why not.

Glossary
--------
set       three or more cards of one rank ("Satz", "trinca", "set").
run       three or more consecutive cards of one suit ("Folge", "sequência", "reeks");
          the ace is low (A-2-3) or, where the variant allows, high (Q-K-A), never both.
contract  the sets and runs a round asks to be laid down in one turn.
lay-off   adding cards from the hand to a meld already on the table.
go out    getting rid of the last card, which ends the round.
buy       taking the top discard out of turn, with a penalty card from the stock.
joker swap  replacing a joker on the table by the natural card it stands for.
reading   one way a meld is valid: its kind, its cards in order, what each joker stands for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from .cards import SUITS, Card, Rank, Suit
from .errors import Violation
from .variants import AceRule, ShoeRule, Variant


class MeldKind(Enum):
    SET = "set"
    RUN = "run"


@dataclass(frozen=True)
class Reading:
    """One valid reading of a meld. Jokers in `cards` carry the card they stand for."""

    kind: MeldKind
    cards: tuple[Card, ...]  # a run from low to high; a set naturals first
    positions: tuple[int, ...] = ()  # a run's places: 1 (low ace) .. 13 (king), 14 (high ace)

    @property
    def jokers(self) -> tuple[tuple[Card, Card], ...]:
        """(joker, the card it stands for) pairs, in meld order."""
        return tuple((c.plain, c.stands_for) for c in self.cards if c.stands_for is not None)

    @property
    def effective(self) -> tuple[Card, ...]:
        """The natural card each card is or stands for."""
        return tuple(c.stands_for or c for c in self.cards)

    @property
    def suit(self) -> Suit | None:
        """The suit of a run."""
        if self.kind is not MeldKind.RUN:
            return None
        return self.effective[0].suit

    @property
    def rank(self) -> Rank | None:
        """The rank of a set."""
        if self.kind is not MeldKind.SET:
            return None
        return self.effective[0].rank

    @property
    def start(self) -> int:
        """A run's lowest place: 1 for a low ace, 2 for a two ... (0 for a set)."""
        return self.positions[0] if self.positions else 0


@dataclass(frozen=True)
class MeldVerdict:
    """The referee's answer about one meld."""

    cards: tuple[Card, ...]  # as given
    readings: tuple[Reading, ...]  # every way it is valid; empty when it is not
    violations: tuple[Violation, ...]  # why it is not valid (empty when valid)

    @property
    def valid(self) -> bool:
        return bool(self.readings)

    @property
    def reading(self) -> Reading | None:
        return self.readings[0] if self.readings else None

    @property
    def kind(self) -> MeldKind | None:
        return self.readings[0].kind if self.readings else None

    @property
    def ambiguous(self) -> bool:
        """More than one reading fits (the jokers could stand for different cards)."""
        return len(self.readings) > 1

    @property
    def ordered(self) -> tuple[Card, ...]:
        """The cards in meld order (a run from low to high), or as given when invalid."""
        return self.readings[0].cards if self.readings else self.cards


def check_meld(
    cards: Sequence[Card],
    variant: Variant,
    *,
    kind: MeldKind | None = None,
    min_set_size: int | None = None,
    min_run_size: int | None = None,
    shoe: ShoeRule | None = None,
    undeclared_ok: bool = False,
) -> MeldVerdict:
    """Every valid reading of `cards` as a meld under `variant`, or every reason it fails.

    `kind` restricts the answer to sets or runs; the sizes default to the variant's
    smallest meld (a contract passes its own). `shoe` is the table's (else the largest the
    variant allows). Where jokers are declared, a joker that could stand for two cards makes
    the meld invalid until it is declared; `undeclared_ok` leaves that to the caller (a
    contract decides it once its melds are read together).
    """
    cards = tuple(cards)
    set_min = variant.min_set_size if min_set_size is None else min_set_size
    run_min = variant.min_run_size if min_run_size is None else min_run_size
    problems = _card_problems(cards, variant, shoe)
    readings, shape = _readings(cards, variant, kind, set_min, run_min)
    if problems or not readings:
        return MeldVerdict(cards, (), tuple(_unique(problems + ([] if readings else shape))))
    if not undeclared_ok:
        undeclared = undeclared_joker(cards, readings, variant)
        if undeclared is not None:
            return MeldVerdict(cards, (), (undeclared,))
    return MeldVerdict(cards, tuple(readings), ())


def _card_problems(
    cards: tuple[Card, ...], variant: Variant, shoe: ShoeRule | None
) -> list[Violation]:
    """What is wrong with the cards whatever meld they make: the shoe, natural cards, jokers."""
    problems = shoe_violations(cards, variant, shoe)
    naturals = sum(1 for c in cards if c.is_natural)
    if naturals < variant.min_natural_cards:
        problems.append(Violation("no_natural_card", {"min": variant.min_natural_cards}))
    jokers = sum(1 for c in cards if c.is_joker)
    limit = variant.max_jokers_per_meld
    if limit is not None and jokers > limit:
        problems.append(Violation("too_many_jokers", {"count": jokers, "max": limit}))
    return problems


def _readings(
    cards: tuple[Card, ...], variant: Variant, kind: MeldKind | None, set_min: int, run_min: int
) -> tuple[list[Reading], list[Violation]]:
    """Every reading of `cards` as a set or a run of `kind`, and why the others fail."""
    naturals = [c for c in cards if c.is_natural]
    declared = [c.stands_for for c in cards if c.stands_for is not None]
    fixed = naturals + declared
    # The natural cards say what the meld is meant to be; declared jokers are then held to it.
    shaping = naturals or declared
    could_be_set = kind in (None, MeldKind.SET) and len({c.rank for c in shaping}) <= 1
    could_be_run = kind in (None, MeldKind.RUN) and len({c.suit for c in shaping}) <= 1
    readings: list[Reading] = []
    shape: list[Violation] = []
    if could_be_set:
        found, why = _set_readings(cards, fixed, variant, set_min)
        readings += found
        shape += why
    if could_be_run:
        found, why = _run_readings(cards, fixed, variant, run_min)
        readings += found
        shape += why
    if not could_be_set and not could_be_run:
        if kind is MeldKind.SET:
            shape.append(Violation("set_ranks_differ"))
        elif kind is MeldKind.RUN:
            shape.append(Violation("run_suits_differ"))
        else:
            shape.append(Violation("not_same_rank_or_suit"))
    return readings, shape


def undeclared_joker(
    cards: Sequence[Card], readings: Sequence[Reading], variant: Variant
) -> Violation | None:
    """Where jokers are declared: a joker given without its card that could stand for two.

    The violation names the cards it could be (``options``), so the table can say which. A
    set's joker counts only where the suits of a set must differ (elsewhere its suit changes
    nothing); free jokers are alike, so a set is a choice only with more open suits than
    free jokers.
    """
    free = sum(1 for c in cards if c.is_joker and c.stands_for is None)
    if not variant.jokers_declared or not free or not readings:
        return None
    declared = Counter(c.stands_for for c in cards if c.stands_for is not None)
    readings_seen: set[tuple[MeldKind, tuple[Card, ...]]] = set()
    open_choice = False
    options: list[Card] = []
    for reading in readings:
        assigned, could_be = _joker_cards(reading, declared, variant)
        # A set with more open suits than free jokers leaves the table a choice.
        open_choice = open_choice or (
            reading.kind is MeldKind.SET and len(could_be) > len(assigned)
        )
        options += could_be
        readings_seen.add((reading.kind, assigned))
    if len(readings_seen) < 2 and not open_choice:
        return None
    named = [str(card) for card in dict.fromkeys(options)]
    return Violation("joker_not_declared", {"options": named})


def _joker_cards(
    reading: Reading, declared: Counter[Card], variant: Variant
) -> tuple[tuple[Card, ...], list[Card]]:
    """The cards a reading gives the free jokers, and the cards they could be."""
    given = Counter(target for _joker, target in reading.jokers) - declared
    assigned = tuple(sorted(given.elements(), key=lambda c: c.sort_key))
    if reading.kind is MeldKind.RUN:
        return assigned, list(assigned)
    if not variant.set_suits_distinct:
        return (), []  # any suit will do: nothing to declare but the rank
    rank = reading.effective[0].rank
    taken = {c.suit for c in reading.effective} - {c.suit for c in assigned}
    return assigned, [Card(rank, suit) for suit in SUITS if suit not in taken]


def _unique(violations: list[Violation]) -> list[Violation]:
    seen: set[tuple[str, tuple[tuple[str, object], ...]]] = set()
    unique = []
    for v in violations:
        key = (v.code, tuple(sorted(v.params.items())))
        if key not in seen:
            seen.add(key)
            unique.append(v)
    return unique


def shoe_violations(
    cards: Sequence[Card], variant: Variant, shoe: ShoeRule | None = None
) -> list[Violation]:
    """Cards that cannot all be in the shoe at once: the table's `shoe`, else the largest."""
    decks = variant.max_decks if shoe is None else shoe.decks
    most_jokers = variant.max_jokers if shoe is None else shoe.jokers
    problems: list[Violation] = []
    jokers = sum(1 for c in cards if c.is_joker)
    if jokers and not most_jokers:
        problems.append(Violation("jokers_not_allowed"))
    elif jokers > most_jokers:
        problems.append(
            Violation("too_many_copies", {"card": "JK", "count": jokers, "max": most_jokers})
        )
    counts = Counter(c.plain for c in cards if c.is_natural)
    for natural, count in counts.items():
        if count > decks:
            problems.append(
                Violation("too_many_copies", {"card": str(natural), "count": count, "max": decks})
            )
    return problems


def _set_readings(
    cards: tuple[Card, ...], fixed: list[Card], variant: Variant, minimum: int
) -> tuple[list[Reading], list[Violation]]:
    why = _set_size_problems(len(cards), variant, minimum)
    if not fixed:
        return [], why  # nothing says which rank it is
    rank = fixed[0].rank
    assert rank is not None
    why += _mismatched_jokers(cards, lambda target: target.rank == rank)
    used = Counter(c.suit for c in fixed)
    if variant.set_suits_distinct:
        why += [
            Violation("set_suits_repeat", {"suit": suit.value})
            for suit, count in used.items()
            if count > 1 and suit is not None
        ]
        if len(cards) > len(SUITS) and not any(v.code == "set_too_large" for v in why):
            why.append(Violation("set_too_large", {"count": len(cards), "max": len(SUITS)}))
    if why:
        return [], why
    return [Reading(MeldKind.SET, _set_in_order(cards, rank, used))], []


def _set_size_problems(size: int, variant: Variant, minimum: int) -> list[Violation]:
    why: list[Violation] = []
    if size < minimum:
        why.append(Violation("too_few_cards", {"count": size, "min": minimum}))
    if variant.max_set_size is not None and size > variant.max_set_size:
        why.append(Violation("set_too_large", {"count": size, "max": variant.max_set_size}))
    return why


def _mismatched_jokers(cards: tuple[Card, ...], fits: Callable[[Card], bool]) -> list[Violation]:
    """Jokers declared as a card the meld cannot hold."""
    return [
        Violation("joker_declaration_mismatch", {"joker": str(c)})
        for c in cards
        if c.stands_for is not None and not fits(c.stands_for)
    ]


def _set_in_order(
    cards: tuple[Card, ...], rank: Rank, used: Counter[Suit | None]
) -> tuple[Card, ...]:
    """The set's natural cards, then its declared jokers, then its free jokers, which take the
    suits nobody holds yet (they matter where suits must differ)."""
    free_suits = [suit for suit in SUITS if suit not in used] or list(SUITS)
    ordered: list[Card] = sorted((c for c in cards if c.is_natural), key=lambda c: c.sort_key)
    ordered += [c for c in cards if c.stands_for is not None]
    for i, _ in enumerate(c for c in cards if c.is_joker and c.stands_for is None):
        suit = free_suits[i % len(free_suits)]
        ordered.append(Card(stands_for=Card(rank, suit)))
    return tuple(ordered)


def _run_readings(
    cards: tuple[Card, ...], fixed: list[Card], variant: Variant, minimum: int
) -> tuple[list[Reading], list[Violation]]:
    why: list[Violation] = []
    size = len(cards)
    if size < minimum:
        why.append(Violation("too_few_cards", {"count": size, "min": minimum}))
    longest = len(Rank)
    if size > longest:
        why.append(Violation("run_too_long", {"count": size, "max": longest}))
    if not fixed:
        return [], why
    suit = fixed[0].suit
    assert suit is not None
    why += _mismatched_jokers(cards, lambda target: target.suit is suit)
    ranks = Counter(c.rank for c in fixed)
    why += [
        Violation("run_ranks_repeat", {"rank": rank.letter})
        for rank, count in ranks.items()
        if count > 1 and rank is not None
    ]
    if why:
        return [], why
    readings = [
        reading
        for window in _windows(size, variant.aces, variant.around_the_corner)
        if (reading := _place(cards, window, suit)) is not None
    ]
    if readings:
        return readings, []
    return [], [_why_no_run(cards, fixed, variant, suit)]


def _why_no_run(
    cards: tuple[Card, ...], fixed: list[Card], variant: Variant, suit: Suit
) -> Violation:
    """Why no window fits the cards: the nearest rule they break."""
    size = len(cards)
    if variant.aces is AceRule.LOW_ONLY and any(
        _place(cards, w, suit) for w in _windows(size, AceRule.HIGH_OR_LOW, False)
    ):
        return Violation("ace_low_only")
    if not variant.around_the_corner and any(
        _place(cards, w, suit) for w in _windows(size, variant.aces, True)
    ):
        return Violation("run_around_the_corner")
    places = [int(c.rank) for c in fixed if c.rank is not None]
    free = sum(1 for c in cards if c.is_joker and c.stands_for is None)
    span = min(_span(places, high) for high in (False, True))
    return Violation("run_gap", {"missing": span - len(places) - free, "jokers": free})


def _span(places: list[int], ace_high: bool) -> int:
    moved = [14 if ace_high and p == 1 else p for p in places]
    return max(moved) - min(moved) + 1


def _windows(size: int, aces: AceRule, around: bool) -> list[tuple[int, ...]]:
    """Every run of `size` places a run may occupy, as places 1..14 (14 = a high ace)."""
    top = 14 if aces is AceRule.HIGH_OR_LOW else 13
    windows = [tuple(range(start, start + size)) for start in range(1, top - size + 2)]
    if around and size <= len(Rank):
        for start in range(top - size + 2, 14):
            window = tuple((start + i - 1) % 13 + 1 for i in range(size))
            if window not in windows:
                windows.append(window)
    return windows


def _place(cards: tuple[Card, ...], window: tuple[int, ...], suit: Suit) -> Reading | None:
    """The reading of `cards` as the run over `window`, or None when they don't fit it."""
    slots: dict[int, Card] = {}
    for c in cards:
        target = c.stands_for or c
        if target.rank is None:
            continue
        if target.suit is not suit:
            return None
        place = _place_of(int(target.rank), window)
        if place is None or place in slots:
            return None
        slots[place] = c
    free = iter(c for c in cards if c.is_joker and c.stands_for is None)
    ordered = []
    for place in window:
        if place not in slots:
            rank = Rank(1 if place == 14 else place)
            slots[place] = Card(stands_for=Card(rank, suit))
            next(free)
        ordered.append(slots[place])
    return Reading(MeldKind.RUN, tuple(ordered), window)


def _place_of(rank: int, window: tuple[int, ...]) -> int | None:
    if rank in window:
        return rank
    if rank == 1 and 14 in window:
        return 14
    return None
