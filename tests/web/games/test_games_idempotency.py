"""Never twice, never lost (SPEC): a write sent again with its Idempotency-Key changes nothing and
answers what it answered the first time, on SQLite and PostgreSQL, by the API and by the forms."""

from __future__ import annotations

import re
import threading
import uuid
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.web.games import queries


def _stored(game_id: str) -> queries.StoredGame:
    """The game kept under `game_id`, which must be there."""
    found = queries.load(game_id)
    assert found is not None, game_id
    return found


def _create(client: FlaskClient) -> dict[str, Any]:
    body = {"variant": "contract", "players": ["Ann", "Bo", "Cy"]}
    answer = client.post("/api/v1/games", json=body)
    assert answer.status_code == 201
    created: dict[str, Any] = answer.get_json()
    return created


def _round(number: int, bo: int = 25) -> dict[str, Any]:
    return {
        "round": number,
        "results": [
            {"player": "Ann", "went_out": True},
            {"player": "Bo", "penalty": bo},
            {"player": "Cy", "penalty": 10},
        ],
    }


def _headers(game: dict[str, Any], key: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {game['edit_token']}"}
    if key is not None:
        headers["Idempotency-Key"] = key
    return headers


def _rounds(app: Flask, game_id: str) -> int:
    with app.test_request_context("/"):
        return len(_stored(game_id).game.rounds)


@pytest.mark.usefixtures("database_url")
def test_the_same_key_twice_is_one_round_with_equal_answers(
    app: Flask, client: FlaskClient
) -> None:
    game = _create(client)
    url = f"/api/v1/games/{game['id']}/rounds"
    key = str(uuid.uuid4())
    first = client.post(url, json=_round(1), headers=_headers(game, key))
    again = client.post(url, json=_round(1), headers=_headers(game, key))
    assert first.status_code == again.status_code == 200
    assert first.get_json() == again.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert _rounds(app, game["id"]) == 1
    # The body's keys in another order ask the same thing.
    shuffled = {"results": _round(1)["results"], "round": 1}
    assert client.post(url, json=shuffled, headers=_headers(game, key)).status_code == 200
    assert _rounds(app, game["id"]) == 1


@pytest.mark.usefixtures("database_url")
def test_the_same_key_with_another_body_is_a_422(app: Flask, client: FlaskClient) -> None:
    game = _create(client)
    url = f"/api/v1/games/{game['id']}/rounds"
    key = str(uuid.uuid4())
    assert client.post(url, json=_round(1), headers=_headers(game, key)).status_code == 200
    other = client.post(url, json=_round(1, bo=40), headers=_headers(game, key))
    assert other.status_code == 422
    assert other.get_json()["error"]["code"] == "idempotency_key_reused"
    assert other.get_json()["error"]["message"]
    assert _rounds(app, game["id"]) == 1


@pytest.mark.usefixtures("database_url")
def test_keys_belong_to_their_game(app: Flask, client: FlaskClient) -> None:
    one, two = _create(client), _create(client)
    key = "shared-key-0001"
    for game in (one, two):
        url = f"/api/v1/games/{game['id']}/rounds"
        assert client.post(url, json=_round(1), headers=_headers(game, key)).status_code == 200
    assert _rounds(app, one["id"]) == _rounds(app, two["id"]) == 1


@pytest.mark.usefixtures("database_url")
def test_a_retry_after_a_lost_answer_is_not_stale(app: Flask, client: FlaskClient) -> None:
    """The first try was saved but its answer never arrived: the retry names the old version."""
    game = _create(client)
    url = f"/api/v1/games/{game['id']}/rounds"
    body = {**_round(1), "version": 1}
    key = str(uuid.uuid4())
    assert client.post(url, json=body, headers=_headers(game, key)).status_code == 200
    retry = client.post(url, json=body, headers=_headers(game, key))
    assert retry.status_code == 200 and retry.get_json()["version"] == 2
    without_key = client.post(url, json=body, headers=_headers(game))
    assert without_key.status_code == 409  # the same write without its key is stale


@pytest.mark.usefixtures("database_url")
def test_corrections_and_undo_take_keys_too(app: Flask, client: FlaskClient) -> None:
    game = _create(client)
    base = f"/api/v1/games/{game['id']}"
    client.post(f"{base}/rounds", json=_round(1), headers=_headers(game))
    key = str(uuid.uuid4())
    for _ in range(2):
        fixed = client.put(f"{base}/rounds/1", json=_round(1, bo=40), headers=_headers(game, key))
        assert fixed.status_code == 200 and fixed.get_json()["version"] == 3
    undo_key = str(uuid.uuid4())
    for _ in range(2):
        undone = client.post(f"{base}/undo", json={}, headers=_headers(game, undo_key))
        assert undone.status_code == 200 and undone.get_json()["version"] == 4
    assert client.get(base).get_json()["totals"]["Bo"] == 25  # one undo, not two


@pytest.mark.usefixtures("database_url")
def test_a_refused_write_is_not_kept(app: Flask, client: FlaskClient) -> None:
    game = _create(client)
    url = f"/api/v1/games/{game['id']}/rounds"
    key = str(uuid.uuid4())
    refused = client.post(url, json=_round(1, bo=7), headers=_headers(game, key))
    assert refused.status_code == 400
    # Nothing was done under the key: the same request is judged again, the same way.
    assert client.post(url, json=_round(1, bo=7), headers=_headers(game, key)).status_code == 400
    assert _rounds(app, game["id"]) == 0


@pytest.mark.parametrize("key", ["short", "x" * 65, "with space in it", "ümlaut-key-123"])
def test_a_key_of_another_shape_is_a_400(client: FlaskClient, key: str) -> None:
    game = _create(client)
    url = f"/api/v1/games/{game['id']}/rounds"
    headers = {"Authorization": f"Bearer {game['edit_token']}"}
    answer = client.post(url, json=_round(1), headers={**headers, "Idempotency-Key": key})
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == "bad_idempotency_key"


@pytest.mark.usefixtures("database_url")
def test_two_retries_at_once_enter_the_round_once(app: Flask, client: FlaskClient) -> None:
    game = _create(client)
    url = f"/api/v1/games/{game['id']}/rounds"
    key = str(uuid.uuid4())
    barrier = threading.Barrier(2)
    answers: list[int] = []

    def send() -> None:
        with app.test_client() as own:
            barrier.wait()
            answers.append(own.post(url, json=_round(1), headers=_headers(game, key)).status_code)

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [200, 200]
    assert _rounds(app, game["id"]) == 1


# -- the forms -----------------------------------------------------------------------------------


def _start(client: FlaskClient) -> str:
    data = {"variant": "contract", "first_dealer": "0", "lang": "en", "start": "1"}
    data.update({"players-0": "Ann", "players-1": "Bo", "players-2": "Cy"})
    response = client.post("/", data=data)
    assert response.status_code == 303
    return response.headers["Location"]


def test_a_double_tap_on_save_enters_the_round_once(app: Flask, client: FlaskClient) -> None:
    location = _start(client)
    page = client.get(location).get_data(as_text=True)
    key = re.search(r'name="Idempotency-Key" value="([^"]+)"', page)
    assert key is not None
    data = {"version": "1", "round": "1", "went_out": "0", "Idempotency-Key": key.group(1)}
    data.update({"seats-1-penalty": "25", "seats-2-penalty": "30"})
    first = client.post(location + "/rounds", data=data)
    second = client.post(location + "/rounds", data=data)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert _rounds(app, location.split("/")[2]) == 1
    # Every form drawn gets a key of its own: the next round is a new request.
    fresh = re.search(r'name="Idempotency-Key" value="([^"]+)"', client.get(location).text)
    assert fresh is not None and fresh.group(1) != key.group(1)


def test_a_form_key_sent_again_with_other_numbers_is_refused(
    app: Flask, client: FlaskClient
) -> None:
    location = _start(client)
    data = {"version": "1", "round": "1", "went_out": "0", "Idempotency-Key": "form-key-0001"}
    data.update({"seats-1-penalty": "25", "seats-2-penalty": "30"})
    assert client.post(location + "/rounds", data=data).status_code == 303
    changed = {**data, "seats-1-penalty": "40"}
    answer = client.post(location + "/rounds", data=changed)
    assert answer.status_code == 422
    assert 'value="40"' in answer.get_data(as_text=True)  # what was typed is kept
    assert _rounds(app, location.split("/")[2]) == 1


def test_undo_by_form_twice_with_one_key_undoes_once(app: Flask, client: FlaskClient) -> None:
    location = _start(client)
    data = {"version": "1", "round": "1", "went_out": "0"}
    data.update({"seats-1-penalty": "25", "seats-2-penalty": "30"})
    client.post(location + "/rounds", data=data)
    data.update({"version": "2", "round": "2", "seats-1-penalty": "5"})
    client.post(location + "/rounds", data=data)
    undo = {"version": "3", "Idempotency-Key": "undo-key-0001"}
    assert client.post(location + "/undo", data=undo).status_code == 303
    assert client.post(location + "/undo", data=undo).status_code == 303
    assert _rounds(app, location.split("/")[2]) == 1


def test_a_retry_is_answered_before_the_repeat_question_or_the_version(
    app: Flask, client: FlaskClient
) -> None:
    """A round the same as the one before asks first; its retry (the same key) is not a repeat."""
    location = _start(client)
    data = {"version": "1", "round": "1", "went_out": "0"}
    data.update({"seats-1-penalty": "25", "seats-2-penalty": "30"})
    assert client.post(location + "/rounds", data=data).status_code == 303
    again = {**data, "version": "2", "round": "2", "Idempotency-Key": "form-key-0002"}
    asked = client.post(location + "/rounds", data=again)
    assert asked.status_code == 400 and "Save it: the same as round 1" in asked.text
    sure = {**again, "same_again": "y"}
    first = client.post(location + "/rounds", data=sure)
    retry = client.post(location + "/rounds", data=sure)  # the answer was lost: sent again
    assert first.status_code == retry.status_code == 303
    assert first.headers["Location"] == retry.headers["Location"]
    assert _rounds(app, location.split("/")[2]) == 2
    # Another phone moves the game on; the retry still gets its first answer, not a conflict.
    other = {**data, "version": "3", "round": "3", "seats-1-penalty": "40"}
    assert client.post(location + "/rounds", data=other).status_code == 303
    assert client.post(location + "/rounds", data=sure).status_code == 303
    assert _rounds(app, location.split("/")[2]) == 3


def test_the_button_pressed_is_not_part_of_a_forms_key(app: Flask, client: FlaskClient) -> None:
    """Enter in a field sends no button, a tap on Save sends `save=1`: the same request."""
    location = _start(client)
    data = {"version": "1", "round": "1", "went_out": "0", "Idempotency-Key": "form-key-0003"}
    data.update({"seats-1-penalty": "25", "seats-2-penalty": "30"})
    assert client.post(location + "/rounds", data=data).status_code == 303
    assert client.post(location + "/rounds", data={**data, "save": "1"}).status_code == 303
    assert _rounds(app, location.split("/")[2]) == 1


def test_a_round_number_from_nowhere_is_the_round_to_enter(client: FlaskClient) -> None:
    location = _start(client)
    for number in ("99", "0", "-1", "x"):
        data = {"version": "1", "round": number, "went_out": "0", "seats-1-penalty": "7"}
        answer = client.post(location + "/rounds", data=data)
        assert answer.status_code == 400, number
        assert "Enter round 1" in answer.get_data(as_text=True)


def test_pages_with_the_edit_token_are_never_stored_on_the_way(client: FlaskClient) -> None:
    location = _start(client)
    for path in (location, location + "/live", location + "/qr.svg"):
        assert client.get(path).headers["Cache-Control"] == "no-store", path
    assert "no-store" not in client.get(location.split("/edit/")[0]).headers.get(
        "Cache-Control", ""
    )
