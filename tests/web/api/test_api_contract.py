"""The API's contract: GET /api/v1/openapi.json describes every /api/v1 call from the models
that read the requests, and schemathesis holds the app to it (no 5xx, every answer conforms),
on SQLite and PostgreSQL. The long fuzz is bench/fuzz.py; this is its bounded part."""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from conftest import new_pg_database
from flask import Flask
from flask.testing import FlaskClient
from schemathesis.checks import not_a_server_error
from schemathesis.engine import events, from_schema
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)
from werkzeug.serving import make_server

# Their calls document themselves on import (the evenings' import the clubs' and games').
import referee.web.events.api
import referee.web.games.api
import referee.web.training.api  # noqa: F401
from referee.web import create_app
from referee.web.jsonapi.openapi import OPERATIONS
from referee.web.plumbing.database import database
from referee.web.refereeing import schemas

#: `st run --checks all` but this one: it would need the document to say which names, cards
#: and rounds the rules refuse, which only the rules can.
EXCLUDED_CHECKS = ["positive_data_acceptance"]
#: What bench/fuzz.py holds each of its cases to.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
#: Examples per operation in CI (bench/fuzz.py runs thousands).
CI_EXAMPLES = 12


def _rule_as_openapi(rule: str) -> str:
    return re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule)


