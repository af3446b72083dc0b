"""Rate limits (Flask-Limiter): how often one address may solve, check, write, create, import,
run a club night, check in by phone, draw drills and build a PDF.

The calls are named here by endpoint, in groups that share one count per client address, and
limited when the app is built (`init_app`, after every blueprint is registered): no view
carries a decorator, and an endpoint named here that the app does not have stops the start
(a renamed view cannot slip out of its limit). Only the methods that write are counted where
a page answers GET too (`/` shows the start form, POST starts a game); a page that works on a
GET (the referee's checks) is counted when its query asks for work (`Group.asking`). A PDF is
counted when it is built, not when the shared cache answers it (`count_pdf_build`, from the
PDF cache): a rule card with new house rules costs 0.7 s, a cached one nothing.

Each group's limit is a setting (RATELIMIT_SOLVE, ...; `settings.py` reads the environment),
generous for a table or a club night behind one address; the tests turn the limits off
unless a test turns them on. Past a limit the answer is a 429 with Retry-After (`errors.py`
answers it as any error): JSON under /api/ in the request's language (the OpenAPI document
lists it for every limited call: `limited_operations`), the error page elsewhere. The offline
outbox keeps a round refused with a 429 and sends it again later.

The counts are kept in the data folder (`limit_store.py`: a diskcache file every worker of
this box shares), unless RATELIMIT_STORAGE_URI names another store (`redis://...` for several
boxes; `memory://` counts per worker). An address is the client's as `hosting` trusts it (the
proxy's X-Forwarded-For only from the proxy), an IPv6 address by its /64: one household's
phones, one count. nginx's `limit_req` in deploy/ is the front line (docs/DEPLOY.md).
"""

from __future__ import annotations

import ipaddress
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, cast

from flask import Flask, current_app, has_request_context, request
from flask.typing import ResponseReturnValue, RouteCallable
from flask_babel import gettext
from flask_limiter import Limiter
from limits import parse_many
from werkzeug.exceptions import TooManyRequests

from referee.web.plumbing.limit_store import uri_for

EXTENSION: Final = "limits"
WRITING: Final = ("POST", "PUT", "PATCH", "DELETE")
#: Where the counts are kept unless RATELIMIT_STORAGE_URI says: the data folder's.
FOLDER: Final = "rate-limits"


@dataclass(frozen=True)
class Group:
    """Calls that share one count per address: the setting that holds their limit, its default,
    the endpoints, the methods counted, and (for a GET) the query fields that ask for work: a
    GET is counted only when one of them is there and not empty."""

    setting: str
    default: str
    endpoints: tuple[str, ...]
    methods: tuple[str, ...] = WRITING
    asking: tuple[str, ...] = ()

    @property
    def scope(self) -> str:
        return self.setting.removeprefix("RATELIMIT_").lower()


#: The referee page's card fields: a GET of /referee with one of them runs a check.
_CHECKED: Final = ("cards", "melds", "meld", "card", "hand")

GROUPS: Final = (
    # The solver may search for a fifth of a second on a hard hand: the API's and the referee
    # page's ("My hand": its `hand`).
    Group(
        "RATELIMIT_SOLVE",
        "20 per minute; 300 per hour",
        ("refereeing_api.solve", "refereeing.index"),
        methods=("POST", "GET"),
        asking=("hand",),
    ),
    # Every check of the referee page: a verdict comes back with each card tapped.
    Group(
        "RATELIMIT_CHECKS",
        "120 per minute; 2000 per hour",
        ("refereeing.index",),
        methods=("GET",),
        asking=_CHECKED,
    ),
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
    # A club night's writes: a new evening, check-ins and leaves, seating rules, draws, swaps
    # and starts (a draw starts a game at every table), and the club's seasons. An evening of
    # 40 players checked in one by one, a few seating rules and four series drawn and started
    # is some sixty.
    Group(
        "RATELIMIT_EVENTS",
        "60 per minute; 600 per hour",
        (
            "events.new",
            "events.players",
            "events.series",
            "events.seating",
            "events_api.create",
            "events_api.players",
            "events_api.series",
            "events_api.seating",
            "events.check_in_host",
            "events_api.check_in_control",
            # A club's seasons: made, changed and deleted, now and then, by the host.
            "seasons.new",
            "seasons.edit",
            "seasons.delete",
            "seasons_api.create",
            "seasons_api.change",
            "seasons_api.remove",
        ),
    ),
    # Players checking themselves in and out by an evening's check-in link, from the page and
    # the API: forty phones on the club's one address arrive within minutes, a few tap twice.
    Group(
        "RATELIMIT_CHECK_IN",
        "60 per minute; 600 per hour",
        ("events.check_in_page", "events_api.check_in_write"),
    ),
    # The trainer's packs of drills: each draws up to 50 hands and asks the referee (the
    # solver too) about every one. The trainer's pages draw their session's ten again on every
    # question (and its due kinds' near misses): a session is some twenty pages.
    Group(
        "RATELIMIT_DRILLS",
        "120 per minute; 1200 per hour",
        ("training_api.drills", "training.index", "training.session_page"),
        ("GET",),
    ),
    # The trainer's offline packs: two sessions with every page rendered (some 60 pages, a
    # quarter to half a second of CPU). A phone asks for three at the start page and one when a
    # session it is in is not in its pack; at most one an hour for the same pack after that.
    Group(
        "RATELIMIT_TRAINER_PACKS",
        "12 per minute; 120 per hour",
        ("training.offline_pack",),
        ("GET",),
    ),
    # A club's file brings in up to 2,000 games at once: seconds of work each time.
    Group(
        "RATELIMIT_IMPORTS", "5 per minute; 30 per hour", ("games.import_game", "clubs.import_club")
    ),
    # PDFs built (not answered from the cache): a rule card or sheet with house rules of its
    # own, a game's filled sheet, a club night's table cards and standings. Counted by
    # `count_pdf_build`, whichever page asks.
    Group("RATELIMIT_PDF", "20 per minute; 200 per hour", ()),
)


