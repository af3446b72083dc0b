"""Variants as data: one frozen `Variant` per rule set, and a registry.

Every rule of RULES.md is a field here. Code asks the variant (``variant.buying``,
``variant.max_jokers_per_meld``), never which variant it is. A field a table may change as a
house rule says so in its metadata (`house_rule`: its `RuleKind` and bounds); `HOUSE_RULES` is
built from those fields, and `house_rules.py` reads a table's values for them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from .cards import Card, Rank
from .errors import PlayersError, RoundError, UnknownVariantError

#: Deals in a game that runs to a target score: far beyond any real evening.
MAX_ROUNDS_WITHOUT_CONTRACTS: Final = 60


def N_(name: str) -> str:
    """A variant's name, in English, marked for the catalogs: the web layer says it in the
    table's language (`words.variant_name`), translated once, from this one string."""
    return name


class AceRule(Enum):
    """Where an ace may stand in a run."""

    HIGH_OR_LOW = "high_or_low"  # A-2-3 and Q-K-A, never both ends at once
    LOW_ONLY = "low_only"  # A-2-3 only


class ContractRuns(Enum):
    """What must differ between the runs of one contract."""

    SUIT_OR_START = "suit_or_start"  # no two runs with the same suit and the same starting rank
    DIFFERENT_SUITS = "different_suits"  # every run in a suit of its own
    ANY = "any"


class GoingOutDiscard(Enum):
    """Whether the turn that goes out ends with a discard (where a round allows a choice)."""

    REQUIRED = "required"  # meld and lay off all but one card, and discard it
    EITHER = "either"  # a last card may be discarded, or every card melded
    FORBIDDEN = "forbidden"  # every card melded or laid off, nothing discarded


class ContractDown(Enum):
    """When the player's own contract went down, as a lay-off or joker swap check is told."""

    NO = "no"
    THIS_TURN = "this_turn"
    EARLIER_TURN = "earlier_turn"


class SeedsDiffer(Enum):
    """A rule the seed texts of a variant give two ways: the rule card says which we took."""

    # Seed 000 says the last round needs no final discard, and that it must go without one.
    LAST_ROUND_DISCARD = "last_round_discard"
    # Seed 004 discards face up, seed 000 face down.
    DISCARD_FACE = "discard_face"


class OurReading(Enum):
    """A point the seed texts leave open, which a preset decides: the rule card says the
    choice is ours (and the house rule that changes it), until the table changes that rule."""

    # Seed 000 names progressive rummy's contracts as "other" without listing them.
    CONTRACTS = "contracts"
    # Seed 000: joker rummy plays "sometimes 6 or 8 jokers"; how many at which table is ours.
    JOKERS = "jokers"
    # Seed 000: 7-8 players play "three or four decks plus 6-8 jokers"; the shoe dealt is ours.
    LARGEST_TABLE_SHOE = "largest_table_shoe"
    # Seed 003 says "at most 3 buys per round" without "per player" (seed 000 has it).
    BUY_LIMIT_PER_PLAYER = "buy_limit_per_player"

    @property
    def house_rule(self) -> str:
        """The house rule a table changes this reading by (then the card says the table's)."""
        return {
            OurReading.CONTRACTS: "contracts",
            OurReading.JOKERS: "shoe",
            OurReading.LARGEST_TABLE_SHOE: "shoe",
            OurReading.BUY_LIMIT_PER_PLAYER: "buy_limit",
        }[self]


class Scoring(Enum):
    """How a round is scored and who wins the game."""

    PENALTY = "penalty"  # the one who goes out scores 0, the others their hand; lowest total wins
    WINNER_COLLECTS = "winner_collects"  # the winner scores the others' hands; first to target


