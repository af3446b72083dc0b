"""Rate limits (referee/web/limits.py): solving, writing, creating and importing are counted per
address; past a limit a 429 says so (JSON in the request's language under /api/, with
Retry-After), the OpenAPI document lists it, and the limits are settings (the environment's
too). The tests' apps run without limits (conftest) unless a test turns them on, as here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.web import create_app, limits, settings
from referee.web.database import database

SOLVE = {"variant": "contract", "round": 1, "hand": "7H 7S 7D KC KD KS 2C 9H"}
GAME = {"variant": "contract", "players": ["Ann", "Bo", "Cy"]}


def _app(tmp_path: Path, **config: Any) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "limits",
            "WTF_CSRF_ENABLED": False,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'limits.sqlite3'}",
            "RATELIMIT_ENABLED": True,
            **config,
        },
        instance_path=str(tmp_path / "instance"),
    )


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[Flask]:
    app = _app(
        tmp_path,
        RATELIMIT_SOLVE="2 per minute",
        RATELIMIT_CREATE="2 per minute",
        RATELIMIT_WRITES="3 per minute",
        RATELIMIT_IMPORTS="1 per minute",
    )
    yield app
    database(app).dispose()


def test_solve_past_its_limit_is_a_429_in_json_in_the_requests_language(limited: Flask) -> None:
    client = limited.test_client()
    for _ in range(2):
        assert client.post("/api/v1/solve", json=SOLVE).status_code == 200
    refused = client.post("/api/v1/solve?lang=de", json=SOLVE)
    assert refused.status_code == 429 and refused.mimetype == "application/json"
    error = refused.get_json()["error"]
    assert error["code"] == "too_many_requests"
    assert error["message"].startswith("Zu viele Anfragen von deiner Adresse")
    assert "noch einmal" in error["message"]
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    # Another address has its own count; other calls are not limited.
    other = limited.test_client()
    answer = other.post("/api/v1/solve", json=SOLVE, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert answer.status_code == 200
    meld = {"variant": "contract", "cards": "5H 6H 7H"}
    assert client.post("/api/v1/meld", json=meld).status_code == 200


def test_new_games_from_the_page_and_the_api_share_one_count(limited: Flask) -> None:
    client = limited.test_client()
    assert client.post("/api/v1/games", json=GAME).status_code == 201
    page = {"variant": "contract", "lang": "en", "start": "1", "first_dealer": "0"}
    page.update({"players-0": "Ann", "players-1": "Bo", "players-2": "Cy"})
    assert client.post("/", data=page).status_code == 303
    refused = client.post("/", data=page, headers={"Accept-Language": "nl"})
    assert refused.status_code == 429 and refused.mimetype == "text/html"
    assert "Te veel verzoeken" in refused.text
    assert client.get("/").status_code == 200  # reading the start page is not counted
    assert client.post("/api/v1/games", json=GAME).status_code == 429


def test_rounds_and_undo_are_counted_as_writes(limited: Flask) -> None:
    client = limited.test_client()
    game = client.post("/api/v1/games", json=GAME).get_json()
    bearer = {"Authorization": f"Bearer {game['edit_token']}"}
    results = [{"player": "Ann", "went_out": True}, {"player": "Bo", "penalty": 25},
               {"player": "Cy", "penalty": 30}]  # fmt: skip
    rounds = f"/api/v1/games/{game['id']}/rounds"
    entered = client.post(rounds, json={"round": 1, "results": results}, headers=bearer)
    assert entered.status_code == 200, entered.get_json()
    assert (
        client.post(f"/api/v1/games/{game['id']}/undo", json={}, headers=bearer).status_code == 200
    )
    again = client.post(rounds, json={"round": 1, "results": results}, headers=bearer)
    assert again.status_code == 200
    refused = client.post(f"/api/v1/games/{game['id']}/undo", json={}, headers=bearer)
    assert refused.status_code == 429
    assert client.get(f"/api/v1/games/{game['id']}").status_code == 200


def test_imports_have_the_tightest_limit(limited: Flask) -> None:
    client = limited.test_client()
    first = client.post("/clubs/import", data={"file": (b"{}", "club.json")})
    assert first.status_code != 429
    assert client.post("/games/import", data={"file": (b"{}", "game.json")}).status_code == 429


def test_the_openapi_document_lists_the_429_of_every_limited_call(limited: Flask) -> None:
    document = limited.test_client().get("/api/v1/openapi.json").get_json()
    with_429 = {
        (method, path)
        for path, calls in document["paths"].items()
        for method, call in calls.items()
        if "429" in call["responses"]
    }
    assert with_429 == {
        ("post", "/api/v1/solve"),
        ("post", "/api/v1/games"),
        ("post", "/api/v1/games/{game_id}/rounds"),
        ("put", "/api/v1/games/{game_id}/rounds/{number}"),
        ("post", "/api/v1/games/{game_id}/undo"),
        ("post", "/api/v1/clubs"),
    }
    answer = document["paths"]["/api/v1/solve"]["post"]["responses"]["429"]
    assert answer["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorAnswer")
    assert "Retry-After" in answer["description"]


def test_without_limits_nothing_is_counted(client: FlaskClient) -> None:
    for _ in range(25):
        assert client.post("/api/v1/solve", json=SOLVE).status_code == 200


def test_a_limited_endpoint_the_app_lacks_stops_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    renamed = (*limits.GROUPS, limits.Group("RATELIMIT_SOLVE", "1 per minute", ("api.solver",)))
    monkeypatch.setattr(limits, "GROUPS", renamed)
    with pytest.raises(RuntimeError, match=r"api\.solver"):
        _app(tmp_path)


def test_the_limits_are_read_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RATELIMIT_ENABLED", "1")
    monkeypatch.setenv("RATELIMIT_SOLVE", "1 per hour")
    monkeypatch.setenv("RATELIMIT_STORAGE_URI", "memory://")
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": "sqlite://"},
        instance_path=str(tmp_path),
    )
    assert app.config["RATELIMIT_SOLVE"] == "1 per hour"
    client = app.test_client()
    assert client.post("/api/v1/solve", json=SOLVE).status_code == 200
    assert client.post("/api/v1/solve", json=SOLVE).status_code == 429
    monkeypatch.setenv("RATELIMIT_SOLVE", "often")
    with pytest.raises(ValueError, match="RATELIMIT_SOLVE"):
        settings.from_environment({"RATELIMIT_SOLVE": "often"})
    with pytest.raises(ValueError, match="RATELIMIT_ENABLED"):
        settings.from_environment({"RATELIMIT_ENABLED": "maybe"})
