"""The clubs' pages: founding by form, the view link that starts nothing (403), starting a game
by tap, the last table again, the chart tables equal to the numbers they draw, files and the
blank sheet."""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest
from club_fixture import FIXTURE, new_club, play_in_club
from flask.testing import FlaskClient

from referee.web.games import queries as game_queries


def _found(client: FlaskClient, name: str = "Family") -> tuple[str, str]:
    answer = client.post("/clubs", data={"name": name, "lang": "en", "create": "1"})
    assert answer.status_code == 303, answer.get_data(as_text=True)[:1000]
    match = re.search(r"/clubs/([^/]+)/edit/([^/?#]+)$", answer.headers["Location"])
    assert match
    return match.group(1), match.group(2)


def _start(client: FlaskClient, club_id: str, token: str, **fields: Any) -> Any:
    data: dict[str, Any] = {"variant": "contract", "lang": "en", "start": "1", **fields}
    return client.post(f"/clubs/{club_id}/edit/{token}/games", data=data)


def _tables(html: str) -> list[list[list[str]]]:
    """Every table of a page as rows of cell texts."""
    out = []
    for table in re.findall(r"<table.*?</table>", html, re.S):
        rows = []
        for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
            cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
            # A header's soft hyphens (formats.hyphenated) are where it may break: not text.
            text = [unescape(re.sub(r"<[^>]+>", "", c)).replace("\xad", "") for c in cells]
            rows.append([t.strip() for t in text])
        out.append(rows)
    return out


def _chart_table(html: str, figure_id: str) -> list[list[str]]:
    figure = re.search(rf'<figure class="chart-figure" id="{figure_id}".*?</figure>', html, re.S)
    assert figure, f"no chart {figure_id}"
    assert "<svg" in figure.group(0) and "style=" not in figure.group(0)
    return _tables(figure.group(0))[0]


def test_founding_a_club_leads_to_its_edit_link(client: FlaskClient) -> None:
    assert "Found a club" in client.get("/clubs").get_data(as_text=True)
    club_id, token = _found(client, "  Thursday   table ")
    edit = client.get(f"/clubs/{club_id}/edit/{token}").get_data(as_text=True)
    assert "<h1>Thursday table</h1>" in edit
    assert f'action="/clubs/{club_id}/edit/{token}/games"' in edit
    assert f"/clubs/{club_id}/edit/{token}/qr.svg" in edit
    # The phone remembers it on /clubs, with its edit link.
    assert f"/clubs/{club_id}/edit/{token}" in client.get("/clubs").get_data(as_text=True)


def test_a_club_needs_a_name(client: FlaskClient) -> None:
    answer = client.post("/clubs", data={"name": "   ", "lang": "en", "create": "1"})
    assert answer.status_code == 400
    assert "The club needs a name." in answer.get_data(as_text=True)


def test_the_view_link_starts_no_game(client: FlaskClient) -> None:
    """A club's view link shows no form, and posting without the edit token is a 403."""
    club_id, token = _found(client)
    view = client.get(f"/clubs/{club_id}").get_data(as_text=True)
    assert token not in view and '/games"' not in view and 'name="players"' not in view
    for wrong in ("view", "x" * 32, club_id):
        answer = _start(client, club_id, wrong, players=[], **{"new_names-0": "Ann"})
        assert answer.status_code == 403
    assert client.post(f"/clubs/{club_id}", data={"start": "1"}).status_code == 405
    assert client.post(f"/clubs/{club_id}/edit/{club_id}/rematch").status_code == 403
    club = client.get(f"/api/v1/clubs/{club_id}").get_json()
    assert club["games"] == [] and club["members"] == []


