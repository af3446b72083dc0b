"""One stream as text/event-stream: the version now, then each newer one, heartbeats between.

Every event is `id: <version>` and `data: <version>`; the page fetches what changed (the parts
it shows, in its own language, through its own conditional request). A stream opened without
`Last-Event-ID` is told the version at once (so the page knows the stream works: a proxy that
buffers holds this back, and the page polls instead); a reconnect is told at once only when the
version it saw last is not the version now (it missed one, or it saw one of another database:
a restore). A comment every `heartbeat` seconds keeps proxies from closing an idle
stream; after `lifetime` seconds the server ends it and the browser opens it again after
`retry` ms (with `Last-Event-ID`), so a deploy's old workers drain.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Final, TypeGuard

from .hub import RESYNC, Subscription


@dataclass(frozen=True)
class Timing:
    heartbeat: float  # seconds between comments while nothing happens
    lifetime: float  # seconds before the server ends the stream
    retry_ms: int  # what the browser waits before it opens the stream again


def event(version: int) -> str:
    return f"id: {version}\ndata: {version}\n\n"


HEARTBEAT: Final = ": heartbeat\n\n"


def opening(now: int | None, seen: int | None, timing: Timing) -> tuple[str, int | None]:
    """The stream's first chunk (the browser's retry, and the version now where the browser
    has not seen it), and the version it has seen after it."""
    first = f"retry: {timing.retry_ms}\n"
    if now is not None and now != seen:
        return first + event(now), now
    return first + ": up to date\n\n", seen


def newer(version: int | None, seen: int | None) -> TypeGuard[int]:
    return version is not None and (seen is None or version > seen)


def said(told: int | None, version: int | None, seen: int | None) -> tuple[str, int | None]:
    """What a stream says after a wait that was `told` (None: nothing, time for a heartbeat)
    with `version` the version then, and the version it has seen after it ("": nothing)."""
    if told is None:
        return HEARTBEAT, seen
    if newer(version, seen):
        return event(version), version
    return "", seen


def events(
    first: str,
    subscription: Subscription,
    current: Callable[[], int | None],
    seen: int | None,
    timing: Timing,
) -> Iterator[str]:
    """The whole stream from a thread: `first`, then `following`; the subscription closed
    when it ends or its client goes away."""
    try:
        yield first
        yield from following(subscription, current, seen, timing)
    finally:
        subscription.close()


def following(
    subscription: Subscription,
    current: Callable[[], int | None],
    seen: int | None,
    timing: Timing,
    *,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[str]:
    """After the first chunk, from a thread (a WSGI server's; `subscription` was taken before
    the version in the first chunk was read, so nothing written in between is missed): each
    newer version, heartbeats between, until the lifetime ends or the subscription is closed
    (the process is ending: hub.drain)."""
    deadline = clock() + timing.lifetime
    while (left := deadline - clock()) > 0 and not subscription.closed:
        told = subscription.wait(min(timing.heartbeat, left))
        if subscription.closed:
            break
        text, seen = said(told, current() if told == RESYNC else told, seen)
        if text:
            yield text


async def following_async(
    subscription: Subscription,
    current: Callable[[], int | None],
    seen: int | None,
    timing: Timing,
    *,
    clock: Callable[[], float] = time.monotonic,
) -> AsyncIterator[str]:
    """As `following`, on an event loop (live/front.py): a version looked up again (`RESYNC`)
    is read in the loop's thread pool, never in the loop."""
    loop = asyncio.get_running_loop()
    deadline = clock() + timing.lifetime
    while (left := deadline - clock()) > 0 and not subscription.closed:
        told = await subscription.next(min(timing.heartbeat, left))
        if subscription.closed:
            break
        version = await loop.run_in_executor(None, current) if told == RESYNC else told
        text, seen = said(told, version, seen)
        if text:
            yield text
