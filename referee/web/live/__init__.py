"""The live push: a page that shows a game, a club (or an event) follows it by one stream.

`init_app(app, sources)` is given, by create_app, how to read each kind's version now
(`{"game": games.queries.version_of, "club": ...}`: this package imports no feature) and
serves `/<kind>s/<kind_id>/stream` for each (endpoint `live.<kind>`). Writes tell it through
`core.signals`: `game_written` (a game's topic) and `changed` (any other topic), both sent
inside the write's transaction; the broker (brokers.py) makes sure streams hear only what
commits. Adding a kind is a source and, in its writes, a `changed.send(topic(kind, id), ...)`.

Settings (app.config): LIVE_HEARTBEAT_SECONDS (20), LIVE_LIFETIME_SECONDS (300),
LIVE_RETRY_MS (3000).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, has_app_context, request
from flask.typing import ResponseReturnValue
from sqlalchemy import Connection
from sqlalchemy.engine import make_url

from ..core import ids
from ..core.signals import changed, game_written, topic
from ..inputs import plain_count
from .brokers import VERSION_DIGITS, Broker, LocalBroker, PostgresBroker
from .stream import Timing, events

EXTENSION = "live"
DEFAULTS = {"LIVE_HEARTBEAT_SECONDS": 20.0, "LIVE_LIFETIME_SECONDS": 300.0, "LIVE_RETRY_MS": 3000}

#: A kind's version now, or None where there is no such thing.
Source = Callable[[str], int | None]


class Live:
    """The app's broker and the sources of each kind's version; the receivers of the signals
    (blinker holds them weakly: they live as long as the app)."""

    def __init__(self, broker: Broker, sources: Mapping[str, Source]) -> None:
        self.broker = broker
        self.sources = dict(sources)

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
    state = Live(make_broker(app.config["DATABASE_URL"]), sources)
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
    """A page's stream: 404 for a thing that is not there, else text/event-stream."""
    state = live()
    source = state.sources[kind]
    if not ids.valid_id(item_id) or source(item_id) is None:
        abort(404)
    app = current_app._get_current_object()  # type: ignore[attr-defined]

    def current() -> int | None:
        with app.app_context():
            return source(item_id)

    config = app.config
    timing = Timing(
        heartbeat=float(config["LIVE_HEARTBEAT_SECONDS"]),
        lifetime=float(config["LIVE_LIFETIME_SECONDS"]),
        retry_ms=int(config["LIVE_RETRY_MS"]),
    )
    subscription = state.broker.subscribe(topic(kind, item_id))
    response = Response(
        events(subscription, current, _last_seen(), timing), mimetype="text/event-stream"
    )
    response.call_on_close(subscription.close)  # never iterated (HEAD), or cut short
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on as it comes
    return response


def state() -> dict[str, Any]:
    """For /healthz: the broker's kind, what it is limited to, the streams this process holds."""
    return live().broker.state()
