"""Languages: how a request picks one, the switch, and catalogs complete in all six."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from referee.web.core.languages import LANGUAGES
from referee.web.i18n import AREAS, TRANSLATIONS_ROOT, current_language

ROOT = Path(__file__).resolve().parents[1]


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
    assert client.get_cookie("lang").value == "nl"  # the JSON API leaves the page's choice alone
