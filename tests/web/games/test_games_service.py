"""The games service on SQLite and PostgreSQL: rounds, corrections, history, undo and restore,
versions, import, each write's one result, and what it tells the other features.

Results go in as the API sends them (by player name), read by `games.results`, so each test
covers the whole way from a request's entries to the rows kept.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from referee.engine.errors import GameRefused
from referee.web.core.signals import game_written
from referee.web.games import exports, queries, service
from referee.web.games.queries import StoredGame
from referee.web.games.results import read_results
from referee.web.games.schemas import RoundBody, read_body

ALICE_OUT: list[dict[str, Any]] = [
    {"player": "Ann", "went_out": True},
    {"player": "Bo", "penalty": 25},
    {"player": "Cy", "cards": "7H QS JK"},
]


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


def written(result: Any) -> Table:
    """A write's result as these tests read it: the game, or GameRefused with its reasons."""
    if isinstance(result, service.Refused):
        raise GameRefused(result.reasons)
    assert isinstance(result, service.Saved | service.Created), result
    return Table(result.stored)


def create_game(variant: str, players: list[str], **options: Any) -> tuple[Table, str]:
    started = service.start(variant, players, lang="en", **options)
    table = written(started)
    assert isinstance(started, service.Created)
    return table, started.token


def stored(game_id: str) -> StoredGame:
    """The game kept under `game_id`, which must be there."""
    found = queries.load(game_id)
    assert found is not None, game_id
    return found


def load(game_id: str) -> Table:
    return Table(stored(game_id))


def _results(game_id: str, entries: list[dict[str, Any]]) -> service.Typed:
    """The entries read as the API reads them: by their schema, then by the rules."""
    game = stored(game_id).game
    body = read_body(RoundBody, {"results": entries}, game.players)
    return service.Typed.read(read_results(game, body.results))


def add_round(
    game_id: str, number: int, entries: list[dict[str, Any]], *, version: int | None = None
) -> Table:
    typed = _results(game_id, entries)
    return written(service.enter_round(game_id, number, typed, version=version))


def edit_round(
    game_id: str, number: int, entries: list[dict[str, Any]], *, version: int | None = None
) -> Table:
    typed = _results(game_id, entries)
    return written(service.correct_round(game_id, number, typed, version=version))


def undo(game_id: str, *, version: int | None = None) -> Table:
    return written(service.undo(game_id, version=version))


def redo(game_id: str, *, version: int | None = None) -> Table:
    return written(service.redo(game_id, version=version))


def actions(game_id: str) -> list[tuple[str, int]]:
    return [(e.change.action.value, e.change.round) for e in queries.history(game_id)]


