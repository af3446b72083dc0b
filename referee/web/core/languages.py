"""The languages the app speaks: one list for pages, printing, the APIs and the command line."""

from __future__ import annotations

from typing import Final

#: code -> the language's own name, in the order the picker shows them.
LANGUAGES: Final[dict[str, str]] = {
    "en": "English",
    "de": "Deutsch",
    "nl": "Nederlands",
    "pt": "Português",
    "fr": "Français",
    "es": "Español",
}
DEFAULT_LANGUAGE: Final = "en"


def supported(value: object) -> str | None:
    """`value` as one of our language codes (any case, spaces around), else None."""
    if isinstance(value, str) and value.strip().lower() in LANGUAGES:
        return value.strip().lower()
    return None
