"""Games storage on SQLite and PostgreSQL: rounds, corrections, history, undo, versions, import.

Results go in as the API sends them (by player name), read by `games.results`, so each test
covers the whole way from a request's entries to the rows kept.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from referee.engine.game import Game, GameRefused, SeatResult
from referee.web.games import exports, store
from referee.web.games.results import read_results
from referee.web.games.schemas import RoundBody, read_body
from referee.web.games.store import Conflict, StoredGame

ALICE_OUT: list[dict[str, Any]] = [
    {"player": "Ann", "went_out": True},
    {"player": "Bo", "penalty": 25},
    {"player": "Cy", "cards": "7H QS JK"},
]


def _stored(game_id: str) -> store.StoredGame:
    """The game kept under `game_id`, which must be there."""
    found = store.load(game_id)
    assert found is not None, game_id
    return found


@pytest.fixture
def ctx(app: Flask, database_url: str) -> Iterator[Flask]:
    with app.test_request_context("/"):
        yield app


class Table:
    """A stored game as these tests read it: its `id`, and the engine's game for the rest."""

    def __init__(self, stored: StoredGame) -> None:
        self.id = stored.id
        self.stored = stored

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stored.game, name)


def create_game(variant: str, players: list[str], **options: Any) -> tuple[Table, str]:
    stored, token = store.create(Game.start(variant, players, **options), lang="en")
    return Table(stored), token


def load(game_id: str) -> Table:
    return Table(_stored(game_id))


def _results(game_id: str, entries: list[dict[str, Any]]) -> tuple[SeatResult, ...]:
    """The entries read as the API reads them: by their schema, then by the rules."""
    game = _stored(game_id).game
    return read_results(game, read_body(RoundBody, {"results": entries}, game.players).results)


def add_round(
    game_id: str, number: int, entries: list[dict[str, Any]], *, version: int | None = None
) -> Table:
    results = _results(game_id, entries)
    return Table(store.enter_round(game_id, number, results, version=version))


def edit_round(
    game_id: str, number: int, entries: list[dict[str, Any]], *, version: int | None = None
) -> Table:
    results = _results(game_id, entries)
    return Table(store.correct_round(game_id, number, results, version=version))


def undo(game_id: str, *, version: int | None = None) -> Table:
    return Table(store.undo(game_id, version=version))


def actions(game_id: str) -> list[tuple[str, int]]:
    return [(e.change.action.value, e.change.round) for e in store.history(game_id)]


def test_a_round_is_scored_and_kept(ctx: Flask) -> None:
    game, token = create_game("contract", ["Ann", "Bo", "Cy"])
    assert len(game.id) >= 22 and len(token) >= 32  # 128 bits and more, url-safe
    assert store.check_token(game.id, token) and not store.check_token(game.id, token + "x")
    game = add_round(game.id, 1, ALICE_OUT, version=game.version)
    again = load(game.id)
    assert again is not None
    assert again.rounds[0].scores == (0, 25, 30)  # 7 (5) + Q (10) + joker (15)
    assert [str(card) for card in again.rounds[0].results[2].cards] == ["7H", "QS", "JK"]
    assert again.standings.totals == (0, 25, 30)
    assert again.version == 2


def test_stale_version_is_refused_and_says_what_changed(ctx: Flask) -> None:
    game, _ = create_game("contract", ["Ann", "Bo", "Cy"])
    add_round(game.id, 1, ALICE_OUT, version=game.version)
    with pytest.raises(Conflict) as caught:
        add_round(game.id, 2, ALICE_OUT, version=game.version)
    assert caught.value.code == "stale_version" and caught.value.current == 2
    assert [(e.change.action.value, e.change.round) for e in caught.value.since] == [("add", 1)]
    assert len(load(game.id).rounds) == 1


