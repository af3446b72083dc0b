"""One PDF cache for every worker and every restart: files under `instance/pdf-cache/`.

A PDF's file is named by a hash of its key (kind, variant, house rules, language, paper,
players...) together with the app's *fingerprint*: its version, the printing libraries'
versions and the contents of everything that shapes a PDF (templates, print CSS, fonts,
catalogs, the code that words the rules). A new release, or a changed template, therefore
never serves an old card: its files just stop being asked for and age out.

Safe under concurrent writers: a file is written aside and renamed into place (a reader sees
the old file, the new one, or none, never half of one), and builders of one key in several
processes wait on a lock, so a card is built once. The folder is held under
`PDF_CACHE_MAX_MB` (default 200): past it, the files used longest ago go first.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Final

from flask import Flask, current_app
from flask_babel import force_locale

from referee.web import resources
from referee.web.health import app_version

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
#: A hit touches its file at most this often (seconds): enough to order files by last use.
_TOUCH_EVERY: Final = 3600
_LOCK_STRIPES: Final = 64


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


class DiskCache:
    """Built files on disk, shared by every process that uses `folder`."""

    def __init__(self, folder: Path, *, max_bytes: int, salt: str) -> None:
        self.folder = folder
        self.max_bytes = max_bytes
        self.salt = salt
        self.builds = 0  # files this process built (tests and the warm command read it)

    def digest(self, key: tuple[Any, ...]) -> str:
        text = json.dumps([self.salt, *key], ensure_ascii=False, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    def _path(self, digest: str) -> Path:
        return self.folder / digest[:2] / f"{digest}.pdf"

    def get(self, key: tuple[Any, ...]) -> Cached | None:
        digest = self.digest(key)
        return self._read(self._path(digest), digest)

    def _read(self, path: Path, digest: str) -> Cached | None:
        try:
            body = path.read_bytes()
            if time.time() - path.stat().st_mtime > _TOUCH_EVERY:
                os.utime(path)
        except FileNotFoundError:
            return None
        return Cached(body=body, etag=digest[:32])

    def get_or_build(self, key: tuple[Any, ...], build: Callable[[], bytes]) -> Cached:
        """The file of `key`, built by `build` (once, whoever asks at the same time)."""
        digest = self.digest(key)
        path = self._path(digest)
        found = self._read(path, digest)
        if found is not None:
            return found
        with self._locked(digest):
            found = self._read(path, digest)
            if found is not None:  # another process built it while we waited
                return found
            body = build()
            self.builds += 1
            self._write(path, body)
        self._prune()
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

    def _write(self, path: Path, body: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
        draft.write_bytes(body)
        os.replace(draft, path)

    def files(self) -> list[os.DirEntry[str]]:
        found = []
        for shelf in os.scandir(self.folder):
            if shelf.is_dir() and not shelf.name.startswith("."):
                found += [e for e in os.scandir(shelf.path) if e.name.endswith(".pdf")]
        return found

    def size(self) -> int:
        return sum(entry.stat().st_size for entry in self.files())

    def _prune(self) -> None:
        """Past `max_bytes`, remove the files used longest ago until 90% of it is left."""
        entries = [(e.stat().st_mtime, e.stat().st_size, e.path) for e in self.files()]
        total = sum(size for _, size, _ in entries)
        if total <= self.max_bytes:
            return
        for _, size, path in sorted(entries):
            try:
                os.unlink(path)
            except FileNotFoundError:
                continue  # another process pruned it first
            total -= size
            if total <= self.max_bytes * 0.9:
                break


def pdf_cache(app: Flask | None = None) -> DiskCache:
    """The app's PDF cache, made on first use."""
    app = app or current_app
    found: DiskCache | None = app.extensions.get(EXTENSION)
    if found is None:
        megabytes = float(app.config.get("PDF_CACHE_MAX_MB") or DEFAULT_MAX_MB)
        found = DiskCache(
            Path(app.instance_path) / "pdf-cache",
            max_bytes=int(megabytes * 1024 * 1024),
            salt=fingerprint(),
        )
        app.extensions[EXTENSION] = found
    return found


# -- flask pdf warm -------------------------------------------------------------------------------


def warm(app: Flask, *, variants: list[str], languages: list[str], papers: list[str]) -> int:
    """Ask for every rule card and blank score sheet of these variants, languages and papers,
    as a browser would: each is built now unless already cached. Returns how many were built."""
    cache_of_app = pdf_cache(app)
    before = cache_of_app.builds
    client = app.test_client()
    host = {"base_url": _base_url(app)}
    for variant in variants:
        for lang in languages:
            for paper in papers:
                for path in (f"/rules/{variant}.pdf", f"/sheets/{variant}.pdf"):
                    # Under `flask pdf warm` every request shares the command's app context,
                    # where Flask-Babel keeps the first locale it chose: name each one.
                    with force_locale(lang):
                        answer = client.get(
                            path, query_string={"lang": lang, "paper": paper}, **host
                        )
                    if answer.status_code != 200:
                        raise RuntimeError(f"{path} ({lang}, {paper}): {answer.status_code}")
                    answer.close()
    return cache_of_app.builds - before


def _base_url(app: Flask) -> str:
    server = app.config.get("SERVER_NAME")
    if server:
        return f"{app.config['PREFERRED_URL_SCHEME']}://{server}"
    hosts = app.config.get("TRUSTED_HOSTS") or ["localhost"]
    return f"http://{str(hosts[0]).lstrip('.')}"
