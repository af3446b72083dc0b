"""What one request body may cost (SPEC "Limits"): no body the API reads, of any shape, costs
more than 100 ms of processor time. Every list a body holds is bounded by the rules before any
entry of it is read, and a body's problems are gathered in one pass and only the first few.
The figures of each call's worst body: bench/request_cost.py."""

from __future__ import annotations

import gc
import runpy
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from flask.testing import FlaskClient
from largest_bodies import json_operations, sweep
from pydantic import StrictInt

from referee.web.jsonapi.schemas import MAX_PROBLEMS, Body, Unreadable, read
from referee.web.plumbing.hosting import MAX_FORM_BODY

#: What one body may cost, in milliseconds of CPU. The bodies here cost under 10 ms on this
#: project's machines; a body over it is sent twice more and its cheapest time kept, so a
#: busy machine's slow moment does not fail it, and a body that costs it every time does.
LIMIT_MS = 100.0


def _cheapest_ms(work: Any, tries: int = 3) -> float:
    """The CPU milliseconds `work()` costs, tried again (up to `tries` times) while over
    LIMIT_MS, the cheapest kept: as the sweep does, so that a collection of a busy test
    process's heap or a slow moment of the machine does not fail a bound the code keeps."""
    best = float("inf")
    for _ in range(tries):
        started = time.process_time()
        work()
        best = min(best, (time.process_time() - started) * 1000)
        if best < LIMIT_MS:
            break
    return best


@pytest.mark.slow  # every shape at its largest, and CPU time measured: not on a busy machine
def test_no_body_of_any_shape_costs_a_call_more_than_100_ms_of_cpu(client: FlaskClient) -> None:
    found = sweep(client, again_over=LIMIT_MS)
    over = [f"{m.operation} {m.shape}: {m.cpu_ms:.0f} ms" for m in found if m.cpu_ms > LIMIT_MS]
    assert not over, "\n".join(over)
    assert not [m for m in found if m.status >= 500]
    # Every JSON call of the document was swept, each with bodies at the 64 KB the API reads.
    document = client.get("/api/v1/openapi.json").get_json()
    calls = {f"{method.upper()} {path}" for method, path in json_operations(document)}
    assert {m.operation for m in found} == calls
    for call in calls:
        assert max(m.size for m in found if m.operation == call) > 65_000, call