def test_a_round_is_scored_and_kept(ctx: Flask) -> None:
    game, token = create_game("contract", ["Ann", "Bo", "Cy"])
    assert len(game.id) >= 22 and len(token) >= 32  # 128 bits and more, url-safe
    assert queries.check_token(game.id, token) and not queries.check_token(game.id, token + "x")
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
    stale = service.enter_round(game.id, 2, _results(game.id, ALICE_OUT), version=game.version)
    assert isinstance(stale, service.Stale)
    assert stale.code == "stale_version" and stale.params == {"version": 1, "current": 2}
    assert [(e.change.action.value, e.change.round) for e in stale.since] == [("add", 1)]
    assert not stale.entered_as_sent  # round 2 is not there: this entry is still to be kept
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
            typed = _results(game.id, results)
            result = service.enter_round(game.id, 1, typed, version=game.version)
            outcomes.append({service.Saved: "ok", service.Stale: "409"}[type(result)])

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
    game = undo(game.id, version=game.version)
    assert game.rounds == () and load(game.id).restorable is not None
    game = redo(game.id, version=game.version)
    assert game.rounds[0].scores == (0, 25, 30)
    assert actions(game.id) == [("redo", 1), ("undo", 1), ("add", 1)]
    assert load(game.id).restorable is None  # restored once: nothing more to restore
    with pytest.raises(GameRefused) as caught:
        redo(game.id, version=None)
    assert caught.value.code == "nothing_to_restore"
    # the restored round is the newest change: undo takes it back, and restore puts it back
    game = undo(game.id, version=game.version)
    assert game.rounds == ()
    game = redo(game.id, version=game.version)
    assert game.rounds[0].scores == (0, 25, 30)
    assert queries.lang_of(game.id) == "en" and queries.lang_of("nope") is None


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
    data = exports.game_json(stored(game.id), "en")
    assert data["rounds"][0]["scores"] == {"Ann": 0, "Bo": 55, "Cy": 75, "Di": 5}
    imported = service.import_game(data, lang="en")
    assert isinstance(imported, service.Created)
    copy, token = imported.stored, imported.token
    assert copy.id != game.id and queries.check_token(copy.id, token)
    again = exports.game_json(stored(copy.id), "en")
    for key in ("variant", "players", "totals", "house_rules", "first_dealer", "finished"):
        assert again[key] == data[key]
    assert [r["scores"] for r in again["rounds"]] == [r["scores"] for r in data["rounds"]]
    assert [r["buys"] for r in again["rounds"]] == [{"Ann": 0, "Bo": 2, "Cy": 0, "Di": 0}]
    # shanghai buys: each player's buys follow the scores, summed on the totals line
    assert exports.to_csv(copy, "en").splitlines()[-1] == "total,,,,0,55,75,5,0,2,0,0"
    bad = {"variant": "contract", "players": ["A", "B", "C"], "rounds": [{"x": 1}]}
    refused = service.import_game(bad, lang="en")
    assert isinstance(refused, service.Refused) and refused.reasons[0].code == "bad_import"


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


# -- one result per write ----------------------------------------------------------------------


def _once(key: str, asked: str) -> service.Once:
    return service.Once(key, asked, lambda stored: service.Answer(200, f"v{stored.game.version}"))


def test_a_key_answered_before_gets_its_answer_and_another_request_under_it_nothing(
    ctx: Flask,
) -> None:
    game, _ = create_game("contract", ["Ann", "Bo", "Cy"])
    typed = _results(game.id, ALICE_OUT)
    first = service.enter_round(game.id, 1, typed, version=1, once=_once("key-0001", "a"))
    assert isinstance(first, service.Saved)
    # A retry is answered before anything else: not stale, not a round out of order.
    again = service.enter_round(game.id, 1, typed, version=1, once=_once("key-0001", "a"))
    assert again == service.Replayed(service.Answer(200, "v2"))
    other = service.enter_round(game.id, 1, typed, version=1, once=_once("key-0001", "b"))
    assert isinstance(other, service.KeyReused) and other.code == "idempotency_key_reused"
    assert load(game.id).version == 2 and len(actions(game.id)) == 1


def test_a_round_that_scores_as_the_one_before_is_asked_about_unless_the_table_said_so(
    ctx: Flask,
) -> None:
    game, _ = create_game("contract", ["Ann", "Bo", "Cy"])
    add_round(game.id, 1, ALICE_OUT)
    typed = _results(game.id, ALICE_OUT)
    asked = service.enter_round(game.id, 2, typed, version=2, repeat_ok=False)
    assert isinstance(asked, service.Repeat) and asked.of == 1 and asked.current.game.version == 2
    assert len(load(game.id).rounds) == 1
    assert written(service.enter_round(game.id, 2, typed, version=2)).version == 3


def test_seats_that_could_not_be_read_are_refused_beside_what_the_rules_say_of_the_rest(
    ctx: Flask,
) -> None:
    from referee.engine.errors import reason
    from referee.engine.game import SeatResult

    game, _ = create_game("contract", ["Ann", "Bo", "Cy"])
    unread = reason("bad_card", player=2, field="cards", token="ZZ")
    typed = service.Typed((SeatResult(went_out=True), SeatResult(penalty=3), None), (unread,))
    refused = service.enter_round(game.id, 1, typed, version=1)
    assert isinstance(refused, service.Refused) and refused.current is not None
    # Cy's cards could not be read: the engine's word on Cy's stand-in hand is left out.
    assert [(r.code, r.player) for r in refused.reasons] == [
        ("bad_card", 2),
        ("impossible_penalty", 1),
    ]
    assert load(game.id).rounds == ()


