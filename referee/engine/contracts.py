"""Contracts: does what a player lays down in one turn meet exactly this round's contract."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from .cards import Card, Rank
from .errors import Violation
from .melds import (
    MeldKind,
    MeldVerdict,
    Reading,
    check_meld,
    shoe_violations,
    undeclared_joker,
)
from .scoring import verify_whole_hand
from .variants import Contract, ContractRuns, GoingOutDiscard, ShoeRule, Variant

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
    discard: Card | None = None,
    from_discard_pile: Sequence[Card] = (),
    shoe: ShoeRule | None = None,
    players: int | None = None,
    undeclared_ok: bool = False,
) -> ContractVerdict:
    """Check melds laid down together against the round's contract.

    `going_out` says the melds, and the `discard` if one is given, are the player's whole
    hand, laid down in the going-out turn: whether that turn ends with a discard follows
    the variant (`Variant.going_out_discard_in`). In a last round that is laid down only by
    going out, nothing else is allowed. A whole hand is held to its size first (RULES.md
    "Hand sizes" and the fourth reading): longer than `max_hand_size` (for `players`, else the
    variant's largest deal) raises RefereeError `too_many_cards`, shorter than the cards dealt
    and the one drawn `hand_too_short`: input errors rather than verdicts.
    `from_discard_pile` are the cards taken from the discard pile this turn: where the
    variant forbids it, the one card taken is not the discard. `shoe` is the table's (else
    the largest allowed). Where jokers are declared, a joker the contract still leaves two
    ways to read must be declared; `undeclared_ok` takes the reading found as declared (a
    solver's answer).
    """
    contract = variant.contract_for(round_number)
    if going_out:
        whole_hand = sum(len(meld) for meld in melds) + (discard is not None)
        verify_whole_hand(whole_hand, variant, round_number, players)
    verdicts = [_contract_meld(meld, variant, contract, shoe) for meld in melds]
    violations: list[Violation] = []
    for index, verdict in enumerate(verdicts):
        said = tuple(_in_contract_words(verdict, variant, contract))
        verdicts[index] = MeldVerdict(verdict.cards, verdict.readings, said)
        violations += [v.at(index) for v in said]
    if len(melds) > 1 or discard is not None:
        violations += _shared_shoe(melds, discard, variant, shoe, violations)
    if variant.goes_out_only(round_number) and not going_out:
        violations.append(Violation("last_round_goes_out"))
    if going_out:
        violations += _going_out_discard(variant, round_number, discard)
    if discard is not None:
        violations += discard_violations(discard, variant, from_discard_pile=from_discard_pile)

    fitting, shape = _fit(contract, verdicts, variant)
    violations += shape
    narrowed = []
    for index, (verdict, fits) in enumerate(zip(verdicts, fitting, strict=True)):
        meld, undeclared = _narrowed(verdict, fits, variant, undeclared_ok)
        if undeclared is not None:  # not a meld until its joker is declared
            violations.append(undeclared.at(index))
        narrowed.append(meld)
    return ContractVerdict(contract, tuple(narrowed), tuple(violations))


def _shared_shoe(
    melds: Sequence[Sequence[Card]],
    discard: Card | None,
    variant: Variant,
    shoe: ShoeRule | None,
    said: Sequence[Violation],
) -> list[Violation]:
    """The melds share one shoe: two melds may not hold more copies of a card than it has
    (what a meld of its own already said is not said again)."""
    everything = [c for meld in melds for c in meld] + ([discard] if discard else [])
    own = {(v.code, tuple(sorted(v.params.items()))) for v in said}
    return [
        v
        for v in shoe_violations(everything, variant, shoe)
        if (v.code, tuple(sorted(v.params.items()))) not in own
    ]


def _narrowed(
    verdict: MeldVerdict, fits: Collection[Reading], variant: Variant, undeclared_ok: bool
) -> tuple[MeldVerdict, Violation | None]:
    """A meld's readings narrowed to those the contract takes; no meld at all, and why, while
    its joker could still be read two ways and must be declared."""
    readings = tuple(r for r in verdict.readings if r in fits) or verdict.readings
    undeclared = None if undeclared_ok else undeclared_joker(verdict.cards, readings, variant)
    if undeclared is not None:
        return MeldVerdict(verdict.cards, (), (undeclared,)), undeclared
    return MeldVerdict(verdict.cards, readings, verdict.violations), None


def _contract_meld(
    meld: Sequence[Card], variant: Variant, contract: Contract, shoe: ShoeRule | None
) -> MeldVerdict:
    """One meld read with the contract's sizes (a kind the contract does not ask for keeps
    the variant's own size: the count of sets and runs says what is wrong then)."""
    return check_meld(
        meld,
        variant,
        min_set_size=contract.set_size if contract.sets else None,
        min_run_size=contract.run_size if contract.runs else None,
        shoe=shoe,
        undeclared_ok=True,
    )


def _in_contract_words(
    verdict: MeldVerdict, variant: Variant, contract: Contract
) -> list[Violation]:
    """A meld's violations, a meld too short for the contract said as the contract's size.

    "This contract needs runs of 4" where the run of 3 would do as a meld of its own.
    """
    kind = _meant_kind(verdict)
    out = []
    for v in verdict.violations:
        if v.code != "too_few_cards" or kind is None:
            out.append(v)
            continue
        count = v.params["count"]
        own_size = variant.min_run_size if kind is MeldKind.RUN else variant.min_set_size
        size = contract.run_size if kind is MeldKind.RUN else contract.set_size
        if own_size <= count < size:
            code = "contract_run_too_short" if kind is MeldKind.RUN else "contract_set_too_short"
            out.append(Violation(code, {"count": count, "size": size}))
        else:
            out.append(v)
    return out


def _going_out_discard(
    variant: Variant, round_number: int, discard: Card | None
) -> list[Violation]:
    rule = variant.going_out_discard_in(round_number)
    if rule is GoingOutDiscard.REQUIRED and discard is None:
        return [Violation("going_out_needs_discard")]
    if rule is GoingOutDiscard.FORBIDDEN and discard is not None:
        only = variant.goes_out_only(round_number)
        code = "last_round_no_discard" if only else "going_out_no_discard"
        return [Violation(code, {"card": str(discard.plain)})]
    return []


def discard_violations(
    card: Card, variant: Variant, *, from_discard_pile: Sequence[Card] = ()
) -> list[Violation]:
    """Why `card` may not end this turn: where `rediscard_taken_card` is off, the one card
    taken from the discard pile this turn is not discarded again (of several taken, one may
    be: seed 001)."""
    if variant.rediscard_taken_card or len(from_discard_pile) != 1:
        return []
    taken = from_discard_pile[0]
    if taken.plain != card.plain:
        return []
    return [Violation("discard_taken_this_turn", {"card": str(card.plain)})]


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
        clash = _runs_clash(combination, variant.contract_runs) or _sets_clash(combination, variant)
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


def _sets_clash(combination: Sequence[Reading], variant: Variant) -> Violation | None:
    """The first set of a rank another set of the contract has, where house rule
    `distinct_set_ranks` asks the sets to differ (by default two sets may share a rank)."""
    if not variant.distinct_set_ranks:
        return None
    seen: set[Rank] = set()
    for index, reading in enumerate(combination):
        if reading.kind is not MeldKind.SET or reading.rank is None:
            continue
        if reading.rank in seen:
            return Violation("sets_same_rank", {"rank": reading.rank.letter}, index)
        seen.add(reading.rank)
    return None


def _place_letter(place: int) -> str:
    return Rank(1 if place == 14 else place).letter
