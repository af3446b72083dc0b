"""Penalties and game scoring: what a hand costs, a round's scores, totals and the winner."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .cards import Card, Rank
from .errors import RefereeError
from .variants import Contract, GoingOutDiscard, Scoring, Variant


class ScoringError(RefereeError):
    """Round results that break the rules (two players out, an impossible penalty...)."""


def penalty_of(cards: Iterable[Card], variant: Variant) -> int:
    """Penalty points of the cards left in a hand."""
    return sum(variant.points_of(c) for c in cards)


def penalty_breakdown(cards: Iterable[Card], variant: Variant) -> list[tuple[Card, int]]:
    """Each card with its points, in the order given."""
    return [(c.plain, variant.points_of(c)) for c in cards]


@dataclass(frozen=True)
class ValueClass:
    """Cards that cost the same: a table may count a hand by class (3 low, 2 high, 1 joker)."""

    points: int
    ranks: tuple[Rank, ...]
    joker: bool = False


def value_classes(variant: Variant) -> tuple[ValueClass, ...]:
    """The variant's cards grouped by points, cheapest first; jokers are a class of their own."""
    by_points: dict[int, list[Rank]] = {}
    for rank in Rank:
        by_points.setdefault(variant.rank_points[rank - 1], []).append(rank)
    classes = [ValueClass(points, tuple(ranks)) for points, ranks in sorted(by_points.items())]
    if variant.uses_jokers:
        classes.append(ValueClass(variant.joker_points, (), joker=True))
    return tuple(classes)


# RULES.md "Hand sizes": where several discards may be taken at once, hands stop at this.
SEVERAL_DISCARDS_HAND: Final = 30


def _dealt(
    variant: Variant,
    round_number: int,
    players: int | None,
    pick: Callable[[Iterable[int]], int],
) -> int:
    """The cards each player is dealt in a round: at this table, or (`players` None) the
    largest or smallest deal (`pick`) of any table the variant is played at."""
    if players is not None:
        return variant.cards_dealt(round_number, players)
    counts = range(variant.min_players, variant.max_players + 1)
    return pick(variant.cards_dealt(round_number, count) for count in counts)


def max_hand_size(variant: Variant, round_number: int, players: int | None = None) -> int:
    """The most cards a player can hold in a round (RULES.md "Hand sizes"; a bound, not a
    likelihood): the cards dealt, the card drawn, and what the buy limit can bring (each buy
    the discard and its penalty cards); 30 where several discards may be taken at once.
    Without a player count, the largest deal any table of the variant gets.
    Raises RoundError for a round the variant does not have.
    """
    most = _dealt(variant, round_number, players, max) + 1  # a drawn card not yet discarded
    if variant.buying_played:
        most += variant.buy_limit * (1 + variant.buy_penalty_cards)
    if variant.take_several_discards:
        most = max(most, SEVERAL_DISCARDS_HAND)
    return most


def verify_hand_size(
    cards: int, variant: Variant, round_number: int, players: int | None = None
) -> None:
    """RefereeError `too_many_cards` (limit, count) for a hand of more cards than
    `max_hand_size` allows: an input error, checked before any verdict on the hand."""
    limit = max_hand_size(variant, round_number, players)
    if cards > limit:
        raise RefereeError("too_many_cards", limit=limit, count=cards)


def least_whole_hand(variant: Variant, round_number: int, players: int | None = None) -> int:
    """The fewest cards a whole hand going out holds (RULES.md, fourth reading): the cards
    dealt and the card drawn; buys and several cards taken from the pile only add. Without a
    player count, the smallest deal any table of the variant gets.
    Raises RoundError for a round the variant does not have.
    """
    return _dealt(variant, round_number, players, min) + 1


def most_in_one_turn(variant: Variant, round_number: int, contract: Contract) -> int | None:
    """The most cards a contract's melds and the last discard can hold, where that is bounded
    below any hand (sets of at most `max_set_size`, no runs); None where it is not bounded.
    zioncheck-nl's first deal: two sets of at most 4 and a discard, 9 cards of 11."""
    if contract.runs or variant.max_set_size is None:
        return None
    discard = variant.going_out_discard_in(round_number) is not GoingOutDiscard.FORBIDDEN
    return contract.sets * variant.max_set_size + discard


