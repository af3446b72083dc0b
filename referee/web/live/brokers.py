"""Brokers: how a write tells every stream of its topic, in this process or in every worker.

- `LocalBroker` (SQLite): the hub of this process is told once the write commits. A stream in
  another worker process would never hear it: with SQLite, serve with one worker process
  (docs/DEPLOY.md; /healthz says so in `live`).
- `PostgresBroker`: the write does `pg_notify` in its own transaction (PostgreSQL delivers it
  on commit, never for a write rolled back), and each worker process holds one LISTEN
  connection of its own (psycopg 3, a thread started with the first stream, reconnecting),
  telling its hub what it hears. It closes while the worker holds no stream.

Both publish on the write's own connection: `publish(conn, topic, version)`.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any, Protocol

import psycopg
from sqlalchemy import Connection, text
from sqlalchemy.engine import make_url

from referee.web.plumbing.database import after_commit
from referee.web.plumbing.numbers import plain_count

from .hub import Hub, Limits, Refused, Subscription

log = logging.getLogger(__name__)

#: The one channel every worker listens on; a notification's payload is "<topic> <version>".
CHANNEL = "rummy_live"
#: A version as a stream or a notification says it: ASCII digits, at most 18 (a 64-bit int).
VERSION_DIGITS = 18


class Broker(Protocol):
    kind: str

    def publish(self, conn: Connection, topic: str, version: int) -> None: ...

    def admit(self, topic: str, address: str, limits: Limits) -> Subscription | Refused: ...

    def state(self) -> dict[str, Any]: ...


class LocalBroker:
    """One process: the write's commit tells this process's hub."""

    kind = "in-process"

    def __init__(self) -> None:
        self.hub = Hub()

    def publish(self, conn: Connection, topic: str, version: int) -> None:
        after_commit(conn, lambda: self.hub.tell(topic, version))

    def admit(self, topic: str, address: str, limits: Limits) -> Subscription | Refused:
        return self.hub.admit(topic, address, limits)

    def state(self) -> dict[str, Any]:
        return {
            "broker": self.kind,
            "limit": "one worker process: a stream hears only the writes of its own process",
            "streams": self.hub.count(),
        }


def _conninfo(url: str) -> str:
    """SQLAlchemy's postgresql+psycopg://... as the libpq URI psycopg wants."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresBroker:
    """Every worker: NOTIFY in the write's transaction, one LISTEN connection per process."""

    kind = "postgresql"

    def __init__(self, url: str, *, poll_seconds: float = 5.0) -> None:
        self.hub = Hub()
        self._conninfo = _conninfo(url)
        self._poll = poll_seconds
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._pid = os.getpid()
        self.listening = threading.Event()

    def publish(self, conn: Connection, topic: str, version: int) -> None:
        conn.execute(
            text("SELECT pg_notify(:channel, :payload)"),
            {"channel": CHANNEL, "payload": f"{topic} {version}"},
        )

    def admit(self, topic: str, address: str, limits: Limits) -> Subscription | Refused:
        with self._lock:
            subscription = self.hub.admit(topic, address, limits)
            if isinstance(subscription, Refused):
                return subscription
            if self._pid != os.getpid():  # forked: the parent's thread is not in this process
                self._thread, self._pid = None, os.getpid()
                self.listening.clear()
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._listen, name="live-listen", daemon=True
                )
                self._thread.start()
        return subscription

    def state(self) -> dict[str, Any]:
        return {
            "broker": self.kind,
            "listening": self.listening.is_set(),
            "streams": self.hub.count(),
        }

    def _idle(self) -> bool:
        """No stream left: the thread ends and its connection closes (under the lock, so a
        stream subscribing now starts a new one)."""
        with self._lock:
            if self.hub.count():
                return False
            self._thread = None
            self.listening.clear()
            return True

    def _listen(self) -> None:
        delay = 0.5
        while True:
            try:
                with psycopg.connect(self._conninfo, autocommit=True) as listener:
                    listener.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    delay = 0.5
                    # What was told before this connection listened was not heard.
                    self.hub.resync()
                    if self._hear(listener):
                        return
            except psycopg.Error:
                self.listening.clear()
                log.warning("live: the LISTEN connection failed; again in %.1f s", delay)
            if self._wait_to_reconnect(delay):
                return
            delay = min(delay * 2, 10.0)

    def _hear(self, listener: psycopg.Connection[Any]) -> bool:
        """Tell the hub what the connection hears; True once no stream is left."""
        while True:
            for note in listener.notifies(timeout=self._poll):
                topic, _, said = note.payload.rpartition(" ")
                version = plain_count(said, digits=VERSION_DIGITS)
                if topic and version is not None:
                    self.hub.tell(topic, version)
            if self._idle():
                return True
            listener.execute("SELECT 1")  # a connection lost without a word fails here

    def _wait_to_reconnect(self, delay: float) -> bool:
        threading.Event().wait(delay)
        return self._idle()