def test_members_by_tap_and_newcomers_by_name_start_a_game(client: FlaskClient) -> None:
    club_id, token = _found(client)
    first = _start(client, club_id, token, **{"new_names-0": "Ann", "new_names-1": "Bo",
                                              "new_names-2": "Cy"})  # fmt: skip
    assert first.status_code == 303 and "/edit/" in first.headers["Location"]
    edit = client.get(f"/clubs/{club_id}/edit/{token}").get_data(as_text=True)
    for name in ("Ann", "Bo", "Cy"):
        assert f'value="{name}"' in edit  # a member to tap now
    # Ann and Cy by tap, Di new: seats are the members picked in the club's order, then Di.
    second = _start(client, club_id, token, players=["Cy", "Ann"], **{"new_names-0": "Di"})
    assert second.status_code == 303
    game_id = second.headers["Location"].split("/games/")[1].split("/")[0]
    game = client.get(f"/api/v1/games/{game_id}").get_json()
    assert game["players"] == ["Ann", "Cy", "Di"]
    club = client.get(f"/api/v1/clubs/{club_id}").get_json()
    assert club["members"] == ["Ann", "Bo", "Cy", "Di"] and len(club["games"]) == 2
    # The game's page names its club.
    page = client.get(second.headers["Location"]).get_data(as_text=True)
    assert f"/clubs/{club_id}/edit/{token}" in page and "Counts for the club" in page


def test_a_game_that_cannot_start_keeps_what_was_picked(client: FlaskClient) -> None:
    club_id, token = _found(client)
    answer = _start(client, club_id, token, **{"new_names-0": "Ann", "new_names-1": "ann"})
    assert answer.status_code == 400
    page = unescape(answer.get_data(as_text=True))
    assert "Two players are called “ann”" in page or "Two players are called “Ann”" in page
    assert 'value="Ann"' in page and 'value="ann"' in page


def test_the_last_table_again_is_filed_in_the_club(client: FlaskClient) -> None:
    club = new_club(client)
    last = play_in_club(client, club, *FIXTURE[0])
    page = client.get(f"/clubs/{club['id']}/edit/{club['edit_token']}").get_data(as_text=True)
    assert f'name="game" type="hidden" value="{last["id"]}"' in page
    answer = client.post(
        f"/clubs/{club['id']}/edit/{club['edit_token']}/rematch",
        data={"game": last["id"], "rematch": "1"},
    )
    assert answer.status_code == 303
    new_id = answer.headers["Location"].split("/games/")[1].split("/")[0]
    again = client.get(f"/api/v1/games/{new_id}").get_json()
    assert again["players"] == last["players"] and again["variant"] == last["variant"]
    assert again["first_dealer"] == "Bo"  # the deal passes on
    games = client.get(f"/api/v1/clubs/{club['id']}").get_json()["games"]
    assert [g["id"] for g in games] == [last["id"], new_id]
    # The page showed an older last table: nothing is started, the club as it is now shows.
    stale = client.post(
        f"/clubs/{club['id']}/edit/{club['edit_token']}/rematch",
        data={"game": last["id"], "rematch": "1"},
    )
    assert stale.status_code == 409
    assert len(client.get(f"/api/v1/clubs/{club['id']}").get_json()["games"]) == 2


@pytest.fixture
def fixture_club(client: FlaskClient) -> dict[str, Any]:
    club = new_club(client)
    club["games"] = [play_in_club(client, club, *game) for game in FIXTURE]
    return club


def test_the_club_page_shows_stats_ladder_and_head_to_head(
    client: FlaskClient, fixture_club: dict[str, Any]
) -> None:
    html = client.get(f"/clubs/{fixture_club['id']}").get_data(as_text=True)
    assert "style=" not in html and "<script>" not in html
    stats = _tables(html)[0]
    # the key columns first (a 360-px phone shows them without scrolling the table)
    assert stats[0][:4] == ["Player", "Wins", "Games", "Win rate"]
    assert stats[0][-1] == "Finished"
    rows = {row[0]: row for row in stats[1:]}
    assert rows["Ann"][1:4] == ["2", "2", "100%"] and rows["Ann"][-1] == "2"
    assert rows["Bo"][1:4] == ["1", "3", "50%"] and rows["Bo"][-1] == "2"
    assert rows["Ann"][4] == "6.8" and rows["Ann"][-2] == "2"  # 95 / 14 points a round
    api = client.get(f"/api/v1/clubs/{fixture_club['id']}/stats").get_json()
    ladder = re.findall(
        r'<span class="ladder-name">(.*?)</span>\s*<span class="ladder-rating">(.*?)</span>', html
    )
    expected = sorted(api["players"], key=lambda p: -p["rating"]["ordinal"])
    assert ladder == [(p["name"], f"{p['rating']['ordinal']:.1f}") for p in expected]
    assert "Head to head" in html and "1–0" in html
    # One variant's view: its tab is current and only its games count.
    rummy = client.get(f"/clubs/{fixture_club['id']}?variant=rummy").get_data(as_text=True)
    assert 'aria-current="page">Rummy' in rummy or "aria-current" in rummy
    assert {row[0] for row in _tables(rummy)[0][1:]} == {"Cy", "Di"}
    assert client.get(f"/clubs/{fixture_club['id']}?variant=poker").status_code == 404


