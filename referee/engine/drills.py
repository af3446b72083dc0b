"""Drills for learning the rules at the table, built from real hands and answered by the referee.

Seven kinds (`KINDS`): is this a meld; does this meet round N's contract; what is this hand
worth; may this card be laid off on that meld now; which card may take this joker; can you go
down with this hand, and with which melds; and round facts (who deals, how many cards, which
shoe). Every drill is drawn from the table's shoe (its variant, house rules and size) and every
answer and reason is the engine's own verdict (`check_meld`, `check_contract`, `penalty_of`,
`check_layoff`, `check_joker_swap`, `solve`, `Variant.dealer_of` / `cards_dealt` /
`shoe_for`), so a drill is right by construction and follows the table's rules.

A **near miss** is a case one small change away from a valid one that the referee refuses (a
run with a gap, an ace around the corner, a second joker where one is the most, a set of two
suits alike where suits must differ, a lay-off before the contract is down, a run one card
short of the contract...), or, for the kinds whose answer is a number or a fact, a case with
the trap in it (an ace, a ten or a joker in the hand; a round past the deal's change, a table
past the shoe's; a deal that went round the table once). A pack of `count` drills at `level`
holds exactly `near_misses(count, level)` of them (`NEAR_MISS_PERCENT`: 20 %, 50 %, 80 %),
at places the seed draws; the rest are valid cases and plain misses in about equal parts.

`drills(variant, level=..., count=..., seed=...)` is a function of its arguments: the same seed
gives the same pack on every machine (nothing here iterates a set or reads the clock), and no
two drills of a pack ask the same question (`Drill.key`). The solver's drills keep only hands
it answers exactly, so "any equally good answer counts" can be checked (`check_solution`).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .cards import JOKER, SUITS, Card, Rank, Suit, parse_cards
from .contracts import check_contract
from .errors import RefereeError, Violation
from .layoffs import (
    check_joker_swap,
    check_layoff,
    layoff_waits_for_contract,
    swap_asks_whose_meld,
    swap_waits_for_contract,
)
from .melds import MeldKind, check_meld
from .scoring import least_whole_hand, max_hand_size, penalty_breakdown, penalty_of
from .variants import AceRule, ContractDown, ContractRuns, GoingOutDiscard, ShoeRule, Variant

JSON = dict[str, Any]

KINDS: Final = ("meld", "contract", "value", "layoff", "swap", "solve", "facts")
LEVELS: Final = (1, 2, 3)
#: The share of near misses in a pack, in per cent, by level (easy to hard).
NEAR_MISS_PERCENT: Final[Mapping[int, int]] = {1: 20, 2: 50, 3: 80}
#: The most drills one pack holds (a session of the trainer is ten).
MAX_COUNT: Final = 50
MAX_SEED: Final = 999_999
#: The facts a "round facts" drill asks about.
FACTS: Final = ("dealer", "cards", "shoe")
#: Deals asked about in a game without rounds (rummy plays to a target).
_DEALS_WITHOUT_ROUNDS: Final = 12
#: Tries to draw one drill before the pack gives up on that slot's case.
_TRIES: Final = 60
YES: Final = "yes"
NO: Final = "no"
NONE: Final = "none"


@dataclass(frozen=True)
class Drill:
    """One question with its answer and the referee's reasons.

    `question` holds plain JSON (cards as the table writes them canonically, a joker with its
    declaration: `JK=7H`), `choices` the answers offered (None where the answer is typed),
    `answer` the right one, `reasons` the referee's violations or conditions behind it, and
    `detail` the rest of the engine's verdict (a meld's kind, a hand's card values, the
    solver's melds).
    """

    kind: str
    level: int
    near_miss: bool
    question: Mapping[str, Any]
    choices: tuple[Any, ...] | None
    answer: Any
    reasons: tuple[Violation, ...] = ()
    detail: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """What makes two drills the same question (cards in any order)."""
        asked = {
            name: sorted(value) if name in _UNORDERED and isinstance(value, list) else value
            for name, value in self.question.items()
        }
        return json.dumps([self.kind, asked], sort_keys=True, separators=(",", ":"))

    @property
    def id(self) -> str:
        """A short stable name of the question (the same question, the same id)."""
        return hashlib.sha256(self.key.encode()).hexdigest()[:12]


_UNORDERED: Final = frozenset({"cards", "hand"})


def near_misses(count: int, level: int) -> int:
    """How many of a pack of `count` drills at `level` are near misses."""
    return (count * NEAR_MISS_PERCENT[level] + 50) // 100


def kinds_for(variant: Variant) -> tuple[str, ...]:
    """The kinds of drill the variant has: no contract drills without contracts, no joker
    swaps where no joker may be swapped."""
    return tuple(kind for kind in KINDS if _has_kind(variant, kind))


def _has_kind(variant: Variant, kind: str) -> bool:
    if kind == "contract":
        return variant.has_contracts
    if kind == "swap":
        return variant.uses_jokers and (variant.joker_swap_runs or variant.joker_swap_sets)
    return True


def verify_request(variant: Variant, kind: str | None, level: int, count: int, seed: int) -> None:
    """RefereeError for a pack that cannot be drawn: `unknown_drill_kind`, `no_drills_of_kind`
    (contract drills in rummy are `no_contract`), `bad_drill_level`, `bad_drill_count`,
    `bad_seed`."""
    if kind is not None and kind not in KINDS:
        raise RefereeError("unknown_drill_kind", kind=str(kind)[:20], kinds=", ".join(KINDS))
    if kind == "contract" and not variant.has_contracts:
        raise RefereeError("no_contract", variant=variant.id)
    if kind is not None and not _has_kind(variant, kind):
        raise RefereeError("no_drills_of_kind", kind=kind, variant=variant.id)
    if level not in LEVELS:
        raise RefereeError("bad_drill_level", level=level, max=LEVELS[-1])
    if not 1 <= count <= MAX_COUNT:
        raise RefereeError("bad_drill_count", count=count, max=MAX_COUNT)
    if not 0 <= seed <= MAX_SEED:
        raise RefereeError("bad_seed", seed=seed, max=MAX_SEED)


def drills(
    variant: Variant,
    *,
    kind: str | None = None,
    level: int = 1,
    count: int = 10,
    seed: int = 0,
    players: int | None = None,
) -> tuple[Drill, ...]:
    """A pack of `count` drills of `kind` (None: every kind the variant has, in turn) at
    `level`, the same for the same arguments; `players` fixes the table's size (else each drill
    draws one the variant allows). RefereeError as `verify_request` says, or `bad_players`."""
    verify_request(variant, kind, level, count, seed)
    if players is not None:
        variant.check_players(players)
    rng = random.Random(f"drills|{variant.id}|{_rules_key(variant)}|{kind}|{level}|{seed}")
    kinds = (kind,) if kind is not None else kinds_for(variant)
    near = set(rng.sample(range(count), near_misses(count, level)))
    pack: list[Drill] = []
    seen: set[str] = set()
    for index in range(count):
        this = kinds[index % len(kinds)]
        drill = _unique(variant, this, level, index in near, players, rng, seen)
        seen.add(drill.key)
        pack.append(drill)
    return tuple(pack)


def _rules_key(variant: Variant) -> str:
    return json.dumps(variant.house_rules(), sort_keys=True, default=str)


def _unique(
    variant: Variant,
    kind: str,
    level: int,
    near: bool,
    players: int | None,
    rng: random.Random,
    seen: set[str],
) -> Drill:
    """A drill of this slot whose question the pack has not asked yet."""
    if kind == "facts":
        return _unique_fact(variant, level, near, players, rng, seen)
    make = _MAKERS[kind]
    for _ in range(_TRIES * 4):
        table = _Table.draw(variant, rng, players)
        drill = make(table, level, near, rng)
        if drill is not None and drill.key not in seen:
            return drill
    raise RefereeError("too_few_drills", kind=kind, count=len(seen))


def _unique_fact(
    variant: Variant,
    level: int,
    near: bool,
    players: int | None,
    rng: random.Random,
    seen: set[str],
) -> Drill:
    """Facts are few: every situation is tried, in an order the seed draws."""
    pool = _facts_pool(variant, players)
    rng.shuffle(pool)
    for fact, round_number, size, first in pool:
        drill = fact_drill(variant, fact, round_number, size, first, level, near)
        if drill is not None and drill.key not in seen:
            return drill
    raise RefereeError("too_few_drills", kind="facts", count=len(seen))


# -- the table and its shoe -------------------------------------------------------------------

#: The 52 natural cards, and a shoe's count of each by its decks (copied, never rebuilt).
_NATURALS: Final = tuple(Card(rank, suit) for suit in SUITS for rank in Rank)
_SHOES: dict[int, dict[Card, int]] = {}
#: Places drawn for one card before the shoe is taken as empty.
_DRAWS: Final = 10_000


def _full_shoe(decks: int) -> dict[Card, int]:
    if decks not in _SHOES:
        _SHOES[decks] = dict.fromkeys(_NATURALS, decks)
    return _SHOES[decks].copy()


@dataclass
class _Table:
    """A table the drill is asked at: the rules, its size and the shoe's cards still free."""

    variant: Variant
    players: int
    shoe: ShoeRule
    left: dict[Card, int]
    jokers: int

    @classmethod
    def draw(cls, variant: Variant, rng: random.Random, players: int | None) -> _Table:
        size = (
            players
            if players is not None
            else rng.randint(variant.min_players, variant.max_players)
        )
        shoe = variant.shoe_for(size)
        return cls(variant, size, shoe, _full_shoe(shoe.decks), shoe.jokers)

    def fresh(self) -> _Table:
        return _Table(self.variant, self.players, self.shoe, dict(self.left), self.jokers)

    def take(self, card: Card) -> bool:
        """Take `card` (a joker: any joker) out of the shoe, if one is left."""
        if card.is_joker:
            if self.jokers <= 0:
                return False
            self.jokers -= 1
            return True
        plain = card.plain
        if self.left.get(plain, 0) <= 0:
            return False
        self.left[plain] -= 1
        return True

    def random_card(self, rng: random.Random, *, jokers: bool = True) -> Card:
        """Any card still in the shoe, each as likely as the copies of it left (a joker as
        often as the jokers left): a place of the full shoe drawn until it holds a card."""
        naturals = len(_NATURALS) * self.shoe.decks
        places = naturals + (self.shoe.jokers if jokers else 0)
        for _ in range(_DRAWS):
            place = rng.randrange(places)
            if place >= naturals:
                chosen = JOKER if place - naturals < self.jokers else None
            else:
                card = _NATURALS[place % len(_NATURALS)]
                chosen = card if place // len(_NATURALS) < self.left[card] else None
            if chosen is not None:
                self.take(chosen)
                return chosen
        raise RefereeError("too_few_drills", kind="cards", count=0)  # an empty shoe: never

    def base(self) -> JSON:
        return {"variant": self.variant.id, "players": self.players}


