"""Light and dark: pages follow the phone's colour scheme unless the phone chose one here.

The choice is a cookie set by a plain link (`/theme/dark`, `/theme/light`, `/theme/auto`), so
it works without JavaScript; the base layout writes it as `<html data-theme>` and app.css
holds both palettes (and `prefers-contrast: more`).
"""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, Flask, abort, redirect, request, url_for
from flask.typing import ResponseReturnValue

from .i18n import COOKIE_MAX_AGE, way_back

THEMES = ("light", "dark")
COOKIE_NAME = "theme"

bp = Blueprint("theme", __name__)


def chosen_theme() -> str | None:
    """The theme this phone chose, or None: it follows its own colour scheme."""
    theme = request.cookies.get(COOKIE_NAME)
    return theme if theme in THEMES else None


def theme_switch_url(theme: str) -> str:
    """A link that switches to `theme` and comes back here."""
    query = urlencode(list(request.args.items(multi=True)))
    here = request.script_root + request.path + (f"?{query}" if query else "")
    return url_for("theme.set_theme", theme=theme, next=here)


@bp.get("/theme/<theme>")
def set_theme(theme: str) -> ResponseReturnValue:
    """Remember the theme (or forget it: `auto`) and go back."""
    if theme not in (*THEMES, "auto"):
        abort(404)
    response = redirect(way_back(), code=303)
    if theme == "auto":
        response.delete_cookie(COOKIE_NAME)
    else:
        response.set_cookie(
            COOKIE_NAME,
            theme,
            max_age=COOKIE_MAX_AGE,
            samesite="Lax",
            httponly=True,
            secure=request.is_secure,
        )
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)

    @app.context_processor
    def theme_context() -> dict[str, object]:
        return {"theme": chosen_theme(), "theme_switch_url": theme_switch_url}
