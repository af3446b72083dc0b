"""Lay-offs onto a meld on the table, and joker swaps out of one, and when a player may.

A check may be told when the player's own contract went down (`ContractDown`); where the
timing matters and it is not told, the verdict carries the condition instead
(``conditions``: valid once your contract is down, from your next turn...).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .cards import Card
from .errors import Violation
from .melds import MeldKind, MeldVerdict, Reading, check_meld
from .variants import ContractDown, ShoeRule, Variant


@dataclass(frozen=True)
class LayoffVerdict:
    """Whether cards may be added to a meld, and the meld they make."""

    meld: MeldVerdict  # the extended meld
    violations: tuple[Violation, ...]
    conditions: tuple[Violation, ...] = ()  # what must hold as well, where it was not told

    @property
    def valid(self) -> bool:
        return not self.violations


def check_layoff(
    meld: Sequence[Card],
    cards: Sequence[Card],
    variant: Variant,
    *,
    contract_down: ContractDown | None = None,
    shoe: ShoeRule | None = None,
) -> LayoffVerdict:
    """Check laying `cards` off onto `meld` (at either end of a run, or onto a set).

    The meld keeps its kind, and a joker already in a run keeps the card it stands for.
    `contract_down` says when the player's own contract went down; `shoe` is the table's.
    """
    table = check_meld(meld, variant, shoe=shoe)
    combined = tuple(meld) + tuple(cards)
    if not table.valid:
        return LayoffVerdict(MeldVerdict(combined, (), ()), table.violations)
    if not cards:
        nothing = (Violation("nothing_to_lay_off"),)
        return LayoffVerdict(MeldVerdict(combined, (), nothing), nothing)
    late, conditions = _layoff_timing(variant, contract_down)
    readings: list[Reading] = []
    for reading in table.readings:
        pinned = _pinned(reading, tuple(meld)) + tuple(cards)
        for found in check_meld(pinned, variant, kind=reading.kind, shoe=shoe).readings:
            if found not in readings:
                readings.append(found)
    if readings:
        return LayoffVerdict(
            MeldVerdict(combined, tuple(readings), ()), late, () if late else conditions
        )
    kinds = {reading.kind for reading in table.readings}
    loose = [
        check_meld(combined, variant, kind=kind, shoe=shoe)
        for kind in sorted(kinds, key=_kind_order)
    ]
    if any(v.valid for v in loose):
        # It would be a meld, but only if a joker on the table moved.
        why: tuple[Violation, ...] = (Violation("layoff_changes_meld"),)
    else:
        why = loose[0].violations
    return LayoffVerdict(MeldVerdict(combined, (), why), why + late)


def layoff_waits_for_contract(variant: Variant) -> bool:
    """Whether a lay-off depends on when the player's own contract went down."""
    return variant.layoff_after_contract and variant.has_contracts


def swap_waits_for_contract(variant: Variant) -> bool:
    """Whether a joker swap depends on when the player's own contract went down."""
    return variant.joker_swap_after_contract and variant.has_contracts


def _layoff_timing(
    variant: Variant, contract_down: ContractDown | None
) -> tuple[tuple[Violation, ...], tuple[Violation, ...]]:
    """Why it is too early to lay off, or (not told when) the condition a lay-off waits for."""
    if not layoff_waits_for_contract(variant):
        return (), ()
    return _timing(
        contract_down,
        same_turn=variant.layoff_same_turn,
        before="layoff_before_contract",
        same="layoff_same_turn_as_contract",
    )


def _timing(
    contract_down: ContractDown | None, *, same_turn: bool, before: str, same: str
) -> tuple[tuple[Violation, ...], tuple[Violation, ...]]:
    if contract_down is None:
        code = "once_contract_down" if same_turn else "once_contract_down_next_turn"
        return (), (Violation(code),)
    if contract_down is ContractDown.NO:
        return (Violation(before),), ()
    if contract_down is ContractDown.THIS_TURN and not same_turn:
        return (Violation(same),), ()
    return (), ()


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
    conditions: tuple[Violation, ...] = ()  # what must hold as well (the joker used at once...)

    @property
    def valid(self) -> bool:
        return not self.violations


