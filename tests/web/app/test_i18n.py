"""Languages: how a request picks one, the switch, and catalogs complete in all six."""

from __future__ import annotations

import io
import os
import re
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale, gettext
from pypdf import PdfReader

from referee.engine.game import Game, SeatResult
from referee.engine.variants import VARIANTS
from referee.web.core.languages import LANGUAGES
from referee.web.games.exports import game_json, to_csv
from referee.web.games.queries import StoredGame
from referee.web.plumbing.i18n import AREAS, TRANSLATIONS_ROOT, current_language, in_language
from referee.web.printing.pdfs import render_rule_card
from referee.web.printing.sheets import blank_sheet, game_sheet, render_sheet
from referee.web.vocabulary import words
from referee.web.vocabulary.house_rules import table_rules
from referee.web.vocabulary.messages import describe
from referee.web.vocabulary.rulebook import build_rulebook

ROOT = Path(__file__).resolve().parents[3]


def pdf_text(body: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(body)).pages)


@pytest.fixture
def lang_client(app: Flask) -> FlaskClient:
    app.add_url_rule("/_probe/lang", "probe_lang", current_language, methods=["GET", "POST"])
    return app.test_client()


def test_six_languages_with_their_own_names() -> None:
    assert LANGUAGES == {
        "en": "English",
        "de": "Deutsch",
        "nl": "Nederlands",
        "pt": "Português",
        "fr": "Français",
        "es": "Español",
    }


def test_english_when_nothing_asks_otherwise(lang_client: FlaskClient) -> None:
    assert lang_client.get("/_probe/lang").text == "en"


def test_accept_language_best_match(lang_client: FlaskClient) -> None:
    headers = {"Accept-Language": "ja, pt-BR;q=0.9, de;q=0.5"}
    assert lang_client.get("/_probe/lang", headers=headers).text == "pt"


def test_cookie_beats_accept_language(lang_client: FlaskClient) -> None:
    lang_client.set_cookie("lang", "nl")
    assert lang_client.get("/_probe/lang", headers={"Accept-Language": "de"}).text == "nl"


def test_json_body_beats_cookie(lang_client: FlaskClient) -> None:
    lang_client.set_cookie("lang", "nl")
    assert lang_client.post("/_probe/lang", json={"lang": "es"}).text == "es"


def test_query_beats_json_body(lang_client: FlaskClient) -> None:
    assert lang_client.post("/_probe/lang?lang=fr", json={"lang": "es"}).text == "fr"


@pytest.mark.parametrize("query", ["lang=xx", "lang=", "lang=DE"])
def test_query_value_is_checked(lang_client: FlaskClient, query: str) -> None:
    expected = "de" if query == "lang=DE" else "nl"
    lang_client.set_cookie("lang", "nl")
    assert lang_client.get(f"/_probe/lang?{query}").text == expected


def test_unknown_cookie_and_odd_bodies_fall_through(lang_client: FlaskClient) -> None:
    lang_client.set_cookie("lang", "klingon")
    assert lang_client.post("/_probe/lang", json=["lang", "de"]).text == "en"
    broken = lang_client.post("/_probe/lang", data="{broken", content_type="application/json")
    assert broken.text == "en"


def test_lang_switch_sets_the_cookie_and_goes_back(client: FlaskClient) -> None:
    response = client.get("/lang/de?next=/games/abc%3Fview%3D1")
    assert response.status_code == 303
    assert response.headers["Location"] == "/games/abc?view=1"
    cookie = client.get_cookie("lang")
    assert cookie is not None
    assert cookie.value == "de"
    assert cookie.http_only
    assert cookie.same_site == "Lax"
    assert client.get("/nowhere").get_data(as_text=True).count("Seite nicht gefunden") == 2


def test_lang_switch_falls_back_to_the_referring_page(client: FlaskClient) -> None:
    response = client.get("/lang/fr", headers={"Referer": "http://localhost/referee?x=1"})
    assert response.headers["Location"] == "/referee?x=1"


@pytest.mark.parametrize(
    "target", ["//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"]
)
def test_lang_switch_never_leaves_the_site(client: FlaskClient, target: str) -> None:
    response = client.get("/lang/es", query_string={"next": target})
    assert response.headers["Location"] == "/"


