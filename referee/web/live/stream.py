"""One stream as text/event-stream: the version now, then each newer one, heartbeats between.

Every event is `id: <version>` and `data: <version>`; the page fetches what changed (the parts
it shows, in its own language, through its own conditional request). A stream opened without
`Last-Event-ID` is told the version at once (so the page knows the stream works: a proxy that
buffers holds this back, and the page polls instead); a reconnect is told at once only when it
missed a version. A comment every `heartbeat` seconds keeps proxies from closing an idle
stream; after `lifetime` seconds the server ends it and the browser opens it again after
`retry` ms (with `Last-Event-ID`), so a deploy's old workers drain.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .hub import RESYNC, Subscription


@dataclass(frozen=True)
class Timing:
    heartbeat: float  # seconds between comments while nothing happens
    lifetime: float  # seconds before the server ends the stream
    retry_ms: int  # what the browser waits before it opens the stream again


def event(version: int) -> str:
    return f"id: {version}\ndata: {version}\n\n"


def events(
    subscription: Subscription,
    current: Callable[[], int | None],
    seen: int | None,
    timing: Timing,
    *,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[str]:
    """The stream's text. `subscription` is taken before `current` is read, so nothing written
    in between is missed; it is closed when the stream ends or its client goes away."""
    try:
        now = current()
        first = f"retry: {timing.retry_ms}\n"
        if now is not None and (seen is None or now > seen):
            yield first + event(now)
            seen = now
        else:
            yield first + ": up to date\n\n"
        deadline = clock() + timing.lifetime
        while (left := deadline - clock()) > 0 and not subscription.closed:
            told = subscription.wait(min(timing.heartbeat, left))
            if subscription.closed:
                break  # the process is ending (hub.drain)
            if told is None:
                yield ": heartbeat\n\n"
                continue
            version = current() if told == RESYNC else told
            if version is not None and (seen is None or version > seen):
                yield event(version)
                seen = version
    finally:
        subscription.close()
