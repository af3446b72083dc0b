"""An evening with a club of members and its check-in link, for the check-in tests."""

from __future__ import annotations

from typing import Any

from club_fixture import new_club
from flask.testing import FlaskClient

from referee.web.clubs import service as clubs_service
from referee.web.events import check_in

MEMBERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def new_evening(client: FlaskClient, members: list[str] | None = None) -> dict[str, Any]:
    """A club with `members`, an evening of 3 series of 2 rounds; its links and token."""
    club = new_club(client)
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    made = client.post(
        f"/api/v1/clubs/{club['id']}/events",
        json={"name": "Friday night", "variant": "contract", "series": 3, "table_size": 4,
              "series_rounds": 2, "date": "2025-03-07", "lang": "en"},
        headers=auth,
    )  # fmt: skip
    assert made.status_code == 201, made.get_json()
    event_id = made.get_json()["id"]
    with client.application.app_context():
        clubs_service.add_members(club["id"], MEMBERS if members is None else members)
        key = check_in.key_of(club["id"], event_id)
    base = f"/clubs/{club['id']}/events/{event_id}"
    return {
        "club": club["id"],
        "event": event_id,
        "token": club["edit_token"],
        "auth": auth,
        "key": key,
        "link": f"{base}/check-in/{key}",
        "host": f"{base}/edit/{club['edit_token']}",
        "api": f"/api/v1/clubs/{club['id']}/events/{event_id}",
    }
