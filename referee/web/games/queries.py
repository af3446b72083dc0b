"""Games as other features read them: by id, never written. Printing, refereeing and clubs read
games through this module only; writing a game is the games service's."""

from __future__ import annotations

from .chart import totals_chart
from .links import view_url
from .store import (
    Entry,
    StoredGame,
    changes_since,
    check_token,
    history,
    lang_of,
    load,
    load_many,
    version_of,
)

__all__ = [
    "Entry",
    "StoredGame",
    "changes_since",
    "check_token",
    "history",
    "lang_of",
    "load",
    "load_many",
    "totals_chart",
    "version_of",
    "view_url",
]
