"""The routes of the printing blueprint: rule pages, rule cards and score sheets.

- `/rules` lists the variants; `/rules/<variant>` is the rule page.
- `/rules/<variant>.pdf?lang=&paper=a4|letter` is the rule card (WeasyPrint, same template).
- `/rules/<variant>/my-rules.pdf?lang=&codes=run_gap,...` is one page of the rules a player
  missed in the trainer (the card's own sentences those referee codes cite).
- `/rules/<variant>/quiz.pdf?lang=&level=1-3&seed=` is a quiz sheet of twenty drills, the
  answers with the referee's reasons on page 2.
- `/sheets/<variant>.pdf?lang=&paper=&players=Ann,Bo,...` is a blank score sheet (ReportLab).
- `/games/<id>/sheet.pdf` is a game's filled sheet.

House rules come in the query (`?house_rules=<JSON>` or one parameter per rule) and change
the page, the card and the sheet. PDFs are built once per key and answered with an ETag.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from referee.engine import drills as engine_drills
from referee.engine.errors import GameRefused, PlayersError, RefereeError
from referee.engine.game import MAX_SEATS
from referee.engine.names import read_names
from referee.engine.variants import VARIANTS
from referee.web.games import queries
from referee.web.plumbing.i18n import current_language
from referee.web.plumbing.numbers import whole_number
from referee.web.vocabulary import rule_citations
from referee.web.vocabulary.house_rules import TableRules, overrides_from_query, table_rules
from referee.web.vocabulary.messages import describe, describe_error, describe_reason
from referee.web.vocabulary.rulebook import build_rulebook, facts_of
from referee.web.vocabulary.words import variant_name

from . import bp, documents
from .documents import Pdf
from .forms import PAPERS, SheetForm
from .pdfs import FontMissingError
from .quiz import DEFAULT_SEED


def _table(variant: str) -> TableRules:
    """The variant with the query's house rules, or a 404/400 that says what is wrong."""
    try:
        overrides = overrides_from_query(request.args)
    except RefereeError as error:
        abort(400, description=describe_error(error))
    try:
        return table_rules(variant, overrides)
    except RefereeError as error:
        abort(404 if error.code == "unknown_variant" else 400, description=describe_error(error))


def _paper_asked() -> str | None:
    """The paper asked for (A4 when none is), None when it is not one we print on."""
    paper = request.args.get("paper", "a4").strip().lower() or "a4"
    return paper if paper in PAPERS else None


def _no_such_paper() -> str:
    return gettext("Paper must be A4 or Letter.")


def _paper() -> str:
    paper = _paper_asked()
    if paper is None:
        abort(400, description=_no_such_paper())
    return paper


