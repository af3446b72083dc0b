"""A club night's second pass through the web (issue 29; issue 34's "a past series can be
reopened"), with the test client: a series game ends with its series (a round past it is a 409
in the table's language) and counts for the club as a finished game, marked as a series game;
a series is fixed once the next is drawn (its tables' undo and corrections refused, on SQLite
and PostgreSQL) until the host reopens it; the host moves a player; the files say the evening in
its language (the CSV's words and decimals, each player's place; the standings PDF a column per
series and the leavers; the table cards' sheets the series' rounds); the table rule in words a
host reads."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from club_fixture import new_club, results_json
from flask.testing import FlaskClient
from pypdf import PdfReader

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _evening(client: FlaskClient, **settings: Any) -> tuple[dict[str, Any], str]:
    club = new_club(client)
    body = {"name": "Club night", "variant": "contract", "series": 3, "series_rounds": 2,
            "seed": 7, "lang": "de"} | settings  # fmt: skip
    made = client.post(f"/api/v1/clubs/{club['id']}/events", json=body,
                       headers=_auth(club["edit_token"]))  # fmt: skip
    assert made.status_code == 201, made.get_json()
    base = f"/api/v1/clubs/{club['id']}/events/{made.get_json()['id']}"
    answer = client.post(
        f"{base}/players", json={"names": NAMES}, headers=_auth(club["edit_token"])
    )
    assert answer.status_code == 200, answer.get_json()
    return club, base


def _series(client: FlaskClient, club: dict[str, Any], base: str, body: dict[str, Any]) -> Any:
    return client.post(f"{base}/series", json=body, headers=_auth(club["edit_token"]))


def _round(
    client: FlaskClient,
    table: dict[str, Any],
    number: int,
    *,
    put: bool = False,
    tie: bool = False,
    **params: str,
) -> Any:
    """Round `number` at the table: seat 1 out, the others 10, 20, 30 ... (+ 5 × number);
    with `tie`, seats 2 and 3 level."""
    seats = table["seats"]
    penalties = {seat: 10 * seat + 5 * number for seat in range(1, len(seats))}
    if tie:
        penalties[2] = penalties[1]
    body = {"round": number, "results": results_json(seats, 0, penalties)}
    token = table["edit_url"].rsplit("/", 1)[-1]
    url = f"/api/v1/games/{table['game']}/rounds"
    query = "".join(f"&{k}={v}" for k, v in params.items()).replace("&", "?", 1)
    if put:
        return client.put(f"{url}/{number}{query}", json=body, headers=_auth(token))
    return client.post(f"{url}{query}", json=body, headers=_auth(token))


def _play(
    client: FlaskClient, series: dict[str, Any], rounds: int = 2, *, tie: bool = False
) -> None:
    for table in series["tables"]:
        for number in range(1, rounds + 1):
            assert _round(client, table, number, tie=tie).status_code == 200


# -- a series game ends with its series, and counts for the club -------------------------------


def test_a_round_past_the_series_is_a_409_in_the_tables_language(client: FlaskClient) -> None:
    club, base = _evening(client)
    series = _series(client, club, base, {"series": 1}).get_json()["series"][0]
    table = series["tables"][0]
    game = client.get(f"/api/v1/games/{table['game']}").get_json()
    assert game["variant"] == "contract" and game["house_rules"] == {"rounds_played": 2}
    _play(client, series)
    past = _round(client, table, 3, lang="nl")
    assert past.status_code == 409, past.get_json()
    error = past.get_json()["error"]
    assert error["code"] == "game_finished" and error["message"].startswith("Het spel is voorbij")
    assert error["version"] == 3 and error["changes"] == []
    kept = client.get(f"/api/v1/games/{table['game']}").get_json()
    assert kept["finished"] and len(kept["rounds"]) == 2


def test_a_finished_series_game_is_a_finished_club_game_marked_as_a_series_game(
    client: FlaskClient,
) -> None:
    club, base = _evening(client)
    series = _series(client, club, base, {"series": 1}).get_json()["series"][0]
    _play(client, series)
    read = client.get(f"/api/v1/clubs/{club['id']}").get_json()
    lines = {line["id"]: line for line in read["games"]}
    for table in series["tables"]:
        line = lines[table["game"]]
        assert line["finished"] and line["winners"] == [table["seats"][0]]
        assert line["series"] == {"event": base.rsplit("/", 1)[-1], "name": "Club night",
                                  "series": 1, "table": table["number"]}  # fmt: skip
    stats = client.get(f"/api/v1/clubs/{club['id']}/stats").get_json()["players"]
    winners = {table["seats"][0] for table in series["tables"]}
    for player in stats:
        assert player["finished"] == 1 and player["wins"] == (player["name"] in winners)
        assert player["rating"]["ordinal"] != 0  # every player rated by their table
    page = client.get(f"/clubs/{club['id']}").get_data(as_text=True)
    assert page.count("Series 1, table ") == len(series["tables"])


# -- a series is fixed once the next is drawn ------------------------------------------------


def test_a_past_series_cannot_be_undone_or_corrected_until_the_host_reopens_it(
    client: FlaskClient, database_url: str
) -> None:
    club, base = _evening(client)
    first = _series(client, club, base, {"series": 1}).get_json()["series"][0]
    _play(client, first)
    _series(client, club, base, {"series": 2})
    table = first["tables"][0]
    token = table["edit_url"].rsplit("/", 1)[-1]
    undo = client.post(f"/api/v1/games/{table['game']}/undo?lang=de", headers=_auth(token))
    assert undo.status_code == 409, undo.get_json()
    assert undo.get_json()["error"]["code"] == "series_closed"
    assert undo.get_json()["error"]["message"].startswith("Serie 1 ist vorbei und Serie 2")
    corrected = _round(client, table, 1, put=True)
    assert corrected.status_code == 409 and corrected.get_json()["error"]["code"] == "series_closed"
    evening = client.get(base).get_json()
    assert evening["series"][0]["closed"] and all(
        t["result"]["finished"] for t in evening["series"][0]["tables"]
    )
    board = client.get(f"{base}/standings").get_json()
    # The host reopens it: the table may take back its round, and the standings say so.
    reopened = _series(client, club, base, {"series": 1, "action": "reopen"}).get_json()
    assert client.get(f"{base}/standings").get_json()["reopened"] == [1]
    assert reopened["series"][0]["reopened"] and not reopened["series"][0]["closed"]
    assert (
        client.post(f"/api/v1/games/{table['game']}/undo", headers=_auth(token)).status_code == 200
    )
    html = client.get(base.replace("/api/v1", "")).get_data(as_text=True)
    assert "Serie 1 ist wieder geöffnet: ihre Ergebnisse können sich noch ändern." in html
    blocked = _series(client, club, base, {"series": 1, "action": "close"})
    assert (
        blocked.status_code == 400 and blocked.get_json()["error"]["code"] == "series_still_playing"
    )
    assert _round(client, table, 2).status_code == 200
    closed = _series(client, club, base, {"series": 1, "action": "close"}).get_json()
    assert closed["series"][0]["closed"]
    assert client.get(f"{base}/standings").get_json() == board


def test_the_next_series_waits_while_a_past_one_is_reopened(client: FlaskClient) -> None:
    club, base = _evening(client)
    _play(client, _series(client, club, base, {"series": 1}).get_json()["series"][0])
    second = _series(client, club, base, {"series": 2}).get_json()["series"][1]
    _play(client, second)
    _series(client, club, base, {"series": 1, "action": "reopen"})
    drawn = _series(client, club, base, {"series": 3})
    assert drawn.status_code == 400
    assert drawn.get_json()["error"]["code"] == "series_reopened"
    assert _series(client, club, base, {"series": 2, "action": "reopen"}).status_code == 400


# -- the host moves a player -------------------------------------------------------------------


def test_the_host_moves_a_player_by_the_api_and_by_the_page(client: FlaskClient) -> None:
    club, base = _evening(client, lang="en")
    for name in ("Ida", "Jo", "Kit"):
        client.post(f"{base}/players", json={"names": [name]}, headers=_auth(club["edit_token"]))
    drawn = _series(client, club, base, {"series": 1, "start": False}).get_json()["series"][0]
    sizes = [len(t["seats"]) for t in drawn["tables"]]
    assert sizes == [4, 4, 3]
    mover = drawn["tables"][0]["seats"][1]
    moved = _series(client, club, base, {"series": 1, "action": "move", "name": mover, "table": 3})
    assert moved.status_code == 200, moved.get_json()
    assert moved.get_json()["series"][0]["tables"][2]["seats"][-1] == mover
    again = _series(client, club, base, {"series": 1, "action": "move", "name": mover})
    assert again.get_json()["error"]["code"] == "move_names_a_table"
    too_small = _series(
        client, club, base,
        {"series": 1, "action": "move", "name": drawn["tables"][0]["seats"][0], "table": 2},
    )  # fmt: skip
    assert too_small.status_code == 400
    assert too_small.get_json()["error"]["code"] == "table_too_small"
    host = base.replace("/api/v1", "") + f"/edit/{club['edit_token']}"
    version = client.get(base).get_json()["version"]
    page = client.post(f"{host}/series", data={"version": version, "series": "1",
                       "action": "move", "name": mover, "table": "1"})  # fmt: skip
    assert page.status_code == 303 and page.headers["Location"].endswith("#draw")
    assert client.get(base).get_json()["series"][0]["tables"][0]["seats"][-1] == mover


def test_the_series_form_sends_one_series_and_one_action(client: FlaskClient) -> None:
    # The swap form's hidden fields came twice, the first empty: "nicht ." (issue 29.1).
    club, base = _evening(client)
    _series(client, club, base, {"series": 1, "start": False})
    host = base.replace("/api/v1", "") + f"/edit/{club['edit_token']}"
    page = client.get(host).get_data(as_text=True)
    form = page.split('class="form swap-form"')[1].split("</form>")[0]
    assert form.count('name="series"') == 1 and form.count('name="action"') == 1


# -- the files ---------------------------------------------------------------------------------


def _finished_evening(client: FlaskClient) -> tuple[dict[str, Any], str]:
    club, base = _evening(client, series=2)
    _play(client, _series(client, club, base, {"series": 1}).get_json()["series"][0])
    client.post(f"{base}/players", json={"action": "leave", "names": ["Hal"]},
                headers=_auth(club["edit_token"]))  # fmt: skip
    client.post(f"{base}/players", json={"names": ["Ida"]}, headers=_auth(club["edit_token"]))
    _play(client, _series(client, club, base, {"series": 2}).get_json()["series"][1], tie=True)
    return club, base


def test_the_csv_speaks_the_evenings_language_and_gives_each_players_place(
    client: FlaskClient,
) -> None:
    _, base = _finished_evening(client)
    view = base.replace("/api/v1", "")
    german = client.get(f"{view}.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(german), delimiter=";"))
    assert rows[0] == ["Serie Nr.", "Tisch", "Platz am Tisch", "Spieler", "Gibt zuerst", "Punkte",
                       "Runden", "Tisch beendet", "Platzierung am Tisch", "Turnierpunkte",
                       "Endplatzierung", "Spiel"]  # fmt: skip
    assert {row[4] for row in rows[1:]} == {"ja", ""} and {row[7] for row in rows[1:]} == {"ja"}
    standings = client.get(f"{base}/standings").get_json()["rows"]
    places = {row["name"]: str(row["place"]) for row in standings}
    assert [row[10] for row in rows[1:]] == [places[row[3]] for row in rows[1:]]
    # A shared place splits its points: "0,5", never "1/2" (a date to a German spreadsheet).
    shared = [row[9] for row in rows[1:] if not row[9].lstrip("-'").isdigit()]
    assert shared and all("," in points and "/" not in points for points in shared), shared
    english = client.get(f"{view}.csv?lang=en").get_data(as_text=True)
    assert english.startswith("Series no.,Table,Seat,Player,Deals first,")
    data = client.get(f"{view}.json").get_json(force=True)
    assert data["final"] and [r["place"] for r in data["standings"]] == [
        r["place"] for r in standings
    ]
    assert {r["name"]: r["present"] for r in data["standings"]}["Hal"] is False


def test_the_standings_pdf_has_a_column_per_series_and_marks_who_left(
    client: FlaskClient,
) -> None:
    _, base = _finished_evening(client)
    view = base.replace("/api/v1", "")
    answer = client.get(f"{view}/standings.pdf")
    text = PdfReader(io.BytesIO(answer.data)).pages[0].extract_text()
    assert "Endstand der Rangliste" in text
    assert re.search(r"Serie\s+1\s+Serie\s+2\s+Turnier", text), text  # a column per series
    assert "Hal (gegangen)" in text
    assert text.rstrip().endswith("gewonnene Tische.")  # the footer whole, not cut


def test_the_table_cards_sheet_prints_the_series_rounds(client: FlaskClient) -> None:
    club, base = _evening(client, series_rounds=3)
    _series(client, club, base, {"series": 1})
    view = base.replace("/api/v1", "")
    answer = client.get(f"{view}/edit/{club['edit_token']}/series/1/tables.pdf")
    sheet = PdfReader(io.BytesIO(answer.data)).pages[1].extract_text()
    assert "2 Folgen zu 4" in sheet  # round 3's contract
    assert "3 Folgen zu 4" not in sheet and "4 Sätze zu 3" not in sheet  # rounds 6 and 4


@pytest.mark.parametrize(
    ("sizes", "said"),
    [
        ({"preferred": 4, "smallest": 3, "largest": 5}, "A table needs at least 3 players."),
        ({"preferred": 4, "smallest": 4, "largest": 4}, "Every table seats exactly 4:"),
    ],
)
def test_the_table_rule_is_said_as_a_host_reads_it(
    client: FlaskClient, sizes: dict[str, int], said: str
) -> None:
    _, base = _evening(client, lang="en", table_size=sizes)
    page = client.get(base.replace("/api/v1", "")).get_data(as_text=True)
    assert said in page and "cannot be seated" not in page and "1, 2" not in page
