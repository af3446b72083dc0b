"""The games pages: start a game on `/`, the live score table, sharing and downloads.

Entering, correcting and undoing rounds are in `rounds.py`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import Response, abort, redirect, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import format_time, gettext

from referee.engine.errors import GameRefused, RefereeError
from referee.engine.game import Game
from referee.engine.house_rules import get_variant
from referee.engine.variants import Variant
from referee.web.plumbing.i18n import current_language
from referee.web.plumbing.qr import qr_response
from referee.web.vocabulary.messages import describe, describe_reason
from referee.web.vocabulary.words import (
    contract_text,
    rank_label,
    shoe_text,
    variant_name,
    variant_summary,
)

from . import bp, queries, service
from .access import editable_game, editable_or_403, game_or_404, recent, remember
from .exports import game_json, to_csv
from .forms import (
    HouseRulesForm,
    ImportForm,
    NewGameForm,
    house_rule_field_names,
)
from .links import edit_url, view_url
from .presenting import live_etag, page_context, round_heading


def _recent() -> list[tuple[queries.StoredGame, str]]:
    tokens = dict(recent())
    out = []
    for stored in queries.load_many(list(tokens)):
        token = tokens.get(stored.id)
        out.append((stored, edit_url(stored.id, token) if token else view_url(stored.id)))
    return out


# -- start a game -------------------------------------------------------------------------------


def _variant_asked() -> Variant:
    try:
        return get_variant(request.values.get("variant") or "contract")
    except RefereeError:
        return get_variant("contract")


def _rules_form(variant: Variant, *, posted: bool) -> HouseRulesForm | None:
    """The house-rules fields, when this table opened them (most never do: they are not drawn).

    Open when the post came from them (`rules_shown`), when asked for (`?rules=open`, or the
    button that opens them without JavaScript), or when the variant switch keeps them open.
    """
    shown = request.values.get("rules_shown") == "1"
    asked = request.args.get("rules") == "open" or bool(request.form.get("show_rules"))
    if not (shown or asked):
        return None
    rules = HouseRulesForm(request.form if posted and shown else None)
    rules.setup(variant)
    if not (posted and shown) or request.form.get("load_variant"):
        rules.fill(variant)
    return rules


def _index_page(
    form: NewGameForm,
    variant: Variant,
    rules: HouseRulesForm | None,
    *,
    shown: NotStarted | None = None,
    import_form: ImportForm | None = None,
    import_errors: list[str] | None = None,
    template: str = "games/index.html",
) -> str:
    """The start page (or its house rules alone), saying why a game did not start."""
    main, more = house_rule_field_names(variant)
    return render_template(
        template,
        form=form,
        rules=rules,
        variant=variant,
        summary=variant_summary(variant.id),
        main_rules=main,
        more_rules=more,
        errors=shown.errors if shown else [],
        recent=_recent() if template == "games/index.html" else [],
        import_form=import_form or ImportForm(formdata=None),
        import_errors=import_errors or [],
        ask_dealer=shown.ask_dealer if shown else False,
    )


@bp.route("/", methods=["GET", "POST"])
def index() -> ResponseReturnValue:
    """Start a game (variant, players, first dealer, language, house rules); resume recent ones.

    Who deals first is chosen among the names typed: the page's script names the choices as
    they are typed; without it, a second step asks once the names are in.
    """
    form = NewGameForm()
    form.setup()
    variant = _variant_asked()
    posted = request.method == "POST"
    rules = _rules_form(variant, posted=posted)
    shown = NotStarted([], status=200)
    if not posted:
        form.variant.data = variant.id
        form.lang.data = current_language()
    elif form.start.data:
        started = _start(form, variant, rules)
        if not isinstance(started, NotStarted):
            return started
        shown = started
    return _start_page(form, variant, rules, shown)


def _start_page(
    form: NewGameForm, variant: Variant, rules: HouseRulesForm | None, shown: NotStarted
) -> Response:
    """The start page; for htmx asking for the house rules, those alone."""
    target = request.headers.get("HX-Target")
    partial = request.headers.get("HX-Request") and target in (None, "house-rules")
    template = "games/_house_rules.html" if partial else "games/index.html"
    page = _index_page(form, variant, rules, shown=shown, template=template)
    response = Response(page, shown.status)
    response.vary.add("HX-Request")
    return response


@dataclass(frozen=True)
class NotStarted:
    """Why a game did not start: every reason, whether the first dealer is the step left, and
    the page's status (400 while something is wrong)."""

    errors: list[str]
    ask_dealer: bool = False
    status: int = 400


