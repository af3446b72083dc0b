"""The languages the app speaks: one list for pages, printing, the APIs and the command line.

The codes and their order are the engine's (`referee.engine.languages`); each is named in
itself as CLDR names it (Babel's data), first letter capitalised for a picker: "Deutsch",
"Français".
"""

from __future__ import annotations

from typing import Final

from babel import Locale

from referee.engine import languages


def _own_name(code: str) -> str:
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


#: code -> the language's own name, in the order the picker shows them.
LANGUAGES: Final[dict[str, str]] = {code: _own_name(code) for code in languages.LANGUAGES}
DEFAULT_LANGUAGE: Final = languages.DEFAULT_LANGUAGE


def supported(value: object) -> str | None:
    """`value` as one of our language codes (any case, spaces around), else None."""
    if isinstance(value, str) and value.strip().lower() in LANGUAGES:
        return value.strip().lower()
    return None