def _text(cards: Sequence[Card]) -> list[str]:
    """Cards as the question writes them: canonical, a joker with its declaration."""
    return [str(card) for card in cards]


def _rank_at(place: int) -> Rank:
    return Rank(1 if place == 14 else (place - 1) % 13 + 1)


def _top_place(variant: Variant) -> int:
    return 14 if variant.aces is AceRule.HIGH_OR_LOW else 13


def _joker_for(variant: Variant, natural: Card) -> Card:
    """A joker standing in for `natural`: declared where the variant declares its jokers."""
    return Card(stands_for=natural) if variant.jokers_declared else JOKER


def _may_use_jokers(table: _Table, meld_size: int, wanted: int) -> int:
    variant = table.variant
    most = meld_size - max(1, variant.min_natural_cards)
    if variant.max_jokers_per_meld is not None:
        most = min(most, variant.max_jokers_per_meld)
    return max(0, min(wanted, most, table.jokers))


def _run(
    table: _Table,
    rng: random.Random,
    length: int,
    *,
    suit: Suit | None = None,
    jokers: int = 0,
    start: int | None = None,
) -> list[Card] | None:
    """A run of `length` from the shoe (places 1..14), `jokers` of its inner cards jokers."""
    top = _top_place(table.variant)
    if length > top:
        return None
    first = start if start is not None else rng.randint(1, top - length + 1)
    chosen = suit or rng.choice(SUITS)
    naturals = [Card(_rank_at(place), chosen) for place in range(first, first + length)]
    inner = list(range(1, length - 1)) if length > 2 else []
    joker_at = set(rng.sample(inner, min(len(inner), _may_use_jokers(table, length, jokers))))
    cards: list[Card] = []
    for index, natural in enumerate(naturals):
        card = _joker_for(table.variant, natural) if index in joker_at else natural
        if not table.take(card):
            return None
        cards.append(card)
    return cards


