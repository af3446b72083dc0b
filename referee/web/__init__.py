"""The web layer: `create_app` builds the Flask app around the rules engine."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

from referee.web import live
from referee.web.backup import archive as backup
from referee.web.plumbing import (
    charts,
    database,
    errors,
    formats,
    health,
    hosting,
    i18n,
    idempotency,
    limits,
    metrics,
    offline,
    resources,
    security,
    settings,
    static_files,
    theme,
)
from referee.web.plumbing.extensions import babel, compress, csrf
from referee.web.vocabulary import picker

from .core.languages import DEFAULT_LANGUAGE


def create_app(
    test_config: Mapping[str, Any] | None = None, *, instance_path: str | None = None
) -> Flask:
    """Build the app: settings, extensions, blueprints, rate limits, error pages and security
    headers.

    Settings come from the environment (those `settings.py` reads: the data folder, SECRET_KEY,
    DATABASE_URL or their `_FILE`s, hosting's, PDF_CACHE_MAX_MB, the rate limits);
    `test_config` overrides them. `instance_path` is the data folder (default:
    `settings.instance_path`).
    """
    app = Flask(
        __name__,
        instance_path=instance_path or settings.instance_path(os.environ),
        instance_relative_config=True,
        template_folder=str(resources.TEMPLATES),
        static_folder=str(resources.STATIC),
    )
    os.makedirs(app.instance_path, exist_ok=True)

    app.config.from_mapping(
        BABEL_DEFAULT_LOCALE=DEFAULT_LANGUAGE,
        BABEL_TRANSLATION_DIRECTORIES=i18n.translation_directories(),
        # A phone may sit on the table all evening: tokens live as long as the session.
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_SAMESITE="Lax",
        MAX_CONTENT_LENGTH=1024 * 1024,
        # Streams are not compressed: Flask-Compress would leave a streamed file unclosed.
        COMPRESS_STREAMS=False,
        **limits.defaults(),
    )
    app.config.from_mapping(settings.from_environment(os.environ))
    if test_config is not None:
        app.config.from_mapping(test_config)
    if "DATABASE_URL" not in app.config:
        app.config["DATABASE_URL"] = settings.database_url(os.environ, app.instance_path)
    app.config["DATABASE_URL"] = database.normalize_url(app.config["DATABASE_URL"])
    if not app.config.get("SECRET_KEY"):
        found = settings.secret(os.environ, "SECRET_KEY")
        app.config["SECRET_KEY"] = found or _instance_secret_key(app)

    from referee.web import clubs, events, games, jsonapi, printing, refereeing, seasons

    from .clubs import service as clubs_service
    from .clubs.api import api_bp as clubs_api_bp
    from .events import store as event_store
    from .events.api import api_bp as events_api_bp
    from .games import queries as game_queries
    from .games.api import api_bp as games_api_bp
    from .refereeing.api import api_bp as refereeing_api_bp
    from .seasons import store as season_store
    from .seasons.api import api_bp as seasons_api_bp
    from .training import api_bp as training_api_bp
    from .training import bp as training_bp

    babel.init_app(app, locale_selector=i18n.select_locale)
    csrf.init_app(app)
    compress.init_app(app)
    static_files.init_app(app)  # after Compress, so that it runs before it
    # The one place that says which pages speak a language of their own: a game's pages (and
    # its exports and score sheet, /games/<game_id>/...) speak the game's to a phone that chose
    # none, and an evening's pages (/clubs/<club_id>/events/<event_id>/...) the evening's
    # (i18n.select_locale decides each request's language; docs/ARCHITECTURE.md).
    i18n.init_app(
        app,
        own_languages={
            "game_id": game_queries.lang_of,
            "event_id": event_store.lang_of,
            "season_id": season_store.lang_of,  # a season speaks its club's language
        },
    )
    theme.init_app(app)
    errors.init_app(app)
    security.init_app(app)
    app.add_template_filter(formats.hyphenated)
    hosting.init_app(app)
    database.init_app(app)
    backup.init_app(app)
    picker.init_app(app)
    metrics.init_app(app)
    idempotency.init_app(app)
    offline.init_app(app)
    charts.init_app(app)
    # The pages that follow something by a stream, and how to read its version now: a kind
    # more (a club night's event) is one line here and `core.signals.changed` in its writes.
    live.init_app(
        app,
        sources={
            "game": game_queries.version_of,
            "club": clubs_service.live_version,
            "event": event_store.version_of,
        },
    )

    csrf.exempt(jsonapi.bp)  # the API authenticates with bearer tokens, not cookies
    csrf.exempt(refereeing_api_bp)
    csrf.exempt(games_api_bp)
    csrf.exempt(clubs_api_bp)
    csrf.exempt(events_api_bp)
    csrf.exempt(seasons_api_bp)
    csrf.exempt(training_api_bp)
    jsonapi.init_app(app)
    health.init_app(app, reports={"live": live.state})
    blueprints = (
        refereeing_api_bp,
        games_api_bp,
        clubs_api_bp,
        events_api_bp,
        seasons_api_bp,
        training_api_bp,
        games.bp,
        clubs.bp,
        events.bp,
        seasons.bp,
        refereeing.bp,
        printing.bp,
        training_bp,
    )
    for blueprint in blueprints:
        app.register_blueprint(blueprint)
    limits.init_app(app)  # by endpoint: once every blueprint is registered
    return app


def _instance_secret_key(app: Flask) -> str:
    """A random key made on first start and kept in the instance folder, so sessions survive."""
    path = Path(app.instance_path) / "secret_key"
    if not path.exists():
        # Written aside, then linked into place: a second process starting at the same moment
        # never reads a half-written key, and the first key made wins.
        draft = path.with_name(f"secret_key.{secrets.token_hex(4)}")
        draft.write_text(secrets.token_hex(32))
        draft.chmod(0o600)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()
