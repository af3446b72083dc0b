"""For operators: GET /healthz (SPEC.md) and the Prometheus metrics behind METRICS=1."""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from referee.web import create_app
from referee.web.plumbing.database import database


def test_healthz_says_ok_with_the_version_and_no_cookie(client: FlaskClient) -> None:
    answer = client.get("/healthz?lang=de", headers={"Accept-Language": "fr"})
    assert answer.status_code == 200
    assert answer.get_json() == {
        "status": "ok",
        "database": "ok",
        "version": version("rummy-referee"),
        # The live push's broker on SQLite, and its limit (docs/DEPLOY.md, "Live"); the
        # streams held and the most it holds; served by a WSGI server (the test client) a
        # stream waits in a thread.
        "live": {
            "broker": "in-process",
            "limit": "one worker process: a stream hears only the writes of its own process",
            "streams": 0,
            "limits": {"per_address": 60, "per_process": 2000},
            "waiting": "thread",
        },
    }
    assert "Set-Cookie" not in answer.headers
    assert answer.headers["Cache-Control"] == "no-store"


def test_healthz_is_a_503_naming_the_database_when_it_cannot_be_reached(
    tmp_path: Path,
) -> None:
    unreachable = "postgresql+psycopg://nobody:secret-password@127.0.0.1:1/none"
    app = create_app({"SECRET_KEY": "x", "DATABASE_URL": unreachable},
                     instance_path=str(tmp_path / "i"))  # fmt: skip
    answer = app.test_client().get("/healthz")
    assert answer.status_code == 503
    assert answer.get_json()["database"] == "unavailable"
    assert answer.get_json()["status"] == "unavailable"
    assert b"secret-password" not in answer.data and b"127.0.0.1" not in answer.data


def test_metrics_are_off_by_default(client: FlaskClient) -> None:
    assert client.get("/metrics").status_code == 404


def _metrics_app(tmp_path: Path) -> Flask:
    instance = tmp_path / "metrics"
    return create_app(
        {"SECRET_KEY": "x", "DATABASE_URL": f"sqlite:///{instance / 'db.sqlite3'}",
         "METRICS": "1", "TESTING": True},
        instance_path=str(instance),
    )  # fmt: skip


def _sample(text: str, prefix: str) -> float:
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith(prefix))  # fmt: skip


def test_metrics_count_requests_by_route_pdf_builds_and_solver_time(tmp_path: Path) -> None:
    app = _metrics_app(tmp_path)
    client = app.test_client()
    game = client.post("/api/v1/games", json={"variant": "contract", "players": ["A", "B", "C"]})
    token = game.get_json()["edit_token"]
    client.get(game.get_json()["edit_url"].removeprefix("http://localhost"))
    client.post("/api/v1/solve", json={"variant": "contract", "round": 1, "hand": "7H 7S 7D"})
    client.get("/sheets/contract.pdf")
    client.get("/sheets/contract.pdf")  # cached: not a build
    text = client.get("/metrics").get_data(as_text=True)
    assert 'flask_http_request_total{method="POST",status="201"}' in text
    assert 'url_rule="/games/<game_id>/edit/<token>"' in text
    assert token not in text  # routes by their rule, never by a path with a token in it
    assert _sample(text, 'rummy_pdf_builds_seconds_count{kind="sheet"}') == 1
    assert _sample(text, "rummy_solver_seconds_count") == 1
    database(app).dispose()


def test_two_apps_in_one_process_keep_their_own_figures(tmp_path: Path) -> None:
    first, second = _metrics_app(tmp_path / "a"), _metrics_app(tmp_path / "b")
    first.test_client().post("/api/v1/solve", json={"variant": "contract", "round": 1,
                                                    "hand": "7H 7S 7D"})  # fmt: skip
    text: Any = second.test_client().get("/metrics").get_data(as_text=True)
    assert _sample(text, "rummy_solver_seconds_count") == 0
    for app in (first, second):
        database(app).dispose()
