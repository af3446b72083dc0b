"""A game's values as JSON (games/values.py): what is written reads back as the same value, the
rows kept before this shape read the same, and an exported round can be entered again."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.cards import parse_cards
from referee.engine.game import Game, SeatResult
from referee.web.games.results import read_results
from referee.web.games.schemas import RoundBody, read_body
from referee.web.games.values import (
    ResultAnswer,
    SeatResultJSON,
    data,
    named_results,
    results_data,
    results_of,
)

hands = st.lists(
    st.sampled_from(["5H", "QS", "JK", "AC", "9D", "10S", "2C", "KD"]), min_size=1, max_size=6
)
seat_results = st.one_of(
    st.builds(
        SeatResult,
        went_out=st.just(True),
        rummy=st.booleans(),
        buys=st.integers(0, 3),
    ),
    st.builds(SeatResult, penalty=st.integers(0, 200), buys=st.integers(0, 3)),
    hands.map(lambda cards: SeatResult(cards=parse_cards(cards), penalty=len(cards))),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(seat_results, min_size=2, max_size=8))
def test_a_round_kept_reads_back_as_the_same_results(results: list[SeatResult]) -> None:
    assert results_of(results_data(results)) == tuple(results)


def test_rows_kept_before_this_shape_read_the_same() -> None:
    old = [
        {"went_out": True, "penalty": 0},
        {"went_out": False, "penalty": 25, "buys": 1},
        {"went_out": False, "penalty": 30, "cards": ["7H", "QS", "JK"]},
    ]
    assert results_of(old) == (
        SeatResult(went_out=True),
        SeatResult(penalty=25, buys=1),
        SeatResult(penalty=30, cards=parse_cards("7H QS JK")),
    )
    # written again, each says only what it holds
    assert results_data(results_of(old)) == [
        {"went_out": True},
        {"penalty": 25, "buys": 1},
        {"cards": ["7H", "QS", "JK"], "penalty": 30},
    ]


def test_a_seat_named_in_an_answer_says_its_player_first() -> None:
    answer = ResultAnswer.of(SeatResult(went_out=True, rummy=True), player="Ann")
    assert list(data(answer)) == ["player", "went_out", "rummy"]
    assert data(SeatResultJSON.of(SeatResult(penalty=0))) == {"penalty": 0}


def test_an_exported_round_can_be_entered_again() -> None:
    game = Game.start("shanghai", ["Ann", "Bo", "Cy", "Di"])
    results = [
        SeatResult(went_out=True),
        SeatResult(penalty=55, buys=2),
        SeatResult(cards=parse_cards("AS KD JK")),
        SeatResult(penalty=5),
    ]
    played = game.enter_round(1, results).game
    exported = [data(r) for r in named_results(played, played.rounds[0])]
    body = read_body(RoundBody, {"results": exported}, game.players)
    assert game.enter_round(1, read_results(game, body.results)).game.rounds == played.rounds
