"""A season that counts the club's ordinary games besides its club nights (issue 31, point 1):
each day's finished games make a club night of their own, each game scored as a club night's
table under the Rommé scheme (5-3-2-1 at four, 4-2-1 at three; 3, 2 or 1 more for at most 10,
20 or 30 points left a round). The table equals the hand calculation below; a game left out,
unfinished, outside the dates or played at a club night's table does not count."""

from __future__ import annotations

import io
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from season_fixture import (
    EVENINGS,
    club_with_evenings,
    date_tables,
    play_club_game,
    play_evenings,
    play_rounds,
)
from sqlalchemy import select, update

from referee.web.clubs.models import club_games
from referee.web.events import service as events_service
from referee.web.plumbing.database import database

# Two club nights of the fixture (points by band: 12, 8, 5, 2, 0), and games:
# (points left a round, nobody out, over 7 rounds; tournament points place + bonus)
#   5 Sep, game A: Ann 5 a round (1st, 5 + 3 = 8), Bo 15 (3 + 2 = 5), Cy 25 (2 + 1 = 3),
#                  Di 50 (1 + 0 = 1)
#   5 Sep, game B: Bo 5 (1st, 4 + 3 = 7), Ann 15 (2 + 2 = 4), Ed 25 (1 + 1 = 2)
#     the day: Ann 12 and Bo 12 share 1st, Cy 3, Ed 2, Di 1
#   12 Sep, game C: Cy 5 (7), Di 15 (4), Ed 25 (2); game D stops after 3 rounds (unfinished)
#   5 Oct, game E: after the season's last day (30 Sep)
# Columns by date: night 3 Sep, games 5 Sep, night 10 Sep, games 12 Sep. The sum:
#   Ann 12 + 12 + 8 = 32 (won the 3rd, shared the 5th)
#   Bo 8 + 12 + 12 = 32 (shared the 5th, won the 10th)
#   Cy 5 + 3 + 8 + 7 = 23    Di 2 + 1 + 5 + 4 = 12    Ed 0 + 2 + 2 + 2 = 6
# Ann and Bo: equal totals, two columns won each, 32 each over all: they share 1st; Cy is
# 3rd (the club nights' other players have at most 8 + 8).
HAND = {"Ann": (1, 32, [12, 12, 8, None]), "Bo": (1, 32, [8, 12, 12, None]),
        "Cy": (3, 23, [5, 3, 8, 7]), "Di": (None, 12, [2, 1, 5, 4]),
        "Ed": (None, 6, [0, 2, 2, 2])}  # fmt: skip
A = {"Ann": 5, "Bo": 15, "Cy": 25, "Di": 50}
B = {"Bo": 5, "Ann": 15, "Ed": 25}
C = {"Cy": 5, "Di": 15, "Ed": 25}


def _club(app: Flask) -> tuple[str, str, list[str], dict[str, str]]:
    club_id, token, event_ids = club_with_evenings(app, EVENINGS[:2])
    play_evenings(app, event_ids, 2, EVENINGS[:2])
    date_tables(app, event_ids)  # the club nights' own games fall within the season too
    games = {
        "A": play_club_game(app, club_id, "2026-09-05", A),
        "B": play_club_game(app, club_id, "2026-09-05", B, at="21:30"),
        "C": play_club_game(app, club_id, "2026-09-12", C),
        "D": play_club_game(app, club_id, "2026-09-12", C, rounds=3),
        "E": play_club_game(app, club_id, "2026-10-05", A),
    }
    return club_id, token, event_ids, games


def _create(client: FlaskClient, club_id: str, token: str, **fields: Any) -> Any:
    body = {"name": "Autumn", "starts": "2026-09-01", "ends": "2026-09-30", **fields}
    return client.post(f"/api/v1/clubs/{club_id}/seasons", json=body,
                       headers={"Authorization": f"Bearer {token}"})  # fmt: skip


def _rows(data: dict[str, Any]) -> dict[str, Any]:
    return {row["name"]: row for row in data["rows"]}


