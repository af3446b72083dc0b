"""The game as the engine keeps it: one test per table rule, and properties of any sequence of
enters, corrections and undos. No Flask here: `referee.engine.game` is pure."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.cards import parse_cards
from referee.engine.errors import GameRefused
from referee.engine.game import Action, Change, Game, SeatResult
from referee.engine.names import MAX_NAME
from referee.engine.variants import MAX_ROUNDS_WITHOUT_CONTRACTS

OUT = SeatResult(went_out=True)


def held(points: int) -> SeatResult:
    return SeatResult(penalty=points)


def contract_game(players: int = 3, **house_rules: object) -> Game:
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"][:players]
    return Game.start("contract", names, house_rules=house_rules or None)


def reasons_of(
    caught: pytest.ExceptionInfo[GameRefused],
) -> list[tuple[str, int | None, str | None]]:
    return [(r.code, r.player, r.field) for r in caught.value.reasons]


# -- starting ------------------------------------------------------------------------------------


def test_a_new_game_has_no_rounds_and_version_1() -> None:
    game = Game.start("contract", ["Ann", " Bo ", "Cy"], first_dealer=" bo")
    assert game.players == ("Ann", "Bo", "Cy")
    assert game.first_dealer == 1 and game.version == 1 and game.rounds == ()
    assert game.next_round == 1 and not game.finished and game.winners == ()


def test_starting_refuses_every_bad_name_at_once() -> None:
    with pytest.raises(GameRefused) as caught:
        Game.start("contract", ["Ann", "", "ann", "x" * (MAX_NAME + 1)])
    assert reasons_of(caught) == [
        ("empty_name", 1, "players"),
        ("duplicate_name", 2, "players"),
        ("name_too_long", 3, "players"),
    ]


def test_names_that_only_differ_in_form_are_the_same_name() -> None:
    # "Ａnn" (fullwidth A) and "ANN" read as "Ann" to the table.
    with pytest.raises(GameRefused) as caught:
        Game.start("contract", ["Ann", "Ａnn", "Bo"])
    assert reasons_of(caught) == [("duplicate_name", 1, "players")]


def test_starting_refuses_a_table_size_the_variant_does_not_allow() -> None:
    with pytest.raises(GameRefused) as caught:
        Game.start("shanghai", ["Ann", "Bo"])
    assert reasons_of(caught) == [("bad_players", None, "players")]


def test_starting_names_the_unknown_variant_and_the_unknown_dealer() -> None:
    with pytest.raises(GameRefused) as caught:
        Game.start("poker", ["Ann", "Bo", "Cy"], first_dealer="Zed")
    assert reasons_of(caught) == [
        ("unknown_variant", None, "variant"),
        ("unknown_player", None, "first_dealer"),
    ]


# -- one test per table rule ---------------------------------------------------------------------


def test_rule_only_one_player_goes_out_in_a_round() -> None:
    game = contract_game()
    with pytest.raises(GameRefused) as caught:
        game.enter_round(1, [OUT, OUT, held(20)])
    assert reasons_of(caught) == [("two_players_out", None, "went_out")]
    assert caught.value.reasons[0].params["players"] == [0, 1]


def test_rule_rounds_are_entered_in_order_none_skipped() -> None:
    game = contract_game()
    with pytest.raises(GameRefused) as caught:
        game.enter_round(2, [OUT, held(20), held(30)])
    assert reasons_of(caught) == [("round_out_of_order", None, "round")]
    assert dict(caught.value.params) == {"round": 2, "expected": 1}


def test_rule_a_penalty_no_hand_could_make_is_refused() -> None:
    # Contract Rummy counts in fives: no hand is worth 7 points.
    game = contract_game()
    with pytest.raises(GameRefused) as caught:
        game.enter_round(1, [OUT, held(7), held(20)])
    assert reasons_of(caught) == [("impossible_penalty", 1, "penalty")]


def test_rule_no_round_after_the_end() -> None:
    game = contract_game()
    for number in range(1, 8):
        game = game.enter_round(number, [OUT, held(60), held(75)]).game
    assert game.finished and game.next_round is None
    with pytest.raises(GameRefused) as caught:
        game.enter_round(8, [OUT, held(60), held(75)])
    assert reasons_of(caught) == [("game_finished", None, "round")]


def test_rule_every_reason_at_once_each_naming_its_player_and_field() -> None:
    game = Game.start("frustration", ["Ann", "Bo", "Cy", "Di"])
    results = [
        SeatResult(went_out=True, penalty=5),
        SeatResult(penalty=7, buys=9),
        SeatResult(cards=parse_cards("7H 7H 7H"), penalty=20),
        SeatResult(),
    ]
    with pytest.raises(GameRefused) as caught:
        game.verify_round(1, results)
    assert reasons_of(caught) == [
        ("out_with_cards", 0, "penalty"),
        ("too_many_buys", 1, "buys"),
        ("impossible_penalty", 1, "penalty"),
        ("too_many_copies", 2, "cards"),
        ("penalty_mismatch", 2, "penalty"),
        ("no_penalty", 3, "penalty"),
    ]
    assert not game.can_enter_round(1, results)


def test_rule_a_hand_given_by_its_cards_is_counted() -> None:
    game = contract_game()
    step = game.enter_round(1, [OUT, SeatResult(cards=parse_cards("7H QS JK")), held(25)])
    assert step.game.rounds[0].scores == (0, 30, 25)  # 5 + 10 + 15
    assert step.game.rounds[0].results[1].penalty == 30


def test_rule_the_shoe_of_this_table_limits_a_hand() -> None:
    # Three players of the Dutch rules play one deck and one joker.
    game = Game.start("zioncheck-nl", ["Ann", "Bo", "Cy"])
    with pytest.raises(GameRefused) as caught:
        game.enter_round(1, [OUT, SeatResult(cards=parse_cards("JK JK 5H")), held(20)])
    assert reasons_of(caught) == [("too_many_copies", 1, "cards")]


def test_rule_buys_only_where_buying_is_played() -> None:
    game = contract_game()
    with pytest.raises(GameRefused) as caught:
        game.enter_round(1, [OUT, SeatResult(penalty=20, buys=1), held(25)])
    assert reasons_of(caught) == [("buying_off", 1, "buys")]


def test_rule_a_rummy_only_by_going_out_and_only_where_it_doubles() -> None:
    rummy = Game.start("rummy", ["Ann", "Bo", "Cy"])
    with pytest.raises(GameRefused) as caught:
        rummy.enter_round(1, [OUT, SeatResult(penalty=10, rummy=True), held(8)])
    assert reasons_of(caught) == [("rummy_needs_going_out", 1, "rummy")]
    with pytest.raises(GameRefused) as caught:
        contract_game().enter_round(1, [SeatResult(went_out=True, rummy=True), held(5), held(5)])
    assert reasons_of(caught) == [("rummy_not_in_variant", 0, "rummy")]


def test_rule_winner_collects_needs_someone_out() -> None:
    game = Game.start("rummy", ["Ann", "Bo"])
    with pytest.raises(GameRefused) as caught:
        game.enter_round(1, [held(10), held(8)])
    assert reasons_of(caught) == [("no_player_out", None, "went_out")]


def test_seed_002_worked_example_through_the_game() -> None:
    game = Game.start("rummy", ["You", "Ada", "Bo"])
    step = game.enter_round(
        1,
        [
            SeatResult(went_out=True, rummy=True),
            SeatResult(cards=parse_cards("3D 8D AC 5S")),
            SeatResult(cards=parse_cards("7D 6C 2D 3C")),
        ],
    )
    assert step.game.rounds[0].scores == (70, 0, 0)


def test_rule_a_correction_may_not_end_the_game_before_later_rounds() -> None:
    game = Game.start("rummy", ["Ann", "Bo"], house_rules={"target": 50})
    game = game.enter_round(1, [OUT, held(20)]).game
    game = game.enter_round(2, [OUT, held(20)]).game
    with pytest.raises(GameRefused) as caught:
        game.correct_round(1, [OUT, held(60)])
    assert reasons_of(caught) == [("ends_game_early", None, "results")]


def test_rule_a_correction_must_change_something() -> None:
    game = contract_game().enter_round(1, [OUT, held(20), held(25)]).game
    with pytest.raises(GameRefused) as caught:
        game.correct_round(1, [OUT, held(20), held(25)])
    assert reasons_of(caught) == [("nothing_changed", None, "results")]
    with pytest.raises(GameRefused) as caught:
        game.correct_round(2, [OUT, held(20), held(25)])
    assert reasons_of(caught) == [("no_such_round", None, "round")]


def test_rule_undo_after_a_correction_restores_exactly_the_state_before_it() -> None:
    game = contract_game()
    game = game.enter_round(1, [OUT, held(20), held(25)]).game
    game = game.enter_round(2, [held(15), OUT, held(40)]).game
    before = game
    corrected = game.correct_round(1, [OUT, held(30), held(25)])
    assert corrected.change == Change(
        Action.EDIT, 1, before.rounds[0].results, corrected.game.rounds[0].results
    )
    undone = corrected.game.undo()
    assert undone.game.rounds == before.rounds
    assert undone.game.standings == before.standings
    assert undone.game.version == before.version + 2  # the correction and the undo
    assert undone.change.action is Action.UNDO


def test_rule_undo_takes_back_only_the_newest_change() -> None:
    game = contract_game()
    first = game.enter_round(1, [OUT, held(20), held(25)])
    second = first.game.enter_round(2, [OUT, held(20), held(25)])
    assert second.game.undoable is not None and second.game.undoable.change == second.change
    undone = second.game.undo()
    assert undone.game.rounds == first.game.rounds
    # then the change before it: an undo is not itself undone
    assert undone.game.undoable is not None and undone.game.undoable.change == first.change
    assert undone.game.undo().game.rounds == ()
    with pytest.raises(GameRefused) as caught:
        game.undo()
    assert reasons_of(caught) == [("nothing_to_undo", None, None)]
    assert not game.can_undo() and second.game.can_undo()


def test_a_history_out_of_step_with_the_rounds_takes_nothing_back() -> None:
    """A history whose newest change is not what the rounds show (storage gone wrong) is
    refused, never applied."""
    first = contract_game().enter_round(1, [OUT, held(20), held(25)])
    second = first.game.enter_round(2, [OUT, held(20), held(25)])
    out_of_step = replace(first.game, history=second.game.history)
    with pytest.raises(GameRefused) as caught:
        out_of_step.undo()
    assert reasons_of(caught) == [("not_the_last_change", None, None)]
    undone = second.game.undo()
    with pytest.raises(GameRefused) as caught:
        replace(second.game, history=undone.game.history).redo()
    assert reasons_of(caught) == [("cannot_restore", None, None)]


def test_rule_restore_puts_back_what_an_undo_took() -> None:
    game = contract_game()
    game = game.enter_round(1, [OUT, held(20), held(25)]).game
    entered = game.enter_round(2, [held(15), OUT, held(40)])
    undone = entered.game.undo()
    assert len(undone.game.rounds) == 1
    restored = undone.game.redo()
    assert restored.game.rounds == entered.game.rounds
    assert restored.change == Change(Action.REDO, 2, None, entered.change.after)
    assert restored.game.version == entered.game.version + 2
    # a restored round is the newest change: undo takes it back again
    again = restored.game.undo()
    assert again.game.rounds == undone.game.rounds
    assert not restored.game.can_redo()  # restored once: nothing more to restore


def test_rule_restore_puts_back_an_undone_correction() -> None:
    game = contract_game().enter_round(1, [OUT, held(20), held(25)]).game
    corrected = game.correct_round(1, [OUT, held(30), held(25)])
    undone = corrected.game.undo()
    assert undone.game.rounds[0].scores == (0, 20, 25)
    restored = undone.game.redo()
    assert restored.game.rounds[0].scores == (0, 30, 25)
    assert restored.change.before == game.rounds[0].results


def test_rule_restore_only_an_undo_nothing_came_after() -> None:
    game = contract_game().enter_round(1, [OUT, held(20), held(25)]).game
    entered = game.enter_round(2, [held(15), OUT, held(40)])
    undone = entered.game.undo()
    moved_on = undone.game.enter_round(2, [OUT, held(5), held(5)]).game
    with pytest.raises(GameRefused) as caught:
        moved_on.redo()  # round 2 was entered again since
    assert reasons_of(caught) == [("nothing_to_restore", None, None)]
    with pytest.raises(GameRefused) as caught:
        entered.game.redo()  # the newest change is no undo
    assert reasons_of(caught) == [("nothing_to_restore", None, None)]
    assert not entered.game.can_redo() and undone.game.can_redo()
    assert undone.game.restorable is not None and undone.game.restorable.change == undone.change


def test_rule_a_round_that_scores_as_the_one_before_is_a_repeat() -> None:
    game = contract_game().enter_round(1, [OUT, held(20), held(25)]).game
    assert game.repeats_previous(2, [OUT, held(20), held(25)])
    # the same points from the cards are the same round to the table
    assert game.repeats_previous(2, [OUT, held(20), SeatResult(cards=parse_cards("10H 10S 5C"))])
    assert not game.repeats_previous(2, [OUT, held(20), held(30)])
    assert not game.repeats_previous(2, [held(20), OUT, held(25)])
    assert not game.repeats_previous(1, [OUT, held(20), held(25)])  # nothing before round 1
    # re-sending round 1 is not a repeat of anything: it is out of order
    assert not game.repeats_previous(3, [OUT, held(20), held(25)])


def test_a_rematch_keeps_the_table_and_passes_the_first_deal_on() -> None:
    game = Game.start(
        "shanghai", ["Ann", "Bo", "Cy"], house_rules={"buying": False}, first_dealer="Cy"
    )
    again = game.rematch()
    assert again.players == game.players and again.variant == game.variant
    assert again.house_rules == {"buying": False} and again.rounds == ()
    assert again.first_dealer == 0  # Cy dealt first last time: Ann now
    assert again.rematch().first_dealer == 1


def test_the_deal_of_a_round_passes_to_the_left() -> None:
    game = Game.start("contract", ["Ann", "Bo", "Cy", "Di", "Ed"], first_dealer="Cy")
    deal = game.deal(1)
    assert (deal.dealer, deal.starter, deal.cards) == (2, 3, 10)
    assert (deal.shoe.decks, deal.shoe.jokers) == (3, 6)
    assert str(deal.contract) == "2 sets of 3"
    assert game.deal(5).dealer == 1 and game.deal(5).cards == 12
    assert Game.start("rummy", ["Ann", "Bo"]).deal(3).contract is None


def _played(rounds: list[list[SeatResult]]) -> Game:
    game = contract_game(players=4)
    for number, results in enumerate(rounds, start=1):
        game = game.enter_round(number, results).game
    return game


ANN_OUT = [OUT, held(10), held(10), held(10)]
CY_OUT = [held(10), held(10), OUT, held(10)]


def test_rule_ties_go_to_the_lower_last_round_score() -> None:
    """RULES.md, Ties: equal totals go to the lower score in the last round (the whole deal
    is still in every hand there: 60 points at least)."""
    ann_out = [OUT, held(50), held(5), held(50)]
    cy_out = [held(5), held(50), OUT, held(50)]
    cy_out_dearly = [held(10), held(50), OUT, held(50)]
    last = [held(60), OUT, held(65), held(70)]
    game = _played([ann_out, cy_out, ann_out, cy_out, ann_out, cy_out_dearly, last])
    assert game.standings.totals[0] == game.standings.totals[2] == 80
    assert game.winners == (0,) and game.winner == 0


def test_rule_ties_still_equal_after_the_last_round_share_the_win() -> None:
    ann_out = [OUT, held(50), held(5), held(50)]
    cy_out = [held(5), held(50), OUT, held(50)]
    game = _played([ann_out, cy_out] * 3 + [[held(60), OUT, held(60), held(70)]])
    assert game.standings.totals == (75, 300, 75, 370)
    assert game.winners == (0, 2) and game.winner is None
    assert _played([ANN_OUT] * 6).winners == ()  # still playing: nobody has won


# -- properties --------------------------------------------------------------------------------


@dataclass
class Kept:
    """The rule undo and restore follow, kept the plain way: every change with a mark once it
    is taken back (what the store kept before the game knew its history)."""

    changes: list[tuple[Change, bool]] = field(default_factory=list)

    def last_undoable(self) -> Change | None:
        for change, undone in reversed(self.changes):
            if change.action is not Action.UNDO and not undone:
                return change
        return None

    def last_restorable(self) -> Change | None:
        """The newest change, when it is an undo not yet restored (what "Restore" puts back)."""
        if self.changes and self.changes[-1][0].action is Action.UNDO and not self.changes[-1][1]:
            return self.changes[-1][0]
        return None

    def record(self, change: Change) -> None:
        if change.action is Action.REDO:
            self.changes[-1] = (self.changes[-1][0], True)
        elif change.action is Action.UNDO:
            for index in range(len(self.changes) - 1, -1, -1):
                kept, undone = self.changes[index]
                if kept.action is not Action.UNDO and not undone:
                    self.changes[index] = (kept, True)
                    break
        self.changes.append((change, False))


seat_results = st.one_of(
    st.sampled_from([5, 10, 15, 20, 25, 30, 45, 60, 95]).map(held),
    st.lists(
        st.sampled_from(["5H", "QS", "JK", "AC", "9D", "10S"]), min_size=1, max_size=6, unique=True
    ).map(lambda cards: SeatResult(cards=parse_cards(cards))),
)


@st.composite
def round_results(draw: st.DrawFn, players: int) -> list[SeatResult]:
    results = [draw(seat_results) for _ in range(players)]
    out = draw(st.one_of(st.none(), st.integers(0, players - 1)))
    if out is not None:
        results[out] = OUT
    return results


@st.composite
def operations(draw: st.DrawFn) -> list[tuple[str, int, list[SeatResult]]]:
    steps = []
    for _ in range(draw(st.integers(1, 20))):
        kind = draw(st.sampled_from(["enter", "enter", "correct", "undo", "redo"]))
        steps.append((kind, draw(st.integers(1, 7)), draw(round_results(4))))
    return steps


def in_round(number: int, results: list[SeatResult]) -> list[SeatResult]:
    """Results a table could write in `number`: in round 7 every hand still holds all 12 cards
    dealt, so a hand left there is worth at least 60 (RULES.md, still holding the whole deal)."""
    if number < 7:
        return results
    return [r if r.went_out else held(60 + 5 * seat) for seat, r in enumerate(results)]


@settings(max_examples=150, deadline=None)
@given(operations())
def test_property_totals_are_the_sums_of_rounds_and_each_change_adds_one_version(
    steps: list[tuple[str, int, list[SeatResult]]],
) -> None:
    game = contract_game(players=4)
    kept = Kept()
    for kind, number, results in steps:
        if kind == "enter" and game.next_round is not None:
            step = game.enter_round(game.next_round, in_round(game.next_round, results))
        elif kind == "correct" and game.rounds:
            target = (number - 1) % len(game.rounds) + 1
            results = in_round(target, results)
            if not game.can_correct_round(target, results):
                continue
            step = game.correct_round(target, results)
        elif kind == "undo" and game.can_undo():
            step = game.undo()
        elif kind == "redo" and game.can_redo():
            undone = kept.last_restorable()
            assert undone is not None
            step = game.redo()
            # what the undo took is back, exactly
            assert step.game.rounds[: undone.round - 1] == game.rounds[: undone.round - 1]
            assert step.game.rounds[undone.round - 1].results == undone.before
        else:
            continue
        assert step.game.version == game.version + 1
        kept.record(step.change)
        game = step.game
        for seat in range(4):
            assert game.standings.totals[seat] == sum(r.scores[seat] for r in game.rounds)
        assert [r.number for r in game.rounds] == list(range(1, len(game.rounds) + 1))
        assert game.version == 1 + len(kept.changes)
        # the engine's history decides as a store marking each change undone would
        assert (game.undoable and game.undoable.change) == kept.last_undoable()
        assert (game.restorable and game.restorable.change) == kept.last_restorable()
        assert game.can_undo() == (kept.last_undoable() is not None)
        assert game.can_redo() == (kept.last_restorable() is not None)


@settings(max_examples=100, deadline=None)
@given(st.lists(round_results(4), min_size=1, max_size=7))
def test_property_undoing_everything_gives_back_the_new_game(
    rounds: list[list[SeatResult]],
) -> None:
    start = contract_game(players=4)
    game, kept = start, Kept()
    for number, results in enumerate(rounds, start=1):
        step = game.enter_round(number, in_round(number, results))
        kept.record(step.change)
        game = step.game
    while game.can_undo():
        step = game.undo()
        kept.record(step.change)
        game = step.game
    assert kept.last_undoable() is None
    assert game.rounds == () and game.standings == start.standings
    assert game.version == start.version + 2 * len(rounds)


def test_rule_a_game_to_a_target_ends_when_it_runs_out_of_deals() -> None:
    game = Game.start("rummy", ["Ann", "Bo"], house_rules={"target": 10000})
    for number in range(1, MAX_ROUNDS_WITHOUT_CONTRACTS + 1):
        game = game.enter_round(number, [OUT, held(10)] if number % 3 else [held(5), OUT]).game
    assert game.finished and game.next_round is None
    assert game.winners == (0,) and game.winner == 0
    with pytest.raises(GameRefused) as caught:
        game.enter_round(MAX_ROUNDS_WITHOUT_CONTRACTS + 1, [OUT, held(10)])
    assert reasons_of(caught) == [("game_finished", None, "round")]


def test_results_are_kept_as_the_hand_lies_and_a_seat_out_holds_nothing() -> None:
    game = contract_game()
    step = game.enter_round(
        1,
        [
            SeatResult(went_out=True, penalty=0, cards=()),
            SeatResult(cards=parse_cards("JK=7H 8H")),
            held(25),
        ],
    )
    kept = step.game.rounds[0].results
    assert kept[0] == SeatResult(went_out=True)
    assert kept[1].cards is not None and kept[1].penalty == 20
    assert [str(card) for card in kept[1].cards] == ["JK", "8H"]
    # the same results again change nothing, however the joker was written
    again = [OUT, SeatResult(cards=parse_cards("JK 8H")), held(25)]
    with pytest.raises(GameRefused) as caught:
        step.game.correct_round(1, again)
    assert reasons_of(caught) == [("nothing_changed", None, "results")]


def test_a_round_entered_as_these_results_whichever_way_they_were_written() -> None:
    entered = [OUT, held(20), SeatResult(cards=parse_cards("JK 5H"))]
    game = contract_game().enter_round(1, entered).game
    assert game.entered_as(1, [OUT, held(20), SeatResult(cards=parse_cards("JK=5D 5H"))])
    assert not game.entered_as(1, [OUT, held(25), SeatResult(cards=parse_cards("JK 5H"))])
    assert not game.entered_as(2, [OUT, held(20), held(20)])  # not entered yet
    assert not game.entered_as(1, [OUT, held(20)])  # not the table's seats
