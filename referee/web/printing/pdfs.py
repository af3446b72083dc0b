"""Rule cards as PDF: the rule page's template rendered by WeasyPrint, plus the download cache.

The card is `templates/printing/rules.html` with `for_print=True` and `pdf/print.css`. Page 1
(the summary) and page 2 (the full rules) must each fit one sheet: when a language or a
house rule makes one run over, the type is set one step smaller (`body.fit-N`) and laid out
again, so a card is always exactly two pages.

The two pages are laid out apart (`part`: a page starts the full rules, so neither shapes the
other) and put together into one PDF: a type size tried and given up costs the page that ran
over, not the whole card. The full rules run over first (most languages need fit-2, a few
fit-3), so they are laid out first, from a guessed size (`_first_fitting`), and the summary
once, at the size they take (bench/pdf.py: a fresh card in about half the time of laying the
whole card out at each size).

Every PDF is built once per (kind, variant, house rules, language, paper[, players]) and kept
on disk for every worker (`documents.py`, `cache.py`). Cards are tagged PDFs with their title
and language in the metadata.
"""

from __future__ import annotations

import dataclasses
import hashlib
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import render_template
from flask_babel import gettext

from referee.web.plumbing import resources
from referee.web.plumbing.i18n import in_language
from referee.web.vocabulary import rule_citations
from referee.web.vocabulary.house_rules import TableRules
from referee.web.vocabulary.rulebook import build_rulebook

from .quiz import build_quiz

PDF_DIR = resources.PDF
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
#: The type sizes tried, largest first (body.fit-N in pdf/print.css). Cards start at fit-1
#: (English fits there; most other languages' full rules take fit-2, a few fit-3); fit-0 is
#: there for short texts.
FIRST_FIT = 1
MAX_FIT = 6
PAGES = 2
#: Twenty questions with their cards never fit at fit-1 (measured over every variant, three
#: languages, two seeds: fit-2 to fit-4), so the quiz's first page is first laid out at fit-2.
QUIZ_FIRST_FIT = 2
#: Where the full rules' search starts: the fit they took on the last card of the variant,
#: language and paper this process built (other house rules), else fit-2 (what most languages
#: take; English fits at fit-1).
_FULL_RULES_FIT: dict[tuple[str, str, str], int] = {}


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


# -- built files ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Built:
    """A finished file and its validator."""

    body: bytes
    etag: str
    pages: int = 0


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


@in_language
def render_rule_card(table: TableRules, lang: str, paper: str) -> Built:
    """The two-page rule card in `lang`, whatever the request around it speaks."""
    book = build_rulebook(table, lang)
    subject = " · ".join(book.contract_words) or book.goal

    def page(part: str, fit: int) -> Any:
        html = render_template(
            "printing/rules.html",
            book=book,
            for_print=True,
            paper=paper,
            fit=fit,
            part=part,
            pdf_subject=subject,
            table_query=table.query(),
        )
        return _render(html, paper)

    where = (table.variant.id, lang, paper)
    fit, full = _first_fitting(
        lambda fit: page("full", fit), FIRST_FIT, _FULL_RULES_FIT.get(where, FIRST_FIT + 1)
    )
    _FULL_RULES_FIT[where] = fit
    summary = page("summary", fit)
    while len(summary.pages) > 1 and fit < MAX_FIT:  # the summary runs over (not yet seen)
        fit += 1
        summary, full = page("summary", fit), page("full", fit)
    document = summary.copy([*summary.pages, *full.pages])
    body = document.write_pdf(pdf_tags=True)
    return Built(body=body, etag=etag_of(body), pages=len(document.pages))


@in_language
def render_my_rules(table: TableRules, lang: str, paper: str, codes: Sequence[str]) -> Built:
    """ "My rules": one page of the rules these referee codes cite, the full rules' page of the
    rule card (same template) cut to those sentences, in `lang`. ValueError when the card
    states none of them."""
    book = build_rulebook(table, lang)
    sections = rule_citations.sections_citing(book, rule_citations.topics_of(codes))
    if not sections:
        raise ValueError("no rule of these codes is on this card")
    mine = dataclasses.replace(book, sections=sections)
    heading = gettext("My rules")

    def page(fit: int) -> Any:
        html = render_template(
            "printing/rules.html",
            book=mine,
            for_print=True,
            paper=paper,
            fit=fit,
            part="full",
            heading=heading,
            pdf_subject=heading,
            table_query=table.query(),
        )
        return _render(html, paper)

    _fit, document = _first_fitting(page, 0)
    body = document.write_pdf(pdf_tags=True)
    return Built(body=body, etag=etag_of(body), pages=len(document.pages))


@in_language
def render_quiz(table: TableRules, lang: str, paper: str, level: int, seed: int) -> Built:
    """The quiz sheet in `lang`: twenty questions on page 1, the answers on page 2, each page
    laid out apart at the largest type at which it fits (as the rule card's are)."""
    quiz = build_quiz(table, lang, level, seed)

    def page(part: str, fit: int) -> Any:
        html = render_template(
            "printing/quiz.html",
            quiz=quiz,
            paper=paper,
            fit=fit,
            part=part,
            pdf_subject=quiz.book.name,
        )
        return _render(html, paper)

    _fit, questions = _first_fitting(lambda fit: page("questions", fit), QUIZ_FIRST_FIT)
    _fit, answers = _first_fitting(lambda fit: page("answers", fit), FIRST_FIT)
    document = questions.copy([*questions.pages, *answers.pages])
    body = document.write_pdf(pdf_tags=True)
    return Built(body=body, etag=etag_of(body), pages=len(document.pages))


def _render(html: str, paper: str) -> Any:
    weasy = _weasyprint()
    return (
        weasy["module"]
        .HTML(string=html, base_url=str(resources.ROOT))
        .render(stylesheets=weasy["stylesheets"][paper], font_config=weasy["font_config"])
    )


def _first_fitting(lay_out: Callable[[int], Any], fit: int, guess: int = 0) -> tuple[int, Any]:
    """The largest type (the first fit from `fit` on) at which `lay_out` takes one page, and
    that layout (at MAX_FIT, whatever it takes).

    `guess`, a fit beyond `fit`, is laid out first: when it fits, the larger types are tried
    only until one runs over; when it does not, the search goes on from it. A smaller type
    never takes more pages, so the answer is the one stepping from `fit` gives, in fewer
    layouts when the guess is near (a card whose full rules take fit-3 is laid out at 2 and 3,
    not at 1, 2 and 3)."""
    if guess > fit:
        document = lay_out(guess)
        if len(document.pages) == 1:
            while guess > fit:
                larger = lay_out(guess - 1)
                if len(larger.pages) > 1:
                    break
                guess, document = guess - 1, larger
            return guess, document
        fit = guess  # it runs over at the guess: the answer is further on
    else:
        document = lay_out(fit)
    while len(document.pages) > 1 and fit < MAX_FIT:
        fit += 1
        document = lay_out(fit)
    return fit, document
