"""The rate limits' counts in one file that every worker of this box shares: a `limits` storage
(`RATELIMIT_STORAGE_URI=diskcache:///path/to/folder`) over `diskcache`, the SQLite-backed
cache the PDFs already use (docs/ARCHITECTURE.md, "Rate limits": why a file and not a server
or the app's database).

A count is a key with an expiry; a hit of the sliding window (the strategy `limits.py`
sets) reads both windows and counts in one SQLite transaction, so hits from any process and
thread at the same moment never let one more through than the limit. The folder is opened on
the first count, so an app that never counts (the tests' own, with the limits off) makes no
file. Expired counts go as new ones are kept, and the whole never grows past `SIZE_LIMIT`.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from math import floor
from pathlib import Path
from typing import Any, Final

import diskcache
from limits.storage import Storage
from limits.storage.base import SlidingWindowCounterSupport, TimestampedSlidingWindow

SCHEME: Final = "diskcache"
#: The most the counts keep on disk: some hundred thousand addresses' counts.
SIZE_LIMIT: Final = 64 * 1024 * 1024
#: Seconds a count waits for another process's write before it gives up (the request then
#: goes through: RATELIMIT_SWALLOW_ERRORS).
_TIMEOUT: Final = 2


def uri_for(folder: str | Path) -> str:
    """The storage URI of the counts kept in `folder`."""
    return f"{SCHEME}://{Path(folder).resolve()}"


class DiskCacheStorage(Storage, SlidingWindowCounterSupport, TimestampedSlidingWindow):
    """Counts in a diskcache folder: every process that opens the same folder shares them."""

    STORAGE_SCHEME = [SCHEME]  # noqa: RUF012  (the type `limits` gives it: its registry reads it)

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options: Any) -> None:
        self.folder = uri.removeprefix(f"{SCHEME}://")
        if not self.folder.startswith("/"):
            raise ValueError(f"{SCHEME}:// needs an absolute folder, not {uri!r}")
        self._cache: diskcache.Cache | None = None
        self._opening = threading.Lock()
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> tuple[type[Exception], ...]:
        return (diskcache.Timeout, sqlite3.Error, OSError)

    @property
    def cache(self) -> diskcache.Cache:
        if self._cache is None:
            with self._opening:
                if self._cache is None:
                    self._cache = diskcache.Cache(
                        self.folder,
                        timeout=_TIMEOUT,
                        size_limit=SIZE_LIMIT,
                        eviction_policy="least-recently-stored",
                    )
        return self._cache

    # -- a count ----------------------------------------------------------------------------

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        """The count of `key` raised by `amount`; a new count expires after `expiry` seconds."""
        cache = self.cache
        with cache.transact(retry=True):
            value, expires = cache.get(key, default=0, expire_time=True, retry=True)
            if expires is None:  # none yet, or expired
                cache.set(key, amount, expire=expiry, retry=True)
                return amount
            count = int(value) + amount
            cache.set(key, count, expire=max(expires - time.time(), 0.001), retry=True)
            return count

    def get(self, key: str) -> int:
        return int(self.cache.get(key, default=0, retry=True))

    def get_expiry(self, key: str) -> float:
        _, expires = self.cache.get(key, default=0, expire_time=True, retry=True)
        return float(expires) if expires is not None else time.time()

    def clear(self, key: str) -> None:
        self.cache.delete(key, retry=True)

    def check(self) -> bool:
        try:
            self.cache.get("-", retry=True)
        except self.base_exceptions:
            return False
        return True

    def reset(self) -> int | None:
        return int(self.cache.clear(retry=True))

    # -- the sliding window -------------------------------------------------------------------

    def now(self) -> float:
        """The moment that places a hit in its window (the tests hold it inside one window, so
        that their few hits never straddle a minute's end: just after one, the library's
        weighting lets one more through, as it means to)."""
        return time.time()

    def _window(self, key: str, expiry: int, now: float) -> tuple[int, float, int, float]:
        previous_key, current_key = self.sliding_window_keys(key, expiry, now)
        previous, current = self.get(previous_key), self.get(current_key)
        previous_ttl = 0.0 if previous == 0 else (1 - (((now - expiry) / expiry) % 1)) * expiry
        current_ttl = (1 - ((now / expiry) % 1)) * expiry + expiry
        return previous, previous_ttl, current, current_ttl

    def get_sliding_window(self, key: str, expiry: int) -> tuple[int, float, int, float]:
        return self._window(key, expiry, self.now())

    def acquire_sliding_window_entry(
        self, key: str, limit: int, expiry: int, amount: int = 1
    ) -> bool:
        """Count `amount` hits if the weighted count of both windows stays within `limit`: read
        and counted in one transaction, whatever other workers do meanwhile."""
        if amount > limit:
            return False
        now = self.now()
        with self.cache.transact(retry=True):
            previous, previous_ttl, current, _ = self._window(key, expiry, now)
            if floor(previous * previous_ttl / expiry + current) + amount > limit:
                return False
            _, current_key = self.sliding_window_keys(key, expiry, now)
            self.incr(current_key, 2 * expiry, amount)
            return True

    def clear_sliding_window(self, key: str, expiry: int) -> None:
        previous_key, current_key = self.sliding_window_keys(key, expiry, self.now())
        self.clear(previous_key)
        self.clear(current_key)