class RuleKind(Enum):
    """What a house rule's value is: how it is read, said and asked for, everywhere."""

    BOOL = "bool"  # yes or no
    INT = "int"  # a whole number within bounds
    OPTIONAL_INT = "optional_int"  # the same, or none (no limit, every round)
    CHOICE = "choice"  # one value of the field's Enum
    CONTRACTS = "contracts"  # the contract table: one contract a round
    DEAL = "deal"  # the cards dealt, round by round
    SHOE = "shoe"  # decks and jokers by the number of players
    POINTS = "points"  # the points of each rank

    @property
    def simple(self) -> bool:
        """One switch, number or choice: a single field of a form."""
        return self in (RuleKind.BOOL, RuleKind.INT, RuleKind.OPTIONAL_INT, RuleKind.CHOICE)

    @property
    def number(self) -> bool:
        """A single whole number (or none, for OPTIONAL_INT)."""
        return self in (RuleKind.INT, RuleKind.OPTIONAL_INT)

    @property
    def bounded(self) -> bool:
        """Whether its numbers (the value, or each entry of it) keep within `low` and `high`."""
        return self.number or self in (RuleKind.DEAL, RuleKind.POINTS)

    @property
    def listed(self) -> bool:
        """A list a variant may leave empty (a game without contracts)."""
        return self in (RuleKind.CONTRACTS, RuleKind.DEAL, RuleKind.SHOE)


@dataclass(frozen=True)
class HouseRule:
    """How a `Variant` field is changed as a house rule: its kind, bounds and choices."""

    kind: RuleKind
    low: int = 0
    high: int = 1000
    choices: tuple[str, ...] = ()  # a CHOICE's values: its field's Enum
    legacy: tuple[tuple[Any, str], ...] = ()  # old values still read, with the choice they mean


#: The key of a `Variant` field's metadata that makes it a house rule.
HOUSE_RULE: Final = "house_rule"


def _rule(
    kind: RuleKind,
    low: int = 0,
    high: int = 1000,
    *,
    choices: type[Enum] | None = None,
    legacy: tuple[tuple[Any, str], ...] = (),
) -> Mapping[str, HouseRule]:
    """A field's metadata making it a house rule of this kind (a CHOICE names its Enum)."""
    values = tuple(str(member.value) for member in choices) if choices is not None else ()
    return {HOUSE_RULE: HouseRule(kind, low, high, values, legacy)}


@dataclass(frozen=True)
class Contract:
    """What a round asks to be laid down at once: so many sets and runs, each at least its size."""

    sets: int
    runs: int
    set_size: int = 3
    run_size: int = 4

    @property
    def meld_count(self) -> int:
        return self.sets + self.runs

    @property
    def min_cards(self) -> int:
        return self.sets * self.set_size + self.runs * self.run_size

    def __str__(self) -> str:
        parts = []
        if self.sets:
            parts.append(f"{self.sets} set{'s' if self.sets > 1 else ''} of {self.set_size}")
        if self.runs:
            parts.append(f"{self.runs} run{'s' if self.runs > 1 else ''} of {self.run_size}")
        return " + ".join(parts)

    def to_dict(self) -> dict[str, int]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class ShoeRule:
    """The decks and jokers shuffled together for a range of player counts."""

    min_players: int
    max_players: int
    decks: int
    jokers: int

    def to_dict(self) -> dict[str, int]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class DealRule:
    """Cards dealt to each player for a range of player counts (games without rounds)."""

    min_players: int
    max_players: int
    cards: int

    def to_dict(self) -> dict[str, int]:
        return dataclasses.asdict(self)


def _points(ace: int, low: int | None, ten: int, face: int) -> tuple[int, ...]:
    """Points of A, 2..10, J, Q, K; `low` None means 2-9 count their face value."""
    low_points = [rank if low is None else low for rank in range(2, 10)]
    return (ace, *low_points, ten, face, face, face)


_CONTRACT_TABLE: Final = (
    Contract(sets=2, runs=0),
    Contract(sets=1, runs=1),
    Contract(sets=0, runs=2),
    Contract(sets=3, runs=0),
    Contract(sets=2, runs=1),
    Contract(sets=1, runs=2),
    Contract(sets=0, runs=3),
)