def test_a_stale_entry_of_a_round_saved_meanwhile_just_as_sent_says_so(ctx: Flask) -> None:
    game, _ = create_game("contract", ["Ann", "Bo", "Cy"])
    add_round(game.id, 1, ALICE_OUT, version=1)
    sent = service.enter_round(game.id, 1, _results(game.id, ALICE_OUT), version=1)
    assert isinstance(sent, service.Stale) and sent.entered_as_sent
    other = [dict(r) for r in ALICE_OUT]
    other[1] = {"player": "Bo", "penalty": 40}
    differs = service.enter_round(game.id, 1, _results(game.id, other), version=1)
    assert isinstance(differs, service.Stale) and not differs.entered_as_sent


def test_no_such_game(ctx: Flask) -> None:
    typed = service.Typed(())
    for result in (
        service.enter_round("nope", 1, typed, version=None),
        service.enter_round("x" * 22, 1, typed, version=None),
        service.undo("x" * 22, version=None),
        service.rematch("x" * 22),
    ):
        assert isinstance(result, service.NotFound) and result.code == "game_not_found"


# -- what the other features are told ----------------------------------------------------------


@pytest.fixture
def told(ctx: Flask) -> Iterator[list[tuple[str, str | None, int]]]:
    """Every `game_written` sent: the game's id, the change's action, and the version the
    receiver reads on the connection it was given (the write's, not committed yet)."""
    seen: list[tuple[str, str | None, int]] = []

    def receiver(game_id: str, *, conn: Any, stored: StoredGame, change: Any) -> None:
        assert conn.in_transaction()
        on_conn = queries.read(conn, game_id)
        assert on_conn is not None and on_conn.game.version == stored.game.version
        seen.append((game_id, change and change.action.value, stored.game.version))

    game_written.connect(receiver)
    try:
        yield seen
    finally:
        game_written.disconnect(receiver)


def test_every_write_tells_the_other_features_in_its_transaction(
    told: list[tuple[str, str | None, int]],
) -> None:
    game, _ = create_game("contract", ["Ann", "Bo", "Cy"])
    add_round(game.id, 1, ALICE_OUT)
    fixed = [dict(r) for r in ALICE_OUT]
    fixed[1] = {"player": "Bo", "penalty": 40}
    edit_round(game.id, 1, fixed)
    undo(game.id)
    redo(game.id)
    again = written(service.rematch(game.id))
    imported = written(service.import_game(exports.game_json(stored(game.id), "en"), lang="en"))
    assert told == [
        (game.id, None, 1),
        (game.id, "add", 2),
        (game.id, "edit", 3),
        (game.id, "undo", 4),
        (game.id, "redo", 5),
        (again.id, None, 1),
        (imported.id, None, 2),  # a new game, its round entered again
    ]
    # A refusal, a stale version and a replay write nothing and tell nobody.
    with pytest.raises(GameRefused):
        add_round(game.id, 3, ALICE_OUT)
    assert isinstance(service.undo(game.id, version=1), service.Stale)
    assert len(told) == 7


def test_a_receiver_that_fails_takes_the_write_back_with_it(ctx: Flask) -> None:
    game, _ = create_game("contract", ["Ann", "Bo", "Cy"])

    def failing(game_id: str, **_kept: Any) -> None:
        raise RuntimeError("the club's records could not be kept")

    game_written.connect(failing)
    try:
        with pytest.raises(RuntimeError):
            add_round(game.id, 1, ALICE_OUT)
    finally:
        game_written.disconnect(failing)
    assert load(game.id).version == 1 and actions(game.id) == []