def test_a_season_counting_club_games_equals_the_hand_calculation(
    app: Flask, client: FlaskClient, database_url: str
) -> None:
    """On SQLite and PostgreSQL (the games' days are read by their UTC moments)."""
    club_id, token, event_ids, games = _club(app)
    created = _create(client, club_id, token, club_games=True)
    assert created.status_code == 201, created.get_json()
    data = created.get_json()
    assert data["club_games"] is True
    columns = [(e["kind"], e["date"]) for e in data["evenings"]]
    assert columns == [("evening", "2026-09-03"), ("club_games", "2026-09-05"),
                       ("evening", "2026-09-10"), ("club_games", "2026-09-12")]  # fmt: skip
    assert [e["id"] for e in data["evenings"] if e["kind"] == "evening"] == event_ids
    assert data["evenings"][1]["games"] == [games["A"], games["B"]]
    assert data["evenings"][3]["games"] == [games["C"]]  # D unfinished, E after the season
    assert data["evenings"][1]["name"] == "Club games"
    assert data["evenings"][1]["view_url"].endswith(f"/clubs/{club_id}")
    assert [g["id"] for g in data["games"]] == [games["A"], games["B"], games["C"]]
    assert all(g["counted"] for g in data["games"])
    assert data["games"][1]["players"] == ["Bo", "Ann", "Ed"]
    rows = _rows(data)
    for name, (place, total, cells) in HAND.items():
        assert rows[name]["total"] == total, name
        assert rows[name]["cells"] == cells, name
        if place is not None:
            assert rows[name]["place"] == place, name
    assert [r["name"] for r in data["rows"][:3]] in (["Ann", "Bo", "Cy"], ["Bo", "Ann", "Cy"])
    assert rows["Ann"]["won"] == rows["Bo"]["won"] == 2
    assert "other games count too" in data["rule_text"]


def test_a_game_left_out_takes_its_points_and_a_day_with_none_left_goes(
    app: Flask, client: FlaskClient, database_url: str
) -> None:
    club_id, token, _events, games = _club(app)
    season = _create(client, club_id, token, club_games=True, left_out=[games["B"]]).get_json()
    rows = _rows(season)
    assert rows["Ann"]["cells"][1] == 8 and rows["Bo"]["cells"][1] == 5  # game A alone
    assert rows["Ed"]["cells"][1] is None
    assert [g["counted"] for g in season["games"]] == [True, False, True]
    auth = {"Authorization": f"Bearer {token}"}
    changed = client.patch(
        f"/api/v1/clubs/{club_id}/seasons/{season['id']}",
        json={"left_out": [games["A"], games["B"]], "version": season["version"]},
        headers=auth,
    )
    assert changed.status_code == 200, changed.get_json()
    assert [e["date"] for e in changed.get_json()["evenings"]] == [
        "2026-09-03", "2026-09-10", "2026-09-12"]  # fmt: skip
    # A game still being played may be left out too; a club night's own table may not.
    unfinished = client.patch(f"/api/v1/clubs/{club_id}/seasons/{season['id']}",
                              json={"left_out": [games["D"]]}, headers=auth)  # fmt: skip
    assert unfinished.status_code == 200, unfinished.get_json()


def test_without_club_games_only_club_nights_count(app: Flask, client: FlaskClient) -> None:
    club_id, token, event_ids, _games = _club(app)
    data = _create(client, club_id, token).get_json()
    assert data["club_games"] is False and data["games"] == []
    assert [e["id"] for e in data["evenings"]] == event_ids
    assert _rows(data)["Ann"]["cells"] == [12, 8]


def test_a_club_nights_table_is_no_ordinary_game(app: Flask, client: FlaskClient) -> None:
    club_id, token, event_ids, _games = _club(app)
    with app.app_context():
        stored = events_service.load(event_ids[0])
    assert stored is not None
    table_game = stored.event.series[0].tables[0].game_id
    refused = _create(client, club_id, token, club_games=True, left_out=[table_game])
    assert refused.status_code == 400
    assert [r["code"] for r in refused.get_json()["errors"]] == ["not_a_season_evening"]


def test_games_alone_make_a_season_and_nothing_at_all_is_refused_clearly(
    app: Flask, client: FlaskClient
) -> None:
    club_id, token, _events, _games = _club(app)
    dates = {"starts": "2026-09-11", "ends": "2026-09-13"}  # game C's day alone
    alone = _create(client, club_id, token, club_games=True, **dates)
    assert alone.status_code == 201, alone.get_json()
    assert [e["kind"] for e in alone.get_json()["evenings"]] == ["club_games"]
    without = _create(client, club_id, token, **dates)
    assert [r["code"] for r in without.get_json()["errors"]] == ["season_without_evenings"]
    empty = _create(client, club_id, token, club_games=True, starts="2026-10-01",
                    ends="2026-10-02")  # fmt: skip
    assert empty.status_code == 400
    assert [r["code"] for r in empty.get_json()["errors"]] == ["season_without_results"]
    assert "finished club game" in empty.get_json()["errors"][0]["message"]
    not_a_bool = _create(client, club_id, token, club_games="yes")
    assert not_a_bool.status_code == 400
    assert [e["code"] for e in not_a_bool.get_json()["errors"]] == ["bad_input"]