@dataclass(frozen=True, kw_only=True)
class Variant:
    """A rule set. Fields after `source` are the rules; those with a `house_rule` in their
    metadata can be changed by a table (`HOUSE_RULES`, in the order of the fields)."""

    id: str
    name: str
    source: str
    aliases: tuple[str, ...] = ()

    # Table and deal
    min_players: int = field(metadata=_rule(RuleKind.INT, 2, 8))
    max_players: int = field(metadata=_rule(RuleKind.INT, 2, 8))
    shoe: tuple[ShoeRule, ...] = field(metadata=_rule(RuleKind.SHOE))
    # One per round; empty for a game without contracts.
    contracts: tuple[Contract, ...] = field(metadata=_rule(RuleKind.CONTRACTS))
    # Cards each player gets, per round (games with contracts).
    deal: tuple[int, ...] = field(metadata=_rule(RuleKind.DEAL, 1, 20))
    deal_by_players: tuple[DealRule, ...] = ()  # cards each player gets (games without rounds)
    # The game ends at the end of a deal where someone reaches it.
    target: int | None = field(default=None, metadata=_rule(RuleKind.OPTIONAL_INT, 1, 10000))
    # The game ends after this many rounds, the first of the table as they are (a club night's
    # series of N rounds): round 3 keeps round 3's contract, deal and rules, and the last
    # round's own rules stay with the table's last round. None: every round (or to the target).
    rounds_played: int | None = field(
        default=None, metadata=_rule(RuleKind.OPTIONAL_INT, 1, MAX_ROUNDS_WITHOUT_CONTRACTS)
    )

    # Melds
    min_set_size: int = field(default=3, metadata=_rule(RuleKind.INT, 2, 8))
    max_set_size: int | None = field(default=None, metadata=_rule(RuleKind.OPTIONAL_INT, 3, 16))
    set_suits_distinct: bool = field(default=False, metadata=_rule(RuleKind.BOOL))
    # Any run; a contract names its own.
    min_run_size: int = field(default=3, metadata=_rule(RuleKind.INT, 3, 13))
    aces: AceRule = field(
        default=AceRule.HIGH_OR_LOW, metadata=_rule(RuleKind.CHOICE, choices=AceRule)
    )
    around_the_corner: bool = field(default=False, metadata=_rule(RuleKind.BOOL))
    max_jokers_per_meld: int | None = field(
        default=None, metadata=_rule(RuleKind.OPTIONAL_INT, 0, 12)
    )
    # At least one: jokers alone say nothing of the card they stand for (no set, no run to read).
    min_natural_cards: int = field(default=1, metadata=_rule(RuleKind.INT, 1, 13))
    # A joker's card is said aloud and fixed for the round.
    jokers_declared: bool = field(default=False, metadata=_rule(RuleKind.BOOL))
    contract_runs: ContractRuns = field(
        default=ContractRuns.SUIT_OR_START, metadata=_rule(RuleKind.CHOICE, choices=ContractRuns)
    )
    # Two sets of one contract must differ in rank (off: seed 000's "zwei separate
    # Drilling-Gruppen" are separate melds, and with two decks or more six 2s exist).
    distinct_set_ranks: bool = field(default=False, metadata=_rule(RuleKind.BOOL))

    # Play
    layoff_after_contract: bool = field(default=True, metadata=_rule(RuleKind.BOOL))
    layoff_same_turn: bool = field(default=False, metadata=_rule(RuleKind.BOOL))
    joker_swap_runs: bool = field(default=True, metadata=_rule(RuleKind.BOOL))
    joker_swap_sets: bool = field(default=False, metadata=_rule(RuleKind.BOOL))
    # Only a player whose contract is down may swap.
    joker_swap_after_contract: bool = field(default=False, metadata=_rule(RuleKind.BOOL))
    joker_swap_after_earlier_turn: bool = field(default=False, metadata=_rule(RuleKind.BOOL))
    joker_swap_use_same_turn: bool = field(default=False, metadata=_rule(RuleKind.BOOL))
    # False: only from another player's meld.
    joker_swap_own_melds: bool = field(default=True, metadata=_rule(RuleKind.BOOL))
    buying: bool = field(default=False, metadata=_rule(RuleKind.BOOL))
    # Per player and round.
    buy_limit: int = field(default=3, metadata=_rule(RuleKind.INT, 0, 20))
    buy_penalty_cards: int = field(default=1, metadata=_rule(RuleKind.INT, 0, 5))
    buy_before_contract_only: bool = field(default=False, metadata=_rule(RuleKind.BOOL))
    take_several_discards: bool = field(default=False, metadata=_rule(RuleKind.BOOL))
    # False: a card taken from the discard pile is not discarded again in the same turn
    # (where several were taken, one of them may be).
    rediscard_taken_card: bool = field(default=True, metadata=_rule(RuleKind.BOOL))
    # The last contract is laid down only by going out.
    last_round_goes_out: bool = field(default=False, metadata=_rule(RuleKind.BOOL))
    # Rounds before the last. Before it was a choice it was a switch: true for required, false
    # for either (still read).
    going_out_discard: GoingOutDiscard = field(
        default=GoingOutDiscard.REQUIRED,
        metadata=_rule(
            RuleKind.CHOICE,
            choices=GoingOutDiscard,
            legacy=((True, "required"), (False, "either")),
        ),
    )
    # A round laid down only by going out: the whole hand is melded, no final discard.
    last_round_discard: GoingOutDiscard = field(
        default=GoingOutDiscard.FORBIDDEN, metadata=_rule(RuleKind.CHOICE, choices=GoingOutDiscard)
    )
    # Times the discards become a new stock; running out once more ends the round. None: as
    # often as needed, so a deal always ends with someone going out.
    stock_reshuffles: int | None = field(default=1, metadata=_rule(RuleKind.OPTIONAL_INT, 0, 10))

    # Scoring
    rank_points: tuple[int, ...] = field(
        default=_points(15, 5, 10, 10), metadata=_rule(RuleKind.POINTS, 0, 100)
    )
    joker_points: int = field(default=15, metadata=_rule(RuleKind.INT, 0, 100))
    scoring: Scoring = Scoring.PENALTY
    rummy_multiplier: int = field(default=2, metadata=_rule(RuleKind.INT, 1, 10))
    tie_break_last_round: bool = field(default=True, metadata=_rule(RuleKind.BOOL))

    # Where the seeds give a rule two ways (not a switch: the rule card says which we took).
    seeds_differ: tuple[SeedsDiffer, ...] = ()
    # House rules whose value the seed gives as a default ("usually", "unless you agree
    # otherwise"): the rule card says it that way and names the house rule.
    said_as_defaults: tuple[str, ...] = ()
    # Points the seeds leave open that this preset decides: the rule card says they are ours.
    our_readings: tuple[OurReading, ...] = ()

    # -- questions about the variant --------------------------------------------------------

    @property
    def has_contracts(self) -> bool:
        return bool(self.contracts)

    @property
    def rounds(self) -> int | None:
        """Rounds in a game; None when the game runs to a target score."""
        return len(self.contracts) if self.contracts else None

    @property
    def game_rounds(self) -> int | None:
        """Rounds a game plays: the table's (`rounds`), or the first `rounds_played` of them;
        None for a game to a target without a limit."""
        return self.rounds_played if self.rounds_played is not None else self.rounds

    def is_final_round(self, round_number: int) -> bool:
        """Whether the game ends with this round (not the table's last round: `is_last_round`,
        whose rules a game of fewer rounds never plays)."""
        return self.game_rounds is not None and round_number == self.game_rounds

    @property
    def uses_jokers(self) -> bool:
        return any(rule.jokers for rule in self.played_shoes)

    def contract_for(self, round_number: int) -> Contract:
        """The contract of a round (1-based); RoundError when there is none."""
        if not self.contracts:
            raise RoundError("no_contract", variant=self.id)
        self.check_round(round_number)
        return self.contracts[round_number - 1]

    def check_round(self, round_number: int) -> None:
        if self.rounds is None:
            if round_number < 1:
                raise RoundError(round=round_number, rounds=0)
            return
        if not 1 <= round_number <= self.rounds:
            raise RoundError(round=round_number, rounds=self.rounds)

    def is_last_round(self, round_number: int) -> bool:
        return self.rounds is not None and round_number == self.rounds

    def goes_out_only(self, round_number: int) -> bool:
        """Whether a round's contract is laid down only by going out (nothing melded before)."""
        return self.last_round_goes_out and self.is_last_round(round_number)

    def going_out_discard_in(self, round_number: int) -> GoingOutDiscard:
        """Whether going out in this round ends with a discard: required, either, forbidden.

        A round laid down only by going out follows `last_round_discard` (by default it melds
        the whole hand, with no discard).
        """
        if self.goes_out_only(round_number):
            return self.last_round_discard
        return self.going_out_discard

    @property
    def buying_played(self) -> bool:
        """Whether a player may buy at all: buying on, with a limit above 0. A buy limit of 0
        is no buying, everywhere (RULES.md, fourth reading)."""
        return self.buying and self.buy_limit > 0

    @property
    def stock_can_end_a_round(self) -> bool:
        """Whether a round may end with nobody out: the stock ran out once more than allowed."""
        return self.stock_reshuffles is not None

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise PlayersError(
                players=players, min_players=self.min_players, max_players=self.max_players
            )

    def shoe_for(self, players: int) -> ShoeRule:
        """Decks and jokers for this many players."""
        self.check_players(players)
        for rule in self.shoe:
            if rule.min_players <= players <= rule.max_players:
                return rule
        return self.shoe[-1]

    @property
    def played_shoes(self) -> tuple[ShoeRule, ...]:
        """The shoes of the player counts the variant is played with, in the order listed.

        A shoe rule for tables larger than `max_players` is a house rule's, not played here
        (zioncheck-nl's 2 decks + 2 jokers for more than 5 players).
        """
        counts = range(self.min_players, self.max_players + 1)
        used = {self.shoe_for(count) for count in counts}
        return tuple(rule for rule in self.shoe if rule in used)

    @property
    def max_decks(self) -> int:
        """The decks of the largest shoe the variant is played with (the player count unknown)."""
        return max(rule.decks for rule in self.played_shoes)

    @property
    def max_jokers(self) -> int:
        return max(rule.jokers for rule in self.played_shoes)

    def cards_dealt(self, round_number: int, players: int) -> int:
        """Cards each player is dealt in a round."""
        if self.deal_by_players:
            self.check_players(players)
            for rule in self.deal_by_players:
                if rule.min_players <= players <= rule.max_players:
                    return rule.cards
            return self.deal_by_players[-1].cards
        self.check_round(round_number)
        return self.deal[min(round_number, len(self.deal)) - 1]

    def points_of(self, card: Card) -> int:
        """Penalty points of one card left in a hand."""
        if card.rank is None:
            return self.joker_points
        return self.rank_points[card.rank - 1]

    def dealer_of(self, round_number: int, first_dealer: int, players: int) -> int:
        """Seat index of the dealer of a round; the deal passes to the left (next seat)."""
        return (first_dealer + round_number - 1) % players

    # -- data out --------------------------------------------------------------------------

    def house_rules(self) -> dict[str, Any]:
        """Every switch a table may change, by name, with this variant's value."""
        return {name: _to_json(getattr(self, name)) for name in HOUSE_RULES}

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "source": self.source,
            "aliases": list(self.aliases),
            "players": {"min": self.min_players, "max": self.max_players},
            "rounds": [
                {"round": n, "contract": c.to_dict(), "deal": self.deal[n - 1]}
                for n, c in enumerate(self.contracts, start=1)
            ],
            "deal_by_players": [rule.to_dict() for rule in self.deal_by_players],
            "target": self.target,
            "shoe": [rule.to_dict() for rule in self.shoe],
            "card_values": _to_json(self.rank_points) | {"JK": self.joker_points},
            "melds": {
                name: _to_json(getattr(self, name))
                for name in (
                    "min_set_size",
                    "max_set_size",
                    "set_suits_distinct",
                    "min_run_size",
                    "aces",
                    "around_the_corner",
                    "max_jokers_per_meld",
                    "min_natural_cards",
                    "jokers_declared",
                    "contract_runs",
                    "distinct_set_ranks",
                )
            },
            "house_rules": self.house_rules(),
        }
        return data


