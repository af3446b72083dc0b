"""The games pages: start a game on `/`, the live score table, sharing and downloads.

Entering, correcting and undoing rounds are in `rounds.py`.
"""

from __future__ import annotations

import json

import segno
from flask import Response, abort, redirect, render_template, request, session
from flask.typing import ResponseReturnValue
from flask_babel import format_time, gettext

from referee.engine.errors import RefereeError
from referee.engine.game import Game, GameRefused
from referee.engine.variants import get_variant
from referee.web.i18n import LANGUAGES, current_language, remember_language
from referee.web.messages import describe_reason
from referee.web.words import rank_label, variant_name, variant_summary

from . import bp, exports, store
from .exports import game_json, to_csv
from .forms import MAX_PLAYERS, ImportForm, NewGameForm, house_rule_field_names
from .links import edit_url, view_url
from .views import page_context

RECENT_KEY = "recent_games"
RECENT_MAX = 8


# -- helpers ------------------------------------------------------------------------------------


def remember(game_id: str, token: str | None) -> None:
    """Keep the game in this phone's recent list (with its edit token when we have it)."""
    recent = [entry for entry in session.get(RECENT_KEY, []) if isinstance(entry, list)]
    known = next((e for e in recent if e and e[0] == game_id), None)
    if known and not token and len(known) > 1:
        token = known[1]
    recent = [e for e in recent if e and e[0] != game_id]
    recent.insert(0, [game_id, token])
    session[RECENT_KEY] = recent[:RECENT_MAX]


def _recent() -> list[tuple[store.StoredGame, str]]:
    entries = [e for e in session.get(RECENT_KEY, []) if isinstance(e, list) and e]
    tokens = {e[0]: (e[1] if len(e) > 1 else None) for e in entries}
    out = []
    for stored in store.load_many(list(tokens)):
        token = tokens.get(stored.id)
        out.append((stored, edit_url(stored.id, token) if token else view_url(stored.id)))
    return out


def game_or_404(game_id: str) -> store.StoredGame:
    stored = store.load(game_id)
    if stored is None:
        abort(404, description=gettext("There is no game at this address."))
    return stored


def editable_or_403(game_id: str, token: str) -> store.StoredGame:
    stored = game_or_404(game_id)
    if not store.check_token(game_id, token):
        abort(403)
    return stored


# -- start a game -------------------------------------------------------------------------------


def _index_page(
    form: NewGameForm,
    variant_id: str,
    *,
    errors: list[str] | None = None,
    import_form: ImportForm | None = None,
    import_errors: list[str] | None = None,
    template: str = "games/index.html",
) -> str:
    variant = get_variant(variant_id)
    main, more = house_rule_field_names(variant)
    return render_template(
        template,
        form=form,
        variant=variant,
        summary=variant_summary(variant.id),
        main_rules=main,
        more_rules=more,
        errors=errors or [],
        recent=_recent() if template == "games/index.html" else [],
        import_form=import_form or ImportForm(formdata=None),
        import_errors=import_errors or [],
        max_players=MAX_PLAYERS,
    )


@bp.route("/", methods=["GET", "POST"])
def index() -> ResponseReturnValue:
    """Start a game (variant, players, first dealer, language, house rules); resume recent ones."""
    form = NewGameForm()
    variant_id = request.values.get("variant") or "contract"
    try:
        variant = get_variant(variant_id)
    except RefereeError:
        variant = get_variant("contract")
    form.setup(variant)
    status, errors = 200, []
    if request.method == "GET":
        form.variant.data = variant.id
        form.lang.data = current_language()
        form.fill(variant)
    elif form.load_variant.data:
        form.fill(variant)
    elif form.validate_on_submit():
        try:
            game = Game.start(
                variant.id,
                form.player_names(),
                house_rules=form.house_rules(variant, shown=request.form.get("rules_shown") == "1"),
                first_dealer=form.first_dealer.data,
            )
        except GameRefused as refused:
            errors = [describe_reason(reason) for reason in refused.reasons]
            status = 400
        else:
            stored, token = store.create(game, lang=form.lang.data or current_language())
            remember(stored.id, token)
            response = redirect(edit_url(stored.id, token), code=303)
            if form.lang.data in LANGUAGES:
                remember_language(response, form.lang.data)
            return response
    else:
        status = 400
    partial = request.headers.get("HX-Request") and request.headers.get("HX-Target") in (
        None,
        "house-rules",
    )
    template = "games/_house_rules.html" if partial else "games/index.html"
    response = Response(_index_page(form, variant.id, errors=errors, template=template), status)
    response.vary.add("HX-Request")
    return response


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
    variant = get_variant("contract")
    new_form.setup(variant)
    new_form.fill(variant)
    new_form.lang.data = current_language()
    return _index_page(new_form, variant.id, import_form=form, import_errors=errors), 400


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
    else:
        context = page_context(game_or_404(game_id), token)
        response = Response(render_template("games/_live.html", **context))
    response.set_etag(f"g{version}-{current_language()}-{'e' if token else 'v'}")
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


def _qr(link: str) -> Response:
    svg = segno.make(link, error="m").svg_inline(scale=4, border=2, dark="#111", light="#fff")
    response = Response(svg, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response


@bp.get("/games/<game_id>/qr.svg")
def qr_view(game_id: str) -> ResponseReturnValue:
    stored = game_or_404(game_id)
    return _qr(view_url(stored.id, external=True))


@bp.get("/games/<game_id>/edit/<token>/qr.svg")
def qr_edit(game_id: str, token: str) -> ResponseReturnValue:
    stored = editable_or_403(game_id, token)
    return _qr(edit_url(stored.id, token, external=True))


def _download(stored: store.StoredGame, body: str, mimetype: str, ext: str) -> Response:
    day = stored.created_at.strftime("%Y-%m-%d")
    name = f"rummy-{stored.game.variant.id}-{day}-{stored.id[:6]}.{ext}"
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@bp.get("/games/<game_id>.csv")
def export_csv(game_id: str) -> ResponseReturnValue:
    stored = game_or_404(game_id)
    return _download(stored, to_csv(stored), "text/csv", "csv")


@bp.get("/games/<game_id>.json")
def export_json(game_id: str) -> ResponseReturnValue:
    stored = game_or_404(game_id)
    body = json.dumps(game_json(stored), ensure_ascii=False, indent=2)
    return _download(stored, body, "application/json", "json")


@bp.context_processor
def games_context() -> dict[str, object]:
    """The words the games templates use."""
    return {"variant_name": variant_name, "rank_label": rank_label, "format_time": format_time}
