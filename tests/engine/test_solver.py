"""The hand solver: named after what it must get right, from hands a table could hold.

Properties (hypothesis) hold it to check_meld and check_contract, the judges, and to a brute
force that tries every partition of small hands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.candidates import Hand, cannot_meet, rules_for
from referee.engine.cards import JOKER, SUITS, Card, Rank, parse_cards
from referee.engine.contracts import check_contract
from referee.engine.errors import RefereeError
from referee.engine.house_rules import get_variant
from referee.engine.melds import MeldKind, Reading, check_meld
from referee.engine.scoring import max_hand_size, penalty_of, verify_hand_size
from referee.engine.solver import MAX_MISSING, Budget, Solution, _Clock, _Search, solve
from referee.engine.variants import VARIANTS, Variant

CONTRACT = get_variant("contract")
SHANGHAI = get_variant("shanghai")
ZIONCHECK = get_variant("zioncheck-nl")
RUMMY = get_variant("rummy")
JOKER_RUMMY = get_variant("joker-rummy")


def cards_of(reading: Reading) -> list[str]:
    return [str(c) for c in reading.cards]


def physical(reading: Reading, hand: Sequence[Card]) -> list[Card]:
    """The cards of a reading as they sit in the hand (a free joker loses its reading)."""
    declared = Counter(c for c in hand if c.stands_for is not None)
    out = []
    for c in reading.cards:
        if c.stands_for is not None and declared[c] > 0:
            declared[c] -= 1
            out.append(c)
        else:
            out.append(c.plain)
    return out


def assert_judged_valid(
    solution: Solution, hand: Sequence[Card], variant: Variant, number: int
) -> None:
    """Every meld passes check_meld with the round's sizes, and together check_contract."""
    melds = [physical(r, hand) for r in solution.melds]
    if variant.has_contracts:
        contract = variant.contract_for(number)
        sizes: dict[str, Any] = {
            "min_set_size": contract.set_size,
            "min_run_size": contract.run_size,
        }
    else:
        sizes = {}
    for reading, cards in zip(solution.melds, melds, strict=True):
        # A joker is declared as the solver reads it (where jokers are declared at all).
        verdict = check_meld(cards, variant, kind=reading.kind, undeclared_ok=True, **sizes)
        assert verdict.valid, (cards_of(reading), verdict.violations)
        assert reading in verdict.readings, (cards_of(reading), verdict.readings)
    if variant.has_contracts and solution.melds:
        wrong = contract_violations(melds, variant, number)
        assert not wrong, ([cards_of(r) for r in solution.melds], wrong)


def contract_violations(melds: list[list[Card]], variant: Variant, number: int) -> list[Any]:
    """What keeps these melds from making the round's contract. In a round laid down only by
    going out they are judged as melds: whether they are a whole hand (RULES.md, fourth
    reading: dealt + drawn at least) is not the solver's question."""
    verdict = check_contract(melds, variant, number, undeclared_ok=True)
    last = variant.goes_out_only(number)
    return [v for v in verdict.violations if not (last and v.code == "last_round_goes_out")]


def assert_accounts_for_the_hand(
    solution: Solution, hand: Sequence[Card], variant: Variant
) -> None:
    melded = [c for r in solution.melds for c in physical(r, hand)]
    assert Counter(melded) + Counter(solution.leftover) == Counter(hand)
    assert solution.leftover_penalty == penalty_of(solution.leftover, variant)


