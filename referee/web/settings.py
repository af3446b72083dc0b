"""Settings the app reads from its environment before anything else: the data folder, the
database and the secret key, each read in one place for `wsgi.py`, `create_app` and the
command line alike.

- The data folder (Flask's instance folder: the SQLite file, the secret key, the PDF cache):
  `--data` on the command line, else `RUMMY_INSTANCE_PATH`, else `instance/` at the top of a
  checkout, else the user's data folder as the platform has it (platformdirs: e.g.
  `~/.local/share/rummy-referee` on Linux) for an app installed from a wheel.
- `DATABASE_URL` and `SECRET_KEY`, or `DATABASE_URL_FILE` and `SECRET_KEY_FILE` naming a file
  that holds the value (the container convention: a mounted secret); never both.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Final

import platformdirs

from . import resources

APP_NAME: Final = "rummy-referee"
INSTANCE_VARIABLE: Final = "RUMMY_INSTANCE_PATH"
#: The settings that may come from a file named by `<NAME>_FILE`.
FROM_FILES: Final = ("DATABASE_URL", "SECRET_KEY")
SQLITE_FILE: Final = "rummy.sqlite3"


class SettingError(RuntimeError):
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
    """DATABASE_URL (or the file DATABASE_URL_FILE names), else SQLite in the data folder."""
    return secret(environ, "DATABASE_URL") or f"sqlite:///{Path(instance) / SQLITE_FILE}"
