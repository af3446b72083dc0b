"""A game at the table: seats, rounds, what a hand may be worth, undo, the end and the winner.

`Game` is a frozen state. Every operation a table performs on it comes as pokerkit's trio:
`verify_x()` raises `GameRefused` with every reason at once (each naming its seat and field),
`can_x()` answers yes or no, and `x()` returns a `Step`: the next state and the `Change` that
the history keeps. The game knows its history (python-chess keeps its move stack in the board):
undo takes back the newest change not yet taken back, and redo (a table's "Restore") puts back
what the newest undo took, if nothing changed since. Storage only keeps what the engine decided.

Glossary: a *seat* is a player's place at the table (0-based, in seat order); a *round* is one
deal with its contract (a game without contracts counts deals); a *result* is how a seat's
round ended: went out, or holding cards worth a penalty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from typing import Any, Final, Protocol

from .cards import Card
from .errors import GameRefused, Reason, RefereeError, allowed, reason
from .house_rules import apply_house_rules, get_variant
from .melds import shoe_violations
from .names import clean_name, name_key, read_names
from .scoring import (
    PlayerResult,
    Standings,
    fewest_cards_held,
    max_hand_size,
    penalty_of,
    penalty_problem,
    scores_of,
    standings,
)
from .variants import (
    HOUSE_RULES,
    MAX_ROUNDS_WITHOUT_CONTRACTS,
    Contract,
    Scoring,
    ShoeRule,
    Variant,
)

#: The most seats at any table a variant or house rule allows.
MAX_SEATS: Final = HOUSE_RULES["max_players"].high


def _refuse(
    code: str, /, *, player: int | None = None, field: str | None = None, **params: Any
) -> GameRefused:
    return GameRefused([reason(code, player=player, field=field, **params)])


# -- rounds and changes -----------------------------------------------------------------------


@dataclass(frozen=True)
class SeatResult:
    """How one seat's round ended, as the table says it.

    `penalty` is None when only the `cards` were given (the points are counted from them);
    both may be given and must then agree. A seat that went out has neither.
    """

    went_out: bool = False
    penalty: int | None = None
    rummy: bool = False  # winner-collects games: out in one turn with nothing melded before
    cards: tuple[Card, ...] | None = None
    buys: int = 0


@dataclass(frozen=True)
class Round:
    """A round as entered, with each seat's score."""

    number: int
    results: tuple[SeatResult, ...]
    scores: tuple[int, ...]

    @property
    def went_out(self) -> int | None:
        """The seat that went out, or None (the stock ran out)."""
        return next((seat for seat, r in enumerate(self.results) if r.went_out), None)


class Action(Enum):
    """What a change did to the rounds."""

    ADD = "add"
    EDIT = "edit"
    UNDO = "undo"
    REDO = "redo"  # an undo taken back: what it took, put back


@dataclass(frozen=True)
class Change:
    """One step of a game's history: a round's results before and after (None: not there)."""

    action: Action
    round: int
    before: tuple[SeatResult, ...] | None
    after: tuple[SeatResult, ...] | None


@dataclass(frozen=True)
class Deal:
    """What the table needs before dealing a round."""

    number: int
    contract: Contract | None  # None in a game without contracts
    dealer: int  # seats
    starter: int
    cards: int  # cards each player is dealt
    shoe: ShoeRule


@dataclass(frozen=True)
class Step:
    """The game after an operation, and the change the history keeps of it."""

    game: Game
    change: Change

    @property
    def logged(self) -> Logged:
        """The change as the history keeps it (what storage writes)."""
        newest = self.game.history.newest
        assert newest is not None  # every step is the newest change of its game
        return newest


# -- the history ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Logged:
    """A change as a game's history keeps it, named by the version it made.

    `next_undo` links the history into the stack undo works on (the version of a change):
    for a change an undo may take back (a round entered, corrected or restored), the change an
    undo took back before it was made, the one under it; for an undo, the one the next undo
    takes back. So what an undo takes back, and what it takes back after that, is always one
    lookup away, however long the history.
    """

    version: int
    change: Change
    next_undo: int | None


