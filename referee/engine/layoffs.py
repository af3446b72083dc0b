"""Lay-offs onto a meld on the table, and joker swaps out of one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .errors import Violation
from .melds import MeldKind, MeldVerdict, Reading, check_meld
from .variants import Variant


@dataclass(frozen=True)
class LayoffVerdict:
    """Whether cards may be added to a meld, and the meld they make."""

    meld: MeldVerdict  # the extended meld
    violations: tuple[Violation, ...]

    @property
    def valid(self) -> bool:
        return not self.violations


def check_layoff(meld: Sequence[Card], cards: Sequence[Card], variant: Variant) -> LayoffVerdict:
    """Check laying `cards` off onto `meld` (at either end of a run, or onto a set).

    The meld keeps its kind, and a joker already in a run keeps the card it stands for.
    """
    table = check_meld(meld, variant)
    combined = tuple(meld) + tuple(cards)
    if not table.valid:
        return LayoffVerdict(MeldVerdict(combined, (), ()), table.violations)
    if not cards:
        nothing = (Violation("nothing_to_lay_off"),)
        return LayoffVerdict(MeldVerdict(combined, (), nothing), nothing)
    readings: list[Reading] = []
    for reading in table.readings:
        pinned = _pinned(reading, tuple(meld)) + tuple(cards)
        for found in check_meld(pinned, variant, kind=reading.kind).readings:
            if found not in readings:
                readings.append(found)
    if readings:
        return LayoffVerdict(MeldVerdict(combined, tuple(readings), ()), ())
    kinds = {reading.kind for reading in table.readings}
    loose = [check_meld(combined, variant, kind=kind) for kind in sorted(kinds, key=_kind_order)]
    if any(v.valid for v in loose):
        # It would be a meld, but only if a joker on the table moved.
        why: tuple[Violation, ...] = (Violation("layoff_changes_meld"),)
    else:
        why = loose[0].violations
    return LayoffVerdict(MeldVerdict(combined, (), why), why)


def _kind_order(kind: MeldKind) -> int:
    return 0 if kind is MeldKind.RUN else 1


def _pinned(reading: Reading, given: tuple[Card, ...]) -> tuple[Card, ...]:
    """The meld with each run joker declared as what it stands for in this reading.

    A set's joker stands for its rank alone; its suit stays open unless it was declared.
    """
    return reading.cards if reading.kind is MeldKind.RUN else given


@dataclass(frozen=True)
class SwapVerdict:
    """Whether a natural card may take a joker's place in a meld, freeing the joker."""

    meld: MeldVerdict  # the meld after the swap
    joker_as: Card | None  # what the freed joker stood for
    violations: tuple[Violation, ...]

    @property
    def valid(self) -> bool:
        return not self.violations


def check_joker_swap(meld: Sequence[Card], card: Card, variant: Variant) -> SwapVerdict:
    """Check replacing a joker in `meld` by the natural `card` it stands for."""
    table = check_meld(meld, variant)
    given = tuple(meld)
    if not table.valid:
        return SwapVerdict(MeldVerdict(given, (), ()), None, table.violations)
    if not any(c.is_joker for c in given):
        return _refused(given, Violation("no_joker_to_swap"))
    if card.is_joker:
        return _refused(given, Violation("swap_card_does_not_fit", {"card": str(card.plain)}))
    refusal: Violation | None = None
    for reading in table.readings:
        if reading.kind is MeldKind.RUN and not variant.joker_swap_runs:
            refusal = refusal or Violation("joker_swap_not_allowed", {"kind": "run"})
            continue
        if reading.kind is MeldKind.SET and not variant.joker_swap_sets:
            refusal = refusal or Violation("joker_swap_in_set")
            continue
        for index, held in enumerate(reading.cards):
            target = held.stands_for
            if target is None or not _fits(target, card, reading):
                continue
            swapped = (*reading.cards[:index], card, *reading.cards[index + 1 :])
            if reading.kind is MeldKind.SET:
                swapped = tuple(c.plain for c in swapped)
            after = check_meld(swapped, variant)
            kept = tuple(r for r in after.readings if r.kind is reading.kind)
            if kept:
                # A set's joker stood for its rank; the card that replaces it names the suit.
                freed = target if reading.kind is MeldKind.RUN else card
                return SwapVerdict(MeldVerdict(after.cards, kept, ()), freed, ())
    return _refused(given, refusal or Violation("swap_card_does_not_fit", {"card": str(card)}))


def _fits(target: Card, card: Card, reading: Reading) -> bool:
    if reading.kind is MeldKind.RUN:
        return target == card
    return target.rank == card.rank


def _refused(given: tuple[Card, ...], why: Violation) -> SwapVerdict:
    return SwapVerdict(MeldVerdict(given, (), (why,)), None, (why,))
