"""Clubs over JSON (SPEC.md "Clubs"), on SQLite and PostgreSQL: founding, filing games with the
club's token only, the stats and ratings of the hand-worked club, re-rating after a
correction, and bad input never a 500."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from club_fixture import FIXTURE, G1, MEMBERS, new_club, play_in_club, results_json, writes
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from referee.web.clubs import schemas

SPEC_FIELDS = {
    "name", "games", "finished", "wins", "win_rate", "average_round_penalty", "rounds_out",
    "rating",
}  # fmt: skip


def _club_auth(club: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {club['edit_token']}"}


@pytest.fixture
def fixture_club(client: FlaskClient, database_url: str) -> dict[str, Any]:
    """The hand-worked club (club_fixture.py), its games played through the API."""
    club = new_club(client)
    club["games"] = [play_in_club(client, club, *game) for game in FIXTURE]
    return club


def test_a_club_is_founded_with_its_links(client: FlaskClient, database_url: str) -> None:
    answer = client.post("/api/v1/clubs", json={"name": "  The   Thursday table ", "lang": "de"})
    assert answer.status_code == 201
    club = answer.get_json()
    assert club["name"] == "The Thursday table" and club["lang"] == "de"
    assert club["members"] == [] and club["games"] == []
    assert club["view_url"].endswith(f"/clubs/{club['id']}")
    assert club["edit_url"].endswith(f"/clubs/{club['id']}/edit/{club['edit_token']}")
    assert answer.headers["Location"] == f"/api/v1/clubs/{club['id']}"
    read = client.get(f"/api/v1/clubs/{club['id']}").get_json()
    assert read["name"] == "The Thursday table" and "edit_token" not in read


def test_the_clubs_token_files_games_and_each_game_keeps_its_own(
    client: FlaskClient, database_url: str
) -> None:
    club = new_club(client)
    body = {"variant": "contract", "players": ["Ann", "Bo", "Cy"], "club": club["id"]}
    game = client.post("/api/v1/games", json=body, headers=_club_auth(club)).get_json()
    assert game["club"]["id"] == club["id"]
    assert game["edit_token"] != club["edit_token"]
    assert game["edit_url"].endswith(f"/games/{game['id']}/edit/{game['edit_token']}")
    # The game's token enters rounds; the club's does not.
    round_1 = {"round": 1, "results": results_json(["Ann", "Bo", "Cy"], 0, {1: 10, 2: 20})}
    refused = client.post(
        f"/api/v1/games/{game['id']}/rounds", json=round_1, headers=_club_auth(club)
    )
    assert refused.status_code == 403
    # A name the club doesn't know becomes a member; a known one in another spelling is the
    # member, written as the club writes it.
    again = {**body, "players": ["ann", "Bo", "Di"]}
    second = client.post("/api/v1/games", json=again, headers=_club_auth(club)).get_json()
    assert second["players"] == ["Ann", "Bo", "Di"]
    read = client.get(f"/api/v1/clubs/{club['id']}").get_json()
    assert read["members"] == ["Ann", "Bo", "Cy", "Di"]
    assert [g["id"] for g in read["games"]] == [game["id"], second["id"]]
    first = read["games"][0]
    assert set(first) == {
        "id", "variant", "players", "finished", "winner", "winners", "date", "series",
    }  # fmt: skip
    assert first["series"] is None  # a game of its own, not a club night's table
    assert first["date"].endswith("Z") and first["finished"] is False and first["winners"] == []


def test_without_the_clubs_edit_token_no_game_is_filed(
    client: FlaskClient, database_url: str
) -> None:
    """No token: 401; another club's token, a club's id or a made-up one: 403."""
    club, other = new_club(client), new_club(client, "Other")
    body = {"variant": "contract", "players": ["Ann", "Bo", "Cy"], "club": club["id"]}
    missing = client.post("/api/v1/games", json=body)
    assert missing.status_code == 401
    assert missing.get_json()["error"]["code"] == "missing_club_token"
    for token in (other["edit_token"], "x" * 32, club["id"]):
        wrong = client.post(
            "/api/v1/games", json=body, headers={"Authorization": f"Bearer {token}"}
        )
        assert wrong.status_code == 403
        assert wrong.get_json()["error"]["code"] == "bad_club_token"
    unknown = client.post(
        "/api/v1/games", json={**body, "club": "no-such-club-here"}, headers=_club_auth(club)
    )
    assert unknown.status_code == 404
    assert client.get(f"/api/v1/clubs/{club['id']}").get_json()["games"] == []


def test_stats_as_worked_out_by_hand(client: FlaskClient, fixture_club: dict[str, Any]) -> None:
    stats = client.get(f"/api/v1/clubs/{fixture_club['id']}/stats").get_json()
    assert stats["variant"] is None
    players = {p["name"]: p for p in stats["players"]}
    assert list(players) == MEMBERS
    for player in players.values():
        assert set(player) >= SPEC_FIELDS
    ann, bo, cy, di = (players[name] for name in MEMBERS)
    assert (ann["games"], ann["finished"], ann["wins"], ann["win_rate"]) == (2, 2, 2, 1.0)
    assert ann["average_round_penalty"] == pytest.approx(95 / 14) and ann["rounds_out"] == 6
    assert (bo["games"], bo["finished"], bo["wins"], bo["win_rate"]) == (3, 2, 1, 0.5)
    assert bo["average_round_penalty"] == pytest.approx(165 / 16) and bo["rounds_out"] == 5
    assert (cy["wins"], cy["rounds_out"], cy["best_round"], cy["worst_round"]) == (1, 4, 0, 40)
    assert cy["average_round_penalty"] == pytest.approx(230 / 12)
    assert (di["wins"], di["win_rate"], di["longest_streak"]) == (0, 0.0, 0)
    assert ann["longest_streak"] == 2
    pairs = {(h["player"], h["opponent"]): h for h in stats["head_to_head"]}
    assert (pairs[("Ann", "Bo")]["ahead"], pairs[("Ann", "Bo")]["level"]) == (1, 1)
    club = client.get(f"/api/v1/clubs/{fixture_club['id']}").get_json()
    assert [g["winners"] for g in club["games"]] == [["Ann"], ["Ann", "Bo"], [], ["Cy"]]
    assert [g["winner"] for g in club["games"]] == ["Ann", None, None, "Cy"]


def _expected_ratings(games: list[tuple[list[str], list[int]]]) -> dict[str, Any]:
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    for names, ranks in games:
        teams = [[ratings.setdefault(name, model.rating())] for name in names]
        for name, team in zip(names, model.rate(teams, ranks=ranks), strict=True):  # type: ignore[arg-type]
            ratings[name] = team[0]
    return ratings


def _assert_ratings(stats: dict[str, Any], expected: dict[str, Any]) -> None:
    for player in stats["players"]:
        rating, want = player["rating"], expected[player["name"]]
        assert rating["mu"] == pytest.approx(want.mu, abs=1e-9), player["name"]
        assert rating["sigma"] == pytest.approx(want.sigma, abs=1e-9), player["name"]
        assert rating["ordinal"] == pytest.approx(want.ordinal(), abs=1e-9), player["name"]


def test_ratings_are_openskill_over_finished_games_in_date_order(
    client: FlaskClient, fixture_club: dict[str, Any]
) -> None:
    club_id = fixture_club["id"]
    everything = client.get(f"/api/v1/clubs/{club_id}/stats").get_json()
    _assert_ratings(everything, _expected_ratings([
        (["Ann", "Bo", "Cy"], [1, 2, 3]), (["Ann", "Bo", "Di"], [1, 1, 3]), (["Cy", "Di"], [1, 2]),
    ]))  # fmt: skip
    # One variant: its own games only, everyone starting afresh.
    contract = client.get(f"/api/v1/clubs/{club_id}/stats?variant=contract").get_json()
    assert contract["variant"] == "contract"
    expected = _expected_ratings(
        [(["Ann", "Bo", "Cy"], [1, 2, 3]), (["Ann", "Bo", "Di"], [1, 1, 3])]
    )
    _assert_ratings(contract, expected)
    rummy = client.get(f"/api/v1/clubs/{club_id}/stats?variant=rummy").get_json()
    cy = next(p for p in rummy["players"] if p["name"] == "Cy")
    assert (cy["games"], cy["wins"], cy["best_round"], cy["worst_round"]) == (1, 1, 65, 0)
    ann = next(p for p in rummy["players"] if p["name"] == "Ann")
    assert ann["games"] == 0 and ann["win_rate"] is None
    assert ann["rating"]["mu"] == pytest.approx(PlackettLuce().mu)


def test_a_corrected_old_game_rates_everything_after_it_again(
    client: FlaskClient, fixture_club: dict[str, Any]
) -> None:
    club_id = fixture_club["id"]
    before = client.get(f"/api/v1/clubs/{club_id}/stats").get_json()
    first = fixture_club["games"][0]
    # Round 7 of the first game: Cy went out, Ann holds 40 and Bo 20. Totals: Ann 75, Bo 80,
    # Cy 75 (Cy wins on the last round; for the ratings Ann and Cy share first place).
    body = {"round": 7, "results": results_json(G1[1], 2, {0: 40, 1: 20})}
    answer = client.put(
        f"/api/v1/games/{first['id']}/rounds/7",
        json=body,
        headers={"Authorization": f"Bearer {first['edit_token']}"},
    )
    assert answer.status_code == 200 and answer.get_json()["winner"] == "Cy"
    after = client.get(f"/api/v1/clubs/{club_id}/stats").get_json()
    assert after != before
    _assert_ratings(after, _expected_ratings([
        (["Ann", "Bo", "Cy"], [1, 3, 1]), (["Ann", "Bo", "Di"], [1, 1, 3]), (["Cy", "Di"], [1, 2]),
    ]))  # fmt: skip
    players = {p["name"]: p for p in after["players"]}
    assert (players["Ann"]["wins"], players["Cy"]["wins"]) == (1, 2)
    # Undone: the ratings are what they were.
    undone = client.post(
        f"/api/v1/games/{first['id']}/undo",
        headers={"Authorization": f"Bearer {first['edit_token']}"},
    )
    assert undone.status_code == 200
    assert client.get(f"/api/v1/clubs/{club_id}/stats").get_json() == before


def test_answers_match_their_schemas(client: FlaskClient, fixture_club: dict[str, Any]) -> None:
    """The models the OpenAPI description is built from name every field the answers have."""
    club = client.get(f"/api/v1/clubs/{fixture_club['id']}").get_json()
    stats = client.get(f"/api/v1/clubs/{fixture_club['id']}/stats").get_json()
    for answer, model in ((club, schemas.ClubAnswer), (stats, schemas.ClubStats)):
        model.model_validate(answer)
        assert set(answer) <= set(model.model_fields)
    for game in club["games"]:
        assert set(game) == set(schemas.ClubGame.model_fields)
    for player in stats["players"]:
        schemas.PlayerStats.model_validate(player)
        assert set(player) <= set(schemas.PlayerStats.model_fields)


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({}, 400, "missing_field"),
        ({"name": ""}, 400, "empty_club_name"),
        ({"name": "   "}, 400, "empty_club_name"),
        ({"name": "x" * 41}, 400, "club_name_too_long"),
        ({"name": 7}, 400, "bad_input"),
        ({"name": ["a"]}, 400, "bad_input"),
        ({"name": "Ok", "lang": 3}, 400, "bad_input"),
        ([], 400, "not_an_object"),
    ],
)
def test_a_club_that_cannot_be_is_a_400_saying_why(
    client: FlaskClient, body: Any, status: int, code: str
) -> None:
    answer = client.post("/api/v1/clubs", json=body)
    assert answer.status_code == status
    assert answer.get_json()["error"]["code"] == code
    assert answer.get_json()["errors"][0]["message"]


def test_odd_requests_are_4xx_never_500(client: FlaskClient) -> None:
    assert (
        client.post("/api/v1/clubs", data="{nope", content_type="application/json").status_code
        == 400
    )
    assert client.post("/api/v1/clubs", data="x" * 70_000).status_code == 413
    assert client.get("/api/v1/clubs/nothing").status_code == 404
    assert client.get("/api/v1/clubs/nothing/stats").status_code == 404
    club = new_club(client)
    unknown = client.get(f"/api/v1/clubs/{club['id']}/stats?variant=poker")
    assert unknown.status_code == 400 and unknown.get_json()["error"]["code"] == "unknown_variant"
    alias = client.get(f"/api/v1/clubs/{club['id']}/stats?variant=CONTRACT")
    assert alias.status_code == 200 and alias.get_json()["variant"] == "contract"
    for club_value in (3, ["x"], {"id": "x"}, ""):
        body = {"variant": "contract", "players": ["A", "B", "C"], "club": club_value}
        answer = client.post("/api/v1/games", json=body, headers=_club_auth(club))
        assert answer.status_code in (400, 404), club_value
    refused = client.post(
        "/api/v1/games",
        json={"variant": "contract", "players": ["A", "A"], "club": club["id"]},
        headers=_club_auth(club),
    )
    assert refused.status_code == 400
    assert {e["code"] for e in refused.get_json()["errors"]} >= {"duplicate_name"}


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=50),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=JSONISH,
    extra=st.dictionaries(st.sampled_from(["lang", "club", "players", "variant"]), JSONISH),
)
def test_fuzzed_bodies_are_answered_in_json_never_a_500(
    client: FlaskClient, name: Any, extra: dict[str, Any]
) -> None:
    answer = client.post("/api/v1/clubs", json={"name": name, **extra})
    assert answer.status_code in (201, 400), answer.get_data(as_text=True)[:300]
    assert answer.is_json
    games = client.post(
        "/api/v1/games",
        json={"variant": "contract", "players": ["A", "B", "C"], **extra, "club": name},
        headers={"Authorization": "Bearer nope"},
    )
    assert games.status_code in (201, 400, 403, 404), games.get_data(as_text=True)[:300]
    assert games.is_json


def test_reading_a_club_replays_nothing_while_its_games_stand_still(
    client: FlaskClient, fixture_club: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board kept with the club answers every read: no game is read, nothing worked out,
    nothing written during a GET. A round entered is summed up by its own write (only the
    game that moved), which keeps the board in the same transaction."""
    from referee.engine.records import record_of
    from referee.web.clubs import board, exports, service
    from referee.web.games import queries as games_store

    club_id = fixture_club["id"]
    before = client.get(f"/api/v1/clubs/{club_id}/stats").get_json()
    worked: list[Any] = []
    loaded: list[str] = []
    summed: list[tuple[str, ...]] = []
    real_load, real_many = games_store.load, games_store.load_many

    def build_board(*args: Any) -> Any:
        worked.append(args)
        return board.build_board(*args)

    def load(game_id: str) -> Any:
        loaded.append(game_id)
        return real_load(game_id)

    def load_many(game_ids: list[str]) -> Any:
        loaded.extend(game_ids)
        return real_many(game_ids)

    def summing(game: Any) -> Any:
        summed.append(game.players)
        return record_of(game)

    monkeypatch.setattr(service, "build_board", build_board)
    # The games the clubs read (the games API reads the game it writes, as for any game).
    counting = SimpleNamespace(load=load, load_many=load_many)
    monkeypatch.setattr(service, "game_queries", counting)
    monkeypatch.setattr(exports, "game_queries", counting)
    monkeypatch.setattr(service, "record_of", summing)
    app = client.application
    with writes(app) as written:
        assert client.get(f"/clubs/{club_id}").status_code == 200
        assert client.get(f"/api/v1/clubs/{club_id}/stats").get_json() == before
        assert client.get(f"/api/v1/clubs/{club_id}").status_code == 200
    assert worked == [] and loaded == [] and summed == [] and written == []
    # A round of the unfinished game: its write sums up that game only, and keeps the board.
    unfinished = fixture_club["games"][2]
    body = {"round": 3, "results": results_json(["Bo", "Cy", "Di"], 2, {0: 5, 1: 10})}
    auth = {"Authorization": f"Bearer {unfinished['edit_token']}"}
    answer = client.post(f"/api/v1/games/{unfinished['id']}/rounds", json=body, headers=auth)
    assert answer.status_code == 200
    assert summed == [("Bo", "Cy", "Di")] and loaded == [] and len(worked) == 1
    with writes(app) as written:
        after = client.get(f"/api/v1/clubs/{club_id}/stats").get_json()
    assert written == [] and len(worked) == 1 and loaded == []
    players = {p["name"]: p for p in after["players"]}
    assert players["Di"]["rounds_out"] == 4 + 1 and players["Bo"]["games"] == 3


def test_a_name_with_control_characters_is_kept_without_them(
    client: FlaskClient, database_url: str
) -> None:
    """A NUL cannot be kept in PostgreSQL's text: names lose control characters, never a 500."""
    club = new_club(client)
    body = {"variant": "contract", "players": ["Ann", "B\x00o", "Cy"], "club": club["id"]}
    answer = client.post("/api/v1/games", json=body, headers=_club_auth(club))
    assert answer.status_code == 201
    assert client.get(f"/api/v1/clubs/{club['id']}").get_json()["members"] == ["Ann", "Bo", "Cy"]
