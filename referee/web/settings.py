"""The settings the environment gives, read in one place by `create_app` (README: Configuration).

- hosting's: SERVER_NAME, PREFERRED_URL_SCHEME, TRUSTED_HOSTS, PROXY_FIX (`hosting.py`);
- PDF_CACHE_MAX_MB: the most the PDF cache keeps on disk, in megabytes (`printing/cache.py`);
- the rate limits (`limits.py`): RATELIMIT_ENABLED (0 turns them off), RATELIMIT_STORAGE_URI
  (default `memory://`, one count per worker; `redis://...` shares it), and one limit per group
  of calls: RATELIMIT_SOLVE, RATELIMIT_WRITES, RATELIMIT_CREATE, RATELIMIT_IMPORTS (as
  "20 per minute; 200 per hour").

A value that cannot be read stops the start with a ValueError naming the variable, rather than
running with a setting nobody asked for.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from limits import parse_many

from . import hosting

#: Rate-limit groups whose limit the environment may set (limits.GROUPS names their calls).
LIMIT_VARIABLES = ("RATELIMIT_SOLVE", "RATELIMIT_WRITES", "RATELIMIT_CREATE", "RATELIMIT_IMPORTS")
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """Every setting `environ` gives, read and checked."""
    found = hosting.settings_from_environment(environ)
    if environ.get("PDF_CACHE_MAX_MB", "").strip():
        found["PDF_CACHE_MAX_MB"] = _megabytes(environ["PDF_CACHE_MAX_MB"])
    if environ.get("RATELIMIT_ENABLED", "").strip():
        found["RATELIMIT_ENABLED"] = _switch("RATELIMIT_ENABLED", environ["RATELIMIT_ENABLED"])
    if environ.get("RATELIMIT_STORAGE_URI", "").strip():
        found["RATELIMIT_STORAGE_URI"] = environ["RATELIMIT_STORAGE_URI"].strip()
    for name in LIMIT_VARIABLES:
        if environ.get(name, "").strip():
            found[name] = rate_limit(name, environ[name])
    return found


def _megabytes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"PDF_CACHE_MAX_MB must be a number of megabytes above 0, not {text!r}")
    return value


def _switch(name: str, text: str) -> bool:
    word = text.strip().lower()
    if word not in _TRUE + _FALSE:
        raise ValueError(f"{name} must be 1 or 0 (on or off), not {text!r}")
    return word in _TRUE


def rate_limit(name: str, text: str) -> str:
    """`text` when it reads as limits ("20 per minute; 200 per hour"), else a ValueError."""
    try:
        parse_many(text)
    except ValueError:
        raise ValueError(
            f"{name} must be limits such as '20 per minute; 200 per hour', not {text!r}"
        ) from None
    return text.strip()
