"""The installable app's files: the manifest, the service worker and the offline page."""

from __future__ import annotations

import json
import re

from flask.testing import FlaskClient

from referee.web.plumbing.offline import SHELL


def test_the_manifest_names_the_app_in_the_phones_language(client: FlaskClient) -> None:
    answer = client.get("/manifest.webmanifest", headers={"Accept-Language": "de"})
    assert answer.mimetype == "application/manifest+json"
    data = json.loads(answer.data)
    assert data["lang"] == "de" and data["display"] == "standalone" and data["scope"] == "/"
    assert data["description"].startswith("Schreibt")
    for icon in data["icons"]:
        with client.get(icon["src"]) as served:
            assert served.status_code == 200


def test_the_service_worker_keeps_the_shell_and_is_never_cached(client: FlaskClient) -> None:
    answer = client.get("/sw.js")
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    script = answer.get_data(as_text=True)
    for name in SHELL:
        assert f"/static/{name}" in script
        with client.get(f"/static/{name}") as served:
            assert served.status_code == 200
    assert '"/offline"' in script and "/offline?needs=server" in script


def test_the_offline_pages_say_what_works_without_signal(client: FlaskClient) -> None:
    page = client.get("/offline?lang=pt").get_data(as_text=True)
    assert "Sem sinal" in page and "não foi aberta" in page
    referee = client.get("/offline?needs=server&lang=en").get_data(as_text=True)
    assert "needs a connection" in referee


def test_every_page_links_the_manifest(client: FlaskClient) -> None:
    for path in ("/", "/referee", "/rules"):
        assert 'rel="manifest" href="/manifest.webmanifest"' in client.get(path).text


def test_the_shell_holds_every_file_a_kept_page_loads(client: FlaskClient) -> None:
    """A game or rule page shown offline loads nothing that the service worker does not keep."""
    created = client.post(
        "/api/v1/games", json={"variant": "contract", "players": ["Ann", "Bo", "Cy"]}
    ).get_json()
    edit = created["edit_url"].split("://", 1)[1].split("/", 1)[1]
    club = client.post("/api/v1/clubs", json={"name": "Thursday"}).get_json()
    club_edit = club["edit_url"].split("://", 1)[1].split("/", 1)[1]
    pages = ["/", f"/games/{created['id']}", f"/{edit}", "/rules/contract", "/rules/shanghai",
             f"/clubs/{club['id']}", f"/{club_edit}"]  # fmt: skip
    for path in pages:
        text = client.get(path).get_data(as_text=True)
        loaded = set(re.findall(r'(?:href|src)="/static/([^"?]+\.(?:css|js))', text))
        assert loaded, path
        assert loaded <= set(SHELL), (path, loaded - set(SHELL))


def test_static_files_vary_on_nothing_pages_on_the_language(client: FlaskClient) -> None:
    """A stylesheet is the same in every language: a cache that honours Vary (the service
    worker's) must find it whatever language header a phone sends. Pages vary by language."""
    headers = {"Accept-Language": "de-DE,de;q=0.9", "Cookie": "theme=dark"}
    for name in SHELL:
        with client.get(f"/static/{name}", headers=headers) as served:
            vary = {value.strip().lower() for value in served.headers.get("Vary", "").split(",")}
            assert not vary & {"accept-language", "cookie", "*"}, (name, vary)
    page = client.get("/rules", headers=headers)
    assert {"Accept-Language", "Cookie"} <= set(page.vary)