#: Every rule a table may change, by name, in the order of the `Variant` fields.
HOUSE_RULES: Final[Mapping[str, HouseRule]] = {
    f.name: f.metadata[HOUSE_RULE] for f in dataclasses.fields(Variant) if HOUSE_RULE in f.metadata
}


def _to_json(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple) and len(value) == 13 and all(isinstance(v, int) for v in value):
        return {rank.letter: points for rank, points in zip(Rank, value, strict=True)}
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return value


# -- the registry ---------------------------------------------------------------------------

CONTRACT: Final = Variant(
    id="contract",
    name=N_("Contract Rummy"),
    source="seeds 000 and 004",
    aliases=("zioncheck", "contract-rummy"),
    min_players=3,
    max_players=8,
    shoe=(ShoeRule(3, 4, 2, 4), ShoeRule(5, 6, 3, 6), ShoeRule(7, 8, 3, 6)),
    contracts=_CONTRACT_TABLE,
    deal=(10, 10, 10, 10, 12, 12, 12),
    min_run_size=3,
    joker_swap_runs=True,
    last_round_goes_out=True,
    seeds_differ=(SeedsDiffer.LAST_ROUND_DISCARD, SeedsDiffer.DISCARD_FACE),
    said_as_defaults=("buy_limit",),  # "normalerweise 3 Käufe pro Runde pro Spieler"
    our_readings=(OurReading.LARGEST_TABLE_SHOE,),  # 3 decks + 6 jokers at 7-8 players
)