def test_the_ratings_chart_table_holds_the_ratings(
    client: FlaskClient, fixture_club: dict[str, Any], app: Any
) -> None:
    # Spread the games over two game nights, so the chart has two points.
    with app.app_context():
        from datetime import UTC, datetime

        from sqlalchemy import update

        from referee.web.clubs.models import club_games
        from referee.web.plumbing.database import database

        with database().writing() as conn:
            first = fixture_club["games"][0]["id"]
            conn.execute(
                update(club_games)
                .where(club_games.c.game_id == first)
                .values(played_at=datetime(2026, 11, 26, 20, tzinfo=UTC), version=0)
            )
    html = client.get(f"/clubs/{fixture_club['id']}").get_data(as_text=True)
    table = _chart_table(html, "ratings-chart")
    api = client.get(f"/api/v1/clubs/{fixture_club['id']}/stats").get_json()
    header, *rows = table
    assert len(rows) == 2
    last = dict(zip(header[1:], rows[-1][1:], strict=True))
    for player in api["players"]:
        assert last[player["name"]] == f"{player['rating']['ordinal']:.1f}"


def test_the_game_pages_chart_table_holds_the_running_totals(
    client: FlaskClient, fixture_club: dict[str, Any]
) -> None:
    game = fixture_club["games"][0]
    html = client.get(f"/games/{game['id']}").get_data(as_text=True)
    header, *rows = _chart_table(html, "totals-chart")
    assert header == ["Round", "Ann", "Bo", "Cy"]
    with client.application.app_context():
        stored = game_queries.load(game["id"])
        assert stored is not None
        totals = stored.game.running_totals()
    assert [[int(cell) for cell in row[1:]] for row in rows] == [list(t) for t in totals]
    assert [row[0] for row in rows] == [str(n) for n in range(1, 8)]
    # The same numbers as the score table's running totals, and the same on the edit page.
    edit = client.get(game["edit_url"]).get_data(as_text=True)
    assert _chart_table(edit, "totals-chart") == [header, *rows]


def test_a_game_with_one_round_has_no_chart_yet(client: FlaskClient) -> None:
    club = new_club(client)
    game = play_in_club(client, club, "contract", ["Ann", "Bo", "Cy"], [(0, {1: 5, 2: 5})])
    assert "totals-chart" not in client.get(f"/games/{game['id']}").get_data(as_text=True)


def test_files_of_a_club_and_back_in(client: FlaskClient, fixture_club: dict[str, Any]) -> None:
    club_id = fixture_club["id"]
    csv_answer = client.get(f"/clubs/{club_id}.csv")
    lines = csv_answer.get_data(as_text=True).strip().splitlines()
    assert lines[0] == "date,game,variant,finished,player,total,place,won,rounds,rounds_out"
    assert len(lines) == 1 + 3 + 3 + 3 + 2
    assert ",Ann,35,1,1,7,4" in lines[1]
    exported = client.get(f"/clubs/{club_id}.json")
    assert "attachment" in exported.headers["Content-Disposition"]
    data = json.loads(exported.get_data(as_text=True))
    assert data["format"] == "rummy-referee-club" and len(data["games"]) == 4
    imported = client.post("/clubs/import", data={"text": json.dumps(data)})
    assert imported.status_code == 303
    new_id = imported.headers["Location"].split("/clubs/")[1].split("/")[0]
    assert new_id != club_id
    old = client.get(f"/api/v1/clubs/{club_id}/stats").get_json()
    new = client.get(f"/api/v1/clubs/{new_id}/stats").get_json()
    assert new["players"] == old["players"] and new["head_to_head"] == old["head_to_head"]
    old_dates = [g["date"] for g in client.get(f"/api/v1/clubs/{club_id}").get_json()["games"]]
    new_club_json = client.get(f"/api/v1/clubs/{new_id}").get_json()
    assert [g["date"] for g in new_club_json["games"]] == old_dates


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("not json", "This is not a club export"),
        ('{"format": "rummy-referee-club", "name": "X", "games": [{"variant": "poker"}]}',
         "Game 1 of the club file cannot be read"),
        ('{"format": "rummy-referee-club", "name": "", "games": []}', "This is not a club export"),
    ],
)  # fmt: skip
def test_a_club_file_that_does_not_read_is_a_400(client: FlaskClient, text: str, says: str) -> None:
    answer = client.post("/clubs/import", data={"text": text})
    assert answer.status_code == 400
    assert says in unescape(answer.get_data(as_text=True))