def hand(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


# -- Contracts, round by round -----------------------------------------------------------------


def test_round_one_two_sets_with_jokers_contract() -> None:
    """Contract round 1, 2 sets of 3: 7 7 + joker and 9 9 9; the king and the 2 stay."""
    cards = hand("7H 7S JK 9C 9D 9S KS 2C")
    solution = solve(cards, CONTRACT, 1)
    assert solution.can_meet_contract
    assert [r.kind for r in solution.melds] == [MeldKind.SET, MeldKind.SET]
    assert sorted(str(c) for c in solution.leftover) == ["2C", "KS"]
    assert solution.leftover_penalty == 15
    assert_judged_valid(solution, cards, CONTRACT, 1)


def test_jokers_go_where_they_absorb_most_contract() -> None:
    """Two jokers and no spare naturals: both jokers are melded, the dearest card with them."""
    cards = hand("AC AD 4S 4H JK JK 8C")
    solution = solve(cards, CONTRACT, 1)
    # A A + JK and 4 4 + JK leave the 8 (5 points); nothing cheaper is possible.
    assert solution.leftover == hand("8C")
    assert solution.leftover_penalty == 5


def test_round_seven_three_runs_going_out_from_thirteen_cards_contract() -> None:
    """Contract round 7 (13 cards dealt as a house rule): three runs of 4, the whole hand."""
    cards = hand("3H 4H 5H 6H 8C 9C 10C JC QC 2S 3S 4S 5S")
    solution = solve(cards, CONTRACT, 7)
    assert solution.can_meet_contract
    assert solution.leftover == ()
    assert solution.leftover_penalty == 0
    assert [r.kind for r in solution.melds] == [MeldKind.RUN] * 3
    verdict = check_contract([list(r.cards) for r in solution.melds], CONTRACT, 7, going_out=True)
    assert verdict.valid


def test_round_seven_not_going_out_shows_what_stays_contract() -> None:
    """Round 7 is laid down only by going out: a leftover card says the player cannot yet."""
    cards = hand("3H 4H 5H 6H 8C 9C 10C JC 2S 3S 4S 5S KD")
    solution = solve(cards, CONTRACT, 7)
    assert solution.can_meet_contract
    assert solution.leftover == hand("KD")


def test_runs_may_share_a_suit_with_different_starts_contract() -> None:
    """Contract round 3: 3-6 of hearts and 8-J of hearts are two runs of one suit."""
    cards = hand("3H 4H 5H 6H 8H 9H 10H JH")
    solution = solve(cards, CONTRACT, 3)
    assert solution.can_meet_contract and solution.leftover == ()
    assert_judged_valid(solution, cards, CONTRACT, 3)


def test_two_runs_same_suit_same_start_need_a_joker_below_contract() -> None:
    """Two decks: 5-8 of hearts twice. The runs must start apart, so a joker goes below one."""
    cards = hand("5H 6H 7H 8H 5H 6H 7H 8H JK")
    solution = solve(cards, CONTRACT, 3)
    assert solution.can_meet_contract and solution.leftover == ()
    assert sorted(r.start for r in solution.melds) == [4, 5]
    assert_judged_valid(solution, cards, CONTRACT, 3)
    without = solve(hand("5H 6H 7H 8H 5H 6H 7H 8H"), CONTRACT, 3)
    assert not without.can_meet_contract


def test_ace_high_or_low_never_around_the_corner_contract() -> None:
    """Q-K-A and A-2-3 are runs; K-A-2-3 is not (the contract's run of 4 needs a joker)."""
    solution = solve(hand("QD KD AD JD 2C 3C 4C AC"), CONTRACT, 3)
    assert solution.can_meet_contract and solution.leftover == ()
    corner = solve(hand("KD AD 2D 3D JK 7C 8C 9C 10C"), CONTRACT, 3)
    assert corner.can_meet_contract
    assert corner.leftover == hand("KD")
    assert not solve(hand("KD AD 2D 3D 7C 8C 9C 10C"), CONTRACT, 3).can_meet_contract


def test_cannot_meet_the_contract_whole_hand_and_missing_cards_contract() -> None:
    """Round 2 (a set of 3 and a run of 4): 7 7 and 4-5-6 of spades lack one card each."""
    cards = hand("7H 7C 4S 5S 6S KD 2C 9H QD 10C")
    solution = solve(cards, CONTRACT, 2, nearest=True)
    assert not solution.can_meet_contract
    assert solution.melds == ()
    assert solution.leftover == cards
    assert solution.leftover_penalty == penalty_of(cards, CONTRACT)
    assert len(solution.missing) == 2
    assert all(c.is_natural for c in solution.missing)
    completed = solve(cards + solution.missing, CONTRACT, 2)
    assert completed.can_meet_contract


def test_missing_is_empty_when_nothing_is_near_contract() -> None:
    """Round 7 needs three runs of 4; two scattered cards are far more than 3 cards away."""
    solution = solve(hand("2C 9D"), CONTRACT, 7, nearest=True)
    assert not solution.can_meet_contract
    assert solution.missing == ()


def test_missing_is_empty_when_the_contract_is_met_contract() -> None:
    assert solve(hand("7H 7S 7D 9C 9D 9S"), CONTRACT, 1, nearest=True).missing == ()


def test_missing_is_searched_only_when_asked_contract() -> None:
    """The nearest contract is a second search: without `nearest` a hand that cannot meet the
    contract answers no missing cards, with it the two it lacks."""
    cards = hand("7H 7C 4S 5S 6S KD 2C 9H QD 10C")
    plain = solve(cards, CONTRACT, 2)
    asked = solve(cards, CONTRACT, 2, nearest=True)
    assert plain.missing == () and len(asked.missing) == 2
    assert (plain.can_meet_contract, plain.leftover_penalty, plain.exact) == (
        asked.can_meet_contract,
        asked.leftover_penalty,
        asked.exact,
    )


# -- Variants ----------------------------------------------------------------------------------


def test_zioncheck_sets_of_distinct_suits() -> None:
    """Zioncheck-nl: a set's suits all differ, so 7H 7H 7S is no set (a second 7 of hearts
    exists only with two decks); 7H 7S 7D is."""
    variant = get_variant(
        "zioncheck-nl", {"shoe": [{"min_players": 3, "max_players": 8, "decks": 2, "jokers": 2}]}
    )
    cards = hand("7H 7H 7S 9C 9D 9S")
    solution = solve(cards, variant, 1)
    assert not solution.can_meet_contract
    assert solve(hand("7H 7D 7S 9C 9D 9S"), variant, 1).can_meet_contract


def test_zioncheck_runs_in_different_suits() -> None:
    """Zioncheck-nl round 3 (2 runs of 3): both runs in hearts are not allowed."""
    cards = hand("2H 3H 4H 8H 9H 10H")
    assert not solve(cards, ZIONCHECK, 3).can_meet_contract
    mixed = hand("2H 3H 4H 8S 9S 10S")
    solution = solve(mixed, ZIONCHECK, 3)
    assert solution.can_meet_contract and solution.leftover == ()
    assert_judged_valid(solution, mixed, ZIONCHECK, 3)


def test_zioncheck_declared_joker_only_as_declared() -> None:
    """A joker declared as the 5 of hearts fills 4-5-6 of hearts, never a set of 9s."""
    cards = hand("4H JK=5H 6H 9C 9D")
    solution = solve(cards, ZIONCHECK, 2, nearest=True)
    assert not solution.can_meet_contract  # the set of 9s lacks its third card
    assert solution.missing and all(c.rank is Rank.NINE for c in solution.missing)
    met = solve(hand("4H JK=5H 6H 9C 9D 9S"), ZIONCHECK, 2)
    assert met.can_meet_contract and met.leftover == ()
    run = next(r for r in met.melds if r.kind is MeldKind.RUN)
    assert Card(stands_for=Card(Rank.FIVE, SUITS[2])) in run.cards


def test_shanghai_one_joker_per_meld() -> None:
    """Shanghai: at most one joker a meld, so 7 7 + 2 jokers is not a set, 7 7 + 1 is."""
    cards = hand("7H 7S JK JK 9C 9D")
    solution = solve(cards, SHANGHAI, 1)
    assert solution.can_meet_contract
    assert all(sum(1 for c in r.cards if c.is_joker) <= 1 for r in solution.melds)
    assert solution.leftover == ()
    assert not solve(hand("7H JK JK 9C 9D JK"), SHANGHAI, 1).can_meet_contract


def test_rummy_seed_002_worked_example() -> None:
    """Seed 002: hearts 4-5-6-7 and three nines meld; the 2 of clubs is left (and discarded)."""
    cards = hand("4H 5H 6H 7H 9C 9D 9S 2C")
    solution = solve(cards, RUMMY, 1)
    assert solution.can_meet_contract
    assert sorted(cards_of(r) for r in solution.melds) == [
        ["4H", "5H", "6H", "7H"],
        ["9C", "9D", "9S"],
    ]
    assert solution.leftover == hand("2C")
    assert solution.leftover_penalty == 2


def test_rummy_aces_low_only() -> None:
    """Rummy: A-2-3 is a run, Q-K-A is not."""
    low = solve(hand("AS 2S 3S"), RUMMY, 1)
    assert low.can_meet_contract and low.leftover == ()
    high = solve(hand("QS KS AS"), RUMMY, 1)
    assert not high.can_meet_contract
    assert high.leftover_penalty == 21


def test_rummy_ignores_the_round_and_keeps_the_dearest_melds() -> None:
    """Rummy: J Q K of spades (30) melds rather than 2 3 4 of spades (9) when both share no card."""
    cards = hand("2S 3S 4S JS QS KS 5D")
    solution = solve(cards, RUMMY, 99)
    assert solution.leftover == hand("5D")


def test_joker_rummy_eight_jokers_all_melded() -> None:
    """Round 1 is exactly two sets: the kings and queens take all eight jokers; 3 and 8 stay."""
    cards = hand("3C 8D KS QH JK JK JK JK JK JK JK JK")
    solution = solve(cards, JOKER_RUMMY, 1)
    assert solution.can_meet_contract
    assert sorted(str(c) for c in solution.leftover) == ["3C", "8D"]
    assert_judged_valid(solution, cards, JOKER_RUMMY, 1)


def test_custom_contract_four_runs_of_three() -> None:
    """A house table, "four runs of 3": four short runs in four suits."""
    variant = get_variant("contract", {"contracts": ["four runs of 3"] * 7})
    cards = hand("2C 3C 4C 5D 6D 7D 8H 9H 10H JS QS KS")
    solution = solve(cards, variant, 1)
    assert solution.can_meet_contract and solution.leftover == ()
    assert len(solution.melds) == 4
    assert_judged_valid(solution, cards, variant, 1)


def test_bad_round_is_an_error() -> None:
    from referee.engine.errors import RoundError

    with pytest.raises(RoundError):
        solve(hand("7H 7S 7D"), CONTRACT, 8)


def test_solutions_do_not_depend_on_the_order_cards_are_given() -> None:
    cards = hand("7H 7S JK 9C 9D 9S KS 2C 4H 5H 6H")
    forward = solve(cards, CONTRACT, 2)
    backward = solve(tuple(reversed(cards)), CONTRACT, 2)
    assert forward.melds == backward.melds
    assert Counter(forward.leftover) == Counter(backward.leftover)


def test_worst_hands_are_solved_right() -> None:
    """20 cards with 8 jokers: a valid answer every round (bench/engine.py times them)."""
    hands = [
        hand("QS JS 7S AS 4H 3S 8S 9C 2S 10D 8H 7S JK JK JK JK JK JK"),
        hand("2H 3H 5H 6H 8H 9H JH QH 2D 4D 5D 7D JK JK JK JK JK JK JK JK"),
        hand("AC 3C 5C 7C 9C JC KC 2D 4D 6D 8D 10D QD JK JK JK JK JK JK JK"),
    ]
    variant = get_variant("joker-rummy", {"deal": [20] * 7})
    for cards in hands:
        for number in range(1, 8):
            solution = solve(cards, variant, number)
            assert_judged_valid(solution, cards, variant, number)


# -- Properties --------------------------------------------------------------------------------

SMALL_POOL = [
    Card(rank, suit)
    for rank in (Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.QUEEN, Rank.KING)
    for suit in SUITS[:3]
]
# Few ranks and suits, so that contracts are often met and often only just.
DENSE_POOL = [
    Card(rank, suit)
    for rank in (Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.KING)
    for suit in SUITS[1:3]
] + [Card(Rank.FOUR, SUITS[0]), Card(Rank.TWO, SUITS[3])]


def legal(cards: list[Card], variant: Variant) -> bool:
    jokers = sum(1 for c in cards if c.is_joker)
    if jokers and not variant.uses_jokers:
        return False
    counts = Counter(c for c in cards if c.is_natural)
    return jokers <= variant.max_jokers and all(n <= variant.max_decks for n in counts.values())


@st.composite
def small_hands(
    draw: st.DrawFn, variant: Variant, max_cards: int = 9, max_jokers: int = 2
) -> list[Card]:
    """Up to `max_cards` cards the variant's shoe can hold, crowded on few ranks and suits."""
    pool = draw(st.sampled_from([SMALL_POOL, DENSE_POOL])) * variant.max_decks
    size = draw(st.integers(min_value=3, max_value=max_cards))
    allowed = min(max_jokers, variant.max_jokers) if variant.uses_jokers else 0
    jokers = draw(st.integers(min_value=0, max_value=min(allowed, size - 1)))
    picks = draw(
        st.lists(
            st.integers(0, len(pool) - 1),
            min_size=min(size - jokers, len(pool)),
            max_size=min(size - jokers, len(pool)),
            unique=True,
        )
    )
    cards = [pool[i] for i in picks] + [JOKER] * jokers
    return list(draw(st.permutations(cards)))


def brute_force(cards: list[Card], variant: Variant, number: int) -> tuple[int, int] | None:
    """(least penalty, fewest cards left) over every partition, or None: no contract at all."""
    if variant.has_contracts:
        contract = variant.contract_for(number)
        sizes: dict[str, Any] = {
            "min_set_size": contract.set_size,
            "min_run_size": contract.run_size,
        }
        groups = contract.meld_count
    else:
        sizes = {}
        groups = len(cards) // 3
    melds: list[int] = []
    for mask in range(1, 1 << len(cards)):
        group = [cards[i] for i in range(len(cards)) if mask >> i & 1]
        if len(group) >= 2 and check_meld(group, variant, undeclared_ok=True, **sizes).valid:
            melds.append(mask)
    best: tuple[int, int] | None = None

    def combine(first: int, union: int, taken: list[int]) -> None:
        nonlocal best
        if taken and (not variant.has_contracts or len(taken) == groups):
            laid = [[cards[i] for i in range(len(cards)) if m >> i & 1] for m in taken]
            if not variant.has_contracts or not contract_violations(laid, variant, number):
                left = [cards[i] for i in range(len(cards)) if not union >> i & 1]
                key = (penalty_of(left, variant), len(left))
                best = key if best is None or key < best else best
        if len(taken) == groups:
            return
        for index in range(first, len(melds)):
            if not melds[index] & union:
                taken.append(melds[index])
                combine(index + 1, union | melds[index], taken)
                taken.pop()

    combine(0, 0, [])
    return best


SMALL_CASES = [
    (CONTRACT, 1),
    (CONTRACT, 2),
    (CONTRACT, 3),
    (SHANGHAI, 1),
    (SHANGHAI, 2),
    (ZIONCHECK, 1),
    (ZIONCHECK, 3),
    (ZIONCHECK, 7),
    (RUMMY, 1),
    (get_variant("contract", {"contracts": ["four sets of 2"] * 7, "min_set_size": 2}), 1),
]


@pytest.mark.parametrize(("variant", "number"), SMALL_CASES, ids=lambda x: getattr(x, "id", x))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_solver_matches_brute_force_on_small_hands(
    variant: Variant, number: int, data: st.DataObject
) -> None:
    """(a) every meld validates, (b) melds + leftover = hand, (c) no partition leaves less,
    (d) the same hand gives the same answer."""
    cards = data.draw(small_hands(variant))
    if not legal(cards, variant):
        return
    solution = solve(cards, variant, number)
    assert_judged_valid(solution, cards, variant, number)
    assert_accounts_for_the_hand(solution, cards, variant)
    best = brute_force(cards, variant, number)
    if best is None:
        assert not solution.can_meet_contract
        assert solution.leftover_penalty == penalty_of(cards, variant)
    else:
        assert solution.can_meet_contract
        assert (solution.leftover_penalty, len(solution.leftover)) == best
    assert solve(list(cards), variant, number) == solution


@st.composite
def dealt_hands(draw: st.DrawFn) -> tuple[Variant, int, list[Card]]:
    variant = draw(st.sampled_from([v for v in VARIANTS.values() if v.has_contracts]))
    number = draw(st.integers(min_value=1, max_value=variant.rounds or 1))
    shoe_rule = variant.shoe_for(4)
    shoe = [Card(r, s) for r in Rank for s in SUITS] * shoe_rule.decks
    shoe += [JOKER] * shoe_rule.jokers
    size = draw(st.integers(min_value=6, max_value=16))
    indexes = draw(
        st.lists(st.integers(0, len(shoe) - 1), min_size=size, max_size=size, unique=True)
    )
    return variant, number, [shoe[i] for i in indexes]


@settings(max_examples=150, deadline=None)
@given(dealt_hands())
def test_dealt_hands_give_valid_accounted_answers(case: tuple[Variant, int, list[Card]]) -> None:
    """Hands dealt from each variant's shoe: melds judged valid, the hand accounted for,
    missing cards complete a contract, and the answer does not change between calls."""
    variant, number, cards = case
    solution = solve(cards, variant, number, nearest=True)
    assert solution.exact
    assert_judged_valid(solution, cards, variant, number)
    assert_accounts_for_the_hand(solution, cards, variant)
    if solution.can_meet_contract:
        assert solution.missing == ()
    else:
        assert solution.leftover == tuple(cards)
        assert len(solution.missing) <= MAX_MISSING
        if solution.missing:
            assert solve(cards + list(solution.missing), variant, number).can_meet_contract
    assert solve(cards, variant, number, nearest=True) == solution


@settings(max_examples=60, deadline=None)
@given(small_hands(CONTRACT, max_cards=8, max_jokers=1))
def test_missing_cards_are_the_fewest(cards: list[Card]) -> None:
    """No smaller set of added cards completes the round-2 contract than `missing` names."""
    if not legal(cards, CONTRACT):
        return
    solution = solve(cards, CONTRACT, 2, nearest=True)
    if solution.can_meet_contract or len(solution.missing) != 2:
        return
    for card in {Card(r, s) for r in Rank for s in SUITS}:
        assert not solve([*cards, card], CONTRACT, 2).can_meet_contract


# -- The budget: no hand ties up a worker ----------------------------------------------------

HUGE = get_variant(
    "contract",
    {
        "deal": [20] * 7,
        "buying": True,
        "buy_limit": 20,
        "buy_penalty_cards": 5,
        "shoe": [{"min_players": 3, "max_players": 8, "decks": 8, "jokers": 16}],
    },
)


def huge_hand(seed: int) -> list[Card]:
    """141 cards, the most these house rules allow (20 dealt, 1 drawn, 20 buys of 6 cards),
    from an 8-deck shoe with 16 jokers."""
    import random

    shoe = [Card(r, s) for r in Rank for s in SUITS] * 8 + [JOKER] * 16
    random.Random(seed).shuffle(shoe)
    return shoe[:141]


def test_hand_sizes_follow_the_deal_the_draw_and_the_buys() -> None:
    """RULES.md "Hand sizes": dealt + 1 drawn + buy limit x (discard + penalty cards); 30 where
    several discards may be taken at once; the largest deal when the table's size is unknown."""
    assert max_hand_size(CONTRACT, 1) == 11 and max_hand_size(CONTRACT, 7) == 13
    assert max_hand_size(get_variant("frustration"), 1) == 10 + 1 + 3 * 2
    assert max_hand_size(SHANGHAI, 4) == 11 + 1 + 3 * 2
    assert max_hand_size(ZIONCHECK, 7) == 30
    assert max_hand_size(RUMMY, 1) == 11 and max_hand_size(RUMMY, 1, 4) == 8
    assert max_hand_size(HUGE, 7) == 20 + 1 + 20 * 6
    verify_hand_size(13, CONTRACT, 7)
    with pytest.raises(RefereeError) as refused:
        verify_hand_size(14, CONTRACT, 7)
    assert refused.value.code == "too_many_cards"
    assert refused.value.params == {"limit": 13, "count": 14}


@pytest.mark.parametrize("number", [1, 4, 7])
def test_past_the_budget_the_best_found_is_valid_and_not_exact(number: int) -> None:
    """The largest hand the rules allow, with a small budget: an answer at once, every meld
    judged valid, the hand accounted for, and `exact` False."""
    cards = huge_hand(number)
    solution = solve(cards, HUGE, number, budget=Budget(steps=3000))
    assert not solution.exact
    assert solution.can_meet_contract  # 141 cards always hold a contract; the first is found
    assert_judged_valid(solution, cards, HUGE, number)
    assert_accounts_for_the_hand(solution, cards, HUGE)


def test_the_budget_counts_steps_so_the_answer_is_the_same_every_time() -> None:
    cards = huge_hand(7)
    first = solve(cards, HUGE, 7, budget=Budget(steps=3000), nearest=True)
    assert solve(cards, HUGE, 7, budget=Budget(steps=3000), nearest=True) == first
    assert first.steps <= 3000


def test_a_budget_too_small_for_the_nearest_contract_says_so() -> None:
    cards = hand("7H 7C 4S 5S 6S KD 2C 9H QD 10C")
    assert solve(cards, CONTRACT, 2, nearest=True).exact
    short = solve(cards, CONTRACT, 2, nearest=True, budget=Budget(steps=20))
    assert not short.exact and not short.can_meet_contract


def test_no_time_left_still_answers() -> None:
    """A wall clock already past its guard (a machine far busier than expected): the answer
    comes at once and says it is not exact."""
    cards = huge_hand(3)
    solution = solve(cards, HUGE, 3, budget=Budget(seconds=0.0))
    assert not solution.exact
    assert_accounts_for_the_hand(solution, cards, HUGE)


@settings(max_examples=60, deadline=None)
@given(dealt_hands(), st.integers(min_value=0, max_value=400))
def test_any_budget_gives_a_valid_answer_and_exact_means_the_least(
    case: tuple[Variant, int, list[Card]], steps: int
) -> None:
    """Whatever the budget: melds judged valid and the hand accounted for; an answer that says
    it is exact is the one an unlimited search gives."""
    variant, number, cards = case
    solution = solve(cards, variant, number, budget=Budget(steps=steps))
    assert_judged_valid(solution, cards, variant, number)
    assert_accounts_for_the_hand(solution, cards, variant)
    unlimited = solve(cards, variant, number, budget=Budget(steps=10**9, seconds=10**6))
    assert unlimited.exact
    if solution.exact:
        assert (solution.can_meet_contract, solution.leftover_penalty) == (
            unlimited.can_meet_contract,
            unlimited.leftover_penalty,
        )
    else:
        assert solution.leftover_penalty >= unlimited.leftover_penalty


@st.composite
def crowded_hands(draw: st.DrawFn) -> tuple[Variant, int, list[Card]]:
    """Hands on few ranks and suits, often just short of a contract or just meeting it."""
    variant, number = draw(st.sampled_from([c for c in SMALL_CASES if c[0].has_contracts]))
    return variant, number, draw(small_hands(variant, max_cards=12, max_jokers=3))


@settings(max_examples=300, deadline=None)
@given(st.one_of(dealt_hands(), crowded_hands()))
def test_a_hand_said_far_from_the_contract_is_one_the_search_cannot_meet(
    case: tuple[Variant, int, list[Card]],
) -> None:
    """`cannot_meet` spares the search most of a deal (issue 35); it never turns away a hand
    the whole search would lay the contract down from."""
    variant, number, cards = case
    if not legal(cards, variant):
        return
    contract = variant.contract_for(number)
    rules = rules_for(variant, contract.set_size, contract.run_size)
    hand = Hand(cards, rules)
    if not cannot_meet(hand, rules, contract.sets, contract.runs):
        return
    slots = [MeldKind.SET] * contract.sets + [MeldKind.RUN] * contract.runs
    search = _Search(hand, rules, slots, 0, _Clock(Budget(steps=10**7, seconds=60)))
    search.run(search.contract)
    assert search.best is None