def check_joker_swap(
    meld: Sequence[Card],
    card: Card,
    variant: Variant,
    *,
    contract_down: ContractDown | None = None,
    own_meld: bool | None = None,
    shoe: ShoeRule | None = None,
) -> SwapVerdict:
    """Check replacing a joker in `meld` by the natural `card` from the swapper's hand.

    `contract_down` says when the swapping player's own contract went down; `own_meld`
    whether the meld is the swapper's own (None: not told, where `joker_swap_own_melds` is
    off the verdict then names the condition); `shoe` is the table's. Timing and owner
    reasons come after the meld's; the conditions of a valid swap are kept.
    """
    verdict = _swap(meld, card, variant, shoe)
    late, conditions = _swap_timing(variant, contract_down)
    whose, others_only = _swap_owner(variant, own_meld)
    late += whose
    conditions += others_only
    if variant.joker_swap_use_same_turn:
        conditions += (Violation("swap_use_joker_this_turn"),)
    if not verdict.valid or late:
        return replace(verdict, violations=verdict.violations + late)
    return replace(verdict, conditions=conditions)


def swap_asks_whose_meld(variant: Variant) -> bool:
    """Whether a joker swap depends on whose meld the joker is in."""
    return not variant.joker_swap_own_melds


def _swap_owner(
    variant: Variant, own_meld: bool | None
) -> tuple[tuple[Violation, ...], tuple[Violation, ...]]:
    """Why the joker may not come from this meld, or (not told whose) the condition."""
    if not swap_asks_whose_meld(variant):
        return (), ()
    if own_meld is None:
        return (), (Violation("swap_from_another_players_meld"),)
    if own_meld:
        return (Violation("swap_from_own_meld"),), ()
    return (), ()


def _swap_timing(
    variant: Variant, contract_down: ContractDown | None
) -> tuple[tuple[Violation, ...], tuple[Violation, ...]]:
    """Why it is too early to swap, or (not told when) the condition a swap waits for."""
    if not swap_waits_for_contract(variant):
        return (), ()
    return _timing(
        contract_down,
        same_turn=not variant.joker_swap_after_earlier_turn,
        before="swap_before_contract",
        same="swap_same_turn_as_contract",
    )


def _swap(meld: Sequence[Card], card: Card, variant: Variant, shoe: ShoeRule | None) -> SwapVerdict:
    table = check_meld(meld, variant, shoe=shoe)
    given = tuple(meld)
    if not table.valid:
        return SwapVerdict(MeldVerdict(given, (), ()), None, table.violations)
    if not any(c.is_joker for c in given):
        return _refused(given, Violation("no_joker_to_swap"))
    if card.is_joker:
        return _refused(given, Violation("swap_card_does_not_fit", {"card": str(card.plain)}))
    refusal: Violation | None = None
    for reading in table.readings:
        not_here = _swap_not_allowed(reading, variant)
        if not_here is not None:
            refusal = refusal or not_here
            continue
        swapped = _swapped(reading, card, variant, shoe)
        if swapped is not None:
            return swapped
    return _refused(given, refusal or Violation("swap_card_does_not_fit", {"card": str(card)}))


def _swap_not_allowed(reading: Reading, variant: Variant) -> Violation | None:
    """Why the variant allows no joker swap in a meld read this way, if it does not."""
    if reading.kind is MeldKind.RUN and not variant.joker_swap_runs:
        return Violation("joker_swap_not_allowed", {"kind": "run"})
    if reading.kind is MeldKind.SET and not variant.joker_swap_sets:
        return Violation("joker_swap_in_set")
    return None


def _swapped(
    reading: Reading, card: Card, variant: Variant, shoe: ShoeRule | None
) -> SwapVerdict | None:
    """`card` in the place of a joker of `reading` that stands for it, if the meld stays one."""
    for index, held in enumerate(reading.cards):
        target = held.stands_for
        if target is None or not _fits(target, card, reading):
            continue
        swapped = (*reading.cards[:index], card, *reading.cards[index + 1 :])
        if reading.kind is MeldKind.SET:
            swapped = tuple(c.plain for c in swapped)
        after = check_meld(swapped, variant, shoe=shoe)
        kept = tuple(r for r in after.readings if r.kind is reading.kind)
        if kept:
            # A set's joker stood for its rank; the card that replaces it names the suit.
            freed = target if reading.kind is MeldKind.RUN else card
            return SwapVerdict(MeldVerdict(after.cards, kept, ()), freed, ())
    return None


def _fits(target: Card, card: Card, reading: Reading) -> bool:
    if reading.kind is MeldKind.RUN:
        return target == card
    return target.rank == card.rank


def _refused(given: tuple[Card, ...], why: Violation) -> SwapVerdict:
    return SwapVerdict(MeldVerdict(given, (), (why,)), None, (why,))