def _arrays(schema: Any, where: str = "") -> list[str]:
    """Every array in a JSON schema without a maxItems, by where it is."""
    found: list[str] = []
    if isinstance(schema, dict):
        if schema.get("type") == "array" and "maxItems" not in schema:
            found.append(where)
        for key, value in schema.items():
            found += _arrays(value, f"{where}.{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            found += _arrays(value, f"{where}[{index}]")
    return found


def test_every_list_a_request_holds_is_bounded_in_the_document(client: FlaskClient) -> None:
    document = client.get("/api/v1/openapi.json").get_json()
    components = document["components"]["schemas"]
    requests = {
        media["schema"]["$ref"].rsplit("/", 1)[-1]
        for path in document["paths"].values()
        for operation in path.values()
        for media in operation.get("requestBody", {}).get("content", {}).values()
    }
    # The models a request names, and the models those name (a round's results).
    for name in sorted(requests | {"SeatResultBody", "TableSizes"}):
        assert not _arrays(components[name], name), _arrays(components[name], name)
    contract = components["ContractRequest"]["properties"]
    assert contract["melds"]["maxItems"] == 12
    assert components["NewGame"]["properties"]["players"]["maxItems"] == 8
    assert components["PlayersChange"]["properties"]["names"]["maxItems"] == 60


class _Unbounded(Body):
    numbers: list[StrictInt]


@pytest.mark.slow  # CPU time measured
def test_a_body_wrong_everywhere_is_read_in_one_pass_and_told_its_first_problems() -> None:
    found: list[Any] = []

    def read_it() -> None:
        try:
            read(_Unbounded, {"numbers": ["x"] * 20_000})
        except Unreadable as unreadable:
            found[:] = unreadable.problems
        else:
            raise AssertionError("read")

    assert _cheapest_ms(read_it) < LIMIT_MS
    problems = found
    assert len(problems) == MAX_PROBLEMS
    assert [p.where for p in problems[:2]] == [("numbers", 0), ("numbers", 1)]


def test_too_many_entries_are_refused_with_the_bound_in_words(client: FlaskClient) -> None:
    thirteen = {"variant": "contract", "round": 1, "melds": [["7H"]] * 13}
    melds = client.post("/api/v1/contract", json=thirteen)
    assert melds.status_code == 400
    assert melds.get_json()["error"]["code"] == "too_many_melds"
    cards = client.post("/api/v1/meld", json={"variant": "contract", "cards": ["7H"] * 201})
    assert cards.get_json()["error"]["code"] == "too_many_cards"
    nine = {"variant": "contract", "players": [f"P{i}" for i in range(9)]}
    players = client.post("/api/v1/games", json=nine)
    assert players.status_code == 400
    error = players.get_json()["error"]
    assert (error["code"], error["field"]) == ("too_many_entries", "players")
    assert "8" in error["message"] and "players" in error["message"]
    many_rules = {
        "variant": "contract",
        "cards": "7H 7S 7D",
        "house_rules": {f"r{i}": 1 for i in range(99)},
    }
    rules = client.post("/api/v1/meld", json=many_rules)
    assert rules.get_json()["error"]["code"] == "too_many_entries"


def test_gunicorn_keeps_the_loaded_app_out_of_full_collections() -> None:
    """The sweep above freezes its process's heap as deploy/gunicorn.conf.py freezes the loaded
    app before forking the workers: the figures are a worker's."""
    config = runpy.run_path(str(Path(__file__).resolve().parents[3] / "deploy/gunicorn.conf.py"))
    assert config["preload_app"] is True
    try:
        config["when_ready"](None)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


# -- the pages' forms ------------------------------------------------------------------------


def _form_body(fields: list[tuple[str, str]]) -> str:
    return urlencode(fields)


def _largest_form(make: Any, limit: int = MAX_FORM_BODY) -> str:
    """The form of `make(n)` fields with the largest n that stays within `limit` bytes."""
    n = 1
    while len(_form_body(make(n * 2))) <= limit:
        n *= 2
    low, high = n, n * 2
    while low + 1 < high:
        middle = (low + high) // 2
        low, high = (middle, high) if len(_form_body(make(middle))) <= limit else (low, middle)
    return _form_body(make(low))


def test_a_form_past_64_kb_is_refused_unread(client: FlaskClient) -> None:
    body = _form_body([("players-0", "x")] * 20_000)
    answers = []

    def post() -> None:
        answers.append(
            client.post("/", data=body, content_type="application/x-www-form-urlencoded")
        )

    assert _cheapest_ms(post) < LIMIT_MS
    assert {answer.status_code for answer in answers} == {413}


def test_a_round_form_of_thousands_of_seats_costs_what_eight_do(client: FlaskClient) -> None:
    """Issue 34 (a form's lists as the API's): the round form's seats, each seat's card classes
    and a contract table's rows are read to their bound, not to whatever a body holds (a 1 MB
    form of 20,000 seats cost 36 s: each seat looked through every field)."""
    game = client.post("/api/v1/games", json={"variant": "contract", "players": ["A", "B", "C"]})
    edit = f"/games/{game.get_json()['id']}/edit/{game.get_json()['edit_token']}/rounds"
    shapes = {
        edit: [
            lambda n: [(f"seats-{i}-penalty", "5") for i in range(n)],
            lambda n: [(f"seats-0-classes-{i}", "1") for i in range(n)],
        ],
        "/": [
            lambda n: (
                [("variant", "contract"), ("rules", "open"), ("start", "1")]
                + [(f"contracts-{i}-sets", "1") for i in range(n)]
            )
        ],
    }
    for path, makes in shapes.items():
        for make in makes:
            body = _largest_form(make)
            for _ in range(2):
                client.post(path, data=body, content_type="application/x-www-form-urlencoded")
            costs = []
            for _ in range(3):
                started = time.process_time()
                answer = client.post(
                    path, data=body, content_type="application/x-www-form-urlencoded"
                )
                costs.append((time.process_time() - started) * 1000)
            assert answer.status_code < 500 and answer.status_code != 413, path
            assert min(costs) < LIMIT_MS, (path, min(costs))
