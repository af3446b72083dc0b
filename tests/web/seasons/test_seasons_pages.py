"""The seasons' pages: the club's host page leads to them, a season is made and changed by plain
forms (no JavaScript), bad input is said on the form, the season's page by the view link says
the rule, greys dropped evenings (and says so to a screen reader) and shows movement, with no
inline style or script, in the club's language or the phone's; its CSV and JSON."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from season_fixture import SCHEME, club_with_evenings, play_evenings, play_table, tables_of

from referee.web.clubs import service as clubs_service
from referee.web.events import service as events_service


@pytest.fixture
def season(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """Four evenings played, and a season of them (best 3 of 4) made by the host's form."""
    club_id, token, event_ids = club_with_evenings(app)
    play_evenings(app, event_ids, 4)
    made = client.post(
        f"/clubs/{club_id}/edit/{token}/seasons",
        data={
            "name": "Autumn",
            "starts": "2026-09-01",
            "ends": "2026-09-30",
            "rule": "best",
            "best": "3",
        },
    )
    assert made.status_code == 302, made.get_data(as_text=True)
    season_id = made.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    return {"club": club_id, "token": token, "events": event_ids, "id": season_id}


def test_the_clubs_host_page_leads_to_its_seasons(app: Flask, client: FlaskClient) -> None:
    with app.test_request_context("/"):
        founded = clubs_service.found("Thursdays", lang="en")
    assert isinstance(founded, clubs_service.Founded)
    page = client.get(f"/clubs/{founded.club.id}/edit/{founded.token}").get_data(as_text=True)
    assert f"/clubs/{founded.club.id}/edit/{founded.token}/seasons" in page


def test_best_5_of_4_is_said_on_the_form_and_nothing_is_made(
    app: Flask, client: FlaskClient
) -> None:
    club_id, token, _ = club_with_evenings(app)
    refused = client.post(
        f"/clubs/{club_id}/edit/{token}/seasons",
        data={
            "name": "Autumn",
            "starts": "2026-09-01",
            "ends": "2026-09-30",
            "rule": "best",
            "best": "5",
        },
    )
    assert refused.status_code == 400
    assert "The best 5 of 4 club nights cannot be counted" in refused.get_data(as_text=True)
    assert client.get(f"/api/v1/clubs/{club_id}/seasons").get_json()["seasons"] == []


def test_the_host_unticks_an_evening_and_it_no_longer_counts(
    client: FlaskClient, season: dict[str, Any]
) -> None:
    where = f"/clubs/{season['club']}/edit/{season['token']}/seasons/{season['id']}"
    form = client.get(where).get_data(as_text=True)
    assert form.count("checked") >= len(season["events"])
    kept = season["events"][:3]
    changed = client.post(
        where,
        data={
            "version": "1",
            "name": "Autumn",
            "starts": "2026-09-01",
            "ends": "2026-09-30",
            "rule": "best",
            "best": "3",
            "counted": kept,
        },
    )
    assert changed.status_code == 302
    api = f"/api/v1/clubs/{season['club']}/seasons/{season['id']}"
    shown = client.get(api).get_json()
    assert [e["id"] for e in shown["evenings"]] == kept
    assert [e["id"] for e in shown["left_out"]] == season["events"][3:]
    stale = client.post(
        where,
        data={
            "version": "1",
            "name": "Late",
            "starts": "2026-09-01",
            "ends": "2026-09-30",
            "rule": "sum",
        },
    )
    assert stale.status_code == 409


def test_a_view_link_cannot_open_the_hosts_pages(
    client: FlaskClient, season: dict[str, Any]
) -> None:
    where = f"/clubs/{season['club']}/edit/not-the-token/seasons/{season['id']}"
    assert client.get(where).status_code == 403
    assert client.post(f"{where}/delete").status_code == 403


