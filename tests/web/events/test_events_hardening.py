"""Club nights against bad input (as tests/web/app/test_hardening.py does for games and clubs): a
NUL in an id on every database, 400-digit numbers in every number field of the evening's forms,
any text at all in the forms and bodies (hypothesis) never a 500, edit links and QR codes
never stored by a cache, and a series drawn twice at once from two phones over HTTP."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hardening import _Forms, _new_app

from referee.web.plumbing.database import database

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


@pytest.fixture
def probed(tmp_path: Path) -> Any:
    app = _new_app(tmp_path)
    yield app.test_client()
    database(app).dispose()


def _evening(client: FlaskClient, names: list[str] = NAMES) -> dict[str, Any]:
    club = client.post("/api/v1/clubs", json={"name": "Thursdays"}).get_json()
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    api = f"/api/v1/clubs/{club['id']}/events"
    made = client.post(api, json={"name": "Night", "variant": "contract", "series": 3},
                       headers=auth).get_json()  # fmt: skip
    api = f"{api}/{made['id']}"
    if names:
        client.post(f"{api}/players", json={"names": names}, headers=auth)
    page = f"/clubs/{club['id']}/events/{made['id']}"
    return {"club": club, "id": made["id"], "api": api, "page": page, "auth": auth,
            "token": club["edit_token"], "host": f"{page}/edit/{club['edit_token']}"}  # fmt: skip


def test_a_nul_in_an_evening_id_is_a_404_on_every_database(
    app: Flask, database_url: str, client: FlaskClient
) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False
    made = _evening(client)
    club, event, token = made["club"]["id"], made["id"], made["token"]
    for bad_club, bad_event in ((club[:10] + "%00" + club[11:], event),
                                (club, event[:10] + "%00" + event[11:])):  # fmt: skip
        api = f"/api/v1/clubs/{bad_club}/events/{bad_event}"
        page = f"/clubs/{bad_club}/events/{bad_event}"
        for method, path in (
            ("POST", f"/api/v1/clubs/{bad_club}/events"),
            ("GET", api), ("POST", f"{api}/players"), ("POST", f"{api}/series"),
            ("GET", f"{api}/standings"), ("GET", page), ("GET", f"{page}.json"),
            ("GET", f"{page}.csv"), ("GET", f"{page}/board"), ("GET", f"{page}/board/live"),
            ("GET", f"{page}/standings.pdf"), ("GET", f"{page}/edit/{token}"),
            ("POST", f"{page}/edit/{token}/players"), ("POST", f"{page}/edit/{token}/series"),
            ("GET", f"{page}/edit/{token}/series/1/tables.pdf"),
            ("GET", f"{page}/edit/{token}/tables/1/1/qr.svg"),
            ("GET", f"{page}/edit/{token}/check-in.pdf"),
        ):  # fmt: skip
            answer = client.open(path, method=method, json={"series": 1}, headers=made["auth"])
            assert answer.status_code in (400, 403, 404, 405), (method, path, answer.status_code)


def test_a_400_digit_number_in_every_number_field_of_the_evenings_forms_is_a_400(
    probed: FlaskClient,
) -> None:
    made = _evening(probed)
    pages = [f"/clubs/{made['club']['id']}/edit/{made['token']}/events/new", made["host"]]
    tried = 0
    for page in pages:
        parser = _Forms()
        parser.feed(probed.get(page).get_data(as_text=True))
        for form in parser.forms:
            fields = {**form["fields"], **dict.fromkeys(form["numbers"], "9" * 400)}
            if "version" in fields:
                fields["version"] = "9" * 400
            answer = probed.post(form["action"] or page, data=fields)
            assert answer.status_code in (400, 409), (page, form["action"], answer.status_code)
            tried += len(form["numbers"]) + ("version" in fields)
    assert tried >= 4


def test_digits_that_are_not_ascii_in_a_version_or_a_series_are_refused_not_a_500(
    probed: FlaskClient,
) -> None:
    """ "¹" and "٣" are digits to `str.isdigit()`, and `int()` refuses the one and reads the other
    as 3: a version, a series or a standings query is read as ASCII digits only (hypothesis
    found the "¹" in the check-in form's version). A version nobody could have been sent is a
    stale form (409, the page as it is now)."""
    made = _evening(probed, NAMES[:4])
    host, api = made["host"], made["api"]
    for odd in ("¹", "٣", "²3"):
        for path, data in ((f"{host}/players", {"new_names-0": "Zed", "version": odd}),
                           (f"{host}/players", {"leave": "1", "name": "Ann", "version": odd}),
                           (f"{host}/series", {"series": odd, "action": "draw"})):  # fmt: skip
            answer = probed.post(path, data=data)
            expected = 409 if "version" in data else 400
            assert answer.status_code == expected, (path, data, answer.status_code)
        standings = probed.get(f"{api}/standings?series={odd}")
        assert standings.status_code == 400
        assert standings.get_json()["error"]["code"] == "no_such_series"
        assert probed.get(f"{made['page']}?series={odd}").status_code == 200


@pytest.mark.slow  # a fuzz: every form and body of an evening, 40 times over
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    text=st.text(max_size=80),
    number=st.one_of(st.integers(), st.text(max_size=12), st.none(), st.booleans()),
)
def test_any_input_to_the_evenings_forms_and_bodies_is_never_a_500(
    probed: FlaskClient, text: str, number: Any
) -> None:
    made = _evening(probed, NAMES[:4])
    host, api, auth = made["host"], made["api"], made["auth"]
    new = f"/clubs/{made['club']['id']}/edit/{made['token']}/events/new"
    for method, path, kwargs in (
        ("POST", new, {"data": {"name": text, "series": text, "table_size": text,
                                 "variant": text, "house_rules": text, "ends": text}}),
        ("POST", f"{host}/players", {"data": {"new_names-0": text, "version": text}}),
        ("POST", f"{host}/players", {"data": {"leave": "1", "name": text}}),
        ("POST", f"{host}/series", {"data": {"series": text, "action": text, "first": text}}),
        ("POST", f"/api/v1/clubs/{made['club']['id']}/events",
         {"json": {"name": text, "variant": "contract", "series": number, "table_size": number,
                   "seed": number, "series_rounds": number, "scheme": text}}),
        ("POST", f"{api}/players", {"json": {"names": [text], "action": "leave"}}),
        ("POST", f"{api}/series", {"json": {"series": number, "action": "swap",
                                            "swap": [text, "Ann"]}}),
        ("GET", f"{api}/standings?series={text}&by={text}", {}),
    ):  # fmt: skip
        answer = probed.open(path, method=method, headers=auth, **kwargs)
        assert answer.status_code < 500, (method, path, answer.status_code)


def test_an_evenings_edit_pages_are_never_stored_by_a_cache(probed: FlaskClient) -> None:
    made = _evening(probed)
    assert probed.post(f"{made['api']}/series", json={"series": 1}, headers=made["auth"]).json
    for path in (made["host"], f"{made['host']}/tables/1/1/qr.svg",
                 f"{made['host']}/series/1/tables.pdf"):  # fmt: skip
        assert probed.get(path).headers["Cache-Control"] == "no-store", path
    read = probed.get(made["api"], headers=made["auth"])
    assert read.headers["Cache-Control"] == "no-store"  # it holds the tables' edit links


def test_two_phones_drawing_the_same_series_over_http_draw_it_once(tmp_path: Path) -> None:
    app = _new_app(tmp_path)
    try:
        made = _evening(app.test_client())
        gate = threading.Barrier(2)

        def draw(_: int) -> int:
            client = app.test_client()
            gate.wait(timeout=30)
            body = {"series": 1}
            return client.post(f"{made['api']}/series", json=body, headers=made["auth"]).status_code

        with ThreadPoolExecutor(2) as pool:
            codes = sorted(pool.map(draw, range(2)))
        assert codes == [200, 409]
        evening = app.test_client().get(made["api"]).get_json()
        assert len(evening["series"]) == 1
        seated = [name for table in evening["series"][0]["tables"] for name in table["seats"]]
        assert sorted(seated) == sorted(NAMES)  # nobody at two tables
    finally:
        database(app).dispose()
