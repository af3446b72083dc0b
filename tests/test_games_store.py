"""Games storage on SQLite and PostgreSQL: rounds, corrections, history, undo, versions, import."""

from __future__ import annotations

import threading

import pytest
from flask import Flask

from referee.web.games import store
from referee.web.games.store import Conflict, GameError

ALICE_OUT = [
    {"player": "Ann", "went_out": True},
    {"player": "Bo", "penalty": 25},
    {"player": "Cy", "cards": "7H QS JK"},
]


@pytest.fixture
def ctx(app: Flask, database_url: str):
    with app.test_request_context("/"):
        yield app


def test_a_round_is_scored_and_kept(ctx: Flask) -> None:
    game, token = store.create_game("contract", ["Ann", "Bo", "Cy"])
    assert len(game.id) >= 22 and len(token) >= 32  # 128 bits and more, url-safe
    assert store.check_token(game.id, token) and not store.check_token(game.id, token + "x")
    game = store.add_round(game.id, 1, ALICE_OUT, version=game.version)
    again = store.get_game(game.id)
    assert again is not None
    assert again.rounds[0].scores == (0, 25, 30)  # 7 (5) + Q (10) + joker (15)
    assert again.rounds[0].results[2].cards == ("7H", "QS", "JK")
    assert again.standings.totals == (0, 25, 30)
    assert again.version == 2


def test_stale_version_is_refused_and_says_what_changed(ctx: Flask) -> None:
    game, _ = store.create_game("contract", ["Ann", "Bo", "Cy"])
    store.add_round(game.id, 1, ALICE_OUT, version=game.version)
    with pytest.raises(Conflict) as caught:
        store.add_round(game.id, 2, ALICE_OUT, version=game.version)
    assert caught.value.status == 409
    assert [(c.action, c.round) for c in caught.value.since] == [("add", 1)]
    assert len(store.get_game(game.id).rounds) == 1


