"""The largest request bodies of every shape a JSON call of /api/v1 reads: for each place in
its body (a field, an entry of a list, a field of that entry ...) and each kind of filling (a
list of cheap wrong items, of valid ones, of distinct names; a long text; an object with many
keys; a long number), the body with that place filled until the whole is just within the 64 KB
the API reads, and every list at its documented bound with each entry as large as it may be.

Built from the OpenAPI document itself, so a new call or field is swept without a word here.
tests/web/api/test_request_cost.py holds every such body to 100 ms of CPU; bench/request_cost.py
prints each call's worst.
"""

from __future__ import annotations

import copy
import datetime
import gc
import json
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, Final

from referee.web.events import check_in as event_check_in
from referee.web.jsonapi.bodies import MAX_BODY

JSON = dict[str, Any]
Where = tuple[str | int, ...]

#: Cheap entries of a list: wrong types, empty ones, the smallest valid card, a joker.
_ITEMS: Final[Mapping[str, Any]] = {
    "0": 0, '""': "", "[]": [], "{}": {}, '"7H"': "7H", '"JK"': "JK"
}  # fmt: skip
#: Every card of a deck and its jokers, in the order a list of cards cycles through them.
_RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK: Final = [f"{rank}{suit}" for suit in "CDHS" for rank in _RANKS] + ["JK", "JK"]
#: Units a text is made of: plain letters, cards, a joker declared, invisible characters.
_UNITS: Final[Mapping[str, str]] = {
    "x": "x",
    "cards": "7H ",
    "jokers": "JK=7D,",
    "spaces": " ",
    "zero-width": "\u200b",
    "accents": "e\u0301",
}


@dataclass(frozen=True)
class Case:
    """One body to send: what it is (`shape`), and its bytes (at most MAX_BODY)."""

    shape: str
    body: bytes