SHANGHAI: Final = Variant(
    id="shanghai",
    name=N_("Shanghai Rummy"),
    source="seed 003",
    aliases=("shanghai-rummy",),
    min_players=3,
    max_players=6,
    shoe=(ShoeRule(3, 6, 2, 4),),
    contracts=_CONTRACT_TABLE,
    deal=(11,) * 7,
    min_run_size=4,
    max_jokers_per_meld=1,
    layoff_same_turn=True,
    joker_swap_runs=True,
    joker_swap_sets=True,
    joker_swap_after_contract=True,
    buying=True,
    buy_limit=3,
    buy_before_contract_only=True,
    going_out_discard=GoingOutDiscard.EITHER,
    rank_points=_points(15, 5, 10, 10),
    joker_points=50,
    our_readings=(OurReading.BUY_LIMIT_PER_PLAYER,),  # "Höchstens 3 Käufe pro Runde"
)

ZIONCHECK_NL: Final = Variant(
    id="zioncheck-nl",
    name=N_("Contract Rummy (Dutch rules)"),
    source="seed 001",
    aliases=("contract-nl",),
    min_players=3,
    max_players=5,  # seed 001: 3-5 players; more only as a house rule, with the second shoe
    shoe=(ShoeRule(3, 5, 1, 1), ShoeRule(6, 8, 2, 2)),
    contracts=tuple(dataclasses.replace(c, run_size=3) for c in _CONTRACT_TABLE),
    deal=(10, 10, 10, 10, 12, 12, 12),
    max_set_size=4,
    set_suits_distinct=True,
    min_run_size=3,
    jokers_declared=True,
    contract_runs=ContractRuns.DIFFERENT_SUITS,
    # Seed 001 asks for "een vorige beurt" only before a joker swap, not before a lay-off.
    layoff_same_turn=True,
    joker_swap_runs=True,
    joker_swap_sets=False,
    joker_swap_after_contract=True,
    joker_swap_after_earlier_turn=True,
    joker_swap_use_same_turn=True,
    joker_swap_own_melds=False,  # "als een andere speler een joker gebruikt in een reeks"
    take_several_discards=True,
    rediscard_taken_card=False,
    last_round_goes_out=True,  # "vereist meestal": usually
    said_as_defaults=("last_round_goes_out",),
    going_out_discard=GoingOutDiscard.EITHER,
    rank_points=_points(15, None, 10, 10),
    joker_points=15,
)