def verify_whole_hand(
    cards: int, variant: Variant, round_number: int, players: int | None = None
) -> None:
    """A whole hand going out, held to its size before any verdict: longer than
    `max_hand_size` is RefereeError `too_many_cards` (limit, count), shorter than
    `least_whole_hand` is `hand_too_short` (least, count; and `most`, the most the contract's
    melds and a discard hold, where even that is too short: going out needs lay-offs)."""
    verify_hand_size(cards, variant, round_number, players)
    least = least_whole_hand(variant, round_number, players)
    if cards >= least:
        return
    most = most_in_one_turn(variant, round_number, variant.contract_for(round_number))
    if most is not None and most < least:
        raise RefereeError("hand_too_short", least=least, count=cards, most=most)
    raise RefereeError("hand_too_short", least=least, count=cards)


def fewest_cards_held(variant: Variant, round_number: int, players: int, buys: int = 0) -> int:
    """The fewest cards a player who did not go out holds when the round ends.

    In a round laid down only by going out nobody melds before: every player still holds
    every card dealt, plus the discard and penalty cards of each buy. Elsewhere at least one
    card (with none left, they went out).
    """
    if not variant.goes_out_only(round_number):
        return 1
    dealt = variant.cards_dealt(round_number, players)
    return dealt + buys * (1 + variant.buy_penalty_cards)


def _supply(variant: Variant, players: int) -> tuple[tuple[int, int], ...]:
    """(points, copies in the table's shoe) pairs, cheapest first."""
    shoe = variant.shoe_for(players)
    supply: dict[int, int] = {}
    for rank in Rank:
        value = variant.rank_points[rank - 1]
        supply[value] = supply.get(value, 0) + 4 * shoe.decks
    if shoe.jokers:
        supply[variant.joker_points] = supply.get(variant.joker_points, 0) + shoe.jokers
    return tuple(sorted(supply.items()))


def least_penalty(variant: Variant, round_number: int, players: int, buys: int = 0) -> int:
    """What the cheapest hand a player who did not go out can hold is worth."""
    left = fewest_cards_held(variant, round_number, players, buys)
    least = 0
    for points, copies in _supply(variant, players):
        taken = min(left, copies)
        least += taken * points
        left -= taken
    return least


def possible_penalty(
    points: int, variant: Variant, round_number: int, players: int, buys: int = 0
) -> bool:
    """Whether some hand a player could hold at the end of this round costs exactly `points`.

    The hand holds at least `fewest_cards_held` cards and at most `max_hand_size`, all from
    the table's shoe.
    """
    if points < 0:
        return False
    low = fewest_cards_held(variant, round_number, players, buys)
    high = max(low, max_hand_size(variant, round_number, players))
    return points in _reachable(_supply(variant, players), low, high)


def penalty_problem(
    points: int, variant: Variant, round_number: int, players: int, buys: int = 0
) -> tuple[str, dict[str, int]] | None:
    """Why no hand a player who did not go out could hold is worth `points`, as a code and
    its params; None when some hand is.

    In a round laid down only by going out, a score below the whole deal's least is said
    as such (``penalty_below_whole_hand``: the cards still held and their least points).
    """
    if variant.goes_out_only(round_number):
        least = least_penalty(variant, round_number, players, buys)
        if points < least:
            cards = fewest_cards_held(variant, round_number, players, buys)
            return "penalty_below_whole_hand", {"penalty": points, "least": least, "cards": cards}
    if not possible_penalty(points, variant, round_number, players, buys):
        return "impossible_penalty", {"penalty": points}
    return None


