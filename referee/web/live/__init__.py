"""The live push: a page that shows a game, a club (or an event) follows it by one stream.

`init_app(app, sources)` is given, by create_app, how to read each kind's version now
(`{"game": games.queries.version_of, "club": ...}`: this package imports no feature) and
serves `/<kind>s/<kind_id>/stream` for each (endpoint `live.<kind>`). Writes tell it through
`core.signals`: `game_written` (a game's topic) and `changed` (any other topic), both sent
inside the write's transaction; the broker (brokers.py) makes sure streams hear only what
commits. Adding a kind is a source and, in its writes, a `changed.send(topic(kind, id), ...)`.

Served by the ASGI front (live/front.py, what `rummy-referee serve` and gunicorn.conf.py run),
an open stream waits on the worker's event loop and holds no thread (live/handoff.py); under
a plain WSGI server it holds one of its threads, as any response does.

Settings (app.config): LIVE_HEARTBEAT_SECONDS (20), LIVE_LIFETIME_SECONDS (300),
LIVE_RETRY_MS (3000); LIVE_STREAMS_PER_ADDRESS (60) and LIVE_STREAMS_MAX (2000), the streams
this process holds at most for one client address (429 past it) and in all (503), both with
`Retry-After`: a page refused its stream polls instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, Final

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    has_app_context,
    make_response,
    request,
)
from flask.typing import ResponseReturnValue
from sqlalchemy import Connection
from sqlalchemy.engine import make_url
from werkzeug.exceptions import HTTPException, ServiceUnavailable, TooManyRequests

from referee.web.plumbing.numbers import plain_count

from ..core import ids
from ..core.signals import changed, game_written, topic
from . import handoff
from .brokers import VERSION_DIGITS, Broker, LocalBroker, PostgresBroker
from .hub import Limits, Refused, Subscription
from .stream import Timing, events, following_async, opening

EXTENSION = "live"
DEFAULTS: Final[dict[str, float | int]] = {
    "LIVE_HEARTBEAT_SECONDS": 20.0,
    "LIVE_LIFETIME_SECONDS": 300.0,
    "LIVE_RETRY_MS": 3000,
    "LIVE_STREAMS_PER_ADDRESS": 60,
    "LIVE_STREAMS_MAX": 2000,
}

#: A kind's version now, or None where there is no such thing.
Source = Callable[[str], int | None]


class Live:
    """The app's broker and the sources of each kind's version; the receivers of the signals
    (blinker holds them weakly: they live as long as the app)."""

    def __init__(self, broker: Broker, sources: Mapping[str, Source], limits: Limits) -> None:
        self.broker = broker
        self.sources = dict(sources)
        self.limits = limits

    def mine(self) -> bool:
        """Whether the write being told of is this app's (a process may make several apps)."""
        return has_app_context() and current_app.extensions.get(EXTENSION) is self

    def on_game(self, game_id: str, *, conn: Connection, stored: Any, **_: Any) -> None:
        if self.mine():
            self.broker.publish(conn, topic("game", game_id), stored.game.version)

    def on_changed(self, name: str, *, conn: Connection, version: int, **_: Any) -> None:
        if self.mine():
            self.broker.publish(conn, name, version)


def live(app: Flask | None = None) -> Live:
    found: Live = (app or current_app).extensions[EXTENSION]
    return found


def make_broker(database_url: str) -> Broker:
    if make_url(database_url).get_backend_name() == "postgresql":
        return PostgresBroker(database_url)
    return LocalBroker()


def init_app(app: Flask, sources: Mapping[str, Source]) -> None:
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    limits = Limits(
        per_address=int(app.config["LIVE_STREAMS_PER_ADDRESS"]),
        most=int(app.config["LIVE_STREAMS_MAX"]),
    )
    state = Live(make_broker(app.config["DATABASE_URL"]), sources, limits)
    app.extensions[EXTENSION] = state
    game_written.connect(state.on_game)
    changed.connect(state.on_changed)
    # A blueprint of this app's own: its routes are the kinds it was given.
    bp = Blueprint(EXTENSION, __name__)
    for kind in sources:
        bp.add_url_rule(f"/{kind}s/<{kind}_id>/stream", endpoint=kind, view_func=_view(kind))
    app.register_blueprint(bp)


def _view(kind: str) -> Callable[..., ResponseReturnValue]:
    def view(**values: str) -> ResponseReturnValue:
        return stream(kind, values[f"{kind}_id"])

    view.__name__ = f"stream_{kind}"
    view.__doc__ = f"The {kind}'s stream (text/event-stream): its version each time it changes."
    return view


def _last_seen() -> int | None:
    """What the browser saw last: `Last-Event-ID` (a reconnect), else nothing."""
    return plain_count(request.headers.get("Last-Event-ID", "").strip(), digits=VERSION_DIGITS)


def stream(kind: str, item_id: str) -> ResponseReturnValue:
    """A page's stream: 404 for a thing that is not there, 429 past the client address's
    limit, 503 past this process's, else text/event-stream."""
    state = live()
    source = state.sources[kind]
    if not ids.valid_id(item_id):
        abort(404)
    admitted = state.broker.admit(topic(kind, item_id), request.remote_addr or "", state.limits)
    if isinstance(admitted, Refused):
        return _refused(admitted)
    try:
        now = source(item_id)  # read after the subscription is taken: nothing is missed
    except BaseException:
        admitted.close()
        raise
    if now is None:
        admitted.close()
        abort(404)
    return _events(admitted, now, partial(_version_now, current_app.app_context, source, item_id))


def _version_now(context: Callable[[], Any], source: Source, item_id: str) -> int | None:
    with context():
        return source(item_id)


def _events(subscription: Subscription, now: int, current: Callable[[], int | None]) -> Response:
    """The first chunk now; the rest from this thread, or carried on by the event loop."""
    config = current_app.config
    timing = Timing(
        heartbeat=float(config["LIVE_HEARTBEAT_SECONDS"]),
        lifetime=float(config["LIVE_LIFETIME_SECONDS"]),
        retry_ms=int(config["LIVE_RETRY_MS"]),
    )
    first, seen = opening(now, _last_seen(), timing)
    carried = handoff.CURRENT.get()
    if carried is not None and request.method == "GET":
        carried.carry(partial(following_async, subscription, current, seen, timing), subscription)
        response = Response(iter([first]), mimetype="text/event-stream")
    else:
        body = events(first, subscription, current, seen, timing)
        response = Response(body, mimetype="text/event-stream")
        response.call_on_close(subscription.close)  # never iterated (HEAD), or cut short
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on as it comes
    return response


#: What a refused browser waits before it asks again (the page polls meanwhile).
REFUSED_RETRY_SECONDS: Final = 30


def _refused(refusal: Refused) -> Response:
    """The app's own error answer (page or JSON, in the request's language), saying when to
    ask again: 503 when this process holds all the streams it may, else 429."""
    error: HTTPException = ServiceUnavailable() if refusal.whole else TooManyRequests()
    response = make_response(current_app.handle_http_exception(error))
    response.headers["Retry-After"] = str(REFUSED_RETRY_SECONDS)
    response.headers["Cache-Control"] = "no-store"
    return response


def state() -> dict[str, Any]:
    """For /healthz: the broker's kind, what it is limited to, the streams this process holds
    and how many it may, and whether they wait on an event loop or each in a thread."""
    found = live()
    return {
        **found.broker.state(),
        "limits": {
            "per_address": found.limits.per_address,
            "per_process": found.limits.most,
        },
        "waiting": "event loop" if handoff.CURRENT.get() is not None else "thread",
    }