def test_the_blank_sheet_prints_the_members_picked(
    client: FlaskClient, fixture_club: dict[str, Any]
) -> None:
    club_id = fixture_club["id"]
    page = client.get(f"/clubs/{club_id}").get_data(as_text=True)
    assert f'href="/clubs/{club_id}/sheet"' in page
    form = client.get(f"/clubs/{club_id}/sheet?variant=rummy").get_data(as_text=True)
    assert 'name="sheet-players"' in form and '<option selected value="rummy">' in form
    answer = client.get(
        f"/clubs/{club_id}/sheet",
        query_string=[
            ("sheet-variant", "shanghai"), ("sheet-players", "cy"), ("sheet-players", "Di"),
            ("sheet-players", "Zed"), ("sheet-players", "Ann"), ("sheet-paper", "a4"),
        ],
    )  # fmt: skip
    assert answer.status_code == 303
    location = answer.headers["Location"]
    assert location.startswith("/sheets/shanghai.pdf?") and "players=Ann,+Cy,+Di" in location
    assert client.get(location).mimetype == "application/pdf"


def test_qr_codes_of_the_two_links(client: FlaskClient) -> None:
    club_id, token = _found(client)
    assert client.get(f"/clubs/{club_id}/qr.svg").mimetype == "image/svg+xml"
    assert client.get(f"/clubs/{club_id}/edit/{token}/qr.svg").status_code == 200
    assert client.get(f"/clubs/{club_id}/edit/nope/qr.svg").status_code == 403
    assert client.get("/clubs/nothing-here-at-all").status_code == 404


@pytest.mark.parametrize(
    "fields",
    [
        {"variant": "poker"},
        {"lang": "xx"},
        {"players": ["Nobody"]},
        {"new_names-0": "x" * 300, "new_names-1": "Bo", "new_names-2": "Cy"},
        {"new_names-0": "Ann", "new_names-7": "Bo"},
        {"new_names-0": "\x00", "new_names-1": "Bo", "new_names-2": "Cy"},
    ],
)
def test_odd_new_game_forms_are_a_400_never_a_500(client: FlaskClient, fields: Any) -> None:
    club_id, token = _found(client)
    answer = _start(client, club_id, token, **fields)
    assert answer.status_code == 400, fields
    assert client.get(f"/api/v1/clubs/{club_id}").get_json()["games"] == []


def test_odd_club_addresses_and_imports_are_4xx(client: FlaskClient) -> None:
    club_id, token = _found(client)
    assert client.get(f"/clubs/{club_id}?variant=%00").status_code == 404
    assert client.get("/clubs/" + "x" * 400).status_code == 404
    assert client.get(f"/clubs/{club_id}/sheet?sheet-variant=poker").status_code == 404
    assert (
        client.post(f"/clubs/{club_id}/edit/{token}/rematch", data={"game": "x"}).status_code == 400
    )
    deep = "[" * 100_000 + "]" * 100_000
    assert client.post("/clubs/import", data={"text": deep}).status_code in (400, 413)
    assert client.post("/clubs/import", data={"text": "[]"}).status_code == 400