def test_two_writers_at_once_one_wins_the_other_gets_409(ctx: Flask) -> None:
    game, _ = store.create_game("contract", ["Ann", "Bo", "Cy"])
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def write(penalty: int) -> None:
        with ctx.test_request_context("/"):
            barrier.wait()
            results = [dict(r) for r in ALICE_OUT]
            results[1] = {"player": "Bo", "penalty": penalty}
            try:
                store.add_round(game.id, 1, results, version=game.version)
                outcomes.append("ok")
            except Conflict:
                outcomes.append("409")
            except GameError as error:  # the same round already there
                outcomes.append(error.code)

    threads = [threading.Thread(target=write, args=(p,)) for p in (20, 30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["409", "ok"]
    assert store.get_game(game.id).version == 2


def test_corrections_history_and_undo(ctx: Flask) -> None:
    game, _ = store.create_game("contract", ["Ann", "Bo", "Cy"])
    game = store.add_round(game.id, 1, ALICE_OUT)
    fixed = [dict(r) for r in ALICE_OUT]
    fixed[1] = {"player": "Bo", "penalty": 40}
    game = store.edit_round(game.id, 1, fixed, version=game.version)
    assert game.rounds[0].scores == (0, 40, 30)
    actions = [(c.action, c.round) for c in store.history(game.id)]
    assert actions == [("edit", 1), ("add", 1)]
    game = store.undo(game.id, version=game.version)
    assert game.rounds[0].scores == (0, 25, 30)
    game = store.undo(game.id)
    assert game.rounds == ()
    with pytest.raises(GameError) as caught:
        store.undo(game.id)
    assert caught.value.code == "nothing_to_undo"
    assert [c.action for c in store.history(game.id)][:2] == ["undo", "undo"]


@pytest.mark.parametrize(
    ("number", "results", "code"),
    [
        (2, ALICE_OUT, "round_out_of_order"),
        (
            1,
            [
                {"player": "Ann", "went_out": True},
                {"player": "Bo", "went_out": True},
                {"player": "Cy", "penalty": 10},
            ],
            "two_players_out",
        ),
        (
            1,
            [
                {"player": "Ann", "went_out": True},
                {"player": "Bo", "penalty": 3},
                {"player": "Cy", "penalty": 10},
            ],
            "impossible_penalty",
        ),
        (
            1,
            [
                {"player": "Ann", "went_out": True},
                {"player": "Bo", "penalty": 5000},
                {"player": "Cy", "penalty": 10},
            ],
            "impossible_penalty",
        ),
        (1, ALICE_OUT[:2], "missing_result"),
        (1, [*ALICE_OUT[:2], {"player": "Cy", "cards": "7H 7H 7H"}], "too_many_copies"),
        (1, [*ALICE_OUT[:2], {"player": "Cy", "cards": "7H XX"}], "bad_card"),
        (1, [*ALICE_OUT[:2], {"player": "Cy", "cards": "7H", "penalty": 9}], "penalty_mismatch"),
        (1, [*ALICE_OUT[:2], {"player": "Cy", "buys": 1, "penalty": 5}], "buying_off"),
        (1, [*ALICE_OUT[:2], {"player": "Zed", "penalty": 5}], "unknown_player"),
    ],
)
def test_impossible_entries_are_refused(ctx: Flask, number: int, results: list, code: str) -> None:
    game, _ = store.create_game("contract", ["Ann", "Bo", "Cy"])
    with pytest.raises(GameError) as caught:
        store.add_round(game.id, number, results)
    assert caught.value.code == code
    assert store.get_game(game.id).rounds == ()


def test_stock_ran_out_twice_everyone_scores_the_hand(ctx: Flask) -> None:
    game, _ = store.create_game("contract", ["Ann", "Bo", "Cy"])
    nobody = [{"player": p, "penalty": n} for p, n in (("Ann", 10), ("Bo", 20), ("Cy", 5))]
    game = store.add_round(game.id, 1, nobody)
    assert game.rounds[0].scores == (10, 20, 5)
    assert game.rounds[0].went_out is None


def test_seven_rounds_end_the_game_tie_goes_to_the_lower_last_round(ctx: Flask) -> None:
    game, _ = store.create_game("contract", ["Ann", "Bo", "Cy"], first_dealer="Bo")
    assert game.dealer_of(1) == 1 and game.starter_of(1) == 2 and game.dealer_of(3) == 0
    plan = [(0, 15, 20), (10, 0, 20), (0, 10, 20), (10, 0, 20), (0, 10, 20), (10, 0, 20)]
    plan.append((5, 0, 20))  # round 7: Ann and Bo both end on 35; Bo's 0 beats Ann's 5
    for number, scores in enumerate(plan, start=1):
        results = [
            {"player": name, **({"went_out": True} if not points else {"penalty": points})}
            for name, points in zip(("Ann", "Bo", "Cy"), scores, strict=True)
        ]
        assert not game.finished
        game = store.add_round(game.id, number, results)
    assert game.standings.totals == (35, 35, 140)
    assert game.finished and game.winner == "Bo" and game.standings.leaders == (1,)
    with pytest.raises(GameError) as caught:
        store.add_round(game.id, 8, ALICE_OUT)
    assert caught.value.code == "game_finished"


def test_rummy_worked_example_of_seed_002(ctx: Flask) -> None:
    """You go out with a rummy; Ada holds 3♦ 8♦ A♣ 5♠ = 17, Bo 7♦ 6♣ 2♦ 3♣ = 18: you score 70."""
    game, _ = store.create_game("rummy", ["You", "Ada", "Bo"])
    game = store.add_round(
        game.id,
        1,
        [
            {"player": "You", "went_out": True, "rummy": True},
            {"player": "Ada", "cards": ["3D", "8D", "AC", "5S"]},
            {"player": "Bo", "cards": "7D 6C 2D 3C"},
        ],
    )
    assert game.rounds[0].scores == (70, 0, 0)
    assert not game.finished
    game = store.add_round(
        game.id,
        2,
        [
            {"player": "You", "went_out": True},
            {"player": "Ada", "penalty": 20},
            {"player": "Bo", "penalty": 10},
        ],
    )
    assert game.finished and game.winner == "You" and game.standings.totals == (100, 0, 0)
    # A correction that would have ended the game after round 1 is refused.
    with pytest.raises(GameError) as caught:
        store.edit_round(
            game.id,
            1,
            [
                {"player": "You", "went_out": True, "rummy": True},
                {"player": "Ada", "penalty": 30},
                {"player": "Bo", "penalty": 20},
            ],
        )
    assert caught.value.code == "ends_game_early"


def test_export_and_import_round_trip(ctx: Flask) -> None:
    game, _ = store.create_game(
        "shanghai", ["Ann", "Bo", "Cy", "Di"], house_rules={"buy_limit": 2}, first_dealer=2
    )
    store.add_round(
        game.id,
        1,
        [
            {"player": "Ann", "went_out": True},
            {"player": "Bo", "penalty": 55, "buys": 2},
            {"player": "Cy", "cards": "AS KD JK"},
            {"player": "Di", "penalty": 5},
        ],
    )
    data = store.game_json(game.id)
    assert data["rounds"][0]["scores"] == {"Ann": 0, "Bo": 55, "Cy": 75, "Di": 5}
    copy, token = store.import_game(data)
    assert copy.id != game.id and store.check_token(copy.id, token)
    again = store.game_json(copy.id)
    for key in ("variant", "players", "totals", "house_rules", "first_dealer", "finished"):
        assert again[key] == data[key]
    assert [r["scores"] for r in again["rounds"]] == [r["scores"] for r in data["rounds"]]
    assert [r["buys"] for r in again["rounds"]] == [{"Ann": 0, "Bo": 2, "Cy": 0, "Di": 0}]
    # shanghai buys: each player's buys follow the scores, summed on the totals line
    assert store.to_csv(copy).splitlines()[-1] == "total,,,,0,55,75,5,0,2,0,0"
    with pytest.raises(GameError):
        store.import_game({"variant": "contract", "players": ["A", "B", "C"], "rounds": [{"x": 1}]})


def test_players_are_checked(ctx: Flask) -> None:
    for players, code in (
        (["Ann", "ann", "Bo"], "duplicate_name"),
        (["Ann", "", "Bo"], "empty_name"),
        (["Ann", "Bo"], "bad_players"),
        (["Ann", "B" * 40, "Cy"], "name_too_long"),
    ):
        with pytest.raises(GameError) as caught:
            store.create_game("contract", players)
        assert caught.value.code == code
    with pytest.raises(GameError) as caught:
        store.create_game("contract", ["A", "B", "C"], house_rules={"buy_limit": 99})
    assert caught.value.code == "bad_house_rule"
