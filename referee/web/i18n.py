"""Languages: the list we offer, how a request picks one, and the `/lang/<code>` switch."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from flask import Blueprint, Flask, Response, abort, g, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

#: code -> the language's own name, in the order the picker shows them.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "nl": "Nederlands",
    "pt": "Português",
    "fr": "Français",
    "es": "Español",
}
DEFAULT_LANGUAGE = "en"
#: The catalog areas, each with its own translations/<area>/ folder (docs/ARCHITECTURE.md).
AREAS = ("core", "api", "games", "refereeing", "printing", "clubs")
TRANSLATIONS_ROOT = Path(__file__).resolve().parents[2] / "translations"
COOKIE_NAME = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600

bp = Blueprint("i18n", __name__)


def translation_directories() -> str:
    """BABEL_TRANSLATION_DIRECTORIES: every area's folder; Flask-Babel merges their catalogs."""
    return ";".join(str(TRANSLATIONS_ROOT / area) for area in AREAS)


def _supported(value: object) -> str | None:
    if isinstance(value, str) and value.strip().lower() in LANGUAGES:
        return value.strip().lower()
    return None


def _lang_in_json_body() -> str | None:
    if not request.is_json:
        return None
    try:
        body = request.get_json(silent=True)
    except HTTPException:  # a body over MAX_CONTENT_LENGTH: the 413 handler still needs a locale
        return None
    except RecursionError:  # JSON nested deeper than the parser goes ("[[[[..."): not JSON to us
        return None
    return _supported(body.get("lang")) if isinstance(body, dict) else None


def select_locale() -> str:
    """`?lang=`, then `lang` in a JSON body, the `lang` cookie (a phone's own choice), the
    page's language (a game's pages speak the game's), Accept-Language, and en."""
    return (
        _supported(request.args.get("lang"))
        or _lang_in_json_body()
        or _supported(request.cookies.get(COOKIE_NAME))
        or _page_language()
        or _best_accepted_language()
        or DEFAULT_LANGUAGE
    )


def speak_by_default(language: Callable[[], str | None]) -> None:
    """Let this request's page speak `language()` to a phone that chose no language.

    Asked only when needed (after `?lang=` and the cookie), before the first word is
    translated: call it before the view runs (a URL value preprocessor does).
    """
    g.page_language = language


def _page_language() -> str | None:
    language = g.get("page_language")
    return _supported(language()) if language is not None else None


def _best_accepted_language() -> str | None:
    # By the primary tag, in the browser's order: "pt-BR, de;q=0.5" is Portuguese. (Werkzeug's
    # best_match would take the exact "de" before falling back to "pt" for "pt-BR".)
    for tag, quality in request.accept_languages:
        language = _supported(tag.replace("_", "-").split("-")[0])
        if language and quality > 0:
            return language
    return None


def current_language() -> str:
    """The code of the language this request is answered in."""
    locale = get_locale()
    return locale.language if locale is not None else DEFAULT_LANGUAGE


def _is_local(target: str) -> bool:
    parts = urlsplit(target)
    return (
        target.startswith("/")
        and not target.startswith("//")
        and "\\" not in target
        and not parts.scheme
        and not parts.netloc
    )


def way_back() -> str:
    """Where the language switch returns to: `next` or the referring page, on this site only."""
    target = request.args.get("next", "")
    if _is_local(target):
        return target
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc == request.host and referrer.path.startswith("/"):
        return referrer.path + (f"?{referrer.query}" if referrer.query else "")
    return "/"


def language_switch_url(code: str) -> str:
    """A link that switches to `code` and comes back here (the `lang` argument left out)."""
    args = [(key, value) for key, value in request.args.items(multi=True) if key != "lang"]
    here = request.path + (f"?{urlencode(args)}" if args else "")
    return url_for("i18n.set_language", code=code, next=here)


@bp.get("/lang/<code>")
def set_language(code: str) -> ResponseReturnValue:
    """Remember the language in a cookie and go back: a plain link, no JavaScript needed."""
    language = _supported(code)
    if language is None:
        abort(404)
    response = redirect(way_back(), code=303)
    remember_language(response, language)
    return response


def remember_language(response: BaseResponse, language: str) -> None:
    """Keep `language` in the cookie that every later request of this phone is answered in."""
    response.set_cookie(
        COOKIE_NAME,
        language,
        max_age=COOKIE_MAX_AGE,
        samesite="Lax",
        httponly=True,
        secure=request.is_secure,
    )


def init_app(app: Flask) -> None:
    """Register the language switch and what every template needs to know about languages."""
    app.register_blueprint(bp)

    @app.context_processor
    def language_context() -> dict[str, object]:
        return {
            "LANGUAGES": LANGUAGES,
            "current_language": current_language(),
            "language_switch_url": language_switch_url,
        }

    @app.after_request
    def vary_on_language(response: Response) -> Response:
        if request.endpoint == "static":
            # The same bytes in every language: a cache that honours Vary (a service worker's
            # among them) must find a stylesheet whatever language the phone asks in.
            return response
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
        # A page opened with ?lang= keeps that language for the forms it leads to.
        chosen = _supported(request.args.get("lang"))
        if (
            chosen is not None
            and request.method == "GET"
            and response.mimetype == "text/html"
            and request.cookies.get(COOKIE_NAME) != chosen
        ):
            remember_language(response, chosen)
        return response
