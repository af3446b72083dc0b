"""The languages the referee speaks: one list, in the order every list shows them.

The engine reads cards in each of them (`cards.LOCAL_RANK_LETTERS`); the web layer names them
and speaks them (`web.core.languages`), the command line prints in them. Nothing else lists
them: a seventh language is one code here (and its catalogs and letters).
"""

from __future__ import annotations

from typing import Final

#: ISO 639-1 codes, in the order the language picker shows them.
LANGUAGES: Final = ("en", "de", "nl", "pt", "fr", "es")
#: What a page, a game or a printout speaks when nothing asks for another.
DEFAULT_LANGUAGE: Final = "en"
