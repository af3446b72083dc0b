"""The clubs service on SQLite and PostgreSQL: the member cap under concurrent filings (issue
23), a club import that keeps all or nothing, what a game's write costs a club (and a game in
no club), a club that cannot keep up never costing a round, an old database's right numbers
without a write on a GET, `flask clubs refresh`, and the club's CSV against formulas."""

from __future__ import annotations

import csv
import io
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest
from club_fixture import FIXTURE, new_club, play_in_club, results_json, writes
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import event, func, select, update

from referee.engine.club import MAX_MEMBERS
from referee.web.clubs import service, store
from referee.web.clubs.board import FORMAT
from referee.web.clubs.models import club_games, club_members, clubs
from referee.web.clubs.schemas import MAX_IMPORTED_GAMES
from referee.web.games import queries as game_queries
from referee.web.games import service as games_service
from referee.web.games.models import games, rounds
from referee.web.plumbing.database import database


def _count(app: Flask, table: Any, **where: Any) -> int:
    query = select(func.count()).select_from(table)
    for column, value in where.items():
        query = query.where(table.c[column] == value)
    with app.app_context(), database().reading() as conn:
        found: int = conn.execute(query).scalar_one()
    return found


@contextmanager
def _statements(app: Flask) -> Iterator[list[str]]:
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(" ".join(statement.split()))

    engine = database(app).engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


def _kept(app: Flask, club_id: str) -> bool:
    with app.app_context():
        return store.kept_board(club_id, FORMAT) is not None


# -- the member cap ---------------------------------------------------------------------------


def test_the_member_cap_holds_against_filings_at_the_same_moment(
    app: Flask, database_url: str
) -> None:
    """Twenty games started at once in a club of 57 (issue 23 found 69 members after): the cap
    is checked under the club's row lock, so one game of two newcomers fits and the others
    are refused; every game of members only is filed."""
    with app.test_request_context("/"):
        founded = service.found("League", lang="en")
        assert isinstance(founded, service.Founded)
        club_id = founded.club.id
        members = [f"Player {n}" for n in range(57)]
        assert isinstance(service.add_members(club_id, members), service.MembersAdded)
    start = threading.Barrier(20)

    def file(n: int) -> Any:
        players = [f"New {n}a", f"New {n}b", "Player 0"] if n % 2 else members[n : n + 3]
        with app.test_request_context("/"):
            start.wait(timeout=30)
            return service.start_game(club_id, variant="contract", players=players, lang="en")

    with ThreadPoolExecutor(20) as pool:
        results = list(pool.map(file, range(20)))
    members_only, with_newcomers = results[0::2], results[1::2]
    assert all(isinstance(r, service.GameFiled) for r in members_only)
    filed = [r for r in with_newcomers if isinstance(r, service.GameFiled)]
    refused = [r for r in with_newcomers if isinstance(r, service.Refused)]
    assert len(filed) == 1 and len(refused) == 9
    assert all(r.reasons[0].code == "too_many_members" for r in refused)
    assert _count(app, club_members, club_id=club_id) == 59
    assert _count(app, club_games, club_id=club_id) == 11
    assert _kept(app, club_id)  # the board kept by the last filing is of all eleven


def test_a_club_over_the_cap_still_files_its_members_games(app: Flask, database_url: str) -> None:
    """A club the race left with more members than the cap: its members' games are filed, a
    newcomer's refused."""
    with app.test_request_context("/"):
        founded = service.found("League", lang="en")
        assert isinstance(founded, service.Founded)
        club_id = founded.club.id
        with database().writing() as conn:  # as the race left it, past the engine's checks
            store.insert_members(conn, club_id, [f"P{n}" for n in range(MAX_MEMBERS + 9)])
        ours = service.start_game(
            club_id, variant="contract", players=["p1", "P2", "P3"], lang="en"
        )
        assert isinstance(ours, service.GameFiled)
        assert ours.game.game.players == ("P1", "P2", "P3")
        theirs = service.start_game(
            club_id, variant="contract", players=["P1", "P2", "X"], lang="en"
        )
        assert isinstance(theirs, service.Refused)
        assert theirs.reasons[0].code == "too_many_members"


