"""Fuzz the whole app and count server errors: schemathesis over every /api/v1 call of the
OpenAPI document, and hypothesis over the pages and forms (every route of the URL map, odd
paths, queries and form bodies), on SQLite and PostgreSQL, with fixed seeds.

    .venv/bin/python bench/fuzz.py                    # about 12,000 requests, both databases
    .venv/bin/python bench/fuzz.py --db sqlite --api-examples 50 --page-examples 500

Prints requests and 5xx per part and database; exits 1 if any answer was a 5xx. The CI runs a
bounded part of this in tests/web/api/test_api_contract.py and tests/web/app/test_hardening.py.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the tests' own modules import each other (conftest)

import schemathesis  # noqa: E402
from flask import Flask  # noqa: E402
from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import referee.web.games.api  # noqa: E402
import referee.web.training.api  # noqa: E402,F401
from bench.common import DATABASES, databases  # noqa: E402
from referee.web import create_app  # noqa: E402
from referee.web.jsonapi.openapi import OPERATIONS  # noqa: E402
from referee.web.plumbing.database import database  # noqa: E402
from tests.web.api.test_api_contract import CHECKS  # noqa: E402  (the checks CI holds the API to)

PLAYERS = ["Ann", "Bo", "Cy"]


class Tally:
    def __init__(self) -> None:
        self.requests: collections.Counter[str] = collections.Counter()
        self.errors: list[str] = []

    def saw(self, part: str, status: int, what: str) -> None:
        self.requests[part] += 1
        if status >= 500:
            self.errors.append(f"{part}: {status} {what}")


def _app(url: str, instance: Path) -> Flask:
    app = create_app(
        {"SECRET_KEY": "fuzz", "DATABASE_URL": url, "WTF_CSRF_ENABLED": False},
        instance_path=str(instance),
    )
    app.config["PROPAGATE_EXCEPTIONS"] = False  # a crash is the 500 a client would see
    return app


def _seed_game(app: Flask) -> dict[str, str]:
    client = app.test_client()
    game = client.post("/api/v1/games", json={"variant": "contract", "players": PLAYERS})
    data = game.get_json()
    auth = {"Authorization": f"Bearer {data['edit_token']}"}
    results = [{"player": "Ann", "went_out": True}, {"player": "Bo", "penalty": 25},
               {"player": "Cy", "cards": "KS 2C"}]  # fmt: skip
    client.post(f"/api/v1/games/{data['id']}/rounds", json={"round": 1, "results": results},
                headers=auth)  # fmt: skip
    club = client.post("/api/v1/clubs", json={"name": "Thursdays"}).get_json()
    return {"id": data["id"], "token": data["edit_token"], "club": club["id"],
            "club_token": club["edit_token"]}  # fmt: skip


# -- schemathesis over the API ---------------------------------------------------------------


def fuzz_api(app: Flask, tally: Tally, examples: int, label: str) -> None:
    game = _seed_game(app)
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    turn = iter(range(10**9))
    for method, path in sorted({(op.method.upper(), op.path) for op in OPERATIONS}):
        _fuzz_operation(schema[path][method], f"{method} {path}", game, turn, tally, examples,
                        f"api ({label})")  # fmt: skip


def _fuzz_operation(
    operation: Any,
    name: str,
    game: dict[str, str],
    turn: Any,
    tally: Tally,
    examples: int,
    part: str,
) -> None:
    @seed(20261202)
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck),
              database=None)  # fmt: skip
    @given(case=operation.as_strategy())
    def call(case: Any) -> None:
        if "game_id" in (case.path_parameters or {}) and next(turn) % 4:
            case.path_parameters["game_id"] = game["id"]
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {game['token']}"}
        if "club_id" in (case.path_parameters or {}) and next(turn) % 4:
            case.path_parameters["club_id"] = game["club"]
            auth = f"Bearer {game['club_token']}"
            case.headers = {**(case.headers or {}), "Authorization": auth}
        try:
            response = case.call_and_validate(
                headers={"Accept-Encoding": "identity"}, checks=CHECKS
            )
        except AssertionError as failure:  # a check failed: keep going, count it
            tally.errors.append(f"{part} {name}: {str(failure)[:300]}")
            tally.requests[part] += 1
            return
        tally.saw(part, response.status_code, name)

    call()


# -- hypothesis over the pages ---------------------------------------------------------------

_odd_text = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "",
            "0",
            "-1",
            "9" * 400,
            "²",
            "٣",
            "\x00",
            "%00",
            "../../etc",
            "<b>",
            "7H 7S 7D",
            "JK=8H",
            "{}",
            "[" * 50,
            "contract",
            "shanghai",
            "a4",
            "de",
            "true",
            "null",
            "1e999",
            " 25 ",
            "\u202e",
            "=HYPERLINK()",
        ]
    ),
)


def _pages(app: Flask, game: dict[str, str]) -> list[tuple[str, str]]:
    """Every route of the URL map but the API (schemathesis has those), its arguments filled."""
    routes = []
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") or rule.endpoint == "static":
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            routes.append((method, rule.rule))
    return routes


def _fill(rule: str, draw: Any, game: dict[str, str]) -> str:
    path = rule
    values = {
        "game_id": draw(st.sampled_from([game["id"], game["id"], "x" * 22, "a%00b" * 5])),
        "token": draw(st.sampled_from([game["token"], game["club_token"], "nope", "%00"])),
        "club_id": draw(st.sampled_from([game["club"], game["club"], "x" * 22, "a%00b" * 5])),
        "variant": draw(st.sampled_from(["contract", "zioncheck", "rummy", "nope", "%00"])),
        "number": str(draw(st.integers(0, 9))),
        "code": draw(st.sampled_from(["de", "xx", "en"])),
        "filename": "css/app.css",
    }
    for name, value in values.items():
        path = path.replace(f"<{name}>", value).replace(f"<int:{name}>", value)
        path = path.replace(f"<path:{name}>", value)
    return path


def fuzz_pages(app: Flask, tally: Tally, examples: int, label: str) -> None:
    game = _seed_game(app)
    routes = _pages(app, game)
    client = app.test_client()
    names = st.sampled_from(
        [
            "variant",
            "lang",
            "paper",
            "players",
            "house_rules",
            "min_players",
            "max_players",
            "contracts",
            "buying",
            "rules",
            "check",
            "cards",
            "round",
            "game",
            "since",
            "next",
            "players-0",
            "players-1",
            "players-2",
            "first_dealer",
            "start",
            "version",
            "went_out",
            "seats-0-penalty",
            "seats-1-penalty",
            "seats-1-cards",
            "seats-2-buys",
            "text",
            "hr_max_jokers_per_meld",
            "hr_deal",
            "rules_shown",
            "_method",
            "_anchor",
        ]
    )

    @seed(20261202)
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck),
              database=None)  # fmt: skip
    @given(data=st.data())
    def request(data: Any) -> None:
        method, rule = data.draw(st.sampled_from(routes))
        path = _fill(rule, data.draw, game)
        fields = data.draw(st.dictionaries(names, _odd_text, max_size=6))
        optional = {"HX-Request": st.just("true"), "Accept-Language": st.sampled_from(["de", "pt"])}
        headers = data.draw(st.fixed_dictionaries({}, optional=optional))
        if method == "GET":
            answer = client.get(path, query_string=fields, headers=headers)
        else:
            answer = client.open(path, method=method, data=fields, headers=headers)
        tally.saw(f"pages ({label})", answer.status_code, f"{method} {path[:80]} {fields}")
        answer.close()

    request()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=DATABASES, default="both")
    parser.add_argument("--api-examples", type=int, default=300, help="per API call")
    parser.add_argument("--page-examples", type=int, default=3000, help="page requests")
    args = parser.parse_args()
    tally = Tally()
    for label, url in databases(args.db, "rummy-fuzz-"):
        app = _app(url, Path(tempfile.mkdtemp(prefix=f"rummy-fuzz-{label}-")))
        try:
            fuzz_api(app, tally, args.api_examples, label)
            fuzz_pages(app, tally, args.page_examples, label)
        finally:
            database(app).dispose()
    for part, count in sorted(tally.requests.items()):
        print(f"{part:<22} requests={count:>6}")
    total = sum(tally.requests.values())
    print(f"{'total':<22} requests={total:>6} server errors or nonconforming answers="
          f"{len(tally.errors)}")  # fmt: skip
    for error in tally.errors[:20]:
        print("  ", error.replace("\n", " ")[:400])
    return 1 if tally.errors else 0


if __name__ == "__main__":
    sys.exit(main())
