"""Languages: how a request picks one, renderers that speak a language of their own, and the
`/lang/<code>` switch.

**The boundary.** A request's language is decided in one place, `select_locale` (Flask-Babel's
locale selector, asked once per request before the first word): `?lang=`, a JSON body's `lang`,
the phone's own choice (its `lang` cookie), the page's own language, Accept-Language, English.
A page about a record that keeps a language of its own speaks that language to a phone that
chose none: `create_app` names such records, by the URL value that holds their id
(`init_app(app, own_languages={"game_id": <the game's stored language>})`), so every page under
`/games/<game_id>` (the game's pages, its exports, its score sheet) speaks the game's language
without any feature depending on another's hook. The JSON API (`/api/`) keeps its own default
(SPEC: English). A view that has loaded the record already may say its language
(`known_language`) so that it is not read twice.

**Renderers.** Whatever makes words for something other than the page itself (a rule card, a
score sheet, an export, the command line's answer) takes `lang` and speaks it itself,
whatever the request around it speaks: `@in_language` opens `force_locale(lang)` around the
call (as pretix wraps each render in `with language(...)`).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import ParamSpec, TypeVar
from urllib.parse import urlencode, urlsplit

from flask import Blueprint, Flask, Response, abort, current_app, g, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import force_locale, get_locale
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from referee.web.core.languages import DEFAULT_LANGUAGE, LANGUAGES, supported
from referee.web.plumbing import resources

#: The catalog areas, each with its own translations/<area>/ folder (docs/ARCHITECTURE.md).
AREAS = (
    "core", "api", "games", "refereeing", "printing", "clubs", "events", "seasons", "training"
)  # fmt: skip
TRANSLATIONS_ROOT = resources.TRANSLATIONS
COOKIE_NAME = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600
#: Paths that keep their own default language (SPEC: the API answers in English).
API_PREFIX = "/api/"
#: app.extensions key: URL value name -> the language of the record it names (or None).
OWN_LANGUAGES = "own_languages"

OwnLanguage = Callable[[str], str | None]
Params = ParamSpec("Params")
Result = TypeVar("Result")

bp = Blueprint("i18n", __name__)


def translation_directories() -> str:
    """BABEL_TRANSLATION_DIRECTORIES: every area's folder; Flask-Babel merges their catalogs."""
    return ";".join(str(TRANSLATIONS_ROOT / area) for area in AREAS)


def _lang_in_json_body() -> str | None:
    if not request.is_json:
        return None
    try:
        body = request.get_json(silent=True)
    except HTTPException:  # a body over MAX_CONTENT_LENGTH: the 413 handler still needs a locale
        return None
    except RecursionError:  # JSON nested deeper than the parser goes ("[[[[..."): not JSON to us
        return None
    return supported(body.get("lang")) if isinstance(body, dict) else None


def select_locale() -> str:
    """The language of this request, decided here and nowhere else: `?lang=`, then `lang` in a
    JSON body, the `lang` cookie (a phone's own choice), the page's own language (a game's pages
    speak the game's), Accept-Language, and en."""
    return (
        supported(request.args.get("lang"))
        or _lang_in_json_body()
        or supported(request.cookies.get(COOKIE_NAME))
        or _page_language()
        or _best_accepted_language()
        or DEFAULT_LANGUAGE
    )


def known_language(name: str, value: str, language: str) -> None:
    """Say that the record `value` of the URL value `name` speaks `language`: a view that has
    loaded it before its first word spares the boundary reading it again. Only the default of
    a page whose URL names that record; a phone's own choice still wins."""
    g.known_languages = {**g.get("known_languages", {}), (name, value): language}


def _page_language() -> str | None:
    """The language of the record this page is about, if it keeps one (not under /api/)."""
    if request.path.startswith(API_PREFIX) or not request.view_args:
        return None
    readers: Mapping[str, OwnLanguage] = current_app.extensions.get(OWN_LANGUAGES, {})
    known: Mapping[tuple[str, str], str] = g.get("known_languages", {})
    for name, read in readers.items():
        value = request.view_args.get(name)
        if isinstance(value, str):
            return supported(known.get((name, value)) or read(value))
    return None


def in_language(render: Callable[Params, Result]) -> Callable[Params, Result]:
    """Make `render` speak the language of its `lang` argument, whatever the request around it
    speaks: the call runs under `force_locale(lang)`. A `lang` we do not speak is a ValueError
    (never a silent English)."""
    signature = inspect.signature(render)
    if "lang" not in signature.parameters:
        raise TypeError(f"{render.__qualname__} has no `lang` to speak")

    @functools.wraps(render)
    def speaking(*args: Params.args, **kwargs: Params.kwargs) -> Result:
        asked = signature.bind(*args, **kwargs).arguments["lang"]
        lang = supported(asked)
        if lang is None:
            raise ValueError(f"{render.__qualname__}: no such language {asked!r}")
        with force_locale(lang):
            return render(*args, **kwargs)

    return speaking


def _best_accepted_language() -> str | None:
    # By the primary tag, in the browser's order: "pt-BR, de;q=0.5" is Portuguese. (Werkzeug's
    # best_match would take the exact "de" before falling back to "pt" for "pt-BR".)
    for tag, quality in request.accept_languages:
        language = supported(tag.replace("_", "-").split("-")[0])
        if language and quality > 0:
            return language
    return None


def current_language() -> str:
    """The code of the language this request is answered in."""
    locale = get_locale()
    return locale.language if locale is not None else DEFAULT_LANGUAGE


def _is_local(target: str) -> bool:
    """A path on this site, as a browser would read it: not `//host`, not `/\\host`, nothing
    a browser drops or turns into a slash (tabs, line breaks, controls)."""
    parts = urlsplit(target)
    return (
        target.startswith("/")
        and not target.startswith("//")
        and "\\" not in target
        and target.isprintable()
        and not any(char.isspace() for char in target)
        and not parts.scheme
        and not parts.netloc
    )


def way_back() -> str:
    """Where the language and theme switches return to: `next` or the referring page, on this
    site only (a referrer's path can be `//evil.example/x`: it is held to the same rule)."""
    target = request.args.get("next", "")
    if _is_local(target):
        return target
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc == request.host:
        back = referrer.path + (f"?{referrer.query}" if referrer.query else "")
        if _is_local(back):
            return back
    return url_for("games.index")


def language_switch_url(code: str) -> str:
    """A link that switches to `code` and comes back here (the `lang` argument left out)."""
    args = [(key, value) for key, value in request.args.items(multi=True) if key != "lang"]
    here = request.script_root + request.path + (f"?{urlencode(args)}" if args else "")
    return url_for("i18n.set_language", code=code, next=here)


@bp.get("/lang/<code>")
def set_language(code: str) -> ResponseReturnValue:
    """Remember the language in a cookie and go back: a plain link, no JavaScript needed."""
    language = supported(code)
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


def init_app(app: Flask, *, own_languages: Mapping[str, OwnLanguage] | None = None) -> None:
    """Register the language switch and what every template needs to know about languages.

    `own_languages` names the records that keep a language of their own, by the URL value
    that holds their id, with the reader of that language (`_page_language`)."""
    app.extensions[OWN_LANGUAGES] = dict(own_languages or {})
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
        chosen = supported(request.args.get("lang"))
        if (
            chosen is not None
            and request.method == "GET"
            and response.mimetype == "text/html"
            and request.cookies.get(COOKIE_NAME) != chosen
        ):
            remember_language(response, chosen)
        return response
