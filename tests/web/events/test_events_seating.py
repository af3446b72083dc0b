"""Seating rules on a club night over /api/v1 and on the host's page (SPEC.md "Club nights"):
the rules set by the club's token, kept in the evening's JSON, honoured by the draws, the
unmet one said with its series; a view link changes nothing (403), and every bad rule is a
clear, translated 4xx that keeps what was chosen."""

from __future__ import annotations

import re
from typing import Any

import pytest
from club_fixture import new_club
from flask.testing import FlaskClient

NIGHT = ["Anneliese", "Bernhard", "Carola", "Dieter", "Erika", "Friedhelm", "Gisela", "Horst",
         "Ilse", "Jürgen", "Karin", "Lothar", "Monika", "Norbert", "Ortrud", "Peter"]  # fmt: skip
SEATING: list[dict[str, Any]] = [
    {"keep": "apart", "players": ["Anneliese", "Bernhard"]},
    {"keep": "apart", "players": ["Carola", "Dieter"]},
    {"keep": "apart", "players": ["Erika", "Friedhelm"]},
    {"keep": "together", "players": ["Gisela", "Horst"]},
    {"keep": "table", "players": ["Ilse"], "table": 2},
]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _evening(client: FlaskClient, names: list[str] = NIGHT) -> tuple[dict[str, Any], str]:
    club = new_club(client)
    made = client.post(
        f"/api/v1/clubs/{club['id']}/events",
        json={"name": "Donnerstag", "variant": "contract", "series": 4, "series_rounds": 1,
              "seed": 31, "lang": "de"},
        headers=_auth(club["edit_token"]),
    )  # fmt: skip
    assert made.status_code == 201, made.get_json()
    base = f"/api/v1/clubs/{club['id']}/events/{made.get_json()['id']}"
    answer = client.post(
        f"{base}/players", json={"names": names}, headers=_auth(club["edit_token"])
    )
    assert answer.status_code == 200
    return club, base


def _seat_map(series: dict[str, Any]) -> dict[str, int]:
    return {name: t["number"] for t in series["tables"] for name in t["seats"]}


def test_the_clubs_rules_are_set_kept_and_honoured_by_the_draw(client: FlaskClient) -> None:
    club, base = _evening(client)
    before = client.get(base).get_json()
    answer = client.post(f"{base}/seating", json={"rules": SEATING, "version": before["version"]},
                         headers=_auth(club["edit_token"]))  # fmt: skip
    assert answer.status_code == 200, answer.get_json()
    evening = answer.get_json()
    assert evening["version"] == before["version"] + 1
    assert evening["seating_rules"] == [{**r, "table": r.get("table")} for r in SEATING]
    assert client.get(base).get_json()["seating_rules"] == evening["seating_rules"]
    drawn = client.post(f"{base}/series", json={"series": 1, "start": False},
                        headers=_auth(club["edit_token"])).get_json()  # fmt: skip
    first = drawn["series"][0]
    seats = _seat_map(first)
    assert first["unmet_rules"] == []
    assert seats["Anneliese"] != seats["Bernhard"] and seats["Carola"] != seats["Dieter"]
    assert seats["Gisela"] == seats["Horst"] and seats["Ilse"] == 2


def test_a_rule_the_draw_cannot_meet_is_named_with_its_reason(client: FlaskClient) -> None:
    club, base = _evening(client, NIGHT[:8])
    rules = [
        {"keep": "together", "players": ["Gisela", "Horst"]},
        {"keep": "apart", "players": ["Anneliese", "Bernhard"]},
    ]
    auth = _auth(club["edit_token"])
    assert client.post(f"{base}/seating", json={"rules": rules}, headers=auth).status_code == 200
    left = client.post(
        f"{base}/players", json={"action": "leave", "names": ["Horst"]}, headers=auth
    )
    assert left.status_code == 200
    first = client.post(f"{base}/series", json={"series": 1}, headers=auth).get_json()["series"][0]
    assert first["unmet_rules"] == [
        {"rule": {"keep": "together", "players": ["Gisela", "Horst"], "table": None},
         "reason": "partner_absent"}
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("rules", "code", "said"),
    [
        ([{"keep": "apart", "players": ["Anneliese", "anneliese"]}], "apart_from_themself",
         "nicht von sich selbst"),
        ([{"keep": "together", "players": ["Anneliese", "Niemand"]}], "rule_names_a_stranger",
         "Niemand"),
        ([{"keep": "table", "players": ["Ilse"], "table": 9}], "fixed_table_out_of_range", "9"),
        ([{"keep": "apart", "players": ["Carola", "Dieter"]},
          {"keep": "together", "players": ["Dieter", "Carola"]}], "rules_contradict", "Carola"),
        ([{"keep": "table", "players": ["Ilse"]}], "bad_seating_rule", "Tisch"),
    ],
)  # fmt: skip
def test_a_bad_rule_is_a_clear_translated_400(
    client: FlaskClient, rules: list[Any], code: str, said: str
) -> None:
    club, base = _evening(client)
    answer = client.post(f"{base}/seating", json={"rules": rules},
                         headers=_auth(club["edit_token"]) | {"Accept-Language": "de"})  # fmt: skip
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["code"] == code and said in error["message"]
    assert client.get(base).get_json()["seating_rules"] == []


