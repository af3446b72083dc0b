"""/api/v1/clubs/<id>/seasons: a view link sees and never changes (401 without a token, 403
with another), bad seasons are a clear 400 in the asker's language, a stale version a 409,
an evening left out leaves the table, and the calls are in the OpenAPI document."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

DATES = ["2026-09-03", "2026-09-10", "2026-09-17"]
SEASON = {"name": "Autumn", "starts": "2026-09-01", "ends": "2026-09-30", "rule": "sum"}


@pytest.fixture
def club(client: FlaskClient) -> dict[str, Any]:
    """A club with three evenings in September (none played yet)."""
    made: dict[str, Any] = client.post("/api/v1/clubs", json={"name": "Thursdays"}).get_json()
    made["auth"] = {"Authorization": f"Bearer {made['edit_token']}"}
    made["evenings"] = []
    for day in DATES:
        evening = client.post(
            f"/api/v1/clubs/{made['id']}/events",
            json={"name": f"Night {day}", "date": day, "variant": "contract", "series": 2},
            headers=made["auth"],
        )
        assert evening.status_code == 201, evening.get_json()
        made["evenings"].append(evening.get_json()["id"])
    return made


def _create(client: FlaskClient, club: dict[str, Any], **changes: Any) -> Any:
    return client.post(
        f"/api/v1/clubs/{club['id']}/seasons", json=SEASON | changes, headers=club["auth"]
    )


def _codes(answer: Any) -> list[str]:
    return [e["code"] for e in answer.get_json()["errors"]]


def test_a_season_counts_the_clubs_evenings_within_its_dates(
    client: FlaskClient, club: dict[str, Any]
) -> None:
    made = _create(client, club)
    assert made.status_code == 201, made.get_json()
    season = made.get_json()
    assert [e["id"] for e in season["evenings"]] == club["evenings"]
    assert season["rows"] == [] and season["version"] == 1
    assert season["rule_text"].startswith("The tournament points of every club night")
    listed = client.get(f"/api/v1/clubs/{club['id']}/seasons").get_json()["seasons"]
    assert [s["id"] for s in listed] == [season["id"]]


def test_a_view_link_sees_and_never_changes(client: FlaskClient, club: dict[str, Any]) -> None:
    season = _create(client, club).get_json()
    where = f"/api/v1/clubs/{club['id']}/seasons"
    assert client.post(where, json=SEASON).status_code == 401
    other = {"Authorization": "Bearer not-the-clubs-token"}
    assert client.post(where, json=SEASON, headers=other).status_code == 403
    assert client.patch(f"{where}/{season['id']}", json={"name": "X"}).status_code == 401
    assert (
        client.patch(f"{where}/{season['id']}", json={"name": "X"}, headers=other).status_code
        == 403
    )
    assert client.delete(f"{where}/{season['id']}", headers=other).status_code == 403
    assert client.get(f"{where}/{season['id']}").status_code == 200


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"starts": "2027-01-01", "ends": "2027-03-31"}, "season_without_evenings"),
        ({"rule": "best", "best": 5}, "bad_best_evenings"),
        ({"rule": "best"}, "bad_best_evenings"),
        ({"rule": "average", "min_evenings": 0}, "bad_min_evenings"),
        ({"rule": "average", "min_evenings": 4}, "bad_min_evenings"),
        ({"ends": "2026-08-01"}, "season_ends_before_start"),
        ({"name": "x" * 65}, "season_name_too_long"),
        ({"name": "  "}, "empty_season_name"),
        ({"starts": "1.9.26"}, "bad_season_date"),
        ({"left_out": ["0123456789abcdef0123456789abcdef"]}, "not_a_season_evening"),
    ],
)
def test_a_season_that_cannot_be_is_a_400_saying_why(
    client: FlaskClient, club: dict[str, Any], changes: dict[str, Any], code: str
) -> None:
    refused = _create(client, club, **changes)
    assert refused.status_code == 400
    assert code in _codes(refused)


def test_best_5_of_3_is_said_in_the_askers_language(
    client: FlaskClient, club: dict[str, Any]
) -> None:
    refused = client.post(
        f"/api/v1/clubs/{club['id']}/seasons?lang=de",
        json=SEASON | {"rule": "best", "best": 5},
        headers=club["auth"],
    )
    assert refused.status_code == 400
    assert refused.get_json()["error"]["message"] == (
        "Die besten 5 von 3 Clubabenden lassen sich nicht zählen: wählen Sie 1 bis 3."
    )


def test_a_change_on_a_stale_version_is_a_409_and_a_fresh_one_is_kept(
    client: FlaskClient, club: dict[str, Any]
) -> None:
    season = _create(client, club).get_json()
    where = f"/api/v1/clubs/{club['id']}/seasons/{season['id']}"
    left_out = [club["evenings"][1]]
    changed = client.patch(
        where, json={"rule": "best", "best": 2, "left_out": left_out, "version": 1},
        headers=club["auth"],
    )  # fmt: skip
    assert changed.status_code == 200, changed.get_json()
    now = changed.get_json()
    assert now["version"] == 2 and now["rule"] == "best" and now["best"] == 2
    assert [e["id"] for e in now["left_out"]] == left_out
    assert [e["id"] for e in now["evenings"]] == [club["evenings"][0], club["evenings"][2]]
    stale = client.patch(where, json={"name": "Late", "version": 1}, headers=club["auth"])
    assert stale.status_code == 409 and _codes(stale) == ["stale_season_version"]
    best_3_of_2 = client.patch(where, json={"best": 3}, headers=club["auth"])
    assert best_3_of_2.status_code == 400 and _codes(best_3_of_2) == ["bad_best_evenings"]


def test_a_deleted_season_is_gone_and_its_evenings_stay(
    client: FlaskClient, club: dict[str, Any]
) -> None:
    season = _create(client, club).get_json()
    where = f"/api/v1/clubs/{club['id']}/seasons/{season['id']}"
    assert client.delete(where, json={"version": 7}, headers=club["auth"]).status_code == 409
    assert client.delete(where, headers=club["auth"]).status_code == 204
    assert client.get(where).status_code == 404
    for event_id in club["evenings"]:
        assert client.get(f"/api/v1/clubs/{club['id']}/events/{event_id}").status_code == 200


def test_a_season_is_found_only_in_its_own_club(client: FlaskClient, club: dict[str, Any]) -> None:
    season = _create(client, club).get_json()
    other = client.post("/api/v1/clubs", json={"name": "Fridays"}).get_json()
    assert client.get(f"/api/v1/clubs/{other['id']}/seasons/{season['id']}").status_code == 404
    assert client.get("/api/v1/clubs/nosuchclub/seasons").status_code == 404


def test_the_seasons_calls_are_in_the_openapi_document(client: FlaskClient) -> None:
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    assert set(paths["/api/v1/clubs/{club_id}/seasons"]) >= {"get", "post"}
    assert set(paths["/api/v1/clubs/{club_id}/seasons/{season_id}"]) >= {"get", "patch", "delete"}


def test_narrowing_the_dates_drops_an_evening_left_out_that_falls_outside_them(
    client: FlaskClient, club: dict[str, Any]
) -> None:
    """A season that left out its last evening is narrowed to end before it: the change is
    kept (the left-out evening is simply no longer in the season), not a 400 about an
    evening the writer never sent; an id the club never had is still refused."""
    made = _create(client, club, left_out=[club["evenings"][2]]).get_json()
    where = f"/api/v1/clubs/{club['id']}/seasons/{made['id']}"
    narrowed = client.patch(where, json={"ends": "2026-09-12"}, headers=club["auth"])
    assert narrowed.status_code == 200, narrowed.get_json()
    body = narrowed.get_json()
    assert [e["id"] for e in body["evenings"]] == club["evenings"][:2] and body["left_out"] == []
    stranger = client.patch(where, json={"left_out": ["A" * 22]}, headers=club["auth"])
    assert stranger.status_code == 400 and _codes(stranger) == ["not_a_season_evening"]
    assert "['" not in stranger.get_json()["errors"][0]["message"]