def test_the_seasons_page_says_the_rule_greys_dropped_evenings_and_shows_movement(
    client: FlaskClient, season: dict[str, Any]
) -> None:
    page = client.get(f"/clubs/{season['club']}/seasons/{season['id']}").get_data(as_text=True)
    assert "Each player’s best 3 club nights count; the others are dropped (greyed)." in page
    assert page.count('class="dropped"') == 8  # the eight players with a fourth evening
    assert page.count('<span class="visually-hidden"> dropped</span>') == 8
    assert "▲6" in page and "▼4" in page  # Ola up six, Gus down four
    assert "up 6 places" in page
    assert not re.search(r"\sstyle=", page) and "<script>" not in page
    assert page.count('class="col-evening"') == 4


def test_the_seasons_page_speaks_german_to_a_phone_that_asks(
    client: FlaskClient, season: dict[str, Any]
) -> None:
    page = client.get(f"/clubs/{season['club']}/seasons/{season['id']}?lang=de")
    text = page.get_data(as_text=True)
    assert "Von jedem Spieler zählen die besten 3 Clubabende" in text
    assert "gestrichen" in text and "Saisontabelle" in text


def test_the_csv_has_a_column_per_evening_in_the_asked_language(
    client: FlaskClient, season: dict[str, Any]
) -> None:
    base = f"/clubs/{season['club']}/seasons/{season['id']}"
    lines = client.get(f"{base}.csv").get_data(as_text=True).splitlines()
    assert lines[0].startswith("Place,Player,Total,") and lines[0].endswith(
        "Club nights played,Dropped,Movement"
    )
    assert lines[1].startswith("1,Ann,32,12,8,5,12,4,")
    german = client.get(f"{base}.csv?lang=de").get_data(as_text=True).splitlines()
    assert german[0].startswith("Platz;Spieler;Summe;")
    assert client.get(f"{base}.json").get_json()["rows"][0]["name"] == "Ann"