def test_the_host_ticks_club_games_on_the_form_then_unticks_one(
    app: Flask, client: FlaskClient
) -> None:
    """No JavaScript: the box counts the club's other games; once saved, the form lists each
    finished one (its day and players) to untick, as it lists the club nights."""
    club_id, token, event_ids, games = _club(app)
    season = _create(client, club_id, token).get_json()
    where = f"/clubs/{club_id}/edit/{token}/seasons/{season['id']}"
    form = client.get(where).get_data(as_text=True)
    assert "The club’s other games count too" in form and "Club games that count" not in form
    fields = {"name": "Autumn", "starts": "2026-09-01", "ends": "2026-09-30", "rule": "sum",
              "counted": event_ids}  # fmt: skip
    ticked = client.post(where, data={**fields, "version": "1", "club_games": "y"})
    assert ticked.status_code == 302
    form = client.get(where).get_data(as_text=True)
    assert "Club games that count" in form
    assert "Bo, Ann, Ed" in form and form.count('name="games_counted"') == 3
    kept = [games["A"], games["C"]]
    unticked = client.post(where, data={**fields, "version": "2", "club_games": "y",
                                        "games_counted": kept})  # fmt: skip
    assert unticked.status_code == 302
    shown = client.get(f"/api/v1/clubs/{club_id}/seasons/{season['id']}").get_json()
    assert shown["club_games"] is True
    assert [g["id"] for g in shown["games"] if not g["counted"]] == [games["B"]]
    assert [e["id"] for e in shown["left_out"]] == []
    off = client.post(where, data={**fields, "version": "3", "games_counted": kept})
    assert off.status_code == 302
    assert client.get(f"/api/v1/clubs/{club_id}/seasons/{season['id']}").get_json()[
        "club_games"] is False  # fmt: skip


def test_the_page_csv_and_pdf_mark_a_day_of_club_games(app: Flask, client: FlaskClient) -> None:
    club_id, token, _events, _games = _club(app)
    season = _create(client, club_id, token, club_games=True).get_json()
    base = f"/clubs/{club_id}/seasons/{season['id']}"
    page = client.get(base).get_data(as_text=True)
    assert page.count('class="col-kind">Club games<') == 2
    assert "the games begun on one day make a club night of their own" in page
    german = client.get(f"{base}?lang=de").get_data(as_text=True)
    assert german.count('class="col-kind">Clubspiele<') == 2
    header = client.get(f"{base}.csv").get_data(as_text=True).splitlines()[0]
    assert header.count("(Club games)") == 2
    text = PdfReader(io.BytesIO(client.get(f"{base}.pdf").data)).pages[0].extract_text()
    assert text.count("*") >= 3  # two days marked, and the key
    assert "*: the club’s other games of that day, counted as a club night." in text


def test_a_games_record_kept_behind_the_game_is_read_again(app: Flask, client: FlaskClient) -> None:
    """Should the club not have kept up with a game's last write (its savepoint rolled back),
    the season reads the game as it is, as the club's pages work out a board that is behind."""
    club_id, token, _events, games = _club(app)
    with app.app_context(), database().writing() as conn:
        kept = conn.execute(
            select(club_games.c.record).where(club_games.c.game_id == games["C"])
        ).scalar_one()
        conn.execute(
            update(club_games)
            .where(club_games.c.game_id == games["C"])
            .values(version=1, record={**kept, "finished": False})
        )
    data = _create(client, club_id, token, club_games=True).get_json()
    assert [e["date"] for e in data["evenings"]][-1] == "2026-09-12"
    assert _rows(data)["Cy"]["cells"][3] == 7


def test_a_season_wider_than_the_paper_prints_its_club_nights_over_more_pages(
    app: Flask, client: FlaskClient
) -> None:
    """Twenty days of games are twenty columns, more than A4 landscape holds at a readable
    width (14): two bands of ten, each page with the places, names and totals again."""
    club_id, token, _events = club_with_evenings(app, EVENINGS[:1])
    for day in range(1, 21):
        play_club_game(app, club_id, f"2026-10-{day:02}", {"Ann": 5, "Bo": 15, "Cy": 25})
    body = {"name": "Autumn", "starts": "2026-10-01", "ends": "2026-10-31", "club_games": True}
    made = client.post(f"/api/v1/clubs/{club_id}/seasons", json=body,
                       headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert made.status_code == 201, made.get_json()
    answer = client.get(f"/clubs/{club_id}/seasons/{made.get_json()['id']}.pdf?lang=de")
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(answer.data)).pages]
    assert len(pages) == 2
    assert "Clubabende 1 bis 10 von 20." in pages[0] and "01.10.26*" in pages[0]
    assert "Clubabende 11 bis 20 von 20." in pages[1] and "20.10.26*" in pages[1]
    assert "11.10.26" not in pages[0] and "10.10.26" not in pages[1]
    for text in pages:
        assert "Ann" in text and "Cy" in text and "Platz" in text