def test_too_many_rules_are_refused_before_any_is_read(client: FlaskClient) -> None:
    club, base = _evening(client)
    rules = [{"keep": "apart", "players": ["Anneliese", "Bernhard"]}] * 21
    answer = client.post(
        f"{base}/seating", json={"rules": rules}, headers=_auth(club["edit_token"])
    )
    assert answer.status_code == 400


def test_a_view_link_sees_the_rules_and_changes_nothing(client: FlaskClient) -> None:
    club, base = _evening(client)
    assert client.post(f"{base}/seating", json={"rules": SEATING}).status_code == 401
    view = _host(client, club, base).split("/edit/")[0]
    assert client.post(f"{view}/edit/not-the-token/seating", data={}).status_code == 403
    other = new_club(client)
    wrong = client.post(
        f"{base}/seating", json={"rules": SEATING}, headers=_auth(other["edit_token"])
    )
    assert wrong.status_code == 403
    assert client.get(base).get_json()["seating_rules"] == []


# -- the host's page ----------------------------------------------------------------------------


def _host(client: FlaskClient, club: dict[str, Any], base: str) -> str:
    event_id = base.rsplit("/", 1)[-1]
    return f"/clubs/{club['id']}/events/{event_id}/edit/{club['edit_token']}"


def _version(client: FlaskClient, host: str) -> str:
    found = re.search(r'name="version" value="(\d+)"', client.get(host).get_data(as_text=True))
    assert found is not None
    return found.group(1)


def test_the_host_adds_a_couple_apart_and_a_fixed_table_draws_and_removes_one(
    client: FlaskClient,
) -> None:
    club, base = _evening(client)
    host = _host(client, club, base)
    page = client.get(host).get_data(as_text=True)
    assert 'id="seating"' in page
    assert page.index('id="players"') < page.index('id="seating"') < page.index('id="draw"')
    added = client.post(f"{host}/seating", data={"version": _version(client, host),
                        "keep": "apart", "first": "Anneliese", "second": "Bernhard"})  # fmt: skip
    assert added.status_code == 303 and added.headers["Location"].endswith("#seating")
    client.post(f"{host}/seating", data={"version": _version(client, host), "keep": "table",
                                         "first": "Ilse", "table": "3"})  # fmt: skip
    page = client.get(host).get_data(as_text=True)
    assert "Anneliese und Bernhard nie an einem Tisch" in page
    assert "Ilse immer an Tisch 3" in page
    rules = client.get(base).get_json()["seating_rules"]
    assert [r["keep"] for r in rules] == ["apart", "table"]
    client.post(f"{host}/series", data={"version": _version(client, host), "series": "1"})
    first = client.get(base).get_json()["series"][0]
    seats = _seat_map(first)
    assert seats["Anneliese"] != seats["Bernhard"] and seats["Ilse"] == 3
    removed = client.post(
        f"{host}/seating", data={"version": _version(client, host), "remove": "1"}
    )
    assert removed.status_code == 303
    assert [r["keep"] for r in client.get(base).get_json()["seating_rules"]] == ["table"]


def test_a_bad_rule_on_the_page_is_a_400_that_keeps_the_choice(client: FlaskClient) -> None:
    club, base = _evening(client)
    host = _host(client, club, base)
    answer = client.post(f"{host}/seating", data={"version": _version(client, host),
                         "keep": "together", "first": "Karin", "second": "Karin"})  # fmt: skip
    text = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert "Karin" in text and "nicht mit sich selbst" in text
    assert re.search(r'<input checked[^>]*value="together"', text)
    gone = client.post(f"{host}/seating", data={"version": _version(client, host), "remove": "7"})
    assert gone.status_code == 400


def test_an_unmet_rule_is_said_on_the_hosts_page_after_the_draw(client: FlaskClient) -> None:
    club, base = _evening(client, NIGHT[:8])
    auth = _auth(club["edit_token"])
    rules = [{"keep": "apart", "players": ["Anneliese", "Bernhard"]},
             {"keep": "apart", "players": ["Bernhard", "Carola"]},
             {"keep": "apart", "players": ["Anneliese", "Carola"]}]  # fmt: skip
    assert client.post(f"{base}/seating", json={"rules": rules}, headers=auth).status_code == 200
    client.post(f"{base}/series", json={"series": 1, "start": False}, headers=auth)
    page = client.get(_host(client, club, base)).get_data(as_text=True)
    assert "Nicht eingehalten" in page