class Log(Protocol):
    """A game's changes by the version they made: in memory, or read from storage when asked."""

    def __getitem__(self, version: int, /) -> Logged: ...


class _NoChanges:
    def __getitem__(self, version: int, /) -> Logged:
        raise KeyError(version)


class _Chain:
    """A history kept in memory: the newest change on top of the ones before (shared, never
    copied: a game's every state keeps its own history at the cost of one link)."""

    def __init__(self, logged: Logged, before: Log) -> None:
        self._logged = logged
        self._before = before

    def __getitem__(self, version: int, /) -> Logged:
        link: Log = self
        while isinstance(link, _Chain):
            if link._logged.version == version:
                return link._logged
            link = link._before
        return link[version]


@dataclass(frozen=True)
class History:
    """What undo and restore act on: the newest change, and every change by its version (`log`).

    Undo takes back the newest change not yet taken back, undos aside (a restore is a change
    like any other); restore takes back the newest change when it is an undo.
    """

    newest: Logged | None = None
    log: Log = field(default_factory=_NoChanges)

    @property
    def undo_version(self) -> int | None:
        """The version of the change an undo takes back (None: nothing left to undo)."""
        newest = self.newest
        if newest is None or newest.change.action is Action.UNDO:
            return None if newest is None else newest.next_undo
        return newest.version

    @property
    def undoable(self) -> Logged | None:
        """The change an undo takes back."""
        version = self.undo_version
        newest = self.newest
        if version is None or newest is None:
            return None
        return newest if newest.version == version else self.log[version]

    @property
    def restorable(self) -> Logged | None:
        """The undo a restore takes back: the newest change, when it is an undo."""
        newest = self.newest
        return newest if newest is not None and newest.change.action is Action.UNDO else None

    def then(self, change: Change, version: int, next_undo: int | None) -> History:
        """The history with `change` (which made `version`) as its newest."""
        logged = Logged(version, change, next_undo)
        return History(logged, _Chain(logged, self.log))


# -- players ----------------------------------------------------------------------------------


def _first_dealer(players: Sequence[str], first_dealer: int | str | None) -> int | Reason:
    if first_dealer is None or first_dealer == "":
        return 0
    if isinstance(first_dealer, int) and not isinstance(first_dealer, bool):
        if 0 <= first_dealer < len(players):
            return first_dealer
    elif isinstance(first_dealer, str):
        keys = [name_key(name) for name in players]
        wanted = name_key(clean_name(first_dealer))
        if wanted in keys:
            return keys.index(wanted)
    return reason("unknown_player", field="first_dealer", name=str(first_dealer)[:40])


# -- the game ---------------------------------------------------------------------------------


def table_house_rules(
    variant_id: str, house_rules: Mapping[str, Any] | None, players: int
) -> dict[str, Any]:
    """The house rules of a table of `players` kept from when its variant allowed that many.

    Where the variant's shoe has a rule for such a table but `max_players` no longer reaches
    it, the table's size becomes the house rule `max_players`: zioncheck-nl was played by 3 to 8
    before RULES.md's third reading made more than 5 a house rule (2 decks + 2 jokers), and a
    game saved or exported before then reads on as that house rule. A table that set its own
    `max_players`, and anything else, is left for `Game.start` to judge.
    """
    rules = dict(house_rules or {})
    if "max_players" in rules:
        return rules  # the table said its own
    try:
        variant = get_variant(variant_id, rules or None)
    except RefereeError:
        return rules
    bound = HOUSE_RULES["max_players"]
    shoe_for_it = any(rule.min_players <= players <= rule.max_players for rule in variant.shoe)
    if variant.max_players < players <= bound.high and shoe_for_it:
        rules["max_players"] = players
    return rules


