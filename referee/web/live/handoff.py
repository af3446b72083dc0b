"""A stream handed from the WSGI app to the event loop that serves it (live/front.py).

The ASGI front runs every request of the Flask app in a thread of its pool, as a WSGI server
would, and sets `CURRENT` to a fresh `Handoff` for it (a context variable: the thread runs in
a copy of the front's context). A stream's view does its checks in that thread (the route, the
host, the limits, the version now) and answers the first chunk; the rest it leaves here
(`carry`), and the thread is free again. The front goes on with it on the loop once the first
chunk is sent, and closes it when the client goes away or the stream ends. Served by any other
WSGI server (a test's, werkzeug's), `CURRENT` is None and the view streams from its thread.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextvars import ContextVar

from .hub import Subscription

#: What follows the first chunk of a stream: the text of each event, as it comes.
Rest = Callable[[], AsyncIterator[str]]


class Handoff:
    """The rest of one response, carried on by the event loop (or nothing to carry)."""

    def __init__(self) -> None:
        self.rest: Rest | None = None
        self.subscription: Subscription | None = None

    def carry(self, rest: Rest, subscription: Subscription) -> None:
        self.rest, self.subscription = rest, subscription

    def close(self) -> None:
        """The stream's place in the hub given back (again is harmless)."""
        if self.subscription is not None:
            self.subscription.close()


#: The request's handoff while the ASGI front serves it; None under a plain WSGI server.
CURRENT: ContextVar[Handoff | None] = ContextVar("rummy_live_handoff", default=None)
