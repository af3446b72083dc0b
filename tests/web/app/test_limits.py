"""Rate limits (plumbing/limits.py): solving, writing, creating and importing are counted per
address; past a limit a 429 says so (JSON in the request's language under /api/, with
Retry-After), the OpenAPI document lists it, and the limits are settings (the environment's
too). The tests' apps run without limits (conftest) unless a test turns them on, as here."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from processes import free_port, wait_for

from referee.web import create_app
from referee.web.plumbing import limits, settings
from referee.web.plumbing.database import database

SOLVE = {"variant": "contract", "round": 1, "hand": "7H 7S 7D KC KD KS 2C 9H"}
GAME = {"variant": "contract", "players": ["Ann", "Bo", "Cy"]}
ROOT = Path(__file__).resolve().parents[3]


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
def limited_with(tmp_path: Path) -> Iterator[Callable[..., Flask]]:
    """Apps with the limits asked for (each in a folder of its own), closed at the end."""
    made: list[Flask] = []

    def make(**limits: str) -> Flask:
        made.append(_app(tmp_path / f"app-{len(made)}", **limits))
        return made[-1]

    yield make
    for app in made:
        database(app).dispose()


@pytest.fixture
def limited(limited_with: Callable[..., Flask]) -> Flask:
    return limited_with(
        RATELIMIT_SOLVE="2 per minute",
        RATELIMIT_CREATE="2 per minute",
        RATELIMIT_WRITES="3 per minute",
        RATELIMIT_IMPORTS="1 per minute",
    )


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
        ("post", "/api/v1/clubs/{club_id}/events"),
        ("post", "/api/v1/clubs/{club_id}/events/{event_id}/players"),
        ("post", "/api/v1/clubs/{club_id}/events/{event_id}/series"),
        ("post", "/api/v1/clubs/{club_id}/events/{event_id}/seating"),
        ("post", "/api/v1/clubs/{club_id}/events/{event_id}/check-in"),
        ("post", "/api/v1/clubs/{club_id}/events/{event_id}/check-in/{key}"),
        ("post", "/api/v1/clubs/{club_id}/seasons"),
        ("patch", "/api/v1/clubs/{club_id}/seasons/{season_id}"),
        ("delete", "/api/v1/clubs/{club_id}/seasons/{season_id}"),
        ("get", "/api/v1/drills"),
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


# -- issue 34: club nights, the referee's checks and PDF builds in groups; one count a box ------


@pytest.fixture
def tight(limited_with: Callable[..., Flask]) -> Flask:
    return limited_with(
        RATELIMIT_EVENTS="3 per minute",
        RATELIMIT_CHECKS="2 per minute",
        RATELIMIT_SOLVE="1 per minute",
        RATELIMIT_PDF="2 per minute",
    )


def test_club_night_writes_from_the_page_and_the_api_share_one_count(tight: Flask) -> None:
    client = tight.test_client()
    club = client.post("/api/v1/clubs", json={"name": "Thursdays"}).get_json()
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    events = f"/api/v1/clubs/{club['id']}/events"
    made = client.post(events, json={"name": "Night", "variant": "contract"}, headers=auth)
    assert made.status_code == 201
    evening = made.get_json()["id"]
    host = f"/clubs/{club['id']}/events/{evening}/edit/{club['edit_token']}"
    page = client.post(f"{host}/players", data={"new_names-0": "Ann", "check_in": "1"})
    assert page.status_code in (200, 303)
    names = {"names": ["Bo", "Cy", "Di", "Ed"]}
    assert client.post(f"{events}/{evening}/players", json=names, headers=auth).status_code == 200
    refused = client.post(f"{events}/{evening}/series", json={"series": 1}, headers=auth)
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "too_many_requests"
    assert client.get(f"{events}/{evening}").status_code == 200  # reading is not counted
    assert client.get(f"/clubs/{club['id']}/events/{evening}").status_code == 200


def test_the_referee_pages_checks_are_counted_and_a_hand_is_a_solve(tight: Flask) -> None:
    client = tight.test_client()
    for _ in range(3):  # the page itself, and a check form left empty, are not checks
        assert client.get("/referee").status_code == 200
        assert client.get("/referee?check=meld&variant=contract&cards=").status_code == 200
    solve = "/referee?check=solve&variant=contract&round=1&hand=7H+7S+7D+KC+KD+KS+2C+9H"
    assert client.get(solve).status_code == 200
    assert client.get(solve).status_code == 429  # the solver's own limit: one a minute
    meld = "/referee?check=meld&variant=contract&cards=5H+6H+7H"
    assert client.get(meld).status_code == 200  # the second check of two a minute
    assert client.get(meld).status_code == 429
    assert client.post("/api/v1/solve", json=SOLVE).status_code == 429  # one count with the API


def test_pdfs_are_counted_when_built_not_when_the_cache_answers(tight: Flask) -> None:
    client = tight.test_client()
    first = "/sheets/contract.pdf?players=Ann,Bo,Cy"
    assert client.get(first).status_code == 200
    assert client.get("/sheets/contract.pdf?players=Di,Ed,Flo").status_code == 200
    refused = client.get("/sheets/contract.pdf?players=Gus,Hal,Ida")
    assert refused.status_code == 429 and 0 < int(refused.headers["Retry-After"]) <= 60
    assert "Too many requests" in refused.text
    for _ in range(5):  # built already: the cache answers, uncounted
        assert client.get(first).status_code == 200
    other = client.get("/sheets/contract.pdf?players=Gus,Hal,Ida",
                       environ_base={"REMOTE_ADDR": "10.0.0.9"})  # fmt: skip
    assert other.status_code == 200


def test_an_ipv6_household_is_one_address_and_its_prefix_one_count(tight: Flask) -> None:
    client = tight.test_client()
    for address in ("2001:db8:1:2::10", "2001:db8:1:2:ffff::99"):
        answer = client.get(f"/sheets/contract.pdf?players={address[-2:]},X,Y",
                            environ_base={"REMOTE_ADDR": address})  # fmt: skip
        assert answer.status_code == 200
    third = client.get("/sheets/contract.pdf?players=Z,X,Y",
                       environ_base={"REMOTE_ADDR": "2001:db8:1:2:aaaa::1"})  # fmt: skip
    assert third.status_code == 429
    elsewhere = client.get("/sheets/contract.pdf?players=Z,X,Y",
                           environ_base={"REMOTE_ADDR": "2001:db8:1:3::1"})  # fmt: skip
    assert elsewhere.status_code == 200


def test_the_counts_are_kept_in_the_data_folder_by_default(tight: Flask) -> None:
    uri = tight.config["RATELIMIT_STORAGE_URI"]
    assert uri == f"diskcache://{Path(tight.instance_path).resolve() / 'rate-limits'}"
    client = tight.test_client()
    client.get("/sheets/contract.pdf?players=Ann,Bo,Cy")
    assert (Path(tight.instance_path) / "rate-limits" / "cache.db").is_file()


def _gunicorn(base: Path, port: int, **environment: str) -> subprocess.Popen[bytes]:
    """gunicorn as deploy/ runs it, its access log naming the worker (pid) of each answer."""
    env = {
        **os.environ,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "RUMMY_INSTANCE_PATH": str(base / "instance"),
        "DATABASE_URL": f"sqlite:///{base / 'rummy.sqlite3'}",
        "SECRET_KEY": "limits across workers",
        "RATELIMIT_ENABLED": "1",
        **environment,
    }
    with (base / "gunicorn.log").open("wb") as log:
        return subprocess.Popen(
            [str(ROOT / ".venv/bin/gunicorn"), "-c", str(ROOT / "deploy/gunicorn.conf.py"),
             "--access-logfile", str(base / "access.log"),
             "--access-logformat", "%(p)s %(m)s %(U)s %(s)s", "wsgi:app"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip


def _create(port: int) -> int:
    """POST /api/v1/games on a connection of its own: the answer's status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("POST", "/api/v1/games", body=json.dumps(GAME),
                       headers={"Content-Type": "application/json"})  # fmt: skip
    answer = connection.getresponse()
    answer.read()
    connection.close()
    return answer.status


@pytest.mark.slow  # gunicorn started for real
def test_three_gunicorn_workers_share_one_count(tmp_path: Path) -> None:
    """Issue 34: with the per-worker count of memory://, three workers let three times the
    limit through. One thread a worker, so that the twenty creates sent at once are spread
    over the three."""
    port = free_port()
    server = _gunicorn(tmp_path, port, GUNICORN_WORKERS="3", GUNICORN_THREADS="1",
                       RATELIMIT_CREATE="5 per minute")  # fmt: skip
    try:
        wait_for(port, server, tmp_path / "gunicorn.log")
        # The workers keep the real clock (not the tests' window, conftest): the twenty are
        # sent well inside one minute, for just past its end the last minute's five weigh 4.9.
        left = 60 - time.time() % 60
        if left < 15:
            time.sleep(left + 0.5)
        with ThreadPoolExecutor(max_workers=12) as pool:
            statuses = sorted(pool.map(lambda _: _create(port), range(20)))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    assert statuses == [201] * 5 + [429] * 15, statuses
    lines = (tmp_path / "access.log").read_text().splitlines()
    workers = {line.split()[0] for line in lines if " POST /api/v1/games " in line}
    assert len(workers) >= 2, lines  # more than one worker answered