def test_the_pdf_is_the_table_on_landscape_paper_in_the_asked_language(
    client: FlaskClient, season: dict[str, Any]
) -> None:
    """Issue 31, point 1: the season's PDF, A4 landscape (Letter on asking), a line per player
    with a column per club night, a dropped one in brackets; linked from the season's page."""
    base = f"/clubs/{season['club']}/seasons/{season['id']}"
    assert f"{base}.pdf" in client.get(base).get_data(as_text=True)
    answer = client.get(f"{base}.pdf?lang=de")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    page = PdfReader(io.BytesIO(answer.data)).pages[0]
    assert [round(float(v)) for v in page.mediabox[2:]] == [842, 595]
    text = page.extract_text()
    assert "Autumn — Thursday table" in text and "Von jedem Spieler zählen die besten 3" in text
    assert re.search(r"Platz\s+Spieler\s+Summe", text), text
    assert re.search(r"1\s+Ann =?\s*32\s+12\s+8\s+\(5\)\s+12\s+4", text), text
    assert text.count("(") >= 8  # the eight dropped club nights, and the key's "(12)"
    letter = PdfReader(io.BytesIO(client.get(f"{base}.pdf?paper=letter").data)).pages[0]
    assert [round(float(v)) for v in letter.mediabox[2:]] == [792, 612]
    assert client.get(f"{base}.pdf?paper=a3").status_code == 400
    assert client.get(f"{base}.pdf?lang=xx").status_code == 400
    again = client.get(f"{base}.pdf?lang=de", headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304


def test_the_room_board_shows_the_seasons_that_count_the_evening_between_series_and_at_the_end(
    app: Flask, client: FlaskClient, season: dict[str, Any]
) -> None:
    """Issue 31, points 1 and 5: the board shows each season counting this club night (its
    first five) once the evening is over, and between series once the newest series' tables
    all finished, never while a series is playing or about to start; a season of other dates
    not at all."""
    auth = {"Authorization": f"Bearer {season['token']}"}
    early = {"name": "Early", "starts": "2026-09-01", "ends": "2026-09-12"}  # nights 1 and 2
    assert client.post(f"/api/v1/clubs/{season['club']}/seasons", headers=auth,
                       json=early).status_code == 201  # fmt: skip
    over = client.get(f"/clubs/{season['club']}/events/{season['events'][3]}/board")
    text = over.get_data(as_text=True)
    assert "Season: Autumn" in text and "Season: Early" not in text
    assert text.count('class="board-season-rows"') == 1
    assert re.search(r'board-place">1</span> <span class="board-name">Ann</span>', text)

    # A club night of two series within the season's dates: not while series 1 plays, but
    # once its tables all finished, before series 2 is drawn.
    bands = {"Ann": 0, "Bo": 1, "Cy": 2, "Di": 3, "Ed": 1, "Flo": 2, "Gus": 3, "Hal": 4}
    with app.test_request_context("/"):
        settings = {"name": "Two series", "date": "2026-09-28", "variant": "contract",
                    "series": 2, "series_rounds": 1, "seed": 7, "scheme": SCHEME}  # fmt: skip
        created = events_service.create(season["club"], season["token"], settings, lang="en")
        assert isinstance(created, events_service.Created)
        event_id = created.stored.id
        events_service.check_in(season["club"], event_id, season["token"], list(bands))
        drawn = events_service.draw(season["club"], event_id, season["token"], 1, start=True)
        assert isinstance(drawn, events_service.Changed)
    board = f"/clubs/{season['club']}/events/{event_id}/board"
    assert "board-season" not in client.get(board).get_data(as_text=True)
    for table in range(tables_of(app, event_id)):
        play_table(app, event_id, table, bands)
    between = client.get(board).get_data(as_text=True)
    assert "Season: Autumn" in between and "board-podium" not in between


@pytest.mark.parametrize("bad", ["nope", "x" * 400, "%00", "AAAAAAAAAAAAAAAAAAAAAA"])
def test_every_season_address_with_a_bad_id_or_token_is_a_4xx(
    client: FlaskClient, season: dict[str, Any], bad: str
) -> None:
    """Hardening: a season's pages and files with an id or a token that is not one, each a
    clear 4xx, never a 500 (the club's and the season's id in turn)."""
    club, sid, token = season["club"], season["id"], season["token"]
    for club_id, season_id, key in ((bad, sid, token), (club, bad, token), (club, sid, bad)):
        for method, path in (
            ("GET", f"/clubs/{club_id}/seasons/{season_id}"),
            ("GET", f"/clubs/{club_id}/seasons/{season_id}.csv"),
            ("GET", f"/clubs/{club_id}/seasons/{season_id}.json"),
            ("GET", f"/clubs/{club_id}/seasons/{season_id}.pdf"),
            ("GET", f"/clubs/{club_id}/edit/{key}/seasons"),
            ("GET", f"/clubs/{club_id}/edit/{key}/seasons/{season_id}"),
            ("POST", f"/clubs/{club_id}/edit/{key}/seasons/{season_id}"),
            ("POST", f"/clubs/{club_id}/edit/{key}/seasons/{season_id}/delete"),
            ("GET", f"/api/v1/clubs/{club_id}/seasons/{season_id}"),
            ("PATCH", f"/api/v1/clubs/{club_id}/seasons/{season_id}"),
        ):
            if bad not in path:
                continue  # the view link's pages take no token; the list, no season
            answer = client.open(path, method=method, data={"name": "x"})
            assert 400 <= answer.status_code < 500, (method, path, answer.status_code)


@pytest.mark.parametrize("version", ["²", "abc", "1" * 40])
def test_an_unreadable_version_on_the_hosts_forms_is_a_409_never_a_500(
    client: FlaskClient, season: dict[str, Any], version: str
) -> None:
    """`"²".isdigit()` is true and `int("²")` raises: the forms read a version as every
    evening form does, and one that cannot be read matches no season (nothing changed)."""
    where = f"/clubs/{season['club']}/edit/{season['token']}/seasons/{season['id']}"
    edit = client.post(where, data={"version": version, "name": "Late", "starts": "2026-09-01",
                                    "ends": "2026-09-30", "rule": "sum"})  # fmt: skip
    assert edit.status_code == 409
    gone = client.post(f"{where}/delete", data={"version": version})
    assert gone.status_code == 409
    assert client.get(f"/api/v1/clubs/{season['club']}/seasons/{season['id']}").status_code == 200
