"""The games pages: start a game on `/`, the live score table, sharing and downloads.

Entering, correcting and undoing rounds are in `rounds.py`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from flask import Response, abort, redirect, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import format_time, gettext

from referee.engine.errors import RefereeError
from referee.engine.game import Game, GameRefused
from referee.engine.variants import Variant, get_variant
from referee.web.i18n import current_language
from referee.web.messages import describe, describe_reason
from referee.web.qr import qr_response
from referee.web.words import contract_text, rank_label, shoe_text, variant_name, variant_summary

from . import bp, exports, store
from .access import editable_game, editable_or_403, game_or_404, recent, remember
from .exports import game_json, to_csv
from .forms import (
    HouseRulesForm,
    ImportForm,
    NewGameForm,
    house_rule_field_names,
)
from .links import edit_url, view_url
from .presenting import page_context


def _recent() -> list[tuple[store.StoredGame, str]]:
    tokens = dict(recent())
    out = []
    for stored in store.load_many(list(tokens)):
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
    errors: list[str] | None = None,
    import_form: ImportForm | None = None,
    import_errors: list[str] | None = None,
    template: str = "games/index.html",
    ask_dealer: bool = False,
) -> str:
    main, more = house_rule_field_names(variant)
    return render_template(
        template,
        form=form,
        rules=rules,
        variant=variant,
        summary=variant_summary(variant.id),
        main_rules=main,
        more_rules=more,
        errors=errors or [],
        recent=_recent() if template == "games/index.html" else [],
        import_form=import_form or ImportForm(formdata=None),
        import_errors=import_errors or [],
        ask_dealer=ask_dealer,
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
    status, errors, ask_dealer = 200, list[str](), False
    if not posted:
        form.variant.data = variant.id
        form.lang.data = current_language()
    elif form.start.data:
        if not form.validate_on_submit() or (rules is not None and not rules.validate()):
            status = 400
        else:
            started = _start(form, variant, rules)
            if not isinstance(started, NotStarted):
                return started
            errors, ask_dealer = started.errors, started.ask_dealer
            status = 400 if errors else 200
    partial = request.headers.get("HX-Request") and request.headers.get("HX-Target") in (
        None,
        "house-rules",
    )
    template = "games/_house_rules.html" if partial else "games/index.html"
    page = _index_page(
        form, variant, rules, errors=errors, template=template, ask_dealer=ask_dealer
    )
    response = Response(page, status)
    response.vary.add("HX-Request")
    return response


@dataclass(frozen=True)
class NotStarted:
    """Why a game did not start: every reason, and whether the first dealer is the step left."""

    errors: list[str]
    ask_dealer: bool = False


def _start(
    form: NewGameForm, variant: Variant, rules: HouseRulesForm | None
) -> ResponseReturnValue | NotStarted:
    """The new game kept and its edit page, or what stops it."""
    dealer = form.first_dealer_name()
    try:
        game = Game.start(
            variant.id,
            form.player_names(),
            house_rules=rules.house_rules(variant) if rules is not None else None,
            first_dealer=dealer,
        )
    except GameRefused as refused:
        return NotStarted([describe_reason(reason) for reason in refused.reasons])
    if dealer is None:  # not chosen yet (no script named the choices), or an empty seat
        chosen = bool(form.first_dealer.raw_data)
        return NotStarted([describe("choose_first_dealer")] if chosen else [], ask_dealer=True)
    stored, token = store.create(game, lang=form.lang.data or current_language())
    remember(stored.id, token)
    return redirect(edit_url(stored.id, token), code=303)


@bp.post("/games/import")
def import_game() -> ResponseReturnValue:
    """A JSON export back as a new game (a new id and edit link)."""
    form = ImportForm()
    if form.validate_on_submit():
        raw = form.text.data or ""
        upload = form.file.data
        if upload and getattr(upload, "filename", ""):
            raw = upload.read(512 * 1024).decode("utf-8", errors="replace")
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            data = None
        try:
            stored, token = exports.import_game(data, lang=current_language())
        except GameRefused as refused:
            errors = [describe_reason(reason) for reason in refused.reasons]
        else:
            remember(stored.id, token)
            return redirect(edit_url(stored.id, token), code=303)
    else:
        errors = [gettext("Please send the form again.")]
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
    """The score table alone, for polling: 204 while `since` is still the game's version."""
    version = store.version_of(game_id)
    if version is None:
        abort(404)
    if request.args.get("since") == str(version) and request.headers.get("HX-Request"):
        response = Response(status=204)
    elif request.if_none_match.contains(_live_etag(version, token)):
        response = Response()  # make_conditional answers it with a 304
    else:
        stored = game_or_404(game_id)
        version = stored.game.version
        page = render_template("games/_live.html", oob=True, **page_context(stored, token))
        response = Response(page)
    response.set_etag(_live_etag(version, token))
    response.cache_control.no_cache = True
    response.vary.add("HX-Request")
    return response.make_conditional(request)


def _live_etag(version: int, token: str | None) -> str:
    return f"g{version}-{current_language()}-{'e' if token else 'v'}"


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


def _download(stored: store.StoredGame, body: str, mimetype: str, ext: str) -> Response:
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
    }