def test_lang_switch_with_a_foreign_referrer_goes_home(client: FlaskClient) -> None:
    response = client.get("/lang/es", headers={"Referer": "https://evil.example/x"})
    assert response.headers["Location"] == "/"


def test_unknown_language_is_404(client: FlaskClient) -> None:
    assert client.get("/lang/xx").status_code == 404
    assert client.get_cookie("lang") is None


@pytest.mark.parametrize(
    ("code", "title"),
    [
        ("en", "Page not found"),
        ("de", "Seite nicht gefunden"),
        ("nl", "Pagina niet gevonden"),
        ("pt", "Página não encontrada"),
        ("fr", "Page introuvable"),
        ("es", "Página no encontrada"),
    ],
)
def test_pages_come_in_every_language(client: FlaskClient, code: str, title: str) -> None:
    page = client.get(f"/nowhere?lang={code}").get_data(as_text=True)
    assert f"<h1>{title}</h1>" in page
    assert f'<html lang="{code}">' in page


# -- catalogs ----------------------------------------------------------------------------------


def load_catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def catalog_path(area: str, code: str) -> Path:
    return TRANSLATIONS_ROOT / area / code / "LC_MESSAGES" / "messages.po"


CATALOGS = [(area, code) for area in AREAS for code in LANGUAGES]


@pytest.mark.parametrize(("area", "code"), CATALOGS)
def test_catalog_is_complete(area: str, code: str) -> None:
    catalog = load_catalog(catalog_path(area, code), locale=code)
    template = load_catalog(TRANSLATIONS_ROOT / area / "messages.pot")
    problems = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            problems.append(f"untranslated: {message.id!r}")
        if message.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
    for message in template:
        if message.id and message.id not in catalog:
            problems.append(f"not in the catalog (run scripts/i18n update): {message.id!r}")
    for message, errors in catalog.check():
        problems.extend(f"{error}: {message.id!r}" for error in errors)
    assert problems == [], f"translations/{area}/{code}: " + "; ".join(problems)


@pytest.mark.parametrize("area", AREAS)
def test_template_has_every_string_of_the_sources(area: str, tmp_path: Path) -> None:
    """A string added to the code but never extracted would stay English: extract and compare."""
    subprocess.run(
        [str(ROOT / "scripts" / "i18n"), "extract", area],
        env={**os.environ, "I18N_POT_DIR": str(tmp_path)},
        check=True,
        capture_output=True,
    )
    fresh = {message.id for message in load_catalog(tmp_path / f"{area}.pot") if message.id}
    template = load_catalog(TRANSLATIONS_ROOT / area / "messages.pot")
    committed = {message.id for message in template if message.id}
    missing = sorted(str(msgid) for msgid in fresh - committed)
    assert missing == [], f"run `scripts/i18n update {area}` and translate: {missing}"


def test_placeholders_survive_translation() -> None:
    catalog = load_catalog(catalog_path("core", "de"), locale="de")
    message = catalog.get("Error %(status)s")
    assert message is not None
    assert re.findall(r"%\(\w+\)s", str(message.string)) == ["%(status)s"]


def test_accept_language_by_primary_tag_in_the_browsers_order(lang_client: FlaskClient) -> None:
    headers = {"Accept-Language": "pt-BR, de;q=0.5"}
    assert lang_client.get("/_probe/lang", headers=headers).text == "pt"
    headers = {"Accept-Language": "ja, *;q=0.1"}
    assert lang_client.get("/_probe/lang", headers=headers).text == "en"


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_one_translation_per_message_across_areas(code: str) -> None:
    """Flask-Babel merges the areas, so a message translated twice would change words elsewhere."""
    seen: dict[tuple[object, str | None], dict[object, list[str]]] = {}
    for area in AREAS:
        for message in load_catalog(catalog_path(area, code), locale=code):
            if not message.id:
                continue
            key = (message.id, message.context)
            seen.setdefault(key, {}).setdefault(message.string, []).append(area)
    conflicts = [
        f"{msgid!r}{f' (context {context!r})' if context else ''}: "
        + " / ".join(f"{areas} {string!r}" for string, areas in translations.items())
        for (msgid, context), translations in seen.items()
        if len(translations) > 1
    ]
    assert conflicts == [], f"{code}: " + "; ".join(conflicts)


