"""The club nights' pages with the test client: a new evening from the club's page, check-in
by tap and by name, the draw with its seed, a swap, the start (each table's QR), a leaver, the
read-only page (no forms, 403 on a post), the room's board and its one refreshing fragment
(204/304 while the version stands), the files, and every refusal a clear 4xx."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from club_fixture import new_club
from flask.testing import FlaskClient
from test_events import NAMES

from referee.web.events import service


def _new_evening(client: FlaskClient, **fields: Any) -> tuple[dict[str, Any], str]:
    club = new_club(client)
    form = {
        "name": "Friday night", "date": "2025-03-07", "variant": "contract", "series": "3",
        "table_size": "4", "ends": "rounds", "series_rounds": "2", "scheme": "romme",
        "later_draws": "mix", "lang": "en", "house_rules": "",
    } | fields  # fmt: skip
    answer = client.post(f"/clubs/{club['id']}/edit/{club['edit_token']}/events/new", data=form)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:2000]
    return club, answer.headers["Location"]


def _version(client: FlaskClient, host: str) -> str:
    page = client.get(host).get_data(as_text=True)
    found = re.search(r'<input[^>]*name="version"[^>]*value="(\d+)"', page)
    assert found is not None, page
    return found.group(1)


def test_an_evening_from_the_club_page_to_its_tables(client: FlaskClient) -> None:
    club, host = _new_evening(client)
    club_page = client.get(f"/clubs/{club['id']}/edit/{club['edit_token']}").get_data(as_text=True)
    assert "Friday night" in club_page and "/events/new" in club_page
    page = client.get(host).get_data(as_text=True)
    assert "Tables of 4 where the count allows." in page  # the split rule, said
    version = _version(client, host)
    checked = client.post(
        f"{host}/players",
        data={"version": version, "new_names-0": "Ann", "new_names-1": "Bo", "new_names-2": "Cy",
              "new_names-3": "Di", "check_in": "1"},
    )  # fmt: skip
    assert checked.status_code == 303
    # Members by tap: Ed..Hal are members of the club first.
    client.post(f"{host}/players", data={"version": _version(client, host), "new_names-0": "Ed",
                "new_names-1": "Flo", "new_names-2": "Gus", "new_names-3": "Hal"})  # fmt: skip
    page = client.get(host).get_data(as_text=True)
    assert "8 players will be drawn." in page
    drawn = client.post(f"{host}/series", data={"version": _version(client, host), "series": "1"})
    assert drawn.status_code == 303
    page = client.get(host).get_data(as_text=True)
    assert "Series 1 is drawn (draw no." in page and "Start series 1" in page
    with client.application.app_context():
        stored = service.load(host.split("/events/")[1].split("/")[0])
    assert stored is not None
    a, b = stored.event.series[0].tables[0].seats[0], stored.event.series[0].tables[1].seats[0]
    swapped = client.post(
        f"{host}/series",
        data={"version": _version(client, host), "series": "1", "action": "swap", "first": a,
              "second": b},
    )  # fmt: skip
    assert swapped.status_code == 303
    started = client.post(
        f"{host}/series", data={"version": _version(client, host), "series": "1", "action": "start"}
    )
    assert started.status_code == 303
    page = client.get(host).get_data(as_text=True)
    qrs = re.findall(r'src="([^"]+/qr\.svg)"', page)
    assert len(qrs) == 2
    qr = client.get(qrs[0])
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert "/games/" in page and "/edit/" in page  # the tables' edit pages


def test_the_read_only_page_has_no_controls_and_posts_are_403(client: FlaskClient) -> None:
    _, host = _new_evening(client)
    view = host.split("/edit/")[0]
    page = client.get(view).get_data(as_text=True)
    assert "Friday night" in page and "<form" not in page.split("<main")[1]
    for part in ("players", "series"):
        assert client.post(f"{view}/edit/not-the-token/{part}", data={}).status_code == 403


def test_a_stale_form_is_a_409_that_shows_the_evening_as_it_is(client: FlaskClient) -> None:
    _, host = _new_evening(client)
    old = _version(client, host)
    client.post(f"{host}/players", data={"version": old, "new_names-0": "Ann"})
    again = client.post(f"{host}/players", data={"version": old, "new_names-0": "Bo"})
    assert again.status_code == 409
    assert "changed on another phone" in again.get_data(as_text=True)


@pytest.mark.parametrize("size", ["2", "9"])
def test_a_table_size_of_2_or_9_is_a_clear_400_that_keeps_the_form(
    client: FlaskClient, size: str
) -> None:
    club = new_club(client)
    answer = client.post(
        f"/clubs/{club['id']}/edit/{club['edit_token']}/events/new",
        data={"name": "Kept name", "variant": "contract", "series": "3", "table_size": size,
              "ends": "game", "scheme": "romme", "later_draws": "mix", "lang": "en"},
    )  # fmt: skip
    text = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert "between 3 and 5" in text or "3 to 5" in text
    assert 'value="Kept name"' in text


def test_an_evening_of_0_players_says_why_it_cannot_draw(client: FlaskClient) -> None:
    _, host = _new_evening(client)
    answer = client.post(f"{host}/series", data={"version": _version(client, host), "series": "1"})
    assert answer.status_code == 400


def test_the_board_refreshes_only_when_the_version_moves(client: FlaskClient) -> None:
    _, host = _new_evening(client)
    board_url = host.split("/edit/")[0] + "/board"
    board = client.get(board_url)
    assert board.status_code == 200
    text = board.get_data(as_text=True)
    assert 'id="board-live"' in text and 'data-theme="dark"' in text and "<form" not in text
    version = re.search(r'data-version="(\d+)"', text).group(1)  # type: ignore[union-attr]
    live = f"{board_url}/live?since={version}"
    assert client.get(live, headers={"HX-Request": "true"}).status_code == 204
    first = client.get(live)
    assert first.status_code == 200 and first.headers["ETag"]
    again = client.get(live, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    client.post(f"{host}/players", data={"version": version, "new_names-0": "Ann"})
    moved = client.get(live, headers={"HX-Request": "true"})
    assert moved.status_code == 200 and 'id="board-live"' in moved.get_data(as_text=True)


def test_the_evening_as_json_and_csv(client: FlaskClient) -> None:
    _, host = _new_evening(client)
    client.post(f"{host}/players", data={"version": _version(client, host), "new_names-0": "=cmd"})
    view = host.split("/edit/")[0]
    data = client.get(f"{view}.json").get_json(force=True)
    assert data["format"] == "rummy-referee-event" and data["event"]["players"][0]["name"] == "=cmd"
    assert client.get(f"{view}.csv").status_code == 200
    rows = list(csv.reader(io.StringIO(client.get(f"{view}.csv").get_data(as_text=True))))
    assert rows[0][:4] == ["Series no.", "Table", "Seat", "Player"]
    assert NAMES  # the engine's names are the API test's; here a formula-looking name is kept


def test_a_tables_game_page_names_its_evening_and_a_lone_game_does_not(
    client: FlaskClient,
) -> None:
    _, host = _new_evening(client)
    client.post(f"{host}/players", data={"version": _version(client, host), "new_names-0": "Ann",
                "new_names-1": "Bo", "new_names-2": "Cy"})  # fmt: skip
    client.post(f"{host}/series", data={"version": _version(client, host), "series": "1"})
    client.post(
        f"{host}/series", data={"version": _version(client, host), "series": "1", "action": "start"}
    )
    game = re.search(r'href="(/games/[^"]+/edit/[^"]+)"', client.get(host).get_data(as_text=True))
    assert game is not None
    page = client.get(game.group(1), query_string={"lang": "de"}).get_data(as_text=True)
    assert "Tisch 1 der Serie 1:" in page and "Friday night" in page and "/board" in page
    lone = client.post("/api/v1/games", json={"variant": "contract", "players": ["A", "B", "C"]})
    assert "Serie" not in client.get(f"/games/{lone.get_json()['id']}?lang=de").get_data(
        as_text=True
    )


def test_a_finished_tables_banner_leads_on_to_the_evening(client: FlaskClient) -> None:
    _, host = _new_evening(client, table_size="3", ends="game")
    client.post(f"{host}/players", data={"version": _version(client, host), "new_names-0": "Ann",
                "new_names-1": "Bo", "new_names-2": "Cy"})  # fmt: skip
    client.post(f"{host}/series", data={"version": _version(client, host), "series": "1"})
    client.post(
        f"{host}/series", data={"version": _version(client, host), "series": "1", "action": "start"}
    )
    edit = re.search(
        r'href="/games/([^"/]+)/edit/([^"]+)"', client.get(host).get_data(as_text=True)
    )
    assert edit is not None
    game_id, token = edit.groups()
    seats = client.get(f"/api/v1/games/{game_id}").get_json()["players"]
    auth = {"Authorization": f"Bearer {token}"}
    for number in range(1, 8):
        left = 10 if number < 7 else 60  # round 7 goes down only by going out: a whole hand
        results = [{"player": seats[0], "went_out": True}] + [
            {"player": name, "penalty": left} for name in seats[1:]
        ]
        body = {"round": number, "results": results}
        answer = client.post(f"/api/v1/games/{game_id}/rounds", json=body, headers=auth)
        assert answer.status_code == 200, answer.get_json()
    page = client.get(f"/games/{game_id}/edit/{token}").get_data(as_text=True)
    assert "The evening's standings" in page and 'id="rematch"' not in page
    assert "1 table has a result" not in page
    evening = client.get(host).get_data(as_text=True)
    assert "Every series is drawn." not in evening and "Draw series 2" in evening


def _play_round_one(client: FlaskClient, game_id: str, token: str, penalties: list[int]) -> None:
    seats = client.get(f"/api/v1/games/{game_id}").get_json()["players"]
    results = [{"player": seats[0], "went_out": True}] + [
        {"player": name, "penalty": penalty}
        for name, penalty in zip(seats[1:], penalties, strict=True)
    ]
    answer = client.post(
        f"/api/v1/games/{game_id}/rounds",
        json={"round": 1, "results": results},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 200, answer.get_json()


def test_the_results_for_the_club_s_chat_as_they_stand_then_final(client: FlaskClient) -> None:
    """Prize-giving's message: the evening, every player's place (medals for the first three,
    a figure of a table still playing marked), and the view link; on the page (selectable
    without JavaScript) and as results.txt, in the evening's language or ?lang's."""
    club, host = _new_evening(client, table_size="3", series="1", series_rounds="1", lang="de")
    for names in (["Ann", "Bo", "Cy"], ["Dana Gonzalez-Oberhuber", "Ed", "Flo"]):
        typed = {f"new_names-{i}": name for i, name in enumerate(names)}
        client.post(f"{host}/players", data={"version": _version(client, host)} | typed)
    client.post(f"{host}/series", data={"version": _version(client, host), "series": "1"})
    client.post(
        f"{host}/series", data={"version": _version(client, host), "series": "1", "action": "start"}
    )
    view = host.split("/edit/")[0]
    assert client.get(f"{view}/results.txt").get_data(as_text=True) == ""
    assert 'id="share-text"' not in client.get(host).get_data(as_text=True)
    evening = client.get(
        f"/api/v1{view}", headers={"Authorization": f"Bearer {club['edit_token']}"}
    ).get_json()
    first, second = (
        re.search(r"/games/([^/]+)/edit/([^/?#]+)", table["edit_url"]).groups()  # type: ignore[union-attr]
        for table in evening["series"][0]["tables"]
    )
    _play_round_one(client, first[0], first[1], [20, 35])
    text = client.get(f"{view}/results.txt").get_data(as_text=True)
    assert text.startswith("Friday night\n") and "Stand nach Serie 1 von 1:" in text
    assert "\N{FIRST PLACE MEDAL} 1. " in text and text.endswith(f"http://localhost{view}\n")
    assert "\n1 Tisch spielt noch.\n" in text and text.count(" Turnierpunkt") == 3
    page = client.get(host).get_data(as_text=True)
    assert 'id="share-text"' in page and "Die Ergebnisse für den Chat des Vereins" in page
    _play_round_one(client, second[0], second[1], [5, 50])
    final = client.get(f"{view}/results.txt", query_string={"lang": "en"})
    assert final.mimetype == "text/plain" and final.headers["Cache-Control"] == "no-cache"
    lines = final.get_data(as_text=True).splitlines()
    assert lines[3] == "Final standings:" and "*" not in final.get_data(as_text=True)
    places = [line for line in lines if re.match(r"^\S* ?\d+\. ", line)]
    assert len(places) == 6 and sum("\N{FIRST PLACE MEDAL}" in line for line in places) == 2
    assert any("Dana Gonzalez-Oberhuber" in line for line in places)
    assert all(re.search(r": \d+ tournament points?, \d+ points?$", line) for line in places)
    assert client.get(f"{view}/results.txt", query_string={"lang": "xx"}).status_code == 400
    assert client.get(f"/clubs/{'x' * 8}/events/{'y' * 8}/results.txt").status_code == 404