def test_file_new_game_answers_each_outcome(client: FlaskClient, database_url: str) -> None:
    """What `POST /api/v1/games` with `club` is answered from: no club, no token or not the
    club's, refused with every reason, or filed."""
    club = new_club(client)
    token = club["edit_token"]
    with client.application.test_request_context("/"):

        def file(club_id: Any, token: str | None, players: Any) -> Any:
            return service.file_new_game(
                club_id, token, variant="contract", players=players, lang="en"
            )

        assert isinstance(file(None, token, ["A", "B"]), service.ClubMissing)
        assert isinstance(file("no-such-club-at-all", token, ["A", "B"]), service.ClubMissing)
        assert file(club["id"], None, ["A", "B"]) == service.Forbidden("missing_club_token")
        assert file(club["id"], "x" * 32, ["A", "B"]) == service.Forbidden("bad_club_token")
        refused = file(club["id"], token, ["A", "a", ""])
        assert isinstance(refused, service.Refused)
        assert [r.code for r in refused.reasons] == ["duplicate_name", "empty_name"]
        filed = file(club["id"], token, ["Ann", "Bo", "Cy"])
        assert isinstance(filed, service.GameFiled)
        assert filed.club.members == ("Ann", "Bo", "Cy") and filed.club.version == 2
        assert game_queries.check_token(filed.game.id, filed.token)


# -- importing a club -------------------------------------------------------------------------


@pytest.fixture
def club_file(client: FlaskClient, database_url: str) -> dict[str, Any]:
    club = new_club(client)
    for game in FIXTURE:
        play_in_club(client, club, *game)
    data: dict[str, Any] = client.get(f"/clubs/{club['id']}.json").get_json()
    return data


