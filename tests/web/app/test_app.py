"""The app factory, error answers, CSRF, security headers, the layout and the form macro."""

from __future__ import annotations

import gzip
import re
import runpy
import stat
from pathlib import Path
from typing import Any

import brotli
import pytest
from flask import Flask, abort, render_template_string, request
from flask.testing import FlaskClient, FlaskCliRunner
from flask_wtf import FlaskForm
from wtforms import BooleanField, RadioField, StringField, SubmitField

# SelectChoice is new in WTForms 3.2; types-WTForms does not list it yet.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import DataRequired

from referee.web import create_app
from referee.web.plumbing import static_files
from referee.web.plumbing.database import normalize_url
from referee.web.plumbing.security import CONTENT_SECURITY_POLICY

ROOT = Path(__file__).resolve().parents[3]


class ScoreForm(FlaskForm):
    player = StringField("Player", validators=[DataRequired()], description="As on the sheet")
    penalty = StringField("Penalty")
    went_out = BooleanField("Went out")
    paper = RadioField(
        "Paper", choices=[SelectChoice("a4", "A4"), SelectChoice("letter", "Letter")], default="a4"
    )
    save = SubmitField("Save")


def add_probe_routes(app: Flask) -> None:
    """Routes no feature has yet: a form page, an API call, and failures on demand."""

    def form_page() -> str:
        form = ScoreForm()
        if form.validate_on_submit():
            return f"saved {form.player.data} {form.penalty.data}"
        return render_template_string(
            '{% from "_forms.html" import render_form %}{{ render_form(form) }}', form=form
        )

    def api_probe() -> dict[str, bool]:
        return {"ok": isinstance(request.get_json(), dict)}

    def conflict() -> str:
        abort(409)

    def crash() -> str:
        raise RuntimeError("boom")

    app.add_url_rule("/_probe/form", view_func=form_page, methods=["GET", "POST"])
    # An endpoint named "api.*" belongs to the api blueprint as far as CSRF exemption goes.
    app.add_url_rule("/api/v1/_probe", "api._probe", api_probe, methods=["POST"])
    app.add_url_rule("/api/v1/_probe/conflict", "api._conflict", conflict)
    app.add_url_rule("/api/v1/_probe/crash", "api._crash", crash)
    app.add_url_rule("/_probe/crash", view_func=crash)


@pytest.fixture
def probed(app: Flask) -> FlaskClient:
    add_probe_routes(app)
    app.config["PROPAGATE_EXCEPTIONS"] = False  # let the 500 handler answer, as in production
    return app.test_client()


# -- configuration -----------------------------------------------------------------------------


def test_factory_points_at_top_level_templates_and_static(app: Flask) -> None:
    assert Path(app.template_folder or "") == ROOT / "templates"
    assert Path(app.static_folder or "") == ROOT / "static"


def test_test_config_overrides_settings(app: Flask) -> None:
    assert app.testing
    assert app.config["WTF_CSRF_ENABLED"] is False
    assert app.config["SECRET_KEY"] == "test secret key"


def test_secret_key_is_made_once_and_kept_in_the_instance_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = create_app(instance_path=str(tmp_path))
    second = create_app(instance_path=str(tmp_path))
    assert len(first.config["SECRET_KEY"]) >= 32
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600


def test_secret_key_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SECRET_KEY", "from-env")
    assert create_app(instance_path=str(tmp_path)).config["SECRET_KEY"] == "from-env"
    assert not (tmp_path / "secret_key").exists()


def test_database_defaults_to_sqlite_in_the_instance_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app({"SECRET_KEY": "x"}, instance_path=str(tmp_path))
    assert app.config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'rummy.sqlite3'}"


def test_database_url_from_the_environment_uses_psycopg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres://ann@db.example/rummy")
    app = create_app({"SECRET_KEY": "x"}, instance_path=str(tmp_path))
    assert app.config["DATABASE_URL"] == "postgresql+psycopg://ann@db.example/rummy"


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgresql://a@h/d", "postgresql+psycopg://a@h/d"),
        ("postgresql+psycopg://a@h/d", "postgresql+psycopg://a@h/d"),
        ("sqlite:////tmp/x.sqlite3", "sqlite:////tmp/x.sqlite3"),
    ],
)
def test_normalize_url(given: str, expected: str) -> None:
    assert normalize_url(given) == expected


def test_feature_blueprints_are_registered(app: Flask) -> None:
    assert {"api", "games", "refereeing", "printing", "i18n"} <= set(app.blueprints)
    assert app.blueprints["api"].url_prefix == "/api/v1"