def _set(
    table: _Table, rng: random.Random, size: int, *, rank: Rank | None = None, jokers: int = 0
) -> list[Card] | None:
    """A set of `size` from the shoe, `jokers` of them jokers (naturals first)."""
    variant = table.variant
    chosen = rank or rng.choice(list(Rank))
    suits = list(SUITS)
    rng.shuffle(suits)
    if size > len(suits):
        if variant.set_suits_distinct:
            return None
        suits += [rng.choice(SUITS) for _ in range(size - len(suits))]
    naturals = [Card(chosen, suit) for suit in suits[:size]]
    wild = _may_use_jokers(table, size, jokers)
    cards: list[Card] = []
    for index, natural in enumerate(naturals):
        card = _joker_for(variant, natural) if index >= size - wild else natural
        if not table.take(card):
            return None
        cards.append(card)
    return cards


def _meld_sizes(variant: Variant, level: int, rng: random.Random) -> tuple[int, int]:
    """A set's and a run's size for a drill of this level."""
    set_most = variant.max_set_size or 4
    set_size = min(set_most, variant.min_set_size + rng.randint(0, 1 if level < 3 else 2))
    run_size = variant.min_run_size + rng.randint(0, level)
    return set_size, run_size


def _some_meld(table: _Table, level: int, rng: random.Random) -> list[Card] | None:
    """A set or a run, with a joker now and then from level 2 on."""
    set_size, run_size = _meld_sizes(table.variant, level, rng)
    jokers = 1 if level >= 2 and rng.random() < 0.5 else 0
    if rng.random() < 0.5:
        return _set(table, rng, set_size, jokers=jokers)
    return _run(table, rng, run_size, jokers=jokers)


def _plain_miss(table: _Table, rng: random.Random, size: int) -> list[Card]:
    """Cards that are no meld by far: mixed ranks and suits."""
    return [table.random_card(rng, jokers=False) for _ in range(size)]


# -- near misses: one small change to a valid meld ---------------------------------------------


Mutation = Callable[[_Table, list[Card], random.Random], list[Card] | None]


def _kind_of(cards: Sequence[Card], variant: Variant) -> MeldKind | None:
    return check_meld(cards, variant, undeclared_ok=True).kind


def _gap(table: _Table, cards: list[Card], rng: random.Random) -> list[Card] | None:
    """A run whose last card moved up one place: a gap inside."""
    if _kind_of(cards, table.variant) is not MeldKind.RUN:
        return None
    last = cards[-1].stands_for or cards[-1]
    if last.rank is None or last.suit is None:
        return None
    place = 14 if last.rank == Rank.ACE else int(last.rank)
    if place + 1 > _top_place(table.variant):
        return None
    moved = Card(_rank_at(place + 1), last.suit)
    return [*cards[:-1], moved] if table.take(moved) else None


def _around_the_corner(table: _Table, cards: list[Card], rng: random.Random) -> list[Card] | None:
    """Q-K-A-2 (or K-A-2): a run around the corner."""
    suit = rng.choice(SUITS)
    ranks = [Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TWO][4 - max(3, min(len(cards), 4)) :]
    made = [Card(rank, suit) for rank in ranks]
    return made if all(table.take(card) for card in made) else None


def _second_joker(table: _Table, cards: list[Card], rng: random.Random) -> list[Card] | None:
    """One joker more in place of a natural card (the meld keeps one natural card)."""
    naturals = [i for i, card in enumerate(cards) if card.is_natural]
    if len(naturals) < 2 or not table.take(JOKER):
        return None
    index = rng.choice(naturals[1:-1] or naturals[1:])
    natural = cards[index]
    return [*cards[:index], _joker_for(table.variant, natural), *cards[index + 1 :]]


def _suits_alike(table: _Table, cards: list[Card], rng: random.Random) -> list[Card] | None:
    """A set with a card (or a declared joker) of a suit it already has."""
    if _kind_of(cards, table.variant) is not MeldKind.SET:
        return None
    natural = next(card for card in cards if card.is_natural)
    if table.take(natural):
        return [*cards[:-1], natural]
    if table.variant.jokers_declared and table.take(JOKER):
        return [*cards[:-1], Card(stands_for=natural)]
    return None


def _one_short(table: _Table, cards: list[Card], rng: random.Random) -> list[Card] | None:
    """The meld less its last card."""
    kind = _kind_of(cards, table.variant)
    least = table.variant.min_set_size if kind is MeldKind.SET else table.variant.min_run_size
    return cards[: least - 1] if len(cards) >= least else None


def _wrong_suit(table: _Table, cards: list[Card], rng: random.Random) -> list[Card] | None:
    """A run with one inner card of another suit."""
    if _kind_of(cards, table.variant) is not MeldKind.RUN or len(cards) < 3:
        return None
    index = rng.randrange(1, len(cards) - 1)
    was = cards[index].stands_for or cards[index]
    if was.rank is None:
        return None
    other = Card(was.rank, rng.choice([s for s in SUITS if s is not was.suit]))
    return [*cards[:index], other, *cards[index + 1 :]] if table.take(other) else None


