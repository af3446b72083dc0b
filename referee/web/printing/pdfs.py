"""Rule cards as PDF: the rule page's template rendered by WeasyPrint, plus the download cache.

The card is `templates/printing/rules.html` with `for_print=True` and `pdf/print.css`. Page 1
(the summary) and page 2 (the full rules) must each fit one sheet: when a language or a
house rule makes one run over, the type is set one step smaller (`body.fit-N`) and the card
rendered again, so a card is always exactly two pages.

Every PDF is built once per (kind, variant, house rules, language, paper[, players]) and kept
in a small in-process LRU; its ETag is the hash of the bytes. Cards are tagged PDFs with
their title and language in the metadata.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import render_template

from referee.web.house_rules import TableRules

from .rulebook import build_rulebook

PROJECT_ROOT = Path(__file__).resolve().parents[3]
PDF_DIR = PROJECT_ROOT / "pdf"
PRINT_CSS = PDF_DIR / "print.css"

#: Where DejaVu Sans is looked for: a copy shipped under pdf/fonts/ first, then Debian's
#: fonts-dejavu-core (scripts/setup installs it).
FONT_DIRS = (
    PDF_DIR / "fonts",
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/share/fonts/dejavu"),
)
FONT_FILES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}

PAPER_SIZES = {"a4": "A4", "letter": "letter"}
#: The type sizes tried, largest first (body.fit-N in pdf/print.css). Cards start at fit-1,
#: which holds every registered variant in every language; fit-0 is there for short texts.
FIRST_FIT = 1
MAX_FIT = 6
PAGES = 2


class FontMissingError(RuntimeError):
    """DejaVu Sans is not installed: WeasyPrint would crash and ReportLab print boxes."""


def font_file(style: str = "regular") -> Path:
    """The TTF of DejaVu Sans in `style` (regular or bold)."""
    name = FONT_FILES[style]
    for folder in FONT_DIRS:
        path = folder / name
        if path.is_file():
            return path
    raise FontMissingError(
        f"{name} not found in {', '.join(str(d) for d in FONT_DIRS)}: "
        "install fonts-dejavu-core (scripts/setup does) or copy it to pdf/fonts/"
    )


# -- the cache ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Built:
    """A finished file and its validator."""

    body: bytes
    etag: str
    pages: int = 0


class FileCache:
    """A bounded LRU of built files; a key is built once even when requests race for it."""

    def __init__(self, max_entries: int = 256) -> None:
        self.max_entries = max_entries
        self._items: OrderedDict[tuple[Any, ...], Built] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[tuple[Any, ...], threading.Lock] = {}

    def get(self, key: tuple[Any, ...]) -> Built | None:
        with self._lock:
            built = self._items.get(key)
            if built is not None:
                self._items.move_to_end(key)
            return built

    def get_or_build(self, key: tuple[Any, ...], build: Callable[[], Built]) -> Built:
        built = self.get(key)
        if built is not None:
            return built
        with self._lock:
            key_lock = self._building.setdefault(key, threading.Lock())
        with key_lock:
            built = self.get(key)
            if built is None:
                built = build()
                with self._lock:
                    self._items[key] = built
                    while len(self._items) > self.max_entries:
                        self._items.popitem(last=False)
        with self._lock:
            self._building.pop(key, None)
        return built

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


CACHE = FileCache()


def etag_of(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:32]


# -- WeasyPrint ---------------------------------------------------------------------------------

_weasy_lock = threading.Lock()
_weasy: dict[str, Any] = {}


def _weasyprint() -> dict[str, Any]:
    """WeasyPrint, its font configuration and the parsed print CSS, made once (0.4 s import)."""
    with _weasy_lock:
        if not _weasy:
            regular, bold = font_file("regular"), font_file("bold")
            import weasyprint
            from weasyprint.text.fonts import FontConfiguration

            font_config = FontConfiguration()
            fonts_css = (
                f'@font-face {{ font-family: "Referee Sans"; font-weight: normal; '
                f'src: url("{regular.as_uri()}"); }}\n'
                f'@font-face {{ font-family: "Referee Sans"; font-weight: bold; '
                f'src: url("{bold.as_uri()}"); }}\n'
            )
            stylesheets = {
                paper: [
                    weasyprint.CSS(string=fonts_css, font_config=font_config),
                    weasyprint.CSS(filename=str(PRINT_CSS), font_config=font_config),
                    weasyprint.CSS(string=f"@page {{ size: {size}; }}", font_config=font_config),
                ]
                for paper, size in PAPER_SIZES.items()
            }
            _weasy.update(module=weasyprint, font_config=font_config, stylesheets=stylesheets)
        return _weasy


def render_rule_card(table: TableRules, lang: str, paper: str) -> Built:
    """The two-page rule card, in the current request's locale (`lang` is that locale)."""
    weasy = _weasyprint()
    book = build_rulebook(table, lang)
    subject = " · ".join(book.contract_words) or book.goal
    document = None
    for fit in range(FIRST_FIT, MAX_FIT + 1):
        html = render_template(
            "printing/rules.html",
            book=book,
            for_print=True,
            paper=paper,
            fit=fit,
            pdf_subject=subject,
            table_query=table.query(),
        )
        document = (
            weasy["module"]
            .HTML(string=html, base_url=str(PROJECT_ROOT))
            .render(stylesheets=weasy["stylesheets"][paper], font_config=weasy["font_config"])
        )
        if len(document.pages) <= PAGES:
            break
    assert document is not None
    # Tagged (headings, tables, lists, figures as a structure tree): screen readers and
    # reflowing readers follow it. It costs about 20 ms and 9 KB of a 33 KB card.
    body = document.write_pdf(pdf_tags=True)
    return Built(body=body, etag=etag_of(body), pages=len(document.pages))
