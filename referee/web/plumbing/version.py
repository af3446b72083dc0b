"""The app's version, one reading for everything that shows or keys by it (/healthz, the
OpenAPI document, a backup's header, the PDF cache's and the offline shell's digests)."""

from __future__ import annotations

from functools import cache
from importlib.metadata import PackageNotFoundError, version

PACKAGE = "rummy-referee"


@cache
def app_version() -> str:
    """The installed package's version (what `pip show rummy-referee` says)."""
    try:
        return version(PACKAGE)
    except PackageNotFoundError:  # pragma: no cover - run from a tree that was never installed
        return "0+unknown"