def _set_too_large(table: _Table, cards: list[Card], rng: random.Random) -> list[Card] | None:
    """A set one card past the most a set may hold."""
    most = table.variant.max_set_size
    if most is None or _kind_of(cards, table.variant) is not MeldKind.SET:
        return None
    rank = next(card.rank for card in cards if card.rank is not None)
    grown = list(cards)
    while len(grown) <= most:
        extra = Card(rank, rng.choice(SUITS))
        if not table.take(extra):
            return None
        grown.append(extra)
    return grown


def _ace_high(table: _Table, cards: list[Card], rng: random.Random) -> list[Card] | None:
    """Q-K-A where aces are low only."""
    if table.variant.aces is not AceRule.LOW_ONLY:
        return None
    suit = rng.choice(SUITS)
    made = [Card(Rank.QUEEN, suit), Card(Rank.KING, suit), Card(Rank.ACE, suit)]
    return made if all(table.take(card) for card in made) else None


def _undeclared(table: _Table, cards: list[Card], rng: random.Random) -> list[Card] | None:
    """A run with a joker at its end that could stand for either end, not declared."""
    if not table.variant.jokers_declared or _kind_of(cards, table.variant) is not MeldKind.RUN:
        return None
    if not table.take(JOKER):
        return None
    return [card.plain for card in cards if card.is_natural] + [JOKER]


#: Every near miss a meld may have; the variant's own traps come first (`_signature`).
_MUTATIONS: Final[tuple[Mutation, ...]] = (
    _gap,
    _around_the_corner,
    _second_joker,
    _suits_alike,
    _one_short,
    _wrong_suit,
    _set_too_large,
    _ace_high,
    _undeclared,
)


def _signature(variant: Variant) -> list[Mutation]:
    """The near misses this variant's rules make likely: its own traps."""
    own: list[Mutation] = [_gap]
    if not variant.around_the_corner:
        own.append(_around_the_corner)
    if variant.max_jokers_per_meld is not None and variant.uses_jokers:
        own.append(_second_joker)
    if variant.set_suits_distinct:
        own.append(_suits_alike)
    if variant.jokers_declared and variant.uses_jokers:
        own.append(_undeclared)
    if variant.aces is AceRule.LOW_ONLY:
        own.append(_ace_high)
    if variant.max_set_size is not None:
        own.append(_set_too_large)
    return own


def _mutations(variant: Variant, rng: random.Random) -> list[Mutation]:
    """Mutations to try in turn: the variant's own traps first (half of the time), then all."""
    own = _signature(variant)
    rng.shuffle(own)
    rest = list(_MUTATIONS)
    rng.shuffle(rest)
    return (own + rest) if rng.random() < 0.5 else (rest + own)


def _near_meld(table: _Table, level: int, rng: random.Random) -> tuple[list[Card], Mutation] | None:
    """A meld one change away from valid that the referee refuses."""
    for mutation in _mutations(table.variant, rng):
        trial = table.fresh()
        base = _some_meld(trial, level, rng)
        if base is None or not check_meld(base, trial.variant, shoe=trial.shoe).valid:
            continue
        changed = mutation(trial, base, rng)
        if changed and not check_meld(changed, trial.variant, shoe=trial.shoe).valid:
            table.left, table.jokers = trial.left, trial.jokers
            return changed, mutation
    return None


# -- 1. is this a meld? -----------------------------------------------------------------------


def _meld_drill(table: _Table, level: int, near: bool, rng: random.Random) -> Drill | None:
    variant = table.variant
    if near:
        found = _near_meld(table, level, rng)
        if found is None:
            return None
        cards = found[0]
    elif rng.random() < 0.5:
        made = _some_meld(table, level, rng)
        if made is None:
            return None
        cards = made
    else:
        cards = _plain_miss(table, rng, rng.randint(3, 4))
    verdict = check_meld(cards, variant, shoe=table.shoe)
    if near and verdict.valid:
        return None
    kind = verdict.kind.value if verdict.kind is not None else None
    return Drill(
        "meld",
        level,
        near,
        {**table.base(), "cards": _text(cards)},
        (YES, NO),
        YES if verdict.valid else NO,
        verdict.violations,
        {"kind": kind},
    )


# -- 2. does this meet round N's contract? ------------------------------------------------------


def _rounds(variant: Variant) -> list[int]:
    return list(range(1, (variant.rounds or _DEALS_WITHOUT_ROUNDS) + 1))


def _run_suits(variant: Variant, runs: int, rng: random.Random) -> list[Suit | None]:
    """A suit for each run of a contract, as its rules ask (different suits where they must)."""
    if runs == 0:
        return []
    if variant.contract_runs is ContractRuns.DIFFERENT_SUITS:
        return list(rng.sample(SUITS, runs)) if runs <= len(SUITS) else [None] * runs
    return [None] * runs


def _contract_melds(
    table: _Table, round_number: int, level: int, rng: random.Random, extra: int = 0
) -> list[list[Card]] | None:
    """The round's contract from the shoe: its sets and runs at their sizes, `extra` cards more
    spread over the runs (a whole hand going out); jokers now and then from level 2 on."""
    variant = table.variant
    contract = variant.contract_for(round_number)
    lengths = [contract.run_size] * contract.runs
    for _ in range(extra):
        if not lengths:
            return None
        lengths[rng.randrange(len(lengths))] += 1
    melds: list[list[Card]] = []
    ranks = rng.sample(list(Rank), contract.sets)
    for rank in ranks:
        jokers = 1 if level >= 2 and rng.random() < 0.3 else 0
        made = _set(table, rng, contract.set_size, rank=rank, jokers=jokers)
        if made is None:
            return None
        melds.append(made)
    for length, suit in zip(lengths, _run_suits(variant, contract.runs, rng), strict=True):
        jokers = 1 if level >= 2 and rng.random() < 0.3 else 0
        made = _run(table, rng, length, suit=suit, jokers=jokers)
        if made is None:
            return None
        melds.append(made)
    return melds