def test_the_document_is_openapi_3_1_with_every_api_route(client: FlaskClient) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"] == "3.1.0"
    documented = {(path, method.upper()) for path, ops in doc["paths"].items() for method in ops}
    served = {
        (_rule_as_openapi(rule.rule), method)
        for rule in client.application.url_map.iter_rules()
        if rule.rule.startswith("/api/v1/") and rule.endpoint not in ("api.openapi", "api.docs")
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
    assert served == documented
    # Every answer names its shape, every shape is in components.
    for ops in doc["paths"].values():
        for op in ops.values():
            for status, answer in op["responses"].items():
                assert answer["description"], (op["operationId"], status)


def test_requests_are_read_by_the_documented_models(client: FlaskClient) -> None:
    """The shapes in the document are the models that read the bodies, field for field."""
    doc = client.get("/api/v1/openapi.json").get_json()
    components = doc["components"]["schemas"]
    for call, model in schemas.REQUESTS.items():
        body = doc["paths"][f"/api/v1/{call}"]["post"]["requestBody"]
        name = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
        assert name == model.__name__
        assert set(components[name]["properties"]) == set(model.model_fields)
        # A field of the wrong type is refused by that model, naming the field.
        for field_name, info in model.model_fields.items():
            if info.annotation in (bool, bool | None):
                wrong = client.post(f"/api/v1/{call}", json={field_name: "yes"})
                assert wrong.status_code == 400


def test_the_spec_fields_that_other_issues_wire_are_documented(client: FlaskClient) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    assert {"players", "game"} <= set(doc["MeldRequest"]["properties"])
    assert {"going_out", "discard"} <= set(doc["ContractRequest"]["properties"])
    assert "contract_down" in doc["LayoffRequest"]["properties"]
    assert "nearest" in doc["SolveRequest"]["properties"]
    assert {"exact", "missing"} <= set(doc["SolveAnswer"]["properties"])


def test_the_docs_page_shows_every_call(client: FlaskClient) -> None:
    page = client.get("/api/v1/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    for op in OPERATIONS:
        assert f"<code>{op.method.upper()} {op.path}</code>" in text
    assert "<script>" not in text and "style=" not in text and "https://" not in text
    assert 'id="shape-MeldAnswer"' in text


def test_the_docs_page_on_a_phone(page: Any, live_server: str, screenshot_dir: Path) -> None:
    page.goto(f"{live_server}/api/v1/docs")
    assert page.locator("h1").inner_text() == "The JSON API"
    page.click("a[href='#meld']")
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(screenshot_dir / "api-docs-360.png"))


# -- schemathesis -------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def fuzzed_app(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Flask]:
    instance = tmp_path_factory.mktemp(f"contract-{request.param}")
    if request.param == "sqlite":
        url = f"sqlite:///{instance / 'db.sqlite3'}"
    else:
        url = new_pg_database(request.getfixturevalue("pg_url"), "c")
    app = create_app({"SECRET_KEY": "fuzz", "DATABASE_URL": url}, instance_path=str(instance))
    app.config["PROPAGATE_EXCEPTIONS"] = False  # a crash must show as the 500 a client sees
    yield app
    database(app).dispose()


@pytest.fixture(scope="module")
def seeded(fuzzed_app: Flask) -> dict[str, str]:
    """A real game, club and evening (eight players checked in), so that most cases reach them
    instead of a 404."""
    client = fuzzed_app.test_client()
    created = client.post(
        "/api/v1/games", json={"variant": "contract", "players": ["Ann", "Bo", "Cy"]}
    )
    data = created.get_json()
    club = client.post("/api/v1/clubs", json={"name": "Thursdays"}).get_json()
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    evening = client.post(
        f"/api/v1/clubs/{club['id']}/events",
        json={"name": "Club night", "variant": "contract", "series": 3},
        headers=auth,
    ).get_json()
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    client.post(f"/api/v1/clubs/{club['id']}/events/{evening['id']}/players",
                json={"names": names}, headers=auth)  # fmt: skip
    return {
        "id": data["id"],
        "token": data["edit_token"],
        "club": club["id"],
        "club_token": club["edit_token"],
        "event": evening["id"],
    }


_turn = itertools.count()


def aim_at_the_seeded_game(case: Any, seeded: dict[str, str]) -> None:
    """Three cases in four that carry a bearer token go to the real game, club or evening with
    its token; the rest as drawn (a case without one stays without: a missing token is a case)."""
    if not (case.headers or {}).get("Authorization") or not next(_turn) % 4:
        return
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters["game_id"] = seeded["id"]
        case.headers["Authorization"] = f"Bearer {seeded['token']}"
    elif "club_id" in (case.path_parameters or {}):
        case.path_parameters["club_id"] = seeded["club"]
        case.headers["Authorization"] = f"Bearer {seeded['club_token']}"
        if "event_id" in case.path_parameters:
            case.path_parameters["event_id"] = seeded["event"]


def hold_to_the_contract(
    app: Flask, seeded: dict[str, str], *, examples: int, seed: int, path_regex: str = ""
) -> tuple[int, list[str]]:
    """`st run /api/v1/openapi.json --checks all --exclude-checks positive_data_acceptance`,
    in this process against `app`: every phase (examples, coverage, fuzzing, stateful) over
    every call. The cases run and every failure, said in one line each."""
    # Over HTTP, as `st run` goes: the probes of `ignored_auth` need a real transport.
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        schema: Any = schemathesis.openapi.from_url(
            f"http://127.0.0.1:{server.port}/api/v1/openapi.json"
        )
        if path_regex:
            schema = schema.include(path_regex=path_regex)
        return _run(schema, seeded, examples=examples, seed=seed)
    finally:
        server.shutdown()


def _run(schema: Any, seeded: dict[str, str], *, examples: int, seed: int) -> tuple[int, list[str]]:
    config = schema.config
    # Compressed answers are the transport's business, not the contract's.
    config.update(headers={"Accept-Encoding": "identity"})
    config.checks.update(excluded_check_names=EXCLUDED_CHECKS)
    config.generation.update(max_examples=examples, database="none")
    config.seed = seed

    @schema.hook  # type: ignore[untyped-decorator]
    def map_case(ctx: Any, case: Any) -> Any:
        aim_at_the_seeded_game(case, seeded)
        if (case.headers or {}).get("Authorization", "").endswith(tuple(seeded.values())):
            # A real token: `ignored_auth` then checks that a missing or a wrong one is refused.
            case._has_explicit_auth = True
        return case

    cases, failures = 0, []
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            cases += len(event.recorder.cases)
            for checks in event.recorder.checks.values():
                failures += [
                    f"{event.phase.value} {event.recorder.label}: {check.name}: "
                    f"{check.failure_info.failure.title} - {check.failure_info.failure.message}"
                    for check in checks
                    if check.failure_info is not None
                ]
        elif isinstance(event, events.NonFatalError | events.FatalError):
            info = getattr(event, "info", None)
            said = info.message if info is not None else getattr(event, "exception", event)
            failures.append(f"error: {getattr(event, 'label', '')} {said}")
    return cases, sorted(set(failures))


@pytest.mark.slow  # a fuzz over every call, twice: a minute of CPU
def test_every_call_holds_to_the_contract_under_every_check(
    fuzzed_app: Flask, seeded: dict[str, str]
) -> None:
    """Every check schemathesis has but `positive_data_acceptance` (which would need the
    document to say which names, cards and rounds the rules refuse), on SQLite and PostgreSQL:
    no 5xx, every answer as described, everything the description refuses refused (an unknown
    `lang`, a round 0, a body that is not JSON, a missing token: 401)."""
    # The referee's calls read no database: SQLite's run holds them.
    database_only = "^/api/v1/(games|clubs)" if fuzzed_app.config["DATABASE_URL"].startswith(
        "postgresql") else ""  # fmt: skip
    cases, failures = hold_to_the_contract(fuzzed_app, seeded, examples=CI_EXAMPLES, seed=23,
                                           path_regex=database_only)  # fmt: skip
    assert cases > 300
    assert failures == [], "\n".join(failures)


def test_a_body_of_the_wrong_shape_is_said_once_per_field_with_its_player(
    client: FlaskClient,
) -> None:
    players = ["Ann", "Bo", "Cy"]
    data = client.post("/api/v1/games", json={"variant": "contract", "players": players}).get_json()
    body = {
        "round": 1,
        "results": [
            {"player": "Ann", "went_out": "yes"},
            {"player": "Bo", "penalty": "x²", "cards": {"7H": 1}},
            {"player": "Cy", "buys": 2.5},
        ],
    }
    answer = client.post(f"/api/v1/games/{data['id']}/rounds", json=body,
                         headers={"Authorization": f"Bearer {data['edit_token']}"})  # fmt: skip
    assert answer.status_code == 400
    found = [(e["code"], e.get("player"), e.get("field")) for e in answer.get_json()["errors"]]
    assert found == [
        ("bad_input", "Ann", "went_out"),
        ("not_a_number", "Bo", "penalty"),
        ("bad_input", "Bo", "cards"),
        ("not_a_number", "Cy", "buys"),
    ]
