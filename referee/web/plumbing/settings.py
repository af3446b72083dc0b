"""The settings the environment gives, each read in one place for `wsgi.py`, `create_app` and
the command line alike (README: Configuration).

- The data folder (Flask's instance folder: the SQLite file, the secret key, the PDF cache):
  `--data` on the command line, else `RUMMY_INSTANCE_PATH`, else `instance/` at the top of a
  checkout, else the user's data folder as the platform has it (platformdirs: e.g.
  `~/.local/share/rummy-referee` on Linux) for an app installed from a wheel.
- `DATABASE_URL` and `SECRET_KEY`, or `DATABASE_URL_FILE` and `SECRET_KEY_FILE` naming a file
  that holds the value (the container convention: a mounted secret); never both.
  `DATABASE_PASSWORD` (or `DATABASE_PASSWORD_FILE`) is the database's password kept apart from
  DATABASE_URL: the one secret file the official postgres image reads (POSTGRES_PASSWORD_FILE)
  serves the app too.
- hosting's: SERVER_NAME, PREFERRED_URL_SCHEME, TRUSTED_HOSTS, PROXY_FIX (`hosting.py`);
- PDF_CACHE_MAX_MB: the most the PDF cache keeps on disk, in megabytes (`printing/cache.py`);
- the live push's limits (`live/`): LIVE_STREAMS_PER_ADDRESS and LIVE_STREAMS_MAX, the open
  streams a worker process holds at most for one client address and in all;
- the rate limits (`limits.py`): RATELIMIT_ENABLED (0 turns them off), RATELIMIT_STORAGE_URI
  (default: a file in the data folder that every worker of the box shares, `limit_store.py`;
  `redis://...` shares it between boxes, `memory://` keeps one count per worker), and one limit
  per group of calls: RATELIMIT_SOLVE, RATELIMIT_CHECKS, RATELIMIT_WRITES, RATELIMIT_CREATE,
  RATELIMIT_EVENTS, RATELIMIT_CHECK_IN, RATELIMIT_IMPORTS, RATELIMIT_DRILLS,
  RATELIMIT_TRAINER_PACKS, RATELIMIT_PDF (as "20 per minute; 200 per hour").

A value that cannot be read stops the start with a SettingError naming the variable, rather
than running with a setting nobody asked for.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import platformdirs
from limits import parse_many
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from referee.web.plumbing import hosting, resources

APP_NAME: Final = "rummy-referee"
INSTANCE_VARIABLE: Final = "RUMMY_INSTANCE_PATH"
#: The settings that may come from a file named by `<NAME>_FILE`.
FROM_FILES: Final = ("DATABASE_URL", "DATABASE_PASSWORD", "SECRET_KEY")
SQLITE_FILE: Final = "rummy.sqlite3"


class SettingError(ValueError):
    """A setting that cannot be read, said in plain words (the app does not start)."""


def default_data_folder() -> Path:
    """Where the app keeps its data when nobody says: the checkout's `instance/`, or the
    user's data folder by the platform's conventions for an installed app."""
    if resources.CHECKOUT is not None:
        return resources.CHECKOUT / "instance"
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def instance_path(environ: Mapping[str, str], data: str | None = None) -> str:
    """The data folder: `data` (the command line's `--data`), RUMMY_INSTANCE_PATH, the default."""
    chosen = data or environ.get(INSTANCE_VARIABLE) or default_data_folder()
    return str(Path(chosen).expanduser().resolve())


def secret(environ: Mapping[str, str], name: str) -> str | None:
    """`name` from the environment, or the contents of the file `<name>_FILE` names (its
    trailing newline and spaces dropped); None when neither is set."""
    value = environ.get(name) or None
    path = environ.get(f"{name}_FILE") or None
    if path is None:
        return value
    if value is not None:
        raise SettingError(f"{name} and {name}_FILE are both set: keep one of them")
    try:
        text = Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "it is not UTF-8 text"
        raise SettingError(f"{name}_FILE: cannot read {path}: {reason}") from None
    if not text:
        raise SettingError(f"{name}_FILE: {path} is empty")
    return text


def database_url(environ: Mapping[str, str], instance: str) -> str:
    """DATABASE_URL (or the file DATABASE_URL_FILE names) with DATABASE_PASSWORD (or its file)
    put in, else SQLite in the data folder."""
    url = secret(environ, "DATABASE_URL")
    password = secret(environ, "DATABASE_PASSWORD")
    if url is None:
        if password is not None:
            raise SettingError("DATABASE_PASSWORD is set, DATABASE_URL is not: name the database")
        return f"sqlite:///{Path(instance) / SQLITE_FILE}"
    if password is None:
        return url
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise SettingError("DATABASE_URL is not a database URL") from None
    if parsed.password is not None:
        raise SettingError(
            "DATABASE_URL holds a password and DATABASE_PASSWORD is set too: keep one of them"
        )
    return parsed.set(password=password).render_as_string(hide_password=False)


#: Rate-limit groups whose limit the environment may set (limits.GROUPS names their calls).
LIMIT_VARIABLES = (
    "RATELIMIT_SOLVE",
    "RATELIMIT_CHECKS",
    "RATELIMIT_WRITES",
    "RATELIMIT_CREATE",
    "RATELIMIT_EVENTS",
    "RATELIMIT_CHECK_IN",
    "RATELIMIT_IMPORTS",
    "RATELIMIT_DRILLS",
    "RATELIMIT_TRAINER_PACKS",
    "RATELIMIT_PDF",
)
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
    for name in STREAM_LIMITS:
        if environ.get(name, "").strip():
            found[name] = _count(name, environ[name])
    return found


#: The live push's limits on open streams (live/__init__.py), whole numbers.
STREAM_LIMITS: Final = ("LIVE_STREAMS_PER_ADDRESS", "LIVE_STREAMS_MAX")


def _count(name: str, text: str) -> int:
    word = text.strip()
    if not word.isascii() or not word.isdigit() or len(word) > 9:
        raise SettingError(f"{name} must be a whole number (0 or more), not {text!r}")
    return int(word)


def _megabytes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise SettingError(f"PDF_CACHE_MAX_MB must be a number of megabytes above 0, not {text!r}")
    return value


def _switch(name: str, text: str) -> bool:
    word = text.strip().lower()
    if word not in _TRUE + _FALSE:
        raise SettingError(f"{name} must be 1 or 0 (on or off), not {text!r}")
    return word in _TRUE


def rate_limit(name: str, text: str) -> str:
    """`text` when it reads as limits ("20 per minute; 200 per hour"), else a ValueError."""
    try:
        parse_many(text)
    except ValueError:
        raise SettingError(
            f"{name} must be limits such as '20 per minute; 200 per hour', not {text!r}"
        ) from None
    return text.strip()