@dataclass(frozen=True)
class _Asked:
    """A contract as a player lays it down: the melds, and whether it is the whole hand."""

    melds: list[list[Card]]
    going_out: bool = False
    discard: Card | None = None


def _laid_down(table: _Table, round_number: int, level: int, rng: random.Random) -> _Asked | None:
    """A valid contract laid down: a whole hand where the round goes down only by going out."""
    variant = table.variant
    if not variant.goes_out_only(round_number):
        melds = _contract_melds(table, round_number, level, rng)
        return _Asked(melds) if melds is not None else None
    discard_rule = variant.going_out_discard_in(round_number)
    with_discard = discard_rule is GoingOutDiscard.REQUIRED
    contract = variant.contract_for(round_number)
    least = least_whole_hand(variant, round_number, table.players)
    extra = least - contract.min_cards - with_discard
    melds = _contract_melds(table, round_number, level, rng, extra=max(0, extra))
    if melds is None:
        return None
    discard = table.random_card(rng, jokers=False) if with_discard else None
    return _Asked(melds, True, discard)


def _contract_verdict(table: _Table, round_number: int, asked: _Asked) -> Any:
    """The referee's verdict on a contract as asked; None for a hand the API would refuse as
    input (too short or too long to be a whole hand)."""
    try:
        return check_contract(
            asked.melds,
            table.variant,
            round_number,
            going_out=asked.going_out,
            discard=asked.discard,
            shoe=table.shoe,
            players=table.players,
        )
    except RefereeError:
        return None


ContractMutation = Callable[[_Table, _Asked, random.Random], _Asked | None]


def _contract_meld_changed(table: _Table, asked: _Asked, rng: random.Random) -> _Asked | None:
    """One meld of the contract with a meld's near miss (a gap, a second joker...)."""
    index = rng.randrange(len(asked.melds))
    for mutation in _mutations(table.variant, rng):
        if mutation in (_one_short, _around_the_corner, _ace_high):
            continue  # these change the card count or the meld's kind
        changed = mutation(table, list(asked.melds[index]), rng)
        if changed is not None and len(changed) == len(asked.melds[index]):
            melds = [*asked.melds[:index], changed, *asked.melds[index + 1 :]]
            return _Asked(melds, asked.going_out, asked.discard)
    return None


def _run_one_short(table: _Table, asked: _Asked, rng: random.Random) -> _Asked | None:
    """A run of the contract one card short (its last card moved to the discard or dropped)."""
    runs = [
        i for i, meld in enumerate(asked.melds) if _kind_of(meld, table.variant) is MeldKind.RUN
    ]
    if not runs or asked.going_out:
        return None
    index = rng.choice(runs)
    melds = [list(m) for m in asked.melds]
    melds[index] = melds[index][:-1]
    return _Asked(melds)


def _same_suit_runs(table: _Table, asked: _Asked, rng: random.Random) -> _Asked | None:
    """Two runs of the contract in one suit (and, where that is the rule, from one start)."""
    runs = [
        i for i, meld in enumerate(asked.melds) if _kind_of(meld, table.variant) is MeldKind.RUN
    ]
    if len(runs) < 2 or table.variant.contract_runs is ContractRuns.ANY:
        return None
    first, second = runs[0], runs[1]
    length = len(asked.melds[second])
    if table.variant.contract_runs is ContractRuns.DIFFERENT_SUITS:
        suit = check_meld(asked.melds[first], table.variant, undeclared_ok=True).reading
        made = _run(table, rng, length, suit=suit.suit if suit is not None else None)
    else:
        made = [
            Card(stands_for=c.stands_for) if c.stands_for is not None else c
            for c in asked.melds[first][:length]
        ]
        if len(made) < length or not all(table.take(c) for c in made):
            made = None
    if made is None:
        return None
    melds = [list(m) for m in asked.melds]
    melds[second] = made
    return _Asked(melds, asked.going_out, asked.discard)


def _missing_meld(table: _Table, asked: _Asked, rng: random.Random) -> _Asked | None:
    """The contract less one of its melds."""
    if asked.going_out or len(asked.melds) < 2:
        return None
    index = rng.randrange(len(asked.melds))
    return _Asked([m for i, m in enumerate(asked.melds) if i != index])


def _not_going_out(table: _Table, asked: _Asked, rng: random.Random) -> _Asked | None:
    """A round laid down only by going out, laid down without going out."""
    if not asked.going_out:
        return None
    return _Asked(asked.melds)


def _wrong_discard(table: _Table, asked: _Asked, rng: random.Random) -> _Asked | None:
    """Going out with a discard where none is allowed, or without one where it is required."""
    if not asked.going_out:
        return None
    if asked.discard is not None:
        return None  # dropping it would leave the hand too short
    card = table.random_card(rng, jokers=False)
    return _Asked(asked.melds, True, card)


_CONTRACT_MUTATIONS: Final[tuple[ContractMutation, ...]] = (
    _contract_meld_changed,
    _run_one_short,
    _same_suit_runs,
    _missing_meld,
    _not_going_out,
    _wrong_discard,
)


def _contract_drill(table: _Table, level: int, near: bool, rng: random.Random) -> Drill | None:
    variant = table.variant
    round_number = rng.choice(_rounds(variant))
    asked = _laid_down(table, round_number, level, rng)
    if asked is None:
        return None
    if near:
        mutations = list(_CONTRACT_MUTATIONS)
        rng.shuffle(mutations)
        if rng.random() < 0.5:  # half of them a meld's own near miss: a gap, a joker too many
            mutations.remove(_contract_meld_changed)
            mutations.insert(0, _contract_meld_changed)
        changed = next(
            (m for m in (mutate(table, asked, rng) for mutate in mutations) if m is not None), None
        )
        if changed is None:
            return None
        asked = changed
    else:
        rng.shuffle(asked.melds)
    verdict = _contract_verdict(table, round_number, asked)
    if verdict is None or (near and verdict.valid):
        return None
    question: JSON = {
        **table.base(),
        "round": round_number,
        "melds": [_text(meld) for meld in asked.melds],
    }
    if asked.going_out:
        question["going_out"] = True
    if asked.discard is not None:
        question["discard"] = str(asked.discard)
    return Drill(
        "contract",
        level,
        near,
        question,
        (YES, NO),
        YES if verdict.valid else NO,
        verdict.violations,
        {"contract": _contract_json(variant, round_number)},
    )