def _printed(make: Callable[[], Pdf], *, max_age: int = 3600) -> BaseResponse:
    """The PDF `make` gives (from the cache, or built now) as a download with its ETag."""
    try:
        pdf = make()
    except FontMissingError:
        abort(503, description=gettext("Printing is not available: its font is not installed."))
    response = Response(pdf.cached.body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{pdf.filename}"'
    response.set_etag(pdf.cached.etag)
    response.cache_control.public = max_age > 0
    response.cache_control.max_age = max_age
    if max_age == 0:
        response.cache_control.no_cache = True
    return response.make_conditional(request)


@bp.get("/rules")
def index() -> ResponseReturnValue:
    """Every variant with a line about it."""
    variants = [
        (variant, variant_name(variant), facts_of(variant)) for variant in VARIANTS.values()
    ]
    return render_template("printing/index.html", variants=variants)


@bp.get("/rules/<variant>")
def rules(variant: str) -> ResponseReturnValue:
    """The rules of a variant as a page, with the buttons that print them."""
    table = _table(variant)
    if table.variant.id != variant:  # an alias or another spelling: one address per variant
        # The query goes along as it came: passed to url_for, `_method` or `_anchor` would shape
        # the address instead of riding on it.
        query = request.query_string.decode("latin-1")
        target = url_for("printing.rules", variant=table.variant.id)
        return redirect(f"{target}?{query}" if query else target, 301)
    lang = current_language()
    form = SheetForm(
        data={"players": "", "paper": "letter" if lang == "en" and _us_reader() else "a4"}
    )
    form.house_rules.data = table.key
    form.lang.data = lang
    return render_template(
        "printing/rules.html",
        book=build_rulebook(table, lang),
        for_print=False,
        table_query=table.query(),
        sheet_form=form,
    )


def _us_reader() -> bool:
    """US and Canadian readers print on Letter; the rest of the world on A4."""
    best = request.accept_languages.best or ""
    return best.lower() in ("en-us", "en-ca")


@bp.get("/rules/<variant>.pdf")
def rule_card(variant: str) -> ResponseReturnValue:
    """The rule card: page 1 the summary, page 2 the full rules."""
    table = _table(variant)
    paper = _paper()
    return _printed(lambda: documents.rule_card(table, current_language(), paper))


#: The most codes "my rules" prints (each code once; every rule the drills cite is fewer).
MAX_CODES = 20


def _codes(table: TableRules) -> list[str]:
    """The referee's codes of `?codes=a,b`, each once, or a 400 that says what is wrong."""
    codes = list(dict.fromkeys(c.strip() for c in request.args.get("codes", "").split(",")))
    codes = [code for code in codes if code]
    if not codes:
        abort(400, description=gettext("Name the rules to print: the referee's codes in codes."))
    if len(codes) > MAX_CODES:
        abort(400, description=gettext("At most %(max)d rules fit on one page.", max=MAX_CODES))
    unknown = [code for code in codes if not rule_citations.known(code)]
    if unknown:
        abort(
            400,
            description=gettext(
                "“%(code)s” is not one of the referee's reasons.", code=unknown[0][:40]
            ),
        )
    book = build_rulebook(table, current_language())
    if not rule_citations.sections_citing(book, rule_citations.topics_of(codes)):
        abort(400, description=gettext("None of these rules is on this variant's rule card."))
    return codes


@bp.get("/rules/<variant>/my-rules.pdf")
def my_rules(variant: str) -> ResponseReturnValue:
    """One page of just the rules the player missed (the card's sentences), in their language."""
    table = _table(variant)
    paper = _paper()
    codes = _codes(table)
    return _printed(lambda: documents.my_rules(table, current_language(), paper, codes))


def _quiz_number(name: str, default: int, low: int, high: int) -> int:
    """`level` or `seed` from the query (`default` when left out), or a 400 that says why."""
    text = request.args.get(name, "").strip()
    try:
        if text.isascii() and text.isdigit() and len(text) > len(str(high)):
            shown = text if len(text) <= 12 else text[:12] + "…"  # too long to read: past high
            raise RefereeError("out_of_range", value=shown, low=low, high=high)
        return default if not text else whole_number(text, low=low, high=high)
    except RefereeError as error:
        abort(400, description=describe_error(error))


@bp.get("/rules/<variant>/quiz.pdf")
def quiz(variant: str) -> ResponseReturnValue:
    """Twenty questions for a newcomers' evening, the answers on the second page."""
    table = _table(variant)
    paper = _paper()
    level = _quiz_number("level", 1, engine_drills.LEVELS[0], engine_drills.LEVELS[-1])
    seed = _quiz_number("seed", DEFAULT_SEED, 0, engine_drills.MAX_SEED)
    return _printed(lambda: documents.quiz(table, current_language(), paper, level, seed))


def _players_from(text: str, table: TableRules) -> list[str]:
    """Names from "Ann, Bo, Cy", or as many empty columns as a lone number says.

    ValueError with the reason in words when they cannot be this variant's table.
    """
    variant = table.variant
    text = text.strip()
    if not text:
        return documents.default_players(variant)
    try:
        if text.isascii() and text.isdigit():
            names = [""] * whole_number(text, low=0, high=MAX_SEATS)
        else:
            parts = [name for name in text.replace(";", ",").split(",") if name.strip()]
            read, reasons = read_names(parts)
            if reasons:
                raise GameRefused(reasons)
            names = list(read)
        variant.check_players(len(names))
    except GameRefused as refused:
        raise ValueError(describe_reason(refused.reasons[0])) from None
    except RefereeError as error:
        if error.code == "out_of_range":
            error = PlayersError(
                players=text, min_players=variant.min_players, max_players=variant.max_players
            )
        raise ValueError(describe_error(error)) from None
    return names


def _sheet_form_again(table: TableRules, form: SheetForm) -> ResponseReturnValue:
    """Back to the sheet form with what was typed and what is wrong with it: a 400."""
    form.house_rules.data = table.key
    form.lang.data = current_language()
    page = render_template(
        "printing/sheet_form.html",
        variant_id=table.variant.id,
        name=variant_name(table.variant),
        sheet_form=form,
    )
    return Response(page, status=400)


@bp.get("/sheets/<variant>.pdf")
def blank_sheet(variant: str) -> ResponseReturnValue:
    """A blank score sheet; names printed if given."""
    table = _table(variant)
    form = SheetForm(request.args)
    paper = _paper_asked()
    if paper is None:
        form.paper.errors = [_no_such_paper()]
        form.paper.data = "a4"
        return _sheet_form_again(table, form)
    try:
        players = _players_from(request.args.get("players", ""), table)
    except ValueError as error:
        form.players.errors = [str(error)]
        return _sheet_form_again(table, form)
    return _printed(lambda: documents.blank_sheet(table, current_language(), paper, players))


@bp.get("/games/<game_id>/sheet.pdf")
def game_sheet(game_id: str) -> ResponseReturnValue:
    """The game's score sheet, filled in with every round played so far."""
    stored = queries.load(game_id)
    if stored is None:
        abort(404, description=describe("game_not_found"))
    paper = _paper()
    link = queries.view_url(stored.id, external=True)
    return _printed(
        lambda: documents.game_sheet(stored, current_language(), paper, link), max_age=0
    )