@lru_cache(maxsize=256)
def _reachable(supply: tuple[tuple[int, int], ...], low: int, high: int) -> frozenset[int]:
    """Sums of `low` to `high` cards drawn from `supply` ((points, copies) pairs)."""
    # counts[s]: a bit for every number of cards that makes the sum s (a bounded knapsack
    # over few distinct values).
    within = (1 << (high + 1)) - 1
    counts: dict[int, int] = {0: 1}
    for value, copies in supply:
        grown = dict(counts)
        for total, bits in counts.items():
            for k in range(1, copies + 1):
                shifted = (bits << k) & within
                if not shifted:
                    break
                key = total + k * value
                grown[key] = grown.get(key, 0) | shifted
        counts = grown
    enough = within & ~((1 << low) - 1)
    return frozenset(total for total, bits in counts.items() if bits & enough)


@dataclass(frozen=True)
class PlayerResult:
    """How one player's round ended: out, or holding cards worth `penalty`."""

    went_out: bool = False
    penalty: int = 0
    rummy: bool = False  # winner-collects games: out in one turn with nothing melded before
    buys: int = 0


def score_round(
    variant: Variant, round_number: int, results: Sequence[PlayerResult]
) -> tuple[int, ...]:
    """Each player's score for a round, in seat order; ScoringError when results can't be."""
    players = len(results)
    variant.check_players(players)
    variant.check_round(round_number)
    out = [i for i, r in enumerate(results) if r.went_out]
    if len(out) > 1:
        raise ScoringError("two_players_out", players=out)
    for seat, result in enumerate(results):
        if result.rummy and not result.went_out:
            raise ScoringError("rummy_needs_going_out", player=seat)
        if result.went_out:
            continue
        problem = penalty_problem(result.penalty, variant, round_number, players, result.buys)
        if problem is not None:
            code, params = problem
            raise ScoringError(code, player=seat, **params)
    if not out and not variant.stock_can_end_a_round:
        raise ScoringError("no_player_out")
    return scores_of(variant, results)


def scores_of(variant: Variant, results: Sequence[PlayerResult]) -> tuple[int, ...]:
    """Each player's score for results already checked (`score_round` checks, then scores)."""
    out = [i for i, r in enumerate(results) if r.went_out]
    if variant.scoring is Scoring.WINNER_COLLECTS and out:
        winner = out[0]
        collected = sum(r.penalty for i, r in enumerate(results) if i != winner)
        if results[winner].rummy:
            collected *= variant.rummy_multiplier
        return tuple(collected if i == winner else 0 for i in range(len(results)))
    if variant.scoring is Scoring.WINNER_COLLECTS:
        return (0,) * len(results)  # the stock ended the deal: nobody won it, nobody collects
    # Nobody out is a round ended by the stock running out: everyone scores their hand.
    return tuple(0 if r.went_out else r.penalty for r in results)


@dataclass(frozen=True)
class Standings:
    """Where a game stands after the rounds played so far."""

    totals: tuple[int, ...]
    finished: bool
    leaders: tuple[int, ...]  # seats in the lead (tie-break applied)
    winner: int | None  # the one winner once the game is finished, else None


def standings(variant: Variant, rounds: Sequence[Sequence[int]], players: int) -> Standings:
    """Totals, whether the game is over, who leads and who won, by the variant's rules."""
    totals = tuple(sum(scores[i] for scores in rounds) for i in range(players))
    if variant.scoring is Scoring.WINNER_COLLECTS:
        target = variant.target if variant.target is not None else 0
        played_out = variant.game_rounds is not None and len(rounds) >= variant.game_rounds
        finished = bool(rounds) and (max(totals) >= target or played_out)
        best = max(totals)
    else:
        finished = variant.game_rounds is not None and len(rounds) >= variant.game_rounds
        best = min(totals)
    leaders = tuple(i for i, total in enumerate(totals) if total == best)
    if len(leaders) > 1 and rounds and variant.tie_break_last_round:
        last = rounds[-1]
        pick = max if variant.scoring is Scoring.WINNER_COLLECTS else min
        best_last = pick(last[i] for i in leaders)
        leaders = tuple(i for i in leaders if last[i] == best_last)
    winner = leaders[0] if finished and len(leaders) == 1 else None
    return Standings(totals=totals, finished=finished, leaders=leaders, winner=winner)