def test_wsgi_module_exposes_an_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SECRET_KEY", "x")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'w.sqlite3'}")
    assert isinstance(runpy.run_path(str(ROOT / "wsgi.py"))["app"], Flask)


# -- security headers ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/nowhere", "/api/v1/nowhere", "/static/css/app.css", "/lang/de"])
def test_security_headers_on_every_response(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    response.close()
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "script-src 'self';" in CONTENT_SECURITY_POLICY
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_security_headers_on_a_crash(probed: FlaskClient) -> None:
    response = probed.get("/_probe/crash")
    assert response.status_code == 500
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY


# -- error answers -------------------------------------------------------------------------------


def test_unknown_api_path_answers_json_404(client: FlaskClient) -> None:
    response = client.get("/api/v1/no-such-call")
    assert response.status_code == 404
    assert response.is_json
    error = response.get_json()["error"]
    assert error["code"] == "not_found"
    assert error["message"]


def test_unknown_page_answers_html_404(client: FlaskClient) -> None:
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert "<h1>Page not found</h1>" in page
    assert 'id="main"' in page


def test_api_error_message_in_the_request_language(client: FlaskClient) -> None:
    response = client.get("/api/v1/no-such-call?lang=de")
    assert "Adresse" in response.get_json()["error"]["message"]


def test_api_wrong_method_answers_json_405_with_allow(probed: FlaskClient) -> None:
    response = probed.get("/api/v1/_probe")
    assert response.status_code == 405
    assert response.get_json()["error"]["code"] == "method_not_allowed"
    assert "POST" in response.headers["Allow"]


def test_api_conflict_answers_json_409(probed: FlaskClient) -> None:
    response = probed.get("/api/v1/_probe/conflict")
    assert response.status_code == 409
    assert response.get_json()["error"]["code"] == "conflict"


def test_api_crash_answers_json_500(probed: FlaskClient) -> None:
    response = probed.get("/api/v1/_probe/crash")
    assert response.status_code == 500
    assert response.get_json()["error"]["code"] == "internal_error"
    assert "boom" not in response.get_data(as_text=True)


def test_page_crash_answers_html_500(probed: FlaskClient) -> None:
    response = probed.get("/_probe/crash?lang=fr")
    assert response.status_code == 500
    assert "Une erreur s’est produite de notre côté" in response.get_data(as_text=True)


def test_api_too_large_body_answers_json_413(probed: FlaskClient, app: Flask) -> None:
    body = b'{"cards": "' + b"x" * app.config["MAX_CONTENT_LENGTH"] + b'"}'
    response = probed.post("/api/v1/_probe", data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "payload_too_large"


def test_api_bad_json_answers_json_400(app: Flask) -> None:
    def needs_json() -> dict[str, object]:
        return {"got": request.get_json()}

    app.add_url_rule("/api/v1/_probe/json", "api._json", needs_json, methods=["POST"])
    response = app.test_client().post(
        "/api/v1/_probe/json", data="{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "bad_request"


def test_chosen_description_is_kept(app: Flask) -> None:
    def refuse() -> str:
        abort(403, description="Only the scorer may do that.")

    app.add_url_rule("/api/v1/_probe/refuse", "api._refuse", refuse)
    response = app.test_client().get("/api/v1/_probe/refuse")
    assert response.get_json()["error"] == {
        "code": "forbidden",
        "message": "Only the scorer may do that.",
    }


def test_htmx_error_is_retargeted_to_main(client: FlaskClient) -> None:
    response = client.get("/no-such-page", headers={"HX-Request": "true"})
    assert response.headers["HX-Retarget"] == "#main"
    assert response.headers["HX-Reselect"] == "#main"


# -- CSRF ---------------------------------------------------------------------------------------


@pytest.fixture
def csrf_client(app: Flask) -> FlaskClient:
    app.config["WTF_CSRF_ENABLED"] = True
    add_probe_routes(app)
    return app.test_client()


#: What a browser sends with a post from one of this site's pages (the test client's host).
SAME_SITE = {"Origin": "http://localhost"}


def _token_of_another_session(client: FlaskClient) -> str:
    """A CSRF token this server signed, for a session that is not the phone's any more (its
    cookie lost since the page was drawn: the form has "expired")."""
    page = client.application.test_client().get("/_probe/form").get_data(as_text=True)
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page) or re.search(
        r'name="csrf_token" value="([^"]+)"', page
    )
    assert found is not None, page[:500]
    return found.group(1)


def test_an_expired_form_is_refused_and_keeps_the_input(csrf_client: FlaskClient) -> None:
    stale = _token_of_another_session(csrf_client)
    response = csrf_client.post(
        "/_probe/form?lang=nl",
        data={"player": "Ann <3", "penalty": "35", "csrf_token": stale},
        headers=SAME_SITE,
    )
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Dit formulier was verlopen" in page
    assert '<input type="hidden" name="player" value="Ann &lt;3">' in page
    assert '<input type="hidden" name="penalty" value="35">' in page
    assert f'value="{stale}"' not in page
    assert 'action="/_probe/form?lang=nl"' in page

    # Pressing "Send again" posts the kept input with the fresh token, and it goes through.
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None
    again = csrf_client.post(
        "/_probe/form?lang=nl",
        data={"player": "Ann <3", "penalty": "35", "csrf_token": token.group(1)},
        headers=SAME_SITE,
    )
    assert again.status_code == 200
    assert again.get_data(as_text=True) == "saved Ann <3 35"


@pytest.mark.parametrize(
    ("token", "headers"),
    [
        (None, {"Origin": "https://evil.example"}),  # a cross-site post, no token
        (None, SAME_SITE),  # no token at all
        ("forged", SAME_SITE),  # a token this server never gave
        ("ours", {"Origin": "https://evil.example"}),  # the attacker's own session's token
        ("ours", {"Sec-Fetch-Site": "cross-site"}),
        ("ours", {"Referer": "https://evil.example/page"}),
        ("ours", {"Origin": "null"}),
        ("ours", {}),  # a browser that says nothing of where it posted from
    ],
)
def test_a_post_that_did_not_come_from_our_page_is_never_offered_again(
    csrf_client: FlaskClient, token: str | None, headers: dict[str, str]
) -> None:
    """Issue 34: the CSRF failure page offered the forged post again with a fresh token, so one
    tap completed a cross-site post. Nothing of it comes back, and no token to send it with."""
    data = {"player": "Mallory", "penalty": "99"}
    if token is not None:
        data["csrf_token"] = _token_of_another_session(csrf_client) if token == "ours" else token
    response = csrf_client.post("/_probe/form?lang=de", data=data, headers=headers)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Mallory" not in page and 'method="post"' not in page
    assert 'name="csrf_token"' not in page
    assert "Es wurde nichts gesendet" in page and "daher wurde nichts gespeichert" in page
    as_json = csrf_client.post(
        "/_probe/form", data=data, headers={**headers, "Accept": "application/json"}
    )
    assert as_json.get_json()["error"]["code"] == "csrf_failed"


def test_api_is_exempt_from_csrf(csrf_client: FlaskClient) -> None:
    response = csrf_client.post("/api/v1/_probe", json={"cards": "7H"})
    assert response.status_code == 200
    assert response.get_json() == {"ok": True}


# -- the layout -----------------------------------------------------------------------------------


def test_layout_has_nav_language_picker_and_deferred_scripts(client: FlaskClient) -> None:
    page = client.get("/no-such-page?x=1&lang=de").get_data(as_text=True)
    assert '<html lang="de">' in page
    assert 'class="brand" href="/"' in page
    assert 'href="/referee"' in page
    assert 'href="/rules"' in page
    for code in ("en", "de", "nl", "pt", "fr", "es"):
        # the lang argument is left out of the way back, or it would win over the new cookie
        assert f'href="/lang/{code}?next=/no-such-page?x%3D1"' in page
    assert '<script defer src="/static/js/htmx-2.0.11.min.js"></script>' in page
    assert '<script defer src="/static/js/app.js"></script>' in page
    assert '"includeIndicatorStyles": false' in page


def test_layout_has_no_inline_script_or_style(client: FlaskClient) -> None:
    page = client.get("/no-such-page").get_data(as_text=True)
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == []
    assert re.findall(r"\son[a-z]+\s*=", page) == []
    assert " style=" not in page
    assert "<style" not in page


def test_static_assets_are_served_and_small(client: FlaskClient) -> None:
    css = client.get("/static/css/app.css")
    assert css.status_code == 200
    assert len(css.data) < 12 * 1024
    for name in ("suit-h", "suit-d", "suit-c", "suit-s", "card", "verdict", "htmx-indicator"):
        assert f".{name}" in css.get_data(as_text=True)
    css.close()
    htmx = client.get("/static/js/htmx-2.0.11.min.js")
    assert htmx.status_code == 200
    assert b'version:"2.0.11"' in htmx.data
    htmx.close()


def test_a_static_file_is_closed_as_soon_as_it_is_read_not_when_the_answer_ends(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phone that goes away mid-answer leaves the answer unclosed on the development server;
    the file behind it must not stay open with it (pytest made the leak an error in CI)."""
    opened: list[Any] = []

    def recording_open(*args: Any, **kwargs: Any) -> Any:
        file = open(*args, **kwargs)  # noqa: SIM115 (closed by the app, which is the point)
        opened.append(file)
        return file

    monkeypatch.setattr("werkzeug.utils.open", recording_open, raising=False)
    for asked in ({}, {"Accept-Encoding": "gzip"}, {"Accept-Encoding": "zstd, br"}):
        answer = client.get("/static/icons/icon-512.png", headers=asked, buffered=False)
        assert answer.status_code == 200
        assert opened and all(file.closed for file in opened), asked
        answer.close()
        opened.clear()


def test_a_static_file_goes_out_at_brotli_s_best_once_and_a_phone_that_holds_it_gets_a_304(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """htmx is a third of a round screen's first load: at brotli's best it is 15 KB where the
    per-answer quick level sends 17.4 (and Chrome's zstd 17.9); it is compressed once."""
    raw = (ROOT / "static/js/htmx-2.0.11.min.js").read_bytes()
    calls: list[int] = []
    real = brotli.compress

    def counting(data: bytes, **kwargs: Any) -> bytes:
        calls.append(kwargs["quality"])
        return bytes(real(data, **kwargs))

    monkeypatch.setattr(brotli, "compress", counting)
    monkeypatch.setattr(static_files, "_kept", {})
    chrome = {"Accept-Encoding": "gzip, deflate, br, zstd"}
    first = client.get("/static/js/htmx-2.0.11.min.js", headers=chrome)
    again = client.get("/static/js/htmx-2.0.11.min.js", headers=chrome)
    assert first.headers["Content-Encoding"] == "br" and calls == [11]
    assert first.data == again.data and brotli.decompress(first.data) == raw
    assert len(first.data) <= len(brotli.compress(raw, quality=11)) < 15_500
    assert "Accept-Encoding" in first.headers["Vary"]
    held = client.get(
        "/static/js/htmx-2.0.11.min.js", headers={**chrome, "If-None-Match": first.headers["ETag"]}
    )
    assert held.status_code == 304 and not held.data
    zipped = client.get("/static/js/htmx-2.0.11.min.js", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip" and gzip.decompress(zipped.data) == raw
    assert zipped.headers["ETag"] != first.headers["ETag"]
    plain = client.get("/static/js/htmx-2.0.11.min.js", headers={"Accept-Encoding": "identity"})
    assert plain.data == raw and "Content-Encoding" not in plain.headers
    image = client.get("/static/icons/icon-192.png", headers=chrome)
    assert image.status_code == 200 and "Content-Encoding" not in image.headers


# -- the form macro -------------------------------------------------------------------------------


def render_score_form(app: Flask, data: dict[str, str] | None = None) -> str:
    with app.test_request_context("/", method="POST" if data is not None else "GET", data=data):
        form = ScoreForm()
        if data is not None:
            form.validate()
        return render_template_string(
            '{% from "_forms.html" import render_form %}'
            "{{ render_form(form, action='/save', attrs={'hx-post': '/save'}) }}",
            form=form,
        )


def test_form_macro_renders_labels_fields_and_one_submit(app: Flask) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    html = render_score_form(app)
    assert '<form class="form" method="post" action="/save" hx-post="/save">' in html
    assert 'name="csrf_token" type="hidden"' in html
    assert '<label for="player">Player</label>' in html
    assert '<p class="field-hint" id="player-hint">As on the sheet</p>' in html
    assert 'aria-describedby="player-hint"' in html
    assert html.count('type="radio"') == 2
    assert "<legend>Paper</legend>" in html
    assert 'type="checkbox"' in html
    assert html.count('type="submit"') == 1
    assert 'value="Save"' in html
    assert "field-errors" not in html


def test_form_macro_puts_errors_next_to_their_field(app: Flask) -> None:
    html = render_score_form(app, data={"player": "", "penalty": "5"})
    assert 'class="form-errors" role="alert"' in html
    assert "Please correct the marked fields." in html
    errors = '<ul class="field-errors" id="player-errors"><li>This field is required.</li></ul>'
    assert errors in html
    assert 'aria-invalid="true"' in html
    assert 'aria-describedby="player-hint player-errors"' in html
    assert 'value="5"' in html  # what was typed stays in the field


def test_db_upgrade_command_brings_the_schema_up_to_date(
    app: Flask, runner: FlaskCliRunner
) -> None:
    from sqlalchemy import inspect

    from referee.web.plumbing.database import database

    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert "up to date" in result.output
    tables = set(inspect(database(app).engine).get_table_names())
    assert {"games", "game_rounds", "game_changes", "games_alembic_version"} <= tables