def test_the_form_changes_only_what_it_listed(app: Flask, client: FlaskClient) -> None:
    """A game finished after the host opened the form was not on it: sending the form does not
    leave it out. A game left out while the games did not count stays out when they count
    again (the form did not list it then)."""
    club_id, token, event_ids, games = _club(app)
    season = _create(client, club_id, token, club_games=True, left_out=[games["B"]]).get_json()
    where = f"/clubs/{club_id}/edit/{token}/seasons/{season['id']}"
    page = client.get(where).get_data(as_text=True)
    listed = re.search(r'name="listed" type="hidden" value="([^"]*)"', page)
    assert listed is not None and games["D"] not in listed.group(1)
    assert games["A"] in listed.group(1) and games["B"] in listed.group(1)
    play_rounds(app, games["D"], C, range(4, 8))  # D finishes meanwhile
    fields = {"name": "Autumn", "starts": "2026-09-01", "ends": "2026-09-30", "rule": "sum",
              "counted": event_ids, "listed": listed.group(1)}  # fmt: skip
    sent = client.post(where, data={**fields, "version": "1", "club_games": "y",
                                    "games_counted": [games["A"], games["C"]]})  # fmt: skip
    assert sent.status_code == 302
    api = f"/api/v1/clubs/{club_id}/seasons/{season['id']}"
    shown = client.get(api).get_json()
    assert shown["left_out_ids"] == [games["B"]]
    counted = {g["id"] for g in shown["games"] if g["counted"]}
    assert counted == {games["A"], games["C"], games["D"]}
    # The games stop counting, the form (listing none) is sent, they count again: B stays out.
    page = client.get(where).get_data(as_text=True)
    listed = re.search(r'name="listed" type="hidden" value="([^"]*)"', page)
    assert listed is not None
    ticked = [games["A"], games["C"], games["D"]]  # as the page shows them, B unticked
    off = client.post(where, data={**fields, "listed": listed.group(1), "version": "2",
                                   "games_counted": ticked})  # fmt: skip
    assert off.status_code == 302
    page = client.get(where).get_data(as_text=True)
    listed = re.search(r'name="listed" type="hidden" value="([^"]*)"', page)
    assert listed is not None and games["B"] not in listed.group(1)
    renamed = client.post(where, data={**fields, "listed": listed.group(1), "version": "3",
                                       "name": "Herbst"})  # fmt: skip
    assert renamed.status_code == 302
    assert client.get(api).get_json()["left_out_ids"] == [games["B"]]
    on = client.patch(api, json={"club_games": True}, headers={"Authorization": f"Bearer {token}"})
    assert [g["id"] for g in on.get_json()["games"] if not g["counted"]] == [games["B"]]


def test_a_season_of_one_game_kept_behind_is_made(app: Flask, client: FlaskClient) -> None:
    """The season's checks read a record kept behind its game again, as its table does: a
    season whose only game the club has not summed up since it finished is made."""
    club_id, token, _events, games = _club(app)
    with app.app_context(), database().writing() as conn:
        conn.execute(update(club_games).where(club_games.c.game_id == games["C"]).values(version=1))
    dates = {"starts": "2026-09-11", "ends": "2026-09-13"}
    made = _create(client, club_id, token, club_games=True, rule="best", best=1, **dates)
    assert made.status_code == 201, made.get_json()


def test_a_season_counting_games_spans_a_year_at_most(app: Flask, client: FlaskClient) -> None:
    club_id, token, _events, _games = _club(app)
    two_years = {"starts": "2026-01-01", "ends": "2027-12-31"}
    refused = _create(client, club_id, token, club_games=True, **two_years)
    assert refused.status_code == 400
    said = refused.get_json()["errors"]
    assert [e["code"] for e in said] == ["season_too_long_for_games"]
    assert "366 days" in said[0]["message"]
    assert _create(client, club_id, token, **two_years).status_code == 201
    year = {"starts": "2026-01-01", "ends": "2026-12-31"}
    assert _create(client, club_id, token, club_games=True, **year).status_code == 201
