"""An evening on paper: the table cards of a series (number, players in seat order, who deals
first, the QR of the table's game) with a blank sheet per table, in each of the six languages,
for 8 tables; the standings; only the club's token prints the cards (their QR codes edit)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from club_fixture import new_club
from flask.testing import FlaskClient
from pypdf import PdfReader

from referee.web.core.languages import LANGUAGES

NAMES = [f"Player {n:02d}" for n in range(1, 33)]  # 32 players: 8 tables of 4
CARD_WORDS = {
    "en": ("Table 8", "deals first", "Series 1"),
    "de": ("Tisch 8", "gibt zuerst", "Serie 1"),
    "nl": ("Tafel 8", "geeft eerst", "Serie 1"),
    "pt": ("Mesa 8", "dá as cartas primeiro", "Série 1"),
    "fr": ("Table 8", "donne en premier", "Ronde 1"),
    "es": ("Mesa 8", "reparte primero", "Serie 1"),
}


def _text(body: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(body))
    return len(reader.pages), "\n".join(page.extract_text() or "" for page in reader.pages)


@pytest.fixture
def started(client: FlaskClient) -> dict[str, Any]:
    club = new_club(client)
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    base = f"/api/v1/clubs/{club['id']}/events"
    made = client.post(
        base, json={"name": "Grand night", "variant": "contract", "series": 2}, headers=auth
    ).get_json()
    base = f"{base}/{made['id']}"
    client.post(f"{base}/players", json={"names": NAMES}, headers=auth)
    evening = client.post(f"{base}/series", json={"series": 1}, headers=auth).get_json()
    assert len(evening["series"][0]["tables"]) == 8
    page = f"/clubs/{club['id']}/events/{made['id']}"
    return {"club": club, "evening": evening, "page": page, "token": club["edit_token"]}


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_table_cards_of_8_tables_in_every_language(
    client: FlaskClient, started: dict[str, Any], lang: str
) -> None:
    url = f"{started['page']}/edit/{started['token']}/series/1/tables.pdf?lang={lang}"
    answer = client.get(url)
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    pages, text = _text(answer.data)
    assert pages == 16  # a card and a sheet for each of the 8 tables
    for word in CARD_WORDS[lang]:
        assert word in text, (lang, word)
    first = started["evening"]["series"][0]["tables"][0]
    assert all(name in text for name in first["seats"])
    again = client.get(url, headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304


def test_the_cards_need_the_clubs_token_and_a_real_series(
    client: FlaskClient, started: dict[str, Any]
) -> None:
    assert client.get(f"{started['page']}/edit/nope/series/1/tables.pdf").status_code == 403
    url = f"{started['page']}/edit/{started['token']}/series/2/tables.pdf"
    assert client.get(url).status_code == 404
    assert client.get(f"{started['page']}/standings.pdf?paper=A3").status_code == 400


def test_the_standings_pdf(client: FlaskClient, started: dict[str, Any]) -> None:
    answer = client.get(f"{started['page']}/standings.pdf?lang=de")
    assert answer.status_code == 200
    _, text = _text(answer.data)
    assert "Rangliste des Abends" in text and "Player 01" in text