RUMMY: Final = Variant(
    id="rummy",
    name=N_("Rummy"),
    source="seed 002",
    aliases=("rommé", "romme", "basic-rummy"),
    min_players=2,
    max_players=6,
    shoe=(ShoeRule(2, 6, 1, 0),),
    contracts=(),
    deal=(),
    deal_by_players=(DealRule(2, 2, 10), DealRule(3, 4, 7), DealRule(5, 6, 6)),
    target=100,
    max_set_size=4,
    min_run_size=3,
    aces=AceRule.LOW_ONLY,
    contract_runs=ContractRuns.ANY,
    layoff_after_contract=False,
    layoff_same_turn=True,
    joker_swap_runs=False,
    joker_swap_sets=False,
    stock_reshuffles=None,
    # "sofern ihr nichts anderes vereinbart", "oder bis zu einer vereinbarten Zahl"
    said_as_defaults=("aces", "target"),
    rank_points=_points(1, None, 10, 10),
    joker_points=0,
    scoring=Scoring.WINNER_COLLECTS,
    rummy_multiplier=2,
    tie_break_last_round=False,  # equal highest totals share the win
)

FRUSTRATION: Final = dataclasses.replace(
    CONTRACT,
    id="frustration",
    name=N_("Frustration Rummy"),
    source="seed 000, named variations",
    aliases=("frustration-rummy",),
    buying=True,
    buy_limit=3,
)