def test_a_page_opened_with_lang_keeps_it_for_the_next_request(client: FlaskClient) -> None:
    """A link shared as ?lang=nl leads to forms that post in Dutch too."""
    client.get("/referee?lang=nl")
    cookie = client.get_cookie("lang")
    assert cookie is not None and cookie.value == "nl"
    assert 'lang="nl"' in client.get("/referee").get_data(as_text=True)
    client.post("/api/v1/penalty?lang=de", json={"variant": "contract", "cards": "5H"})
    cookie = client.get_cookie("lang")  # the JSON API leaves the page's choice alone
    assert cookie is not None and cookie.value == "nl"


# -- the language at the boundary, and renderers that speak their own ---------------------------


def _in(lang: str, text: str) -> str:
    with force_locale(lang):
        return gettext(text)


def test_every_renderer_speaks_the_lang_it_is_given_whatever_the_request_speaks(
    app: Flask,
) -> None:
    table = table_rules("contract")
    game = Game.start("contract", ["Ann", "Bo", "Cy"])
    game = game.enter_round(1, [SeatResult(went_out=True), SeatResult(penalty=25),
                                SeatResult(penalty=30)]).game  # fmt: skip
    with app.test_request_context("/?lang=en"):
        assert current_language() == "en"
        with force_locale("de"):
            german_contract = words.contract_text(VARIANTS["contract"].contracts[0])
        assert build_rulebook(table, "de").name == _variant_name("de")
        card = pdf_text(render_rule_card(table, "nl", "a4").body)
        assert _squeezed(_in("nl", "Full rules")) in _squeezed(card)
        assert _in("nl", "Full rules") != "Full rules"
        blank = blank_sheet(table, "fr", "a4", ["", "", ""])
        assert blank.labels["dealer"] == _in("fr", "Dealer") != "Dealer"
        filled = game_sheet(game, "es", "a4")
        assert filled.labels["winner"] == _in("es", "Winner") != "Winner"
        assert filled.rows[0].contract == _contract("es")
        assert _squeezed(_in("es", "Card values")) in _squeezed(pdf_text(render_sheet(filled).body))
        now = datetime.now(UTC)
        stored = StoredGame(id="g" * 22, lang="nl", created_at=now, updated_at=now, game=game)
        assert german_contract in to_csv(stored, "de")
        assert game_json(stored, "de")["rounds"][0]["contract"] == german_contract
        assert current_language() == "en"  # and the request still speaks its own


def _variant_name(lang: str) -> str:
    with force_locale(lang):
        return words.variant_name(VARIANTS["contract"])


def _contract(lang: str) -> str:
    with force_locale(lang):
        return words.contract_text(VARIANTS["contract"].contracts[0])


def _squeezed(text: str) -> str:
    return "".join(text.split())


def test_a_renderer_refuses_a_language_we_do_not_speak(app: Flask) -> None:
    with app.test_request_context("/"), pytest.raises(ValueError, match="xx"):
        blank_sheet(table_rules("contract"), "xx", "a4", ["", "", ""])
    with pytest.raises(TypeError, match="no `lang`"):
        in_language(lambda table: table)


def test_the_boundary_reads_a_games_language_only_for_its_own_pages(client: FlaskClient) -> None:
    created = client.post(
        "/api/v1/games", json={"variant": "contract", "players": ["Ann", "Bo", "Cy"], "lang": "nl"}
    ).get_json()
    english = {"Accept-Language": "en"}
    assert '<html lang="nl"' in client.get(f"/games/{created['id']}", headers=english).text
    assert '<html lang="en"' in client.get("/rules/contract", headers=english).text
    # An id that names no game: the page is a 404 in the phone's language, not an error.
    missing = client.get("/games/" + "x" * 22, headers=english)
    assert missing.status_code == 404 and '<html lang="en"' in missing.text
    # The API keeps SPEC's default
    assert client.get(f"/api/v1/games/{created['id']}", headers=english).get_json()["lang"] == "nl"
    body = client.get("/api/v1/games/" + "x" * 22, headers={"Accept-Language": "de"}).get_json()
    assert body["error"]["message"] == _message_in(client.application, "de")


def _message_in(app: Flask, lang: str) -> str:
    with app.test_request_context(f"/?lang={lang}"):
        return describe("game_not_found")