def _start(
    form: NewGameForm, variant: Variant, rules: HouseRulesForm | None
) -> ResponseReturnValue | NotStarted:
    """The new game kept and its edit page, or what stops it."""
    if not form.validate_on_submit() or (rules is not None and not rules.validate()):
        return NotStarted([])  # each field says what is wrong with it
    dealer = form.first_dealer_name()
    house_rules = rules.house_rules(variant) if rules is not None else None
    if dealer is None:  # not chosen yet (no script named the choices), or an empty seat
        try:  # the names are checked before the table is asked who deals
            Game.start(variant.id, form.player_names(), house_rules=house_rules)
        except GameRefused as refused:
            return NotStarted([describe_reason(reason) for reason in refused.reasons])
        if form.first_dealer.raw_data:  # chosen, but not among the names
            return NotStarted([describe("choose_first_dealer")], ask_dealer=True)
        return NotStarted([], ask_dealer=True, status=200)
    started = service.start(
        variant.id,
        form.player_names(),
        lang=form.lang.data or current_language(),
        house_rules=house_rules,
        first_dealer=dealer,
    )
    if isinstance(started, service.Refused):
        return NotStarted([describe_reason(reason) for reason in started.reasons])
    return _to_the_new_game(started)


def _to_the_new_game(started: service.Created) -> ResponseReturnValue:
    """A game just made: this phone may edit it, and goes to its round screen."""
    remember(started.stored.id, started.token)
    return redirect(edit_url(started.stored.id, started.token), code=303)


@bp.post("/games/import")
def import_game() -> ResponseReturnValue:
    """A JSON export back as a new game (a new id and edit link)."""
    form = ImportForm()
    if not form.validate_on_submit():
        return _import_page(form, [gettext("Please send the form again.")])
    started = service.import_game(_json_of(form), lang=current_language())
    if isinstance(started, service.Refused):
        return _import_page(form, [describe_reason(reason) for reason in started.reasons])
    return _to_the_new_game(started)


def _json_of(form: ImportForm) -> Any:
    """What the import form sent, as JSON: the file, else the text pasted (None: not JSON)."""
    raw = form.text.data or ""
    upload = form.file.data
    if upload and getattr(upload, "filename", ""):
        raw = upload.read(512 * 1024).decode("utf-8", errors="replace")
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


def _import_page(form: ImportForm, errors: list[str]) -> ResponseReturnValue:
    new_form = NewGameForm(formdata=None)
    new_form.setup()
    new_form.lang.data = current_language()
    variant = get_variant("contract")
    page = _index_page(new_form, variant, None, import_form=form, import_errors=errors)
    return page, 400


# -- the score table ----------------------------------------------------------------------------


@bp.get("/games/<game_id>")
def show(game_id: str) -> ResponseReturnValue:
    """The live score table, read only."""
    stored = game_or_404(game_id)
    remember(stored.id, None)
    return render_template("games/game.html", **page_context(stored, None))


def _live(game_id: str, token: str | None) -> ResponseReturnValue:
    """The score table alone, asked for when the stream tells a new version (or polled where no
    stream comes through): 304 for the ETag of the version shown, 204 while `since` is still
    the game's version (pages from before the stream), both before anything is drawn."""
    version = queries.version_of(game_id)
    if version is None:
        abort(404)
    if request.args.get("since") == str(version) and request.headers.get("HX-Request"):
        response = Response(status=204)
    elif request.if_none_match.contains(live_etag(version, token)):
        response = Response()  # make_conditional answers it with a 304
    else:
        stored = game_or_404(game_id)
        version = stored.game.version
        page = render_template("games/_live.html", oob=True, **page_context(stored, token))
        response = Response(page)
    response.set_etag(live_etag(version, token))
    response.cache_control.no_cache = True
    response.vary.add("HX-Request")
    return response.make_conditional(request)


@bp.get("/games/<game_id>/live")
def live(game_id: str) -> ResponseReturnValue:
    return _live(game_id, None)


@bp.get("/games/<game_id>/edit/<token>/live")
def live_edit(game_id: str, token: str) -> ResponseReturnValue:
    editable_or_403(game_id, token)
    return _live(game_id, token)


# -- sharing and export -------------------------------------------------------------------------


@bp.get("/games/<game_id>/qr.svg")
def qr_view(game_id: str) -> ResponseReturnValue:
    stored = game_or_404(game_id)
    return qr_response(view_url(stored.id, external=True))


@bp.get("/games/<game_id>/edit/<token>/qr.svg")
def qr_edit(game_id: str, token: str) -> ResponseReturnValue:
    stored = editable_game(game_id, token)
    return qr_response(edit_url(stored.id, token, external=True))


def _download(stored: queries.StoredGame, body: str, mimetype: str, ext: str) -> Response:
    day = stored.created_at.strftime("%Y-%m-%d")
    name = f"rummy-{stored.game.variant.id}-{day}-{stored.id[:6]}.{ext}"
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@bp.get("/games/<game_id>.csv")
def export_csv(game_id: str) -> ResponseReturnValue:
    stored = game_or_404(game_id)
    return _download(stored, to_csv(stored, current_language()), "text/csv", "csv")


@bp.get("/games/<game_id>.json")
def export_json(game_id: str) -> ResponseReturnValue:
    stored = game_or_404(game_id)
    body = json.dumps(game_json(stored, current_language()), ensure_ascii=False, indent=2)
    return _download(stored, body, "application/json", "json")


@bp.context_processor
def games_context() -> dict[str, object]:
    """The words the games templates use."""
    return {
        "variant_name": variant_name,
        "rank_label": rank_label,
        "shoe_text": shoe_text,
        "contract_text": contract_text,
        "format_time": format_time,
        "round_heading": round_heading,
    }