def test_two_writers_at_once_one_wins_the_other_gets_409(ctx: Flask) -> None:
    game, _ = create_game("contract", ["Ann", "Bo", "Cy"])
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def write(penalty: int) -> None:
        with ctx.test_request_context("/"):
            barrier.wait()
            results = [dict(r) for r in ALICE_OUT]
            results[1] = {"player": "Bo", "penalty": penalty}
            try:
                add_round(game.id, 1, results, version=game.version)
                outcomes.append("ok")
            except Conflict:
                outcomes.append("409")
            except GameRefused as error:  # the same round already there
                outcomes.append(error.code)

    threads = [threading.Thread(target=write, args=(p,)) for p in (20, 30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["409", "ok"]
    assert load(game.id).version == 2


def test_corrections_history_and_undo(ctx: Flask) -> None:
    game, _ = create_game("contract", ["Ann", "Bo", "Cy"])
    game = add_round(game.id, 1, ALICE_OUT)
    fixed = [dict(r) for r in ALICE_OUT]
    fixed[1] = {"player": "Bo", "penalty": 40}
    game = edit_round(game.id, 1, fixed, version=game.version)
    assert game.rounds[0].scores == (0, 40, 30)
    assert actions(game.id) == [("edit", 1), ("add", 1)]
    game = undo(game.id, version=game.version)
    assert game.rounds[0].scores == (0, 25, 30)
    game = undo(game.id)
    assert game.rounds == ()
    with pytest.raises(GameRefused) as caught:
        undo(game.id)
    assert caught.value.code == "nothing_to_undo"
    assert [action for action, _ in actions(game.id)][:2] == ["undo", "undo"]


def test_restore_after_undo_and_only_then(ctx: Flask) -> None:
    game, _ = create_game("contract", ["Ann", "Bo", "Cy"])
    game = add_round(game.id, 1, ALICE_OUT)
    game = Table(store.undo(game.id, version=game.version))
    assert game.rounds == () and store.last_undo(game.id) is not None
    game = Table(store.redo(game.id, version=game.version))
    assert game.rounds[0].scores == (0, 25, 30)
    assert actions(game.id) == [("redo", 1), ("undo", 1), ("add", 1)]
    assert store.last_undo(game.id) is None  # restored once: nothing more to restore
    with pytest.raises(GameRefused) as caught:
        store.redo(game.id, version=None)
    assert caught.value.code == "nothing_to_restore"
    # the restored round is the newest change: undo takes it back, and restore puts it back
    game = Table(store.undo(game.id, version=game.version))
    assert game.rounds == ()
    game = Table(store.redo(game.id, version=game.version))
    assert game.rounds[0].scores == (0, 25, 30)
    assert store.lang_of(game.id) == "en" and store.lang_of("nope") is None


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
def test_impossible_entries_are_refused(
    ctx: Flask, number: int, results: list[dict[str, Any]], code: str
) -> None:
    game, _ = create_game("contract", ["Ann", "Bo", "Cy"])
    with pytest.raises(GameRefused) as caught:
        add_round(game.id, number, results)
    assert caught.value.code == code
    assert load(game.id).rounds == ()


def test_stock_ran_out_twice_everyone_scores_the_hand(ctx: Flask) -> None:
    game, _ = create_game("contract", ["Ann", "Bo", "Cy"])
    nobody = [{"player": p, "penalty": n} for p, n in (("Ann", 10), ("Bo", 20), ("Cy", 5))]
    game = add_round(game.id, 1, nobody)
    assert game.rounds[0].scores == (10, 20, 5)
    assert game.rounds[0].went_out is None


def test_seven_rounds_end_the_game_tie_goes_to_the_lower_last_round(ctx: Flask) -> None:
    game, _ = create_game("contract", ["Ann", "Bo", "Cy"], first_dealer="Bo")
    assert game.deal(1).dealer == 1 and game.deal(1).starter == 2 and game.deal(3).dealer == 0
    plan = [(0, 25, 20), (10, 0, 20), (0, 25, 20), (10, 0, 20), (0, 15, 20), (0, 15, 20)]
    # Round 7, laid down only by going out: Ann still holds 12 cards (60 at least). Ann and
    # Bo both end on 80; Bo's 0 beats Ann's 60.
    plan.append((60, 0, 80))
    for number, scores in enumerate(plan, start=1):
        results = [
            {"player": name, **({"went_out": True} if not points else {"penalty": points})}
            for name, points in zip(("Ann", "Bo", "Cy"), scores, strict=True)
        ]
        assert not game.finished
        game = add_round(game.id, number, results)
    assert game.standings.totals == (80, 80, 200)
    assert game.finished and game.players[game.winner] == "Bo" and game.standings.leaders == (1,)
    with pytest.raises(GameRefused) as caught:
        add_round(game.id, 8, ALICE_OUT)
    assert caught.value.code == "game_finished"


def test_rummy_worked_example_of_seed_002(ctx: Flask) -> None:
    """You go out with a rummy; Ada holds 3♦ 8♦ A♣ 5♠ = 17, Bo 7♦ 6♣ 2♦ 3♣ = 18: you score 70."""
    game, _ = create_game("rummy", ["You", "Ada", "Bo"])
    game = add_round(
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
    game = add_round(
        game.id,
        2,
        [
            {"player": "You", "went_out": True},
            {"player": "Ada", "penalty": 20},
            {"player": "Bo", "penalty": 10},
        ],
    )
    assert (
        game.finished
        and game.players[game.winner] == "You"
        and game.standings.totals == (100, 0, 0)
    )
    # A correction that would have ended the game after round 1 is refused.
    with pytest.raises(GameRefused) as caught:
        edit_round(
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
    game, _ = create_game(
        "shanghai", ["Ann", "Bo", "Cy", "Di"], house_rules={"buy_limit": 2}, first_dealer=2
    )
    add_round(
        game.id,
        1,
        [
            {"player": "Ann", "went_out": True},
            {"player": "Bo", "penalty": 55, "buys": 2},
            {"player": "Cy", "cards": "AS KD JK"},
            {"player": "Di", "penalty": 5},
        ],
    )
    data = exports.game_json(_stored(game.id), "en")
    assert data["rounds"][0]["scores"] == {"Ann": 0, "Bo": 55, "Cy": 75, "Di": 5}
    copy, token = exports.import_game(data)
    assert copy.id != game.id and store.check_token(copy.id, token)
    again = exports.game_json(_stored(copy.id), "en")
    for key in ("variant", "players", "totals", "house_rules", "first_dealer", "finished"):
        assert again[key] == data[key]
    assert [r["scores"] for r in again["rounds"]] == [r["scores"] for r in data["rounds"]]
    assert [r["buys"] for r in again["rounds"]] == [{"Ann": 0, "Bo": 2, "Cy": 0, "Di": 0}]
    # shanghai buys: each player's buys follow the scores, summed on the totals line
    assert exports.to_csv(copy, "en").splitlines()[-1] == "total,,,,0,55,75,5,0,2,0,0"
    with pytest.raises(GameRefused):
        exports.import_game(
            {"variant": "contract", "players": ["A", "B", "C"], "rounds": [{"x": 1}]}
        )


def test_players_are_checked(ctx: Flask) -> None:
    for players, code in (
        (["Ann", "ann", "Bo"], "duplicate_name"),
        (["Ann", "", "Bo"], "empty_name"),
        (["Ann", "Bo"], "bad_players"),
        (["Ann", "B" * 40, "Cy"], "name_too_long"),
    ):
        with pytest.raises(GameRefused) as caught:
            create_game("contract", players)
        assert caught.value.code == code
    with pytest.raises(GameRefused) as caught:
        create_game("contract", ["A", "B", "C"], house_rules={"buy_limit": 99})
    assert caught.value.code == "bad_house_rule"
