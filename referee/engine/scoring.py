"""Penalties and game scoring: what a hand costs, a round's scores, totals and the winner."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .cards import Card, Rank
from .errors import RefereeError
from .variants import Scoring, Variant


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


def max_hand_size(variant: Variant, round_number: int, players: int | None = None) -> int:
    """The most cards a player can hold in a round (RULES.md "Hand sizes"; a bound, not a
    likelihood): the cards dealt, the card drawn, and what the buy limit can bring (each buy
    the discard and its penalty cards); 30 where several discards may be taken at once.
    Without a player count, the largest deal any table of the variant gets.
    Raises RoundError for a round the variant does not have.
    """
    if players is None:
        counts = range(variant.min_players, variant.max_players + 1)
        dealt = max(variant.cards_dealt(round_number, count) for count in counts)
    else:
        dealt = variant.cards_dealt(round_number, players)
    most = dealt + 1  # a drawn card not yet discarded
    if variant.buying:
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


def possible_penalty(points: int, variant: Variant, round_number: int, players: int) -> bool:
    """Whether some hand a player could hold at the end of this round costs exactly `points`.

    A player who did not go out holds at least one card (with none left, they went out).
    """
    if points < 0:
        return False
    shoe = variant.shoe_for(players)
    limit = max_hand_size(variant, round_number, players)
    supply: dict[int, int] = {}
    for rank in Rank:
        value = variant.rank_points[rank - 1]
        supply[value] = supply.get(value, 0) + 4 * shoe.decks
    if shoe.jokers:
        supply[variant.joker_points] = supply.get(variant.joker_points, 0) + shoe.jokers
    return points in _reachable(tuple(sorted(supply.items())), limit) and (
        points > 0 or 0 in supply
    )


@lru_cache(maxsize=256)
def _reachable(supply: tuple[tuple[int, int], ...], limit: int) -> frozenset[int]:
    """Sums of at most `limit` cards drawn from `supply` ((points, copies) pairs)."""
    # fewest[s] = fewest cards that make s; a bounded knapsack over few distinct values.
    fewest: dict[int, int] = {0: 0}
    for value, copies in supply:
        nxt = dict(fewest)
        for total, used in fewest.items():
            for k in range(1, min(copies, limit - used) + 1):
                key = total + k * value
                if nxt.get(key, limit + 1) > used + k:
                    nxt[key] = used + k
        fewest = nxt
    return frozenset(fewest)


@dataclass(frozen=True)
class PlayerResult:
    """How one player's round ended: out, or holding cards worth `penalty`."""

    went_out: bool = False
    penalty: int = 0
    rummy: bool = False  # winner-collects games: out in one turn with nothing melded before


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
        if not possible_penalty(result.penalty, variant, round_number, players):
            raise ScoringError("impossible_penalty", player=seat, penalty=result.penalty)
    if variant.scoring is Scoring.WINNER_COLLECTS and not out:
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
        finished = bool(rounds) and max(totals) >= target
        best = max(totals)
    else:
        finished = variant.rounds is not None and len(rounds) >= variant.rounds
        best = min(totals)
    leaders = tuple(i for i, total in enumerate(totals) if total == best)
    if len(leaders) > 1 and rounds and variant.tie_break_last_round:
        last = rounds[-1]
        pick = max if variant.scoring is Scoring.WINNER_COLLECTS else min
        best_last = pick(last[i] for i in leaders)
        leaders = tuple(i for i in leaders if last[i] == best_last)
    winner = leaders[0] if finished and len(leaders) == 1 else None
    return Standings(totals=totals, finished=finished, leaders=leaders, winner=winner)