def _contract_json(variant: Variant, round_number: int) -> JSON:
    return variant.contract_for(round_number).to_dict()


# -- 3. what is this hand worth? -------------------------------------------------------------


#: The card values most tables count by (A 15, 2-9 5, 10-K 10): a rank a variant values
#: otherwise is a trap in its hands.
_USUAL_POINTS: Final = (15, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10)


def _traps(variant: Variant) -> list[Card]:
    """Cards a player miscounts: aces, tens, jokers, and each rank the variant values
    otherwise than most tables do."""
    ranks = {Rank.ACE, Rank.TEN}
    for rank in Rank:
        if variant.rank_points[rank - 1] != _USUAL_POINTS[rank - 1]:
            ranks.add(rank)
    cards = [Card(rank, suit) for suit in SUITS for rank in Rank if rank in ranks]
    return cards + ([JOKER] if variant.uses_jokers else [])


def _value_drill(table: _Table, level: int, near: bool, rng: random.Random) -> Drill | None:
    variant = table.variant
    size = rng.randint(2 + level, 4 + 2 * level)
    traps = _traps(variant)
    trap_keys = {str(card) for card in traps}
    hand: list[Card] = []
    if near:
        for card in rng.sample(traps, min(len(traps), rng.randint(2, 3))):
            if table.take(card):
                hand.append(card)
        if len(hand) < 2:
            return None
    while len(hand) < size:
        card = table.random_card(rng, jokers=near)
        if near or str(card) not in trap_keys:
            hand.append(card)
    rng.shuffle(hand)
    breakdown = penalty_breakdown(hand, variant)
    return Drill(
        "value",
        level,
        near,
        {**table.base(), "cards": _text(hand)},
        None,
        penalty_of(hand, variant),
        (),
        {"cards": [{"card": str(card), "points": points} for card, points in breakdown]},
    )


# -- 4. may this card go on that meld now? ----------------------------------------------------


def _timings(variant: Variant, near: bool, rng: random.Random) -> ContractDown | None:
    """When the player's own contract went down, where it matters: a near miss too early."""
    if not layoff_waits_for_contract(variant):
        return None
    if near:
        early = [ContractDown.NO]
        if not variant.layoff_same_turn:
            early.append(ContractDown.THIS_TURN)
        return rng.choice(early)
    if variant.layoff_same_turn:
        return rng.choice([ContractDown.EARLIER_TURN, ContractDown.THIS_TURN])
    return ContractDown.EARLIER_TURN


def _fitting(table: _Table, meld: list[Card], rng: random.Random) -> Card | None:
    """A card the meld takes: a run's next card at either end, a set's rank."""
    reading = check_meld(meld, table.variant, shoe=table.shoe).reading
    if reading is None:
        return None
    if reading.kind is MeldKind.SET:
        assert reading.rank is not None
        used = {c.suit for c in reading.effective}
        suits = [s for s in SUITS if s not in used] or list(SUITS)
        card = Card(reading.rank, rng.choice(suits))
    else:
        first, last = reading.positions[0], reading.positions[-1]
        ends = [p for p in (first - 1, last + 1) if 1 <= p <= _top_place(table.variant)]
        if not ends:
            return None
        card = Card(_rank_at(rng.choice(ends)), reading.suit or SUITS[0])
    return card if table.take(card) else None


def _misfit(table: _Table, meld: list[Card], rng: random.Random) -> Card | None:
    """A card one step from fitting: a run's card two places on (a gap), or of another suit;
    a set's card of a suit it has where suits must differ, or one past its size."""
    reading = check_meld(meld, table.variant, shoe=table.shoe).reading
    if reading is None:
        return None
    if reading.kind is MeldKind.SET:
        assert reading.rank is not None
        card = Card(reading.rank, rng.choice(SUITS))
    else:
        last = reading.positions[-1]
        place = last + 2 if rng.random() < 0.5 else last + 1
        suit = (
            reading.suit
            if place == last + 2
            else rng.choice([s for s in SUITS if s is not reading.suit])
        )
        card = Card(_rank_at(place), suit or SUITS[0])
    return card if table.take(card) else None


def _layoff_drill(table: _Table, level: int, near: bool, rng: random.Random) -> Drill | None:
    variant = table.variant
    meld = _some_meld(table, level, rng)
    if meld is None or not check_meld(meld, variant, shoe=table.shoe).valid:
        return None
    timing = _timings(variant, near and rng.random() < 0.5, rng)
    early = timing in (ContractDown.NO, ContractDown.THIS_TURN) and near
    if near and not early:
        card = _misfit(table, meld, rng)
    elif near or rng.random() < 0.6:
        card = _fitting(table, meld, rng)
    else:
        card = table.random_card(rng, jokers=False)
    if card is None:
        return None
    verdict = check_layoff(meld, [card], variant, contract_down=timing, shoe=table.shoe)
    if near and verdict.valid:
        return None
    question: JSON = {**table.base(), "meld": _text(meld), "cards": [str(card)]}
    if timing is not None:
        question["contract_down"] = timing.value
    return Drill(
        "layoff",
        level,
        near,
        question,
        (YES, NO),
        YES if verdict.valid else NO,
        verdict.violations or verdict.conditions,
        {"meld": _text(verdict.meld.ordered) if verdict.valid else []},
    )


# -- 5. which card may take this joker? -------------------------------------------------------


