"""One PDF cache for every worker and every restart: a `diskcache` under `instance/pdf-cache/`.

A PDF is kept under a hash of its key (kind, variant, house rules, language, paper,
players...) together with the app's *fingerprint*: its version, the printing libraries'
versions and the contents of everything that shapes a PDF (templates, print CSS, fonts,
catalogs, the code that words the rules). A new release, or a changed template, therefore
never serves an old card: its entries just stop being asked for and age out.

diskcache keeps the index in SQLite (WAL, safe for several processes and threads) and each
PDF as a file of its own, and holds the whole under `PDF_CACHE_MAX_MB` (default 200, read from
the environment by `referee.web.plumbing.settings`): past it, the entries used longest ago go first.
Builders of one key in several processes wait on a kernel lock (`fcntl.flock`, released even
when a worker is killed mid-build), so a card is built once; diskcache's own spinning `Lock`
would hold the others for its whole timeout after such a kill.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Final

import diskcache
from flask import Flask, current_app

from referee.web.plumbing import resources
from referee.web.plumbing.limits import count_pdf_build
from referee.web.plumbing.version import app_version

EXTENSION: Final = "pdf_cache"
DEFAULT_MAX_MB: Final = 200
#: What shapes a PDF beside its key: globs under the app's files (a checkout's top or a
#: wheel's bundle: `resources`) and under the folder that holds the code.
_SHAPING: Final = (
    (resources.ROOT, "pdf/**/*"),
    (resources.ROOT, "templates/printing/**/*"),
    (resources.ROOT, "templates/_*.html"),
    (resources.ROOT, "translations/**/*.mo"),
    (resources.PACKAGE_PARENT, "referee/**/*.py"),
)
_LIBRARIES: Final = ("weasyprint", "reportlab", "pydyf")
_LOCK_STRIPES: Final = 64
#: SQLite's write-ahead log is checkpointed past this many 4 KB pages and cut back to this size,
#: so the index never grows past what the bound leaves it.
_WAL_PAGES: Final = 64
#: What the bound keeps aside beside the PDFs: the index's log and shared memory, and the one
#: PDF that may be written before the oldest go (diskcache culls after a write).
_HEADROOM: Final = 2 * _WAL_PAGES * 4096
#: Seconds a worker waits for SQLite's write lock before diskcache gives up (a miss then).
_SQLITE_TIMEOUT: Final = 10


@dataclass(frozen=True)
class Cached:
    """A file from the cache and its validator (the hash of its key)."""

    body: bytes
    etag: str


@cache
def fingerprint() -> str:
    """A hash of the app's version, the printing libraries' and every file that shapes a PDF."""
    digest = hashlib.sha256(app_version().encode())
    for library in _LIBRARIES:
        try:
            digest.update(f"{library}={version(library)}".encode())
        except PackageNotFoundError:
            digest.update(f"{library}=none".encode())
    files = sorted({(root, path) for root, pattern in _SHAPING for path in root.glob(pattern)})
    for root, path in files:
        if path.is_file():
            digest.update(str(path.relative_to(root)).encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


class PdfCache:
    """Built files in a diskcache at `folder`, shared by every process that opens it."""

    def __init__(self, folder: Path, *, max_bytes: int, salt: str) -> None:
        self.folder = folder
        self.max_bytes = max_bytes
        self.salt = salt
        self.builds = 0  # files this process built (tests and the warm command read it)
        self._store = diskcache.Cache(
            str(folder),
            size_limit=max(max_bytes - _HEADROOM, max_bytes // 2),
            eviction_policy="least-recently-used",
            cull_limit=2,  # past the bound, each write lets the two used longest ago go
            # Every PDF a file of its own: SQLite (and its write-ahead log) holds the index only.
            disk_min_file_size=0,
            sqlite_wal_autocheckpoint=_WAL_PAGES,
            sqlite_journal_size_limit=_WAL_PAGES * 4096,
            timeout=_SQLITE_TIMEOUT,
        )

    def digest(self, key: tuple[Any, ...]) -> str:
        text = json.dumps([self.salt, *key], ensure_ascii=False, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    def get(self, key: tuple[Any, ...]) -> Cached | None:
        digest = self.digest(key)
        return self._read(digest)

    def _read(self, digest: str) -> Cached | None:
        try:
            body = self._store.get(digest)
        except diskcache.Timeout:  # the index busy for seconds: build rather than wait
            return None
        return Cached(body=body, etag=digest[:32]) if isinstance(body, bytes) else None

    def get_or_build(self, key: tuple[Any, ...], build: Callable[[], bytes]) -> Cached:
        """The file of `key`, built by `build` (once, whoever asks at the same time)."""
        digest = self.digest(key)
        found = self._read(digest)
        if found is not None:
            return found
        with self._locked(digest):
            found = self._read(digest)
            if found is not None:  # another process built it while we waited
                return found
            count_pdf_build()  # a build is what costs: past this address's limit, a 429
            body = build()
            self.builds += 1
            # The index busy for seconds: answered all the same; the next asker builds it again.
            with suppress(diskcache.Timeout):
                self._store.set(digest, body)
        return Cached(body=body, etag=digest[:32])

    @contextmanager
    def _locked(self, digest: str) -> Iterator[None]:
        locks = self.folder / ".locks"
        locks.mkdir(parents=True, exist_ok=True)
        stripe = int(digest[:8], 16) % _LOCK_STRIPES
        with open(locks / f"{stripe:02d}", "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def __len__(self) -> int:
        return len(self._store)

    def size(self) -> int:
        """Bytes on disk: the PDFs, the index and its write-ahead log."""
        return sum(path.stat().st_size for path in self.folder.rglob("*") if path.is_file())

    def close(self) -> None:
        self._store.close()


def pdf_cache(app: Flask | None = None) -> PdfCache:
    """The app's PDF cache, opened on first use (in the worker that uses it, not before a fork)."""
    app = app or current_app
    found: PdfCache | None = app.extensions.get(EXTENSION)
    if found is None:
        megabytes = float(app.config.get("PDF_CACHE_MAX_MB") or DEFAULT_MAX_MB)
        found = PdfCache(
            Path(app.instance_path) / "pdf-cache",
            max_bytes=int(megabytes * 1024 * 1024),
            salt=fingerprint(),
        )
        app.extensions[EXTENSION] = found
    return found
