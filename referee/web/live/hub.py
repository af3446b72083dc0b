"""The streams this process holds, by topic: a version told to a topic wakes each of its streams.

Every broker ends here: the in-process one (SQLite) tells the hub when a write commits; the
PostgreSQL one tells it what its LISTEN connection hears. A subscription holds only the newest
version told and not yet taken (a stream that was busy writing skips to the newest), or
`RESYNC`: look the topic's version up again (the LISTEN connection was lost for a while, and
whatever was told meanwhile was not heard).
"""

from __future__ import annotations

import threading
import weakref
from typing import Final

#: What a subscription is woken with when what was told may have been missed.
RESYNC: Final = -1


class Subscription:
    """One stream's place in the hub: woken with a version, or `RESYNC`."""

    def __init__(self, hub: Hub, topic: str) -> None:
        self.topic = topic
        self._hub = hub
        self._ready = threading.Condition()
        self._pending: int | None = None
        self._closed = False

    def tell(self, version: int) -> None:
        with self._ready:
            if self._pending is None or version == RESYNC or version > self._pending:
                self._pending = version
            self._ready.notify()

    def wait(self, timeout: float) -> int | None:
        """The newest version told since the last call (or `RESYNC`); None after `timeout`."""
        with self._ready:
            if self._pending is None and not self._closed:
                self._ready.wait(timeout)
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
        self._hub.leave(self)


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
        _HUBS.add(self)

    def close_all(self) -> None:
        with self._lock:
            held = [s for subscriptions in self._topics.values() for s in subscriptions]
        for subscription in held:
            subscription.close()

    def subscribe(self, topic: str) -> Subscription:
        subscription = Subscription(self, topic)
        with self._lock:
            self._topics.setdefault(topic, set()).add(subscription)
        return subscription

    def leave(self, subscription: Subscription) -> None:
        with self._lock:
            held = self._topics.get(subscription.topic)
            if held is not None:
                held.discard(subscription)
                if not held:
                    del self._topics[subscription.topic]

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
            return sum(len(subscriptions) for subscriptions in self._topics.values())