@dataclass(frozen=True, kw_only=True)
class Game:
    """A game's state: the variant as the table plays it, the seats, the rounds, the version.

    `house_rules` are the overrides as the table gave them (they make `variant` from the
    registered variant, and go into exports). `version` grows by one with every change, and
    `history` keeps the changes (two games are equal by their state of play, whatever their
    histories).
    """

    variant: Variant
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    players: tuple[str, ...]
    first_dealer: int = 0
    rounds: tuple[Round, ...] = ()
    version: int = 1
    history: History = field(default_factory=History, compare=False, repr=False)

    # -- starting ------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        variant_id: str,
        players: Sequence[Any],
        *,
        house_rules: Mapping[str, Any] | None = None,
        first_dealer: int | str | None = None,
    ) -> Game:
        """A new game with no rounds; GameRefused with every reason the table cannot start."""
        reasons: list[Reason] = []
        variant: Variant | None = None
        try:
            variant = get_variant(variant_id, house_rules)
        except RefereeError as error:
            where = "variant" if error.code == "unknown_variant" else "house_rules"
            reasons.append(Reason.of(error, field=where))
        names, name_reasons = read_names(players)
        reasons.extend(name_reasons)
        if variant is not None and not name_reasons:
            try:
                variant.check_players(len(names))
            except RefereeError as error:
                reasons.append(Reason.of(error, field="players"))
        dealer = _first_dealer(names, first_dealer)
        if isinstance(dealer, Reason):
            reasons.append(dealer)
        if reasons or variant is None or isinstance(dealer, Reason):
            raise GameRefused(reasons)
        return cls(
            variant=variant,
            house_rules=dict(house_rules or {}),
            players=names,
            first_dealer=dealer,
        )

    def rematch(self) -> Game:
        """A new game for the same table: the same players, variant and house rules, and the
        first deal to the seat after this game's first dealer."""
        return Game.start(
            self.variant.id,
            self.players,
            house_rules=self.house_rules or None,
            first_dealer=(self.first_dealer + 1) % len(self.players),
        )

    @classmethod
    def restore(
        cls,
        *,
        variant: Variant,
        house_rules: Mapping[str, Any],
        players: Sequence[str],
        first_dealer: int,
        results: Sequence[Sequence[SeatResult]],
        version: int,
        history: History | None = None,
    ) -> Game:
        """A game read back from storage: its rounds were verified when they were entered.

        A table larger than its variant allows today keeps its size as the house rule
        `max_players` (see `table_house_rules`).
        """
        if len(players) > variant.max_players:
            widened = table_house_rules(variant.id, house_rules, len(players))
            if widened != dict(house_rules):
                house_rules = widened
                variant = apply_house_rules(variant, {"max_players": len(players)})
        game = cls(
            variant=variant,
            house_rules=dict(house_rules),
            players=tuple(players),
            first_dealer=first_dealer,
            version=version,
        )
        rounds = tuple(game._scored(n, tuple(r)) for n, r in enumerate(results, start=1))
        return replace(game, rounds=rounds, history=history or History())

    # -- where the game stands -----------------------------------------------------------

    @cached_property
    def standings(self) -> Standings:
        return standings(self.variant, [r.scores for r in self.rounds], len(self.players))

    @property
    def finished(self) -> bool:
        """Over by the variant's rules (its rounds played, or the target reached), or a game to
        a target that ran out of deals."""
        endless = self.variant.game_rounds is None
        return self.standings.finished or (
            endless and len(self.rounds) >= MAX_ROUNDS_WITHOUT_CONTRACTS
        )

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats sharing the win once the game is over (one, unless a tie stands)."""
        return self.standings.leaders if self.finished else ()

    @property
    def winner(self) -> int | None:
        """The one winning seat, or None while playing or when the win is shared."""
        winners = self.winners
        return winners[0] if len(winners) == 1 else None

    def running_totals(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's total after each round."""
        totals = [0] * len(self.players)
        out = []
        for r in self.rounds:
            totals = [t + s for t, s in zip(totals, r.scores, strict=True)]
            out.append(tuple(totals))
        return tuple(out)

    @property
    def next_round(self) -> int | None:
        """The number of the round to enter next, None once the game is over."""
        return None if self.finished else len(self.rounds) + 1

    @property
    def shoe(self) -> ShoeRule:
        """The decks and jokers this table plays with."""
        return self.variant.shoe_for(len(self.players))

    def dealer_of(self, number: int) -> int:
        return self.variant.dealer_of(number, self.first_dealer, len(self.players))

    def deal(self, number: int) -> Deal:
        """Contract, dealer, starter, cards each and shoe of round `number`."""
        variant = self.variant
        seats = len(self.players)
        dealer = self.dealer_of(number)
        return Deal(
            number=number,
            contract=variant.contract_for(number) if variant.has_contracts else None,
            dealer=dealer,
            starter=(dealer + 1) % seats,
            cards=variant.cards_dealt(number, seats),
            shoe=self.shoe,
        )

    # -- entering a round ----------------------------------------------------------------

    def verify_round(self, number: int, results: Sequence[SeatResult]) -> None:
        """GameRefused unless `results` can be entered as round `number` now."""
        if self.next_round is None:
            raise _refuse("game_finished", field="round")
        if number != self.next_round:
            raise _refuse(
                "round_out_of_order", field="round", round=number, expected=self.next_round
            )
        self._verify_results(number, results)

    def can_enter_round(self, number: int, results: Sequence[SeatResult]) -> bool:
        return allowed(lambda: self.verify_round(number, results))

    def repeats_previous(self, number: int, results: Sequence[SeatResult]) -> bool:
        """Whether round `number` would score exactly as the round before it, the same seat
        out: more often a form sent twice than a table dealt the same twice."""
        if not 2 <= number <= len(self.rounds) + 1 or len(results) != len(self.players):
            return False
        previous = self.rounds[number - 2]
        scored = self._scored(number, _settled(self.variant, results))
        return (scored.scores, scored.went_out) == (previous.scores, previous.went_out)

    def entered_as(self, number: int, results: Sequence[SeatResult]) -> bool:
        """Whether round `number` is entered with exactly these results (a hand given by its
        cards or by its points alike, as the round keeps them)."""
        if not 1 <= number <= len(self.rounds) or len(results) != len(self.players):
            return False
        return self.rounds[number - 1].results == _settled(self.variant, results)

    def enter_round(self, number: int, results: Sequence[SeatResult]) -> Step:
        """The game with round `number` entered."""
        self.verify_round(number, results)
        entered = self._scored(number, _settled(self.variant, results))
        change = Change(Action.ADD, number, None, entered.results)
        return self._stepped(change, (*self.rounds, entered))

    # -- correcting a round --------------------------------------------------------------

    def verify_correction(self, number: int, results: Sequence[SeatResult]) -> None:
        """GameRefused unless round `number`, already entered, can be given these results."""
        if not 1 <= number <= len(self.rounds):
            raise _refuse("no_such_round", field="round", round=number)
        self._verify_results(number, results)
        settled = _settled(self.variant, results)
        if settled == self.rounds[number - 1].results:
            raise _refuse("nothing_changed", field="results", round=number)
        corrected = self._replaced(number, settled)
        self._verify_no_round_after_end(corrected)

    def can_correct_round(self, number: int, results: Sequence[SeatResult]) -> bool:
        return allowed(lambda: self.verify_correction(number, results))

    def correct_round(self, number: int, results: Sequence[SeatResult]) -> Step:
        """The game with round `number` corrected."""
        self.verify_correction(number, results)
        before = self.rounds[number - 1].results
        settled = _settled(self.variant, results)
        change = Change(Action.EDIT, number, before, settled)
        return self._stepped(change, self._replaced(number, settled))

    # -- undo ----------------------------------------------------------------------------

    @property
    def undoable(self) -> Logged | None:
        """The change an undo takes back: the newest one not yet taken back, undos aside."""
        return self.history.undoable

    @property
    def restorable(self) -> Logged | None:
        """The undo a restore takes back: the newest change, when it is an undo."""
        return self.history.restorable

    def verify_undo(self) -> None:
        """GameRefused unless there is a change to take back, the rounds as it left them."""
        last = self.undoable
        if last is None:
            raise _refuse("nothing_to_undo")
        change, rounds = last.change, self.rounds
        fits = 1 <= change.round <= len(rounds)
        if fits and change.before is None:  # a round added (entered, or restored): the last one
            fits = change.round == len(rounds)
        if not fits or rounds[change.round - 1].results != change.after:
            raise _refuse("not_the_last_change", round=change.round)

    def can_undo(self) -> bool:
        return allowed(self.verify_undo)

    def undo(self) -> Step:
        """The game as it was before the newest change not yet taken back."""
        self.verify_undo()
        last = self.undoable
        assert last is not None
        taken = last.change
        current = self.rounds[taken.round - 1].results
        if taken.before is None:
            rounds = self.rounds[:-1]
        else:
            rounds = self._replaced(taken.round, taken.before)
        return self._stepped(Change(Action.UNDO, taken.round, current, taken.before), rounds, last)

    # -- redo ----------------------------------------------------------------------------

    def verify_redo(self) -> None:
        """GameRefused unless the newest change is an undo whose round is still as the undo left
        it, and what it took still fits."""
        undone = self.restorable
        if undone is None or undone.change.before is None:
            raise _refuse("nothing_to_restore")
        change = undone.change
        number = change.round
        if change.after is None:
            still = len(self.rounds) == number - 1
        else:
            still = 1 <= number <= len(self.rounds)
            still = still and self.rounds[number - 1].results == change.after
        if not still:
            raise _refuse("cannot_restore", round=number)
        assert change.before is not None
        if change.after is None:
            self.verify_round(number, change.before)
        else:
            self.verify_correction(number, change.before)

    def can_redo(self) -> bool:
        return allowed(self.verify_redo)

    def redo(self) -> Step:
        """The game with what the newest undo took back put back."""
        self.verify_redo()
        undone = self.restorable
        assert undone is not None
        change = undone.change
        put_back = change.before
        assert put_back is not None
        if change.after is None:
            rounds = (*self.rounds, self._scored(change.round, put_back))
        else:
            rounds = self._replaced(change.round, put_back)
        return self._stepped(Change(Action.REDO, change.round, change.after, change.before), rounds)

    # -- the rules of a round ------------------------------------------------------------

    def _verify_results(self, number: int, results: Sequence[SeatResult]) -> None:
        try:
            self.variant.check_round(number)
        except RefereeError as error:
            raise GameRefused([Reason.of(error, field="round")]) from None
        if len(results) != len(self.players):
            raise _refuse("bad_input", field="results")
        reasons = [
            r
            for seat, result in enumerate(results)
            for r in self._seat_reasons(number, seat, result)
        ]
        reasons.extend(self._round_reasons(results))
        if reasons:
            raise GameRefused(reasons)

    def _round_reasons(self, results: Sequence[SeatResult]) -> list[Reason]:
        out = [seat for seat, r in enumerate(results) if r.went_out]
        if len(out) > 1:
            return [reason("two_players_out", field="went_out", players=out)]
        if not out and not self.variant.stock_can_end_a_round:
            return [reason("no_player_out", field="went_out")]
        return []

    def _seat_reasons(self, number: int, seat: int, result: SeatResult) -> list[Reason]:
        variant = self.variant
        reasons: list[Reason] = []

        def say(code: str, where: str, **params: Any) -> None:
            reasons.append(reason(code, player=seat, field=where, **params))

        if result.rummy and variant.scoring is not Scoring.WINNER_COLLECTS:
            say("rummy_not_in_variant", "rummy")
        elif result.rummy and not result.went_out:
            say("rummy_needs_going_out", "rummy")
        if result.buys and not variant.buying_played:  # a limit of 0 is no buying
            say("buying_off", "buys")
        elif not 0 <= result.buys <= variant.buy_limit:
            say("too_many_buys", "buys", buys=result.buys, limit=variant.buy_limit)
        if result.went_out:
            if result.penalty or result.cards:
                say("out_with_cards", "penalty")
            return reasons
        if result.cards is not None:
            reasons.extend(self._hand_reasons(number, seat, result))
            counted = penalty_of(result.cards, variant)
            if result.penalty is not None and result.penalty != counted:
                say("penalty_mismatch", "penalty", penalty=result.penalty, cards_penalty=counted)
            return reasons
        if result.penalty is None:
            say("no_penalty", "penalty")
            return reasons
        problem = penalty_problem(result.penalty, variant, number, len(self.players), result.buys)
        if problem is not None:
            say(problem[0], "penalty", **problem[1])
        return reasons

    def _hand_reasons(self, number: int, seat: int, result: SeatResult) -> list[Reason]:
        """A hand the table's shoe can hold at the end of this round."""
        hand = result.cards or ()
        players = len(self.players)
        limit = max_hand_size(self.variant, number, players)
        if len(hand) > limit:
            return [reason("hand_too_big", player=seat, field="cards", count=len(hand), max=limit)]
        if not hand:
            return [reason("impossible_penalty", player=seat, field="cards", penalty=0)]
        fewest = fewest_cards_held(self.variant, number, players, result.buys)
        if len(hand) < fewest:
            return [
                reason("hand_too_small", player=seat, field="cards", count=len(hand), min=fewest)
            ]
        return [
            Reason(v.code, v.params, seat, "cards")
            for v in shoe_violations(hand, self.variant, self.shoe)
        ]

    def _verify_no_round_after_end(self, rounds: Sequence[Round]) -> None:
        # A game to a target ends when someone reaches it: a correction may not end it
        # before rounds that were played after.
        seats = len(self.players)
        scores = [r.scores for r in rounds]
        for end in range(1, len(scores)):
            if standings(self.variant, scores[:end], seats).finished:
                raise _refuse("ends_game_early", field="results", round=end)

    # -- building states -----------------------------------------------------------------

    def _scored(self, number: int, results: tuple[SeatResult, ...]) -> Round:
        players = [PlayerResult(r.went_out, r.penalty or 0, r.rummy) for r in results]
        return Round(number, results, scores_of(self.variant, players))

    def _replaced(self, number: int, results: tuple[SeatResult, ...]) -> tuple[Round, ...]:
        rounds = list(self.rounds)
        rounds[number - 1] = self._scored(number, results)
        return tuple(rounds)

    def _stepped(
        self, change: Change, rounds: tuple[Round, ...], taken_back: Logged | None = None
    ) -> Step:
        """The next state, its history grown by `change`: an undo (`taken_back` is what it took)
        leaves what is under that change to the next undo; any other change goes on top."""
        version = self.version + 1
        under = self.history.undo_version if taken_back is None else taken_back.next_undo
        history = self.history.then(change, version, under)
        game = replace(self, rounds=rounds, version=version, history=history)
        return Step(game, change)


def _settled(variant: Variant, results: Sequence[SeatResult]) -> tuple[SeatResult, ...]:
    """Results as kept: a hand given by its cards gets its points written down too, its cards
    as they lie in the hand (a joker's declaration is for melds); a seat out holds nothing."""
    return tuple(_kept(variant, r) for r in results)


def _kept(variant: Variant, result: SeatResult) -> SeatResult:
    if result.went_out:
        return SeatResult(went_out=True, rummy=result.rummy, buys=result.buys)
    if result.cards is None:
        return result
    cards = tuple(card.plain for card in result.cards)
    return replace(result, penalty=penalty_of(cards, variant), cards=cards)
