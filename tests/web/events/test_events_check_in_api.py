"""The check-in link over JSON (SPEC "Check-in link"): what the link sees, a player in and out
with their token, the host's close, open and undo with the club's token, and the refusals in
the request's language."""

from __future__ import annotations

from check_in_fixture import new_evening
from flask.testing import FlaskClient


def test_the_link_sees_the_evening_the_members_and_nothing_else(client: FlaskClient) -> None:
    evening = new_evening(client)
    client.post(f"{evening['api']}/players", json={"names": ["Ann"]}, headers=evening["auth"])
    seen = client.get(f"/api/v1/clubs/{evening['club']}/events/{evening['event']}/check-in/"
                      f"{evening['key']}")  # fmt: skip
    assert seen.status_code == 200 and seen.headers["Cache-Control"].startswith("no-store")
    body = seen.get_json()
    assert body["name"] == "Friday night" and body["date"] == "2025-03-07"
    assert body["open"] is True and body["next_series"] == 1 and body["player"] is None
    assert body["members"] == ["Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]  # Ann is in
    assert set(body) == {"event", "club", "name", "date", "lang", "version", "open",
                         "next_series", "members", "player", "token"}  # fmt: skip
    assert client.get(f"{evening['api']}/check-in/{evening['key']}x").status_code == 404


def test_a_player_checks_in_and_out_with_their_token(client: FlaskClient) -> None:
    evening = new_evening(client)
    link = f"{evening['api']}/check-in/{evening['key']}"
    answer = client.post(link, json={"name": "zoë", "action": "check_in"})
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["player"]["name"] == "zoë" and body["player"]["new"] is True
    assert body["player"]["joined"] == 1 and body["player"]["seat"] is None
    token = body["token"]
    seen = client.get(link, headers={"Authorization": f"Bearer {token}"}).get_json()
    assert seen["player"]["name"] == "zoë" and seen["token"] is None
    bo = client.post(link, json={"name": "Bo"}).get_json()["token"]
    forged = client.post(link, json={"name": "zoë", "action": "check_out", "token": bo})
    assert forged.status_code == 403
    assert forged.get_json()["error"]["code"] == "not_your_check_in"
    out = client.post(link, json={"name": "zoë", "action": "check_out", "token": token})
    assert out.status_code == 200 and out.get_json()["player"]["present"] is False
    host = client.get(evening["api"], headers=evening["auth"]).get_json()
    marks = {p["name"]: (p["by_phone"], p["new"]) for p in host["players"]}
    assert marks == {"zoë": (True, True), "Bo": (True, False)}


def test_the_host_closes_opens_and_undoes_with_the_clubs_token(client: FlaskClient) -> None:
    evening = new_evening(client)
    link = f"{evening['api']}/check-in/{evening['key']}"
    client.post(link, json={"name": "Ann"})
    control = f"{evening['api']}/check-in"
    assert client.post(control, json={"action": "close"}).status_code == 401
    closed = client.post(control, json={"action": "close"}, headers=evening["auth"])
    assert closed.status_code == 200 and closed.get_json()["check_in_open"] is False
    refused = client.post(f"{link}?lang=de", json={"name": "Bo"})
    assert refused.status_code == 400
    assert refused.get_json()["error"]["code"] == "check_in_closed"
    assert "Spielleitung" in refused.get_json()["error"]["message"]
    client.post(control, json={"action": "open"}, headers=evening["auth"])
    undone = client.post(control, json={"action": "undo", "name": "Ann"}, headers=evening["auth"])
    assert undone.status_code == 200 and undone.get_json()["players"] == []
    again = client.post(control, json={"action": "undo", "name": "Ann"}, headers=evening["auth"])
    assert again.status_code == 400


def test_the_check_in_calls_are_in_the_openapi_document(client: FlaskClient) -> None:
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    link = paths["/api/v1/clubs/{club_id}/events/{event_id}/check-in/{key}"]
    assert set(link) >= {"get", "post"} and "403" in link["post"]["responses"]
    assert "post" in paths["/api/v1/clubs/{club_id}/events/{event_id}/check-in"]


def test_names_typed_on_phones_and_checked_out_again_never_fill_the_clubs_members(
    client: FlaskClient,
) -> None:
    """A check-in link is as public as the board's QR: 70 names typed and checked out again
    (beyond the club's cap of 60 members) leave the club's members as they were, and the host
    still checks a newcomer in. A new name joins the club once its table's game is filed."""
    evening = new_evening(client)
    link = f"{evening['api']}/check-in/{evening['key']}"
    for number in range(70):
        name = f"Junk {number}"
        token = client.post(link, json={"name": name}).get_json()["token"]
        out = client.post(link, json={"name": name, "action": "check_out", "token": token})
        assert out.status_code == 200, out.get_json()
    club = client.get(f"/api/v1/clubs/{evening['club']}").get_json()
    assert sorted(club["members"]) == ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    host = client.post(f"{evening['api']}/players", json={"names": ["Zoë", "Ann", "Bo"]},
                       headers=evening["auth"])  # fmt: skip
    assert host.status_code == 200, host.get_json()
    # Seated, a name typed on a phone is a member.
    assert client.post(link, json={"name": "Quinn"}).status_code == 200
    drawn = client.post(f"{evening['api']}/series", json={"series": 1, "start": True},
                        headers=evening["auth"])  # fmt: skip
    assert drawn.status_code == 200, drawn.get_json()
    members = client.get(f"/api/v1/clubs/{evening['club']}").get_json()["members"]
    assert "Quinn" in members and "Zoë" in members and "Junk 0" not in members