def defaults() -> dict[str, Any]:
    """The limits' settings before the environment and a test's config have their say."""
    return {
        "RATELIMIT_ENABLED": True,
        "RATELIMIT_STORAGE_URI": None,  # the data folder's (init_app)
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


def client_address() -> str:
    """Whom a count is for: the client's address as `hosting` trusts it; an IPv6 address by
    its /64 (one household's phones, and all the addresses one of them may take)."""
    address = request.remote_addr or "?"
    try:
        found = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped is not None:
            return str(found.ipv4_mapped)
        return str(ipaddress.ip_network(f"{found}/64", strict=False))
    return str(found)


def _asks(group: Group) -> Callable[[], bool]:
    """Whether this request is left out of the group's count: a GET that asks for no work."""

    def exempt() -> bool:
        if request.method != "GET" or not group.asking:
            return False
        return not any(request.args.get(name, "").strip() for name in group.asking)

    return exempt


def init_app(app: Flask) -> None:
    """Limit the endpoints of `GROUPS` (call it once every blueprint is registered)."""
    if not app.config.get("RATELIMIT_STORAGE_URI"):
        app.config["RATELIMIT_STORAGE_URI"] = uri_for(Path(app.instance_path) / FOLDER)
    limiter = Limiter(client_address, app=app)
    app.extensions[EXTENSION] = limiter
    missing = [e for g in GROUPS for e in g.endpoints if e not in app.view_functions]
    if missing:
        raise RuntimeError(f"rate limits name endpoints the app does not have: {missing}")
    for group in GROUPS:
        shared = limiter.shared_limit(
            app.config[group.setting],
            scope=group.scope,
            methods=list(group.methods),
            error_message=_too_many_message,
            exempt_when=_asks(group),
        )
        for endpoint in group.endpoints:
            view = cast(Callable[..., ResponseReturnValue], app.view_functions[endpoint])
            app.view_functions[endpoint] = cast(RouteCallable, shared(view))


def count_pdf_build() -> None:
    """Count a PDF about to be built for this request's address (RATELIMIT_PDF): a 429 past
    the limit. Nothing is counted outside a request (`flask pdf warm`) or with limits off."""
    if not has_request_context() or not current_app.config.get("RATELIMIT_ENABLED"):
        return
    limiter: Limiter = current_app.extensions[EXTENSION]
    key = client_address()
    for item in parse_many(current_app.config["RATELIMIT_PDF"]):
        if not limiter.limiter.hit(item, "pdf", key):
            reset = limiter.limiter.get_window_stats(item, "pdf", key).reset_time
            retry_after = max(1, int(reset - time.time()))
            raise TooManyRequests(description=_too_many_message(), retry_after=retry_after)


def limited_operations(app: Flask) -> set[tuple[str, str]]:
    """(method, OpenAPI path) of every limited /api/ call: what the OpenAPI document gives a
    429."""
    found: set[tuple[str, str]] = set()
    for group in GROUPS:
        for rule in app.url_map.iter_rules():
            if rule.endpoint in group.endpoints and rule.rule.startswith("/api/"):
                path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
                found.update((m.lower(), path) for m in _counted(rule.methods or (), group))
    return found


def _counted(methods: Iterable[str], group: Group) -> list[str]:
    return [method for method in methods if method in group.methods]
