"""The installable app and its life without signal: the web app manifest, the service worker
whose scope is the whole app (`/`, or the sub-path it is served under), and the page shown for
an address never opened before while offline.

The service worker (templates/offline/sw.js) precaches the app shell named here, keeps every
game and rule page a phone opens (network first), answers the trainer from a pack of its
sessions (referee/web/training/offline.py), and replays the outbox of writes made
without signal (static/js/outbox-core.js). Its cache name carries a digest of the shell, so a
new release replaces the old shell.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any, Final

from flask import Blueprint, Flask, Response, current_app, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from referee.web.plumbing.i18n import current_language
from referee.web.plumbing.version import app_version

bp = Blueprint("offline", __name__)

#: Files every page needs, kept by the service worker at install (paths under static/).
SHELL: Final = (
    "css/app.css",
    "css/games.css",
    "css/card-picker.css",
    "css/printing.css",
    "css/refereeing.css",
    "css/charts.css",
    "css/clubs.css",
    "css/large-text.css",
    "css/no-js.css",
    "js/htmx-2.0.11.min.js",
    "js/app.js",
    "js/games.js",
    "js/card-picker.js",
    "js/refereeing.js",
    "js/idb-8.0.4.min.js",
    "js/outbox-core.js",
    "js/outbox.js",
    "js/clubs.js",
    "js/names.js",
    "js/training.js",
    "js/training-offline.js",
    "css/training.css",
    "favicon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
)
THEME_COLOR: Final = "#0b4fa8"


@cache
def _shell_digest(static_folder: str) -> str:
    digest = hashlib.sha256(app_version().encode())
    for name in SHELL:
        digest.update(name.encode())
        digest.update((Path(static_folder) / name).read_bytes())
    return digest.hexdigest()[:16]


def shell_digest() -> str:
    """Changes with the app's version and with every byte of the shell."""
    return _shell_digest(str(current_app.static_folder))


def _icons() -> list[dict[str, str]]:
    """The home-screen icons: plain, then maskable (Android crops those to its shape)."""
    icons = []
    for kind, extra in (("icon", {}), ("maskable", {"purpose": "maskable"})):
        for n in (192, 512):
            src = url_for("static", filename=f"icons/{kind}-{n}.png")
            icons.append({"type": "image/png", "src": src, "sizes": f"{n}x{n}", **extra})
    return icons


@bp.get("/manifest.webmanifest")
def manifest() -> ResponseReturnValue:
    """The web app manifest: the app installs to a phone's home screen, in its language."""
    data: dict[str, Any] = {
        "name": "Rummy Referee",
        "short_name": "Rummy",
        "description": gettext(
            "Keeps the score of Contract Rummy, referees melds and prints rule cards."
        ),
        "lang": current_language(),
        "start_url": url_for("games.index"),
        "scope": url_for("games.index"),
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": "#ffffff",
        "icons": _icons(),
    }
    response = Response(json.dumps(data, ensure_ascii=False), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/sw.js")
def service_worker() -> ResponseReturnValue:
    """The service worker, at the app's root so that its scope is every page of the app."""
    shell = [url_for("static", filename=name) for name in SHELL]
    shell += [url_for("offline.page"), url_for("offline.page", needs="server")]
    script = render_template(
        "offline/sw.js",
        version=shell_digest(),
        root=request.script_root,
        shell=json.dumps(shell),
        core=url_for("static", filename="js/outbox-core.js"),
        idb=url_for("static", filename="js/idb-8.0.4.min.js"),
        cards=url_for("static", filename="js/card-picker.js"),
        trainer=url_for("static", filename="js/training-offline.js"),
        offline=url_for("offline.page"),
        needs_server=url_for("offline.page", needs="server"),
    )
    response = Response(script, mimetype="text/javascript")
    # A browser checks for a new worker on every visit: never from a cache on the way.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def page() -> ResponseReturnValue:
    """What a phone without signal sees for a page it never opened (`?needs=server`: the
    referee, which always needs the server)."""
    needs_server = request.args.get("needs") == "server"
    return render_template("offline/page.html", needs_server=needs_server)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