def test_a_game_filed_elsewhere_is_kept_with_its_filing_or_not_at_all(ctx: Flask) -> None:
    from referee.engine.errors import reason

    filed: list[str] = []

    def filing(conn: Any, stored: StoredGame) -> None:
        assert conn.in_transaction()
        filed.append(stored.id)

    started = service.start("contract", ["Ann", "Bo", "Cy"], lang="en", filing=filing)
    assert isinstance(started, service.Created) and filed == [started.stored.id]

    def full(conn: Any, stored: StoredGame) -> None:
        filed.append(stored.id)
        raise GameRefused([reason("too_many_members", field="players", max=60)])

    refused = service.start("contract", ["Ann", "Bo", "Cy"], lang="en", filing=full)
    assert isinstance(refused, service.Refused) and refused.current is None
    assert refused.reasons[0].code == "too_many_members"
    assert queries.load(filed[-1]) is None  # nothing of it was kept


# -- the history in the game -------------------------------------------------------------------


def test_undo_walks_back_through_a_long_history_one_change_at_a_time(ctx: Flask) -> None:
    """Each undo takes back the newest change not yet taken back, however far back it is;
    the game read from storage decides as the same game in memory does."""
    game, _ = create_game("contract", ["Ann", "Bo", "Cy"])
    for number in (1, 2, 3):
        add_round(game.id, number, ALICE_OUT)
    for points in (30, 35, 40, 45):
        fixed = [dict(r) for r in ALICE_OUT]
        fixed[1] = {"player": "Bo", "penalty": points}
        edit_round(game.id, 2, fixed)
    # in memory, from the game as read: two undos one after the other (the second reads a
    # change that did not come with the game)
    twice = load(game.id).stored.game.undo().game.undo().game
    seen = []
    while load(game.id).can_undo():
        seen.append(undo(game.id).rounds)
    assert seen[1] == twice.rounds
    assert [len(rounds) for rounds in seen] == [3, 3, 3, 3, 2, 1, 0]
    assert [rounds[1].scores[1] for rounds in seen[:4]] == [40, 35, 30, 25]
    assert written(service.redo(game.id, version=None)).rounds == seen[-2]


def test_the_history_links_migrate_from_the_undone_marks_and_back(
    ctx: Flask, database_url: str
) -> None:
    """Revision 0004 links the history the stores before it marked (`undone`); going down and
    up again gives the same links and the same marks the old store kept."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import select, text

    from referee.web.games.models import changes
    from referee.web.plumbing.database import MIGRATIONS, database

    def migrate(step: Any, revision: str) -> None:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with engine.connect() as conn:
            config.attributes["connection"] = conn
            step(config, revision)
            conn.commit()

    game, _ = create_game("contract", ["Ann", "Bo", "Cy"])
    for number in (1, 2):
        add_round(game.id, number, ALICE_OUT)
    fixed = [dict(r) for r in ALICE_OUT]
    fixed[1] = {"player": "Bo", "penalty": 40}
    edit_round(game.id, 2, fixed)
    undo(game.id)  # the correction
    undo(game.id)  # round 2
    redo(game.id)  # round 2 again
    edit_round(game.id, 1, fixed)
    undo(game.id)  # the correction of round 1: restorable
    engine = database().engine
    with engine.connect() as conn:
        links = conn.execute(select(changes.c.version, changes.c.next_undo).order_by("id")).all()
    before = load(game.id).stored.game
    migrate(command.downgrade, "0003")
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT version, undone FROM game_changes ORDER BY id")).all()
    # taken back: the correction (v4), round 2 (v3), the undo restored (v6), the correction (v8)
    assert [version for version, undone in rows if undone] == [3, 4, 6, 8]
    migrate(command.upgrade, "head")
    with engine.connect() as conn:
        assert (
            conn.execute(select(changes.c.version, changes.c.next_undo).order_by("id")).all()
            == links
        )
    after = load(game.id).stored.game
    assert after.undoable is not None and after.restorable is not None
    assert after.undoable == before.undoable and after.undoable.version == 7
    assert after.restorable == before.restorable and after.restorable.version == 9
