"""Contracts: does what a player lays down in one turn meet exactly this round's contract."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .cards import Card, Rank
from .errors import Violation
from .melds import MeldKind, MeldVerdict, Reading, check_meld, shoe_violations
from .variants import Contract, ContractRuns, Variant

#: The most melds one contract check reads (the API and the referee page alike): a contract
#: asks for at most six, so twice that is already a mistake.
MAX_MELDS = 12
# Readings multiply across melds; past this many fitting combinations the first ones decide.
_MAX_COMBINATIONS = 20_000


@dataclass(frozen=True)
class ContractVerdict:
    """The referee's answer about a contract laid down."""

    contract: Contract
    melds: tuple[MeldVerdict, ...]  # each narrowed to the readings that fit the contract
    violations: tuple[Violation, ...]  # `meld` says which meld, None for the whole

    @property
    def valid(self) -> bool:
        return not self.violations


def check_contract(
    melds: Sequence[Sequence[Card]],
    variant: Variant,
    round_number: int,
    *,
    going_out: bool = False,
) -> ContractVerdict:
    """Check melds laid down together against the round's contract.

    `going_out` says the melds are the player's whole hand, laid down in the going-out
    turn; in a last round that is laid down only by going out, nothing else is allowed.
    """
    contract = variant.contract_for(round_number)
    verdicts = [
        check_meld(meld, variant, min_set_size=contract.set_size, min_run_size=contract.run_size)
        for meld in melds
    ]
    violations: list[Violation] = []
    for index, verdict in enumerate(verdicts):
        violations += [v.at(index) for v in verdict.violations]
    # The melds share one shoe: two melds may not hold more copies of a card than it has.
    if len(melds) > 1:
        own = {(v.code, tuple(sorted(v.params.items()))) for v in violations}
        for v in shoe_violations([c for meld in melds for c in meld], variant):
            if (v.code, tuple(sorted(v.params.items()))) not in own:
                violations.append(v)
    if variant.last_round_goes_out and variant.is_last_round(round_number) and not going_out:
        violations.append(Violation("last_round_goes_out"))

    fitting, shape = _fit(contract, verdicts, variant)
    violations += shape
    narrowed = tuple(
        MeldVerdict(v.cards, tuple(r for r in v.readings if r in fits) or v.readings, v.violations)
        for v, fits in zip(verdicts, fitting, strict=True)
    )
    return ContractVerdict(contract, narrowed, tuple(violations))


def _fit(
    contract: Contract, verdicts: list[MeldVerdict], variant: Variant
) -> tuple[list[list[Reading]], list[Violation]]:
    """For each meld the readings that make the whole a contract, or why none do."""
    fitting: list[list[Reading]] = [[] for _ in verdicts]
    options = [v.readings for v in verdicts]
    if not all(options):
        # Say what is missing as well, counting a meld that fails by what it was meant to be
        # (its own violations say why it fails); melds of no clear kind are not counted.
        if len(verdicts) == contract.meld_count:
            return fitting, []
        kinds = [kind for v in verdicts if (kind := _meant_kind(v)) is not None]
        got = Counter(kinds)
        if (got[MeldKind.SET], got[MeldKind.RUN]) == (contract.sets, contract.runs):
            return fitting, []  # the count is right but for a meld no kind can be read from
        return fitting, [_wrong_count(contract, kinds)]
    first_shape: Violation | None = None
    counted = False
    chosen: list[set[int]] = [set() for _ in verdicts]
    combinations = _with_contract_counts(options, contract)
    for combination in itertools.islice(combinations, _MAX_COMBINATIONS):
        counted = True
        clash = _runs_clash(combination, variant.contract_runs)
        if clash is not None:
            first_shape = first_shape or clash
            continue
        for index, reading in enumerate(combination):
            if id(reading) not in chosen[index]:
                chosen[index].add(id(reading))
                fitting[index].append(reading)
    if any(fitting):
        return fitting, []
    if not counted:
        kinds = [v.readings[0].kind for v in verdicts]
        return fitting, [_wrong_count(contract, kinds)]
    assert first_shape is not None
    return fitting, [first_shape]


def _with_contract_counts(
    options: Sequence[Sequence[Reading]], contract: Contract
) -> Iterator[tuple[Reading, ...]]:
    """One reading per meld, making exactly the contract's sets and runs (pruned as it goes)."""
    chosen: list[Reading] = []

    def walk(index: int, sets: int, runs: int) -> Iterator[tuple[Reading, ...]]:
        if index == len(options):
            if (sets, runs) == (contract.sets, contract.runs):
                yield tuple(chosen)
            return
        for reading in options[index]:
            is_set = reading.kind is MeldKind.SET
            now_sets, now_runs = sets + is_set, runs + (not is_set)
            if now_sets > contract.sets or now_runs > contract.runs:
                continue
            chosen.append(reading)
            yield from walk(index + 1, now_sets, now_runs)
            chosen.pop()

    return walk(0, 0, 0)


def _meant_kind(verdict: MeldVerdict) -> MeldKind | None:
    """A meld's kind: as read when valid, else what its cards point to (one rank, one suit)."""
    if verdict.kind is not None:
        return verdict.kind
    shaping = [c for c in verdict.cards if c.is_natural] or [
        c.stands_for for c in verdict.cards if c.stands_for is not None
    ]
    if len(shaping) < 2:
        return None  # one card could start either
    if len({c.rank for c in shaping}) == 1:
        return MeldKind.SET
    if len({c.suit for c in shaping}) == 1:
        return MeldKind.RUN
    return None


def _wrong_count(contract: Contract, kinds: list[MeldKind]) -> Violation:
    """Sets and runs asked against those laid down (`kinds` of the valid melds)."""
    got_sets = sum(1 for k in kinds if k is MeldKind.SET)
    return Violation(
        "wrong_sets_and_runs",
        {
            "sets": contract.sets,
            "runs": contract.runs,
            "got_sets": got_sets,
            "got_runs": len(kinds) - got_sets,
        },
    )


def _runs_clash(combination: Sequence[Reading], rule: ContractRuns) -> Violation | None:
    """The first run that breaks the rule between a contract's runs, said of that run."""
    seen: list[Reading] = []
    for index, reading in enumerate(combination):
        if reading.kind is not MeldKind.RUN:
            continue
        suit = reading.suit
        assert suit is not None
        for other in seen:
            if other.suit is not suit:
                continue
            if rule is ContractRuns.DIFFERENT_SUITS:
                return Violation("runs_same_suit", {"suit": suit.value}, index)
            if rule is ContractRuns.SUIT_OR_START and other.start == reading.start:
                return Violation(
                    "runs_same_suit_and_start",
                    {"suit": suit.value, "start": _place_letter(reading.start)},
                    index,
                )
        seen.append(reading)
    return None


def _place_letter(place: int) -> str:
    return Rank(1 if place == 14 else place).letter
