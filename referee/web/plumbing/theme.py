"""How pages look on this phone: light or dark, and large text.

Pages follow the phone's colour scheme unless the phone chose one here; the text is the app's
size unless the phone chose large text (150 %). Each choice is a cookie set by a plain link
(`/theme/dark`, `/theme/light`, `/theme/auto`; `/text/large`, `/text/normal`), so it works
without JavaScript; the base layout writes them as `<html data-theme>` and `<html data-text>`,
and app.css holds both palettes (and `prefers-contrast: more`) and the large size.
"""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, Flask, abort, redirect, request, url_for
from flask.typing import ResponseReturnValue

from referee.web.plumbing.i18n import COOKIE_MAX_AGE, way_back

THEMES = ("light", "dark")
COOKIE_NAME = "theme"
TEXT_SIZES = ("normal", "large")
TEXT_COOKIE_NAME = "text"

bp = Blueprint("theme", __name__)


def chosen_theme() -> str | None:
    """The theme this phone chose, or None: it follows its own colour scheme."""
    theme = request.cookies.get(COOKIE_NAME)
    return theme if theme in THEMES else None


def chosen_text_size() -> str:
    """`large` where this phone chose large text, else `normal`."""
    return "large" if request.cookies.get(TEXT_COOKIE_NAME) == "large" else "normal"


def _here() -> str:
    query = urlencode(list(request.args.items(multi=True)))
    return request.script_root + request.path + (f"?{query}" if query else "")


def theme_switch_url(theme: str) -> str:
    """A link that switches to `theme` and comes back here."""
    return url_for("theme.set_theme", theme=theme, next=_here())


def text_switch_url(size: str) -> str:
    """A link that switches the text to `size` and comes back here."""
    return url_for("theme.set_text_size", size=size, next=_here())


def _remembered(name: str, value: str | None) -> ResponseReturnValue:
    """Back where the switch was pressed, with the cookie `name` set to `value` (None: gone)."""
    response = redirect(way_back(), code=303)
    if value is None:
        response.delete_cookie(name)
    else:
        response.set_cookie(
            name,
            value,
            max_age=COOKIE_MAX_AGE,
            samesite="Lax",
            httponly=True,
            secure=request.is_secure,
        )
    return response


@bp.get("/theme/<theme>")
def set_theme(theme: str) -> ResponseReturnValue:
    """Remember the theme (or forget it: `auto`) and go back."""
    if theme not in (*THEMES, "auto"):
        abort(404)
    return _remembered(COOKIE_NAME, None if theme == "auto" else theme)


@bp.get("/text/<size>")
def set_text_size(size: str) -> ResponseReturnValue:
    """Remember large text (or forget it: `normal`) and go back."""
    if size not in TEXT_SIZES:
        abort(404)
    return _remembered(TEXT_COOKIE_NAME, None if size == "normal" else size)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)

    @app.context_processor
    def theme_context() -> dict[str, object]:
        return {
            "theme": chosen_theme(),
            "theme_switch_url": theme_switch_url,
            "text_size": chosen_text_size(),
            "text_switch_url": text_switch_url,
        }