def test_an_import_stopped_halfway_keeps_nothing(
    app: Flask, club_file: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker stopped in the middle of an import (gunicorn's timeout) leaves no club with
    some of its games: the whole import is one transaction."""
    before = {table.name: _count(app, table) for table in (clubs, club_members, games, rounds)}
    real = games_service.create_on
    made: list[str] = []

    def create_in(*args: Any, **kwargs: Any) -> Any:
        if len(made) == 2:
            raise SystemExit("worker stopped")  # what gunicorn's timeout raises in a worker
        created = real(*args, **kwargs)
        made.append(created[0].id)
        return created

    monkeypatch.setattr(games_service, "create_on", create_in)
    with app.test_request_context("/"), pytest.raises(SystemExit):
        service.import_club(club_file, lang="en")
    assert len(made) == 2
    after = {table.name: _count(app, table) for table in (clubs, club_members, games, rounds)}
    assert after == before
    monkeypatch.undo()
    with app.test_request_context("/"):
        imported = service.import_club(club_file, lang="en")
    assert isinstance(imported, service.Founded)
    assert _count(app, club_games, club_id=imported.club.id) == len(FIXTURE)
    assert _kept(app, imported.club.id)


def test_an_import_is_bounded_before_any_game_is_read(
    app: Flask, club_file: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    read: list[Any] = []
    monkeypatch.setattr("referee.web.clubs.exports.read_export", lambda *a, **k: read.append(a))
    too_many = {**club_file, "games": [club_file["games"][0]] * (MAX_IMPORTED_GAMES + 1)}
    crowded = {**club_file, "members": [f"P{n}" for n in range(MAX_MEMBERS + 1)]}
    with app.test_request_context("/"):
        for data, field in ((too_many, "games"), (crowded, "members")):
            refused = service.import_club(data, lang="en")
            assert isinstance(refused, service.Refused)
            assert (refused.reasons[0].code, refused.reasons[0].field) == (
                "bad_club_import",
                field,
            )
    assert read == []


# -- what a game's write costs a club ---------------------------------------------------------


def test_a_game_in_no_club_costs_the_clubs_one_lookup(
    client: FlaskClient, database_url: str
) -> None:
    game = client.post(
        "/api/v1/games", json={"variant": "contract", "players": ["Ann", "Bo", "Cy"]}
    ).get_json()
    body = {"round": 1, "results": results_json(["Ann", "Bo", "Cy"], 0, {1: 10, 2: 20})}
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    with _statements(client.application) as seen:
        answer = client.post(f"/api/v1/games/{game['id']}/rounds", json=body, headers=auth)
    assert answer.status_code == 200
    about_clubs = [s for s in seen if "club" in s]
    assert len(about_clubs) == 1, about_clubs
    assert about_clubs[0].startswith("SELECT club_games.club_id, club_games.version")
    assert "WHERE club_games.game_id =" in about_clubs[0]


def test_a_club_that_cannot_keep_up_never_costs_the_round(
    client: FlaskClient, runner: FlaskCliRunner, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keeping up runs in a savepoint of the game's write: when it fails, the round stands,
    the club's pages work the board out as they read it (nothing written), and the next write
    or `flask clubs refresh` keeps it."""
    app = client.application
    club = new_club(client)
    game = play_in_club(client, club, "contract", ["Ann", "Bo", "Cy"], [(0, {1: 10, 2: 20})])
    stats_url = f"/api/v1/clubs/{club['id']}/stats"

    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("the club's tables are gone")

    monkeypatch.setattr(service, "_keep_up", broken)
    body = {"round": 2, "results": results_json(["Ann", "Bo", "Cy"], 1, {0: 5, 2: 15})}
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    answer = client.post(f"/api/v1/games/{game['id']}/rounds", json=body, headers=auth)
    assert answer.status_code == 200 and len(answer.get_json()["rounds"]) == 2
    monkeypatch.undo()
    assert not _kept(app, club["id"])
    with writes(app) as written:
        stats = client.get(stats_url).get_json()
        page = client.get(f"/clubs/{club['id']}")
    assert written == [] and page.status_code == 200
    ann = next(p for p in stats["players"] if p["name"] == "Ann")
    assert (ann["rounds"], ann["rounds_out"], ann["average_round_penalty"]) == (2, 1, 2.5)
    done = runner.invoke(args=["clubs", "refresh"])
    assert done.exit_code == 0 and done.output.startswith("clubs kept up: 1")
    assert club["id"] in done.output
    assert _kept(app, club["id"]) and client.get(stats_url).get_json() == stats
    assert runner.invoke(args=["clubs", "refresh"]).output.startswith("clubs kept up: 0")


def test_an_old_database_reads_right_and_refresh_keeps_it(
    client: FlaskClient, runner: FlaskCliRunner, database_url: str
) -> None:
    """A database from before the clubs kept their boards (0003 left every record unsummed
    and no board): the pages show the right numbers without writing, and
    `flask clubs refresh` keeps them; `--full` sums up every game again to the same numbers."""
    app = client.application
    club = new_club(client)
    for game in FIXTURE:
        play_in_club(client, club, *game)
    urls = [f"/api/v1/clubs/{club['id']}/stats", f"/api/v1/clubs/{club['id']}"]
    before = [client.get(url).get_json() for url in urls]
    with app.app_context(), database().writing() as conn:
        conn.execute(
            update(club_games)
            .where(club_games.c.club_id == club["id"])
            .values(version=0, record=None, ratings=None)
        )
        conn.execute(update(clubs).values(board=None, board_games=None, board_key=None))
    with writes(app) as written:
        assert [client.get(url).get_json() for url in urls] == before
        assert client.get(f"/clubs/{club['id']}.csv").status_code == 200
    assert written == [] and not _kept(app, club["id"])
    assert runner.invoke(args=["clubs", "refresh"]).output.startswith("clubs kept up: 1")
    assert _kept(app, club["id"])
    assert [client.get(url).get_json() for url in urls] == before
    full = runner.invoke(args=["clubs", "refresh", "--full", "--", club["id"]])
    assert full.output.startswith("clubs kept up: 1")
    assert [client.get(url).get_json() for url in urls] == before


# -- the club's CSV ---------------------------------------------------------------------------


def test_the_clubs_csv_writes_no_formula(client: FlaskClient) -> None:
    """Names a spreadsheet would run (issue 23) go out with a `'` in front, as in the game's
    CSV: one escaper for every CSV."""
    club = new_club(client)
    names = ["=1+1", "+Bo", "-Cy", "@Di"]
    play_in_club(client, club, "contract", names, [(0, {1: 10, 2: 20, 3: 5})])
    text = client.get(f"/clubs/{club['id']}.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    assert [row[4] for row in rows[1:]] == ["'=1+1", "'+Bo", "'-Cy", "'@Di"]
    assert [row[5] for row in rows[1:]] == ["0", "10", "20", "5"]  # numbers stay numbers