def _swap_meld(table: _Table, level: int, rng: random.Random, *, in_set: bool) -> list[Card] | None:
    """A meld with one joker whose card is plain to see: inside a run, or in a set."""
    variant = table.variant
    if in_set:
        size = min(variant.max_set_size or 4, variant.min_set_size + rng.randint(0, 1))
        return _set(table, rng, size, jokers=1)
    return _run(table, rng, max(3, variant.min_run_size) + rng.randint(0, level - 1), jokers=1)


Situation = tuple[ContractDown | None, bool | None, bool]


def _swap_situation(variant: Variant, near: bool, rng: random.Random) -> Situation | None:
    """When the swapper's contract went down, whether the meld is their own, and whether the
    joker is in a set, where these matter: a near miss is too early, their own meld, or a set
    whose jokers stay (the right card in hand all the same)."""
    down = ContractDown.EARLIER_TURN if swap_waits_for_contract(variant) else None
    own = False if swap_asks_whose_meld(variant) else None
    in_set = variant.joker_swap_sets and (not variant.joker_swap_runs or rng.random() < 0.4)
    if not near:
        return down, own, in_set
    wrong: list[Situation] = []
    if down is not None:
        wrong.append((ContractDown.NO, own, in_set))
        if variant.joker_swap_after_earlier_turn:
            wrong.append((ContractDown.THIS_TURN, own, in_set))
    if own is not None:
        wrong.append((down, True, in_set))
    if not variant.joker_swap_sets and variant.uses_jokers:
        wrong.append((down, own, True))
    return rng.choice(wrong) if wrong else None


def _swap_candidates(meld: list[Card], variant: Variant) -> list[Card]:
    """The joker's own card and the cards one step from it (another suit, the next rank)."""
    reading = check_meld(meld, variant).reading
    if reading is None:
        return []
    target = next(c.stands_for for c in reading.cards if c.stands_for is not None)
    assert target.rank is not None and target.suit is not None
    near_ranks = [r for r in (target.rank - 1, target.rank + 1) if 1 <= r <= 13]
    others = [Card(target.rank, s) for s in SUITS if s is not target.suit]
    others += [Card(Rank(r), target.suit) for r in near_ranks]
    if reading.kind is MeldKind.SET:
        others = [Card(Rank(r), target.suit) for r in near_ranks]
        others += [Card(Rank(r), s) for r in near_ranks for s in SUITS if s is not target.suit]
    return [target, *others]


def _sorted_out(verdicts: Mapping[str, Any], own: str) -> tuple[list[str], list[str]]:
    """The cards that may take the joker, and the others but the joker's own card."""
    right = [name for name, verdict in verdicts.items() if verdict.valid]
    wrong = [name for name, verdict in verdicts.items() if not verdict.valid and name != own]
    return right, wrong


def _swap_drill(table: _Table, level: int, near: bool, rng: random.Random) -> Drill | None:
    variant = table.variant
    situation = _swap_situation(variant, near, rng)
    if situation is None:
        return None
    down, own, in_set = situation
    meld = _swap_meld(table, level, rng, in_set=in_set)
    if meld is None or not check_meld(meld, variant, shoe=table.shoe).valid:
        return None
    candidates = _swap_candidates(meld, variant)
    if not candidates:
        return None
    verdicts = {
        str(card): check_joker_swap(
            meld, card, variant, contract_down=down, own_meld=own, shoe=table.shoe
        )
        for card in candidates
    }
    right, wrong = _sorted_out(verdicts, str(candidates[0]))
    if len(right) > 1 or len(wrong) < 2 or bool(right) == near:
        return None
    shown = rng.sample(wrong, min(len(wrong), 1 + level))
    offered = [str(candidates[0]), *shown]
    rng.shuffle(offered)
    answer = right[0] if right else NONE
    decisive = verdicts[str(candidates[0])]
    question: JSON = {**table.base(), "meld": _text(meld)}
    if down is not None:
        question["contract_down"] = down.value
    if own is not None:
        question["own_meld"] = own
    why = {name: [v.code for v in verdicts[name].violations] for name in offered}
    return Drill(
        "swap",
        level,
        near,
        question,
        (*offered, NONE),
        answer,
        decisive.violations or decisive.conditions,
        {
            "joker_as": str(decisive.joker_as) if decisive.joker_as is not None else None,
            "choices": why,
        },
    )


# -- 6. can you go down with this hand? -------------------------------------------------------


def _hand_size(table: _Table, round_number: int) -> int:
    """A hand just after drawing: the cards dealt and one."""
    variant = table.variant
    dealt = variant.cards_dealt(round_number, table.players)
    return min(dealt + 1, max_hand_size(variant, round_number, table.players))


def _solve_hand(
    table: _Table, round_number: int, level: int, near: bool, rng: random.Random
) -> list[Card] | None:
    """A hand of the round's size: the contract and some cards (one of the contract's cards
    swapped for another: a near miss), or cards as dealt."""
    size = _hand_size(table, round_number)
    variant = table.variant
    if not variant.has_contracts:
        base = _some_meld(table, level, rng) or []
        if near and base:
            changed = _gap(table, base, rng) or _one_short(table, base, rng)
            base = changed if changed is not None else base
    elif near or rng.random() < 0.5:
        # A near miss holds no joker: one would stand in for the card taken out.
        melds = _contract_melds(table, round_number, 1 if near else level, rng)
        if melds is None:
            return None
        base = [card.plain for meld in melds for card in meld]
        if near:
            base.pop(rng.randrange(len(base)))
    else:
        base = []
    if len(base) > size:
        return None
    jokers = not (near and variant.has_contracts)
    hand = base + [table.random_card(rng, jokers=jokers) for _ in range(size - len(base))]
    rng.shuffle(hand)
    return hand


