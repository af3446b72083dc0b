"""Rate limits (Flask-Limiter): how often one address may solve, write, create and import.

The calls are named here by endpoint, in groups that share one count per client address, and
limited when the app is built (`init_app`, after every blueprint is registered): no view
carries a decorator, and an endpoint named here that the app does not have stops the start
(a renamed view cannot slip out of its limit). Only the methods that write are counted where
a page answers GET too (`/` shows the start form, POST starts a game).

Each group's limit is a setting (RATELIMIT_SOLVE, ...; `settings.py` reads the environment),
generous for a table or a club night behind one address; the tests turn the limits off
unless a test turns them on. Past a limit the answer is a 429 with Retry-After (`errors.py`
answers it as any error): JSON under /api/ in the request's language (the OpenAPI document
lists it for every limited call: `limited_operations`), the error page elsewhere. The offline
outbox keeps a round refused with a 429 and sends it again later.

The count is kept per worker process unless RATELIMIT_STORAGE_URI names a shared store (such as
`redis://`): with the in-memory default, N workers let through up to N times a limit. nginx's
`limit_req` in deploy/ is the shared front line (docs/DEPLOY.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final, cast

from flask import Flask
from flask.typing import ResponseReturnValue, RouteCallable
from flask_babel import gettext
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

EXTENSION: Final = "limits"
WRITING: Final = ("POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class Group:
    """Calls that share one count per address: the setting that holds their limit, its default,
    and the endpoints."""

    setting: str
    default: str
    endpoints: tuple[str, ...]


GROUPS: Final = (
    # The solver may search for a second on a hard hand.
    Group("RATELIMIT_SOLVE", "20 per minute; 300 per hour", ("api.solve",)),
    # Rounds entered and corrected, undo and restore, from the pages and the API. A club night
    # behind one address enters a round at each of its tables every few minutes, and a phone
    # back online sends what waited all at once.
    Group(
        "RATELIMIT_WRITES",
        "120 per minute; 2000 per hour",
        (
            "games.add_round",
            "games.edit_round",
            "games.undo",
            "games.restore",
            "games_api.add_round",
            "games_api.edit_round",
            "games_api.undo",
        ),
    ),
    # New games and clubs: the start form, the API, a rematch, a club's next game.
    Group(
        "RATELIMIT_CREATE",
        "30 per minute; 300 per hour",
        (
            "games.index",
            "games.rematch",
            "games_api.create",
            "clubs.index",
            "clubs.start_game",
            "clubs.rematch",
            "clubs_api.create",
        ),
    ),
    # A club's file brings in up to 2,000 games at once: seconds of work each time.
    Group(
        "RATELIMIT_IMPORTS", "5 per minute; 30 per hour", ("games.import_game", "clubs.import_club")
    ),
)


def defaults() -> dict[str, Any]:
    """The limits' settings before the environment and a test's config have their say."""
    return {
        "RATELIMIT_ENABLED": True,
        "RATELIMIT_STORAGE_URI": "memory://",
        "RATELIMIT_STRATEGY": "sliding-window-counter",
        "RATELIMIT_HEADERS_ENABLED": True,
        # A store that cannot be reached lets the request through rather than failing it.
        "RATELIMIT_SWALLOW_ERRORS": True,
        **{group.setting: group.default for group in GROUPS},
    }


def _too_many_message() -> str:
    return gettext(
        "Too many requests from your address in a short time. "
        "Please wait a minute, then send it again."
    )


def init_app(app: Flask) -> None:
    """Limit the endpoints of `GROUPS` (call it once every blueprint is registered)."""
    limiter = Limiter(get_remote_address, app=app)
    app.extensions[EXTENSION] = limiter
    missing = [e for g in GROUPS for e in g.endpoints if e not in app.view_functions]
    if missing:
        raise RuntimeError(f"rate limits name endpoints the app does not have: {missing}")
    for group in GROUPS:
        shared = limiter.shared_limit(
            app.config[group.setting],
            scope=group.setting.removeprefix("RATELIMIT_").lower(),
            methods=list(WRITING),
            error_message=_too_many_message,
        )
        for endpoint in group.endpoints:
            view = cast(Callable[..., ResponseReturnValue], app.view_functions[endpoint])
            app.view_functions[endpoint] = cast(RouteCallable, shared(view))


def limited_operations(app: Flask) -> set[tuple[str, str]]:
    """(method, OpenAPI path) of every limited /api/ call: what the OpenAPI document gives a
    429."""
    limited = {endpoint for group in GROUPS for endpoint in group.endpoints}
    found: set[tuple[str, str]] = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint in limited and rule.rule.startswith("/api/"):
            path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
            found.update((method.lower(), path) for method in _writing(rule.methods or ()))
    return found


def _writing(methods: Iterable[str]) -> list[str]:
    return [method for method in methods if method in WRITING]