JOKER_RUMMY: Final = dataclasses.replace(
    CONTRACT,
    id="joker-rummy",
    name=N_("Joker Rummy"),
    source="seed 000, named variations",
    aliases=(),
    shoe=(ShoeRule(3, 4, 2, 6), ShoeRule(5, 6, 3, 8), ShoeRule(7, 8, 3, 8)),
    our_readings=(OurReading.JOKERS, OurReading.LARGEST_TABLE_SHOE),
)

PROGRESSIVE: Final = dataclasses.replace(
    CONTRACT,
    id="progressive",
    name=N_("Progressive Rummy"),
    source="seed 000, named variations",
    aliases=("progressive-rummy",),
    deal=(10, 11, 12, 13, 14, 15, 16),
    our_readings=(OurReading.CONTRACTS, OurReading.LARGEST_TABLE_SHOE),
)

SHORT: Final = dataclasses.replace(
    CONTRACT,
    id="short",
    name=N_("Short Contract Rummy"),
    source="seed 000, named variations",
    aliases=("short-game",),
    contracts=tuple(c for n, c in enumerate(_CONTRACT_TABLE, start=1) if n not in (5, 6)),
    deal=(10, 10, 10, 10, 12),
)

VARIANTS: Final[Mapping[str, Variant]] = {
    variant.id: variant
    for variant in (
        CONTRACT,
        SHANGHAI,
        ZIONCHECK_NL,
        RUMMY,
        FRUSTRATION,
        JOKER_RUMMY,
        PROGRESSIVE,
        SHORT,
    )
}

_ALIASES: Final[Mapping[str, str]] = {
    alias: variant.id for variant in VARIANTS.values() for alias in variant.aliases
}


def find_variant(name: str) -> Variant:
    """A registered variant by id or alias (any case, spaces around), as registered: a
    table's house rules are `house_rules.get_variant`'s."""
    if not isinstance(name, str):
        raise UnknownVariantError(variant=str(name)[:40])
    key = name.strip().lower()
    variant_id = key if key in VARIANTS else _ALIASES.get(key)
    if variant_id is None:
        raise UnknownVariantError(variant=name[:40])
    return VARIANTS[variant_id]
