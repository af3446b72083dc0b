"""The streams this process holds, by topic: a version told to a topic wakes each of its streams.

Every broker ends here: the in-process one (SQLite) tells the hub when a write commits; the
PostgreSQL one tells it what its LISTEN connection hears. A subscription holds only the newest
version told and not yet taken (a stream that was busy writing skips to the newest), or
`RESYNC`: look the topic's version up again (the LISTEN connection was lost for a while, and
whatever was told meanwhile was not heard).

A stream waits for its subscription in a thread (`wait`: a WSGI server's thread) or on an event
loop (`next`: the ASGI front, live/front.py); whoever tells, from any thread, never waits on it.
The hub admits a stream only within its limits (`admit`): so many a client address, so many in
all, counted in this process.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import weakref
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

#: What a subscription is woken with when what was told may have been missed.
RESYNC: Final = -1


class Subscription:
    """One stream's place in the hub: woken with a version, or `RESYNC`."""

    def __init__(self, hub: Hub, topic: str, address: str = "") -> None:
        self.topic = topic
        self.address = address
        self._hub = hub
        self._ready = threading.Condition()
        self._pending: int | None = None
        self._closed = False
        self._wake: Callable[[], None] | None = None  # an event loop's waiter, while it waits

    def tell(self, version: int) -> None:
        with self._ready:
            if self._pending is None or version == RESYNC or version > self._pending:
                self._pending = version
            self._ready.notify()
            wake = self._wake
        if wake is not None:
            wake()

    def wait(self, timeout: float) -> int | None:
        """The newest version told since the last call (or `RESYNC`); None after `timeout`."""
        with self._ready:
            if self._pending is None and not self._closed:
                self._ready.wait(timeout)
            return self._take()

    async def next(self, timeout: float) -> int | None:
        """As `wait`, on the running event loop: it sleeps there, holding no thread."""
        loop = asyncio.get_running_loop()
        woken = asyncio.Event()

        def wake() -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits now
                loop.call_soon_threadsafe(woken.set)

        with self._ready:
            if self._pending is not None or self._closed:
                return self._take()
            self._wake = wake
        try:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await woken.wait()
        finally:
            with self._ready:
                self._wake = None
        with self._ready:
            return self._take()

    def _take(self) -> int | None:
        version, self._pending = self._pending, None
        return version

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Leave the hub (again is harmless): the stream ended, its client went away, or the
        process is ending (`drain`)."""
        with self._ready:
            if self._closed:
                return
            self._closed = True
            self._ready.notify()
            wake = self._wake
        self._hub.leave(self)
        if wake is not None:
            wake()


@dataclass(frozen=True)
class Limits:
    """The most streams this process holds for one client address, and in all."""

    per_address: int
    most: int


@dataclass(frozen=True)
class Refused:
    """A stream not admitted: `whole` when the process is full, else its address is."""

    whole: bool


#: Every hub of this process, for `drain`.
_HUBS: weakref.WeakSet[Hub] = weakref.WeakSet()


def drain() -> None:
    """End every stream of this process now (a worker told to stop: gunicorn's graceful
    shutdown need not wait out their lifetime; each browser opens its stream again, on a
    worker that goes on)."""
    for hub in list(_HUBS):
        hub.close_all()


class Hub:
    """Topic -> the subscriptions of this process's open streams."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._topics: dict[str, set[Subscription]] = {}
        self._addresses: Counter[str] = Counter()
        self._count = 0
        _HUBS.add(self)

    def close_all(self) -> None:
        with self._lock:
            held = [s for subscriptions in self._topics.values() for s in subscriptions]
        for subscription in held:
            subscription.close()

    def subscribe(self, topic: str, address: str = "") -> Subscription:
        subscription = Subscription(self, topic, address)
        with self._lock:
            self._add(subscription)
        return subscription

    def admit(self, topic: str, address: str, limits: Limits) -> Subscription | Refused:
        """A subscription, unless this process holds `limits.most` streams already (or
        `limits.per_address` of `address`): counted and added at once, so streams opened at
        the same moment never pass a limit together."""
        subscription = Subscription(self, topic, address)
        with self._lock:
            if self._count >= limits.most:
                return Refused(whole=True)
            if self._addresses[address] >= limits.per_address:
                return Refused(whole=False)
            self._add(subscription)
        return subscription

    def _add(self, subscription: Subscription) -> None:
        self._topics.setdefault(subscription.topic, set()).add(subscription)
        self._addresses[subscription.address] += 1
        self._count += 1

    def leave(self, subscription: Subscription) -> None:
        with self._lock:
            held = self._topics.get(subscription.topic)
            if held is None or subscription not in held:
                return
            held.discard(subscription)
            if not held:
                del self._topics[subscription.topic]
            self._count -= 1
            self._addresses[subscription.address] -= 1
            if not self._addresses[subscription.address]:
                del self._addresses[subscription.address]

    def tell(self, topic: str, version: int) -> None:
        with self._lock:
            held = list(self._topics.get(topic, ()))
        for subscription in held:
            subscription.tell(version)

    def resync(self) -> None:
        """Every stream looks its topic up again."""
        with self._lock:
            held = [s for subscriptions in self._topics.values() for s in subscriptions]
        for subscription in held:
            subscription.tell(RESYNC)

    def count(self) -> int:
        with self._lock:
            return self._count

    def addresses(self) -> int:
        """How many client addresses hold a stream."""
        with self._lock:
            return len(self._addresses)