def _solve_drill(table: _Table, level: int, near: bool, rng: random.Random) -> Drill | None:
    from .solver import solve  # the heaviest module of the engine: loaded on use

    variant = table.variant
    rounds = [n for n in _rounds(variant) if not variant.goes_out_only(n)]
    round_number = rng.choice(rounds) if variant.has_contracts else 1
    hand = _solve_hand(table, round_number, level, near, rng)
    if hand is None:
        return None
    solution = solve(hand, variant, round_number)
    if not solution.exact or (near and variant.has_contracts and solution.can_meet_contract):
        return None
    met = bool(solution.can_meet_contract) if variant.has_contracts else None
    question: JSON = {**table.base(), "hand": _text(hand)}
    if variant.has_contracts:
        question["round"] = round_number
    answer = {
        "can_meet_contract": met,
        "melds": [_text(reading.cards) for reading in solution.melds],
        "leftover": _text(solution.leftover),
        "leftover_penalty": solution.leftover_penalty,
    }
    return Drill("solve", level, near, question, None, answer, (), {})


def check_solution(
    variant: Variant, question: Mapping[str, Any], melds: Sequence[Sequence[str]], least: int
) -> bool:
    """Whether a player's melds answer a solve drill as well as the referee's: taken from the
    hand, the round's contract (any melds without one), and what they leave worth the least
    (`least`, the answer's `leftover_penalty`). Nothing laid down is right only where the
    referee lays nothing down either: the whole hand is then the least."""
    hand = list(parse_cards(question["hand"]))
    try:
        laid = [list(parse_cards(list(meld))) for meld in melds]
    except RefereeError:
        return False
    left = list(hand)
    for card in (c for meld in laid for c in meld):
        if card.plain not in [c.plain for c in left]:
            return False
        left.pop([c.plain for c in left].index(card.plain))
    if not laid:
        return penalty_of(hand, variant) == least
    if not _melds_allowed(variant, question, laid):
        return False
    return penalty_of(left, variant) == least


def _melds_allowed(variant: Variant, question: Mapping[str, Any], laid: list[list[Card]]) -> bool:
    shoe = variant.shoe_for(int(question["players"]))
    if variant.has_contracts:
        verdict = check_contract(
            laid, variant, int(question["round"]), shoe=shoe, undeclared_ok=True
        )
        return verdict.valid
    return all(check_meld(meld, variant, shoe=shoe, undeclared_ok=True).valid for meld in laid)


# -- 7. round facts ---------------------------------------------------------------------------


def _shoe_json(shoe: ShoeRule) -> JSON:
    return {"decks": shoe.decks, "jokers": shoe.jokers}


def _facts_drill(table: _Table, level: int, near: bool, rng: random.Random) -> Drill | None:
    """One fact of one situation: a table of N, round R, seat F dealt the first round."""
    variant = table.variant
    fact = rng.choice(FACTS)
    round_number = rng.choice(_rounds(variant))
    first = rng.randint(1, table.players)
    return fact_drill(variant, fact, round_number, table.players, first, level, near)


def fact_drill(
    variant: Variant, fact: str, round_number: int, players: int, first: int, level: int, near: bool
) -> Drill | None:
    """The drill asking `fact` of this situation, if it is a near miss exactly when `near`
    says: who deals is one when the deal is not at seat R (the first deal was not at seat 1,
    or the deal went round the table); the cards, when they are not the variant's first deal
    at its smallest table; the shoe, when it is not the smallest table's."""
    question: JSON = {
        "variant": variant.id,
        "players": players,
        "fact": fact,
        "round": round_number,
        "first_dealer": first,
    }
    if fact == "dealer":
        answer: Any = variant.dealer_of(round_number, first - 1, players) + 1
        trap = answer != round_number
        choices: list[Any] = list(range(1, players + 1))
    elif fact == "cards":
        answer = variant.cards_dealt(round_number, players)
        plain = variant.cards_dealt(1, variant.min_players)
        trap = answer != plain
        choices = _number_choices(answer, [plain])
    else:
        shoe = variant.shoe_for(players)
        trap = shoe != variant.shoe_for(variant.min_players)
        answer = _shoe_json(shoe)
        choices = _shoe_choices(variant, shoe)
    if trap != near:
        return None
    return Drill("facts", level, near, question, tuple(choices), answer, (), {})


def _facts_pool(variant: Variant, players: int | None) -> list[tuple[str, int, int, int]]:
    """Every situation a facts drill may ask about: (fact, round, players, first dealer)."""
    sizes = (
        [players] if players is not None else range(variant.min_players, variant.max_players + 1)
    )
    return [
        (fact, round_number, size, first)
        for fact in FACTS
        for size in sizes
        for round_number in _rounds(variant)
        for first in range(1, size + 1)
    ]


def _number_choices(answer: int, near: Sequence[int]) -> list[int]:
    """The answer and three others close to it (the numbers a player mixes it up with first)."""
    close = [*near, answer - 1, answer + 1, answer + 2, answer - 2]
    others = [n for n in dict.fromkeys(close) if n != answer and n >= 1]
    return sorted([answer, *others[:3]])


def _shoe_choices(variant: Variant, shoe: ShoeRule) -> list[JSON]:
    """The table's shoe, the variant's other shoes and the shoes next to it."""
    pairs = [(shoe.decks, shoe.jokers)]
    pairs += [(rule.decks, rule.jokers) for rule in variant.shoe]
    pairs += [
        (shoe.decks + 1, shoe.jokers + 2),
        (max(1, shoe.decks - 1), max(0, shoe.jokers - 2)),
        (shoe.decks, shoe.jokers + 2),
        (shoe.decks + 1, shoe.jokers),
    ]
    unique = list(dict.fromkeys(pairs))[:4]
    unique.sort()
    return [{"decks": decks, "jokers": jokers} for decks, jokers in unique]


_MAKERS: Final[Mapping[str, Callable[[_Table, int, bool, random.Random], Drill | None]]] = {
    "meld": _meld_drill,
    "contract": _contract_drill,
    "value": _value_drill,
    "layoff": _layoff_drill,
    "swap": _swap_drill,
    "solve": _solve_drill,
    "facts": _facts_drill,
}