def encode(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def largest(make: Callable[[int], Any], limit: int = MAX_BODY) -> tuple[int, bytes]:
    """The largest n whose `make(n)` encodes within `limit` bytes, and that encoding."""
    one, two = len(encode(make(1))), len(encode(make(2)))
    if one > limit:
        return 0, encode(make(0))
    guess = 1 + (limit - one) // max(two - one, 1)  # exact where each entry is as long
    low, high = 1, 2 * guess + 2
    if len(encode(make(guess))) <= limit < len(encode(make(guess + 1))):
        return guess, encode(make(guess))
    while low < high:
        middle = (low + high + 1) // 2
        if len(encode(make(middle))) <= limit:
            low = middle
        else:
            high = middle - 1
    return low, encode(make(low))


def _resolve(schema: JSON, components: Mapping[str, JSON]) -> JSON:
    while "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _members(schema: JSON, components: Mapping[str, JSON]) -> list[JSON]:
    """The alternatives a value may be (anyOf flattened), $refs resolved, null left out."""
    schema = _resolve(schema, components)
    if "anyOf" in schema and "type" not in schema and "properties" not in schema:
        found: list[JSON] = []
        for member in schema["anyOf"]:
            found += _members(member, components)
        return found
    return [] if schema.get("type") == "null" else [schema]


def sample(schema: JSON, components: Mapping[str, JSON]) -> Any:
    """A small value of `schema`'s shape: its example, else its required fields sampled."""
    members = _members(schema, components)
    if not members:
        return None
    chosen = members[0]
    if "examples" in chosen:
        return copy.deepcopy(chosen["examples"][0])
    if "enum" in chosen:
        return chosen["enum"][0]
    kind = chosen.get("type")
    if kind == "object" or "properties" in chosen:
        properties = chosen.get("properties", {})
        return {name: sample(properties[name], components) for name in chosen.get("required", [])}
    defaults: dict[str, Any] = {"array": [], "string": "x", "integer": 1, "boolean": False}
    return defaults.get(str(kind))


def _put(body: Any, where: Where, value: Any) -> Any:
    """A copy of `body` with `value` at `where` (lists and objects made on the way)."""
    if not where:
        return value
    head, rest = where[0], where[1:]
    if isinstance(head, int):
        items = list(body) if isinstance(body, list) and body else [None]
        items[0] = _put(items[0], rest, value)
        return items
    found = dict(body) if isinstance(body, dict) else {}
    found[head] = _put(found.get(head), rest, value)
    return found


def _at(body: Any, where: Where) -> Any:
    for part in where:
        if isinstance(part, int):
            body = body[0] if isinstance(body, list) and body else None
        else:
            body = body.get(part) if isinstance(body, dict) else None
    return body


def _said(where: Where) -> str:
    return ".".join("[0]" if isinstance(part, int) else part for part in where) or "body"


def _fillings(schema: JSON, components: Mapping[str, JSON]) -> Iterator[tuple[str, Any]]:
    """(name, make(n)) for each way to make a value of this place large."""
    kinds = {member.get("type") for member in _members(schema, components)}
    if "array" in kinds or not kinds:
        for name, item in _ITEMS.items():
            yield f"{name} × {{n}}", lambda n, item=item: [item] * n
        yield "distinct names × {n}", lambda n: [f"P{i}" for i in range(n)]
        yield "a deck's cards × {n}", lambda n: [DECK[i % len(DECK)] for i in range(n)]
        yield "results × {n}", lambda n: [{"player": "Ann", "penalty": 5}] * n
    if "string" in kinds or not kinds:
        for name, unit in _UNITS.items():
            yield f"{name} × {{n}}", lambda n, unit=unit: unit * n
    if "object" in kinds or not kinds:
        yield "{key: 0} × {n}", lambda n: {f"k{i}": 0 for i in range(n)}
    if "integer" in kinds:
        yield "4,000 digits", lambda n: int("9" * 4000)


def _places(
    schema: JSON, components: Mapping[str, JSON], where: Where = (), depth: int = 0
) -> Iterator[tuple[Where, JSON]]:
    """Every place in a body of `schema`: its fields, the first entry of each list, within."""
    yield where, schema
    if depth > 4:
        return
    for member in _members(schema, components):
        for name, field in member.get("properties", {}).items():
            yield from _places(field, components, (*where, name), depth + 1)
        if member.get("type") == "array" and isinstance(member.get("items"), dict):
            yield from _places(member["items"], components, (*where, 0), depth + 1)


def _bound(schema: JSON, components: Mapping[str, JSON]) -> int | None:
    bounds = [m["maxItems"] for m in _members(schema, components) if "maxItems" in m]
    return max(bounds) if bounds else None


def cases(schema: JSON, components: Mapping[str, JSON], base: Any) -> Iterator[Case]:
    """Every largest body of a call whose request body has `schema`, starting from `base`."""
    places = list(_places(schema, components))
    for where, place in places:
        for name, make in _fillings(place, components):
            count, body = largest(partial(_filled, base, where, make))
            yield Case(f"{_said(where)}: {name.replace('{n}', f'{count:,}')}", body)
    # Every bounded list as long as it may be, each entry filled as far as the rest allows.
    for where, place in places:
        bound = _bound(place, components)
        if bound is None or not where:
            continue
        inner = [(w, p) for w, p in places if w[: len(where) + 1] == (*where, 0)]
        for inner_where, inner_place in inner:
            most = _bound(inner_place, components)  # a list in each entry, bounded too
            for name, make in _fillings(inner_place, components):
                yield _repeated(base, where, inner_where, bound, name, make)
                if most is not None:
                    yield _repeated(base, where, inner_where, bound, name, make, most)


def _filled(base: Any, where: Where, make: Callable[[int], Any], n: int) -> Any:
    return _put(base, where, make(n))


def _repeated(
    base: Any,
    where: Where,
    inner: Where,
    bound: int,
    name: str,
    make: Callable[[int], Any],
    most: int | None = None,
) -> Case:
    def body(n: int) -> Any:
        entry = _put(_at(base, (*where, 0)), inner[len(where) + 1 :], make(n))
        return _put(base, where, [entry] * bound)

    count, data = largest(body)
    if most is not None and count > most:
        count, data = most, encode(body(most))
    shape = f"{_said(where)}: {bound} × ({_said(inner)}: {name.replace('{n}', f'{count:,}')})"
    return Case(shape, data)


def whole_body_cases() -> Iterator[Case]:
    """Bodies that are not an object at all, or nested as deep as 64 KB goes."""
    yield Case("a list of 0 × n", largest(lambda n: [0] * n)[1])
    yield Case("a text", largest(lambda n: "x" * n)[1])
    depth = MAX_BODY // 2
    yield Case(f"[ nested {depth:,} deep", b"[" * depth + b"]" * depth)
    yield Case(f'{{"a": nested {MAX_BODY // 6:,} deep', b'{"a":' * (MAX_BODY // 6))


def operation_cases(document: JSON, method: str, path: str, base: Any) -> list[Case]:
    """Every largest body for the call `method path` of the OpenAPI `document`."""
    components = document["components"]["schemas"]
    operation = document["paths"][path][method]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    return [*cases(schema, components, base), *whole_body_cases()]


# -- sending them ----------------------------------------------------------------------------

#: Players of the game and the evening the calls are sent to.
PLAYERS: Final = ["Ann", "Bo", "Cy"]
GUESTS: Final = ["Di", "Ed", "Flo", "Gus", "Hal"]


@dataclass(frozen=True)
class Measured:
    operation: str
    shape: str
    size: int
    status: int
    cpu_ms: float


@dataclass(frozen=True)
class Target:
    """What the calls are sent to: a game with a round, a club, an evening with 8 players."""

    path_values: Mapping[str, str]
    game_token: str
    club_token: str

    def headers(self, path: str) -> dict[str, str]:
        token = self.club_token if "{club_id}" in path else self.game_token
        return {"Authorization": f"Bearer {token}"}

    def path(self, path: str) -> str:
        for name, value in self.path_values.items():
            path = path.replace(f"{{{name}}}", value)
        return path


def target(client: Any) -> Target:
    """A game (one round entered), a club and an evening of it (8 players checked in), and
    the evening's check-in key."""
    game = client.post("/api/v1/games", json={"variant": "contract", "players": PLAYERS})
    game_data = game.get_json()
    game_auth = {"Authorization": f"Bearer {game_data['edit_token']}"}
    first = [{"player": "Ann", "went_out": True}, {"player": "Bo", "penalty": 25},
             {"player": "Cy", "penalty": 10}]  # fmt: skip
    client.post(f"/api/v1/games/{game_data['id']}/rounds", json={"round": 1, "results": first},
                headers=game_auth)  # fmt: skip
    club = client.post("/api/v1/clubs", json={"name": "Thursdays"}).get_json()
    club_auth = {"Authorization": f"Bearer {club['edit_token']}"}
    events = f"/api/v1/clubs/{club['id']}/events"
    made = client.post(events, json={"name": "Night", "variant": "contract", "series": 3},
                       headers=club_auth).get_json()  # fmt: skip
    client.post(f"{events}/{made['id']}/players", json={"names": PLAYERS + GUESTS},
                headers=club_auth)  # fmt: skip
    with client.application.app_context():  # the evening's check-in link
        key = event_check_in.key_of(club["id"], made["id"])
    today = datetime.date.today()
    season = client.post(f"/api/v1/clubs/{club['id']}/seasons", headers=club_auth, json={
        "name": "Year", "starts": f"{today.year}-01-01", "ends": f"{today.year}-12-31"},
    ).get_json()  # fmt: skip
    values = {"game_id": game_data["id"], "number": "1", "club_id": club["id"],
              "event_id": made["id"], "key": key, "season_id": season["id"]}  # fmt: skip
    return Target(values, game_data["edit_token"], club["edit_token"])


#: Valid bodies for the calls whose document gives no example of the whole body.
BASES: Final[Mapping[tuple[str, str], Any]] = {
    ("post", "/api/v1/games/{game_id}/rounds"): {
        "round": 2,
        "results": [
            {"player": "Ann", "went_out": True},
            {"player": "Bo", "penalty": 5},
            {"player": "Cy", "cards": "KS 2C"},
        ],
    },
    ("put", "/api/v1/games/{game_id}/rounds/{number}"): {
        "results": [
            {"player": "Ann", "went_out": True},
            {"player": "Bo", "penalty": 5},
            {"player": "Cy", "penalty": 10},
        ],
    },
    ("post", "/api/v1/clubs/{club_id}/events/{event_id}/series"): {"series": 1, "start": False},
    # A season's dates around today's evening; a stale version, so the sweep never deletes it.
    ("post", "/api/v1/clubs/{club_id}/seasons"): {
        "name": "Year",
        "starts": "2000-01-01",
        "ends": "2099-12-31",
        "rule": "sum",
    },
    ("delete", "/api/v1/clubs/{club_id}/seasons/{season_id}"): {"version": 999},
}


def json_operations(document: JSON) -> list[tuple[str, str]]:
    """(method, path) of every call that reads a JSON body, in the document's order."""
    return [
        (method, path)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if "application/json" in operation.get("requestBody", {}).get("content", {})
    ]


def base_body(document: JSON, method: str, path: str) -> Any:
    """A valid body for the call: ours, the document's example, or its required fields."""
    if (method, path) in BASES:
        return copy.deepcopy(BASES[(method, path)])
    media = document["paths"][path][method]["requestBody"]["content"]["application/json"]
    if "examples" in media:
        return copy.deepcopy(next(iter(media["examples"].values()))["value"])
    return sample(media["schema"], document["components"]["schemas"])


def send(client: Any, method: str, path: str, body: bytes, where: Target) -> tuple[int, float]:
    """Send `body`: the answer's status and the processor time it cost, in milliseconds."""
    started = time.process_time()
    response = client.open(
        where.path(path),
        method=method.upper(),
        data=body,
        content_type="application/json",
        headers=where.headers(path),
    )
    response.get_data()
    return response.status_code, (time.process_time() - started) * 1000


def sweep(client: Any, *, again_over: float = 0.0) -> list[Measured]:
    """Every largest body of every JSON call, sent once; a body over `again_over` ms is sent
    twice more and its cheapest time kept (a busy machine's slow moment is not the body's).

    The heap made so far is frozen out of the garbage collector meanwhile, as gunicorn's master
    freezes the loaded app before it forks its workers (deploy/gunicorn.conf.py): what a body
    costs is the work it makes, not a collection of everything this process holds."""
    document = client.get("/api/v1/openapi.json").get_json()
    where = target(client)
    gc.collect()
    gc.freeze()
    try:
        return _sweep(client, document, where, again_over)
    finally:
        gc.unfreeze()


def _sweep(client: Any, document: JSON, where: Target, again_over: float) -> list[Measured]:
    found: list[Measured] = []
    for method, path in json_operations(document):
        base = base_body(document, method, path)
        send(client, method, path, encode(base), where)  # warm: modules, catalogs, caches
        for case in operation_cases(document, method, path, base):
            status, cost = send(client, method, path, case.body, where)
            if again_over and cost > again_over:
                cost = min(cost, *(send(client, method, path, case.body, where)[1]
                                   for _ in range(2)))  # fmt: skip
            name = f"{method.upper()} {path}"
            found.append(Measured(name, case.shape, len(case.body), status, cost))
    return found
