"""The games pages: start a game on `/`, the live score table, rounds, corrections, sharing."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import segno
from flask import (
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import format_time, gettext

from referee.engine.cards import Rank
from referee.engine.errors import RefereeError
from referee.engine.scoring import value_classes
from referee.engine.variants import HOUSE_RULES, Scoring, Variant, get_variant
from referee.web.i18n import COOKIE_MAX_AGE, COOKIE_NAME, LANGUAGES, current_language
from referee.web.messages import (
    choice_label,
    house_rule_label,
    rank_label,
    variant_name,
    variant_summary,
)

from . import bp, store
from .forms import (
    MAX_PLAYERS,
    ImportForm,
    NewGameForm,
    RoundForm,
    UndoForm,
    house_rule_field_names,
)
from .store import Conflict, Game, GameError, GameNotFound
from .texts import game_error_text

RECENT_KEY = "recent_games"
RECENT_MAX = 8
POLL_SECONDS = 3


# -- helpers ------------------------------------------------------------------------------------


def _remember(game_id: str, token: str | None) -> None:
    """Keep the game in this phone's recent list (with its edit token when we have it)."""
    recent = [entry for entry in session.get(RECENT_KEY, []) if isinstance(entry, list)]
    known = next((e for e in recent if e and e[0] == game_id), None)
    if known and not token and len(known) > 1:
        token = known[1]
    recent = [e for e in recent if e and e[0] != game_id]
    recent.insert(0, [game_id, token])
    session[RECENT_KEY] = recent[:RECENT_MAX]


def _recent() -> list[tuple[Game, str]]:
    entries = [e for e in session.get(RECENT_KEY, []) if isinstance(e, list) and e]
    tokens = {e[0]: (e[1] if len(e) > 1 else None) for e in entries}
    out = []
    for game in store.get_games(list(tokens)):
        token = tokens.get(game.id)
        link = store.edit_url(game.id, token) if token else store.view_url(game.id)
        out.append((game, link))
    return out


def _game_or_404(game_id: str) -> Game:
    game = store.get_game(game_id)
    if game is None:
        abort(404, description=gettext("There is no game at this address."))
    return game


def _editable_or_403(game_id: str, token: str) -> Game:
    game = _game_or_404(game_id)
    if not store.check_token(game_id, token):
        abort(403)
    return game


def _whole(text: str | None) -> int | None:
    """A number the form's hidden or typed field holds: ASCII digits only, None otherwise."""
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 9 else None


def _entered_or_404(game: Game, number: int) -> None:
    """A correction is of a round already entered (a form for any other would describe nothing)."""
    if not 1 <= number <= len(game.rounds):
        abort(404, description=gettext("Round %(round)s has not been entered yet.", round=number))


def _house_rules_in_force(game: Game) -> list[tuple[str, str]]:
    """The house rules that differ from the registered variant, as label and value."""
    base = get_variant(game.variant_id)
    out = []
    for name, rule in HOUSE_RULES.items():
        value, original = getattr(game.variant, name), getattr(base, name)
        if value == original:
            continue
        out.append((house_rule_label(name), _rule_value_text(rule.kind, value)))
    return out


def _rule_value_text(kind: str, value: Any) -> str:
    if kind == "bool":
        return gettext("yes") if value else gettext("no")
    if kind == "choice":
        return choice_label(value)
    if value is None:
        return gettext("none")
    if kind == "contracts":
        from referee.web.messages import contract_text

        return " · ".join(contract_text(c) for c in value)
    if kind == "shoe":
        return " · ".join(
            gettext(
                "%(low)s–%(high)s players: %(decks)s decks + %(jokers)s jokers",
                low=r.min_players,
                high=r.max_players,
                decks=r.decks,
                jokers=r.jokers,
            )
            for r in value
        )
    if kind == "points":
        pairs = zip(Rank, value, strict=True)
        return " ".join(f"{rank_label(rank)}={points}" for rank, points in pairs)
    if kind == "deal":
        return ", ".join(str(v) for v in value)
    return str(value)


def _classes(variant: Variant) -> list[dict[str, Any]]:
    """Value classes a table may count a hand by, when there are few enough to be quick."""
    classes = value_classes(variant)
    if len(classes) > 5:
        return []
    out = []
    for c in classes:
        if c.joker:
            label = gettext("Jokers")
        elif len(c.ranks) == 1:
            label = rank_label(c.ranks[0])
        elif [int(r) for r in c.ranks] == list(range(int(c.ranks[0]), int(c.ranks[-1]) + 1)):
            label = f"{rank_label(c.ranks[0])}–{rank_label(c.ranks[-1])}"
        else:
            label = " ".join(rank_label(r) for r in c.ranks)
        out.append({"points": c.points, "label": label})
    return out


def _card_points_json(variant: Variant) -> str:
    """This variant's points per rank letter and for a joker, for the page to add up a hand."""
    points = {rank.letter: variant.rank_points[rank - 1] for rank in Rank}
    points["JK"] = variant.joker_points
    return json.dumps(points)


def _page_context(game: Game, token: str | None) -> dict[str, Any]:
    return {
        "game": game,
        "token": token,
        "variant_title": variant_name(game.variant_id),
        "rules_in_force": _house_rules_in_force(game),
        "next_info": store.round_info(game, game.next_round) if game.next_round else None,
        "round_infos": {r.number: store.round_info(game, r.number) for r in game.rounds},
        "totals": game.running_totals(),
        "poll_seconds": POLL_SECONDS,
        "view_link": store.view_url(game.id, external=True),
        "edit_link": store.edit_url(game.id, token, external=True) if token else None,
        "is_penalty": game.variant.scoring is Scoring.PENALTY,
        "leader_names": [game.players[i] for i in game.standings.leaders],
        "change_text": lambda change: change_text(game, change),
        "card_points_json": _card_points_json(game.variant),
    }


def _round_form(game: Game, number: int, *, formdata: Any = None, fill: bool = True) -> RoundForm:
    form = RoundForm(formdata=formdata)
    classes = _classes(game.variant)
    while len(form.seats.entries) < len(game.players):
        form.seats.append_entry()
    for seat_form in form.seats.entries:
        while len(seat_form.form.classes.entries) < len(classes):
            seat_form.form.classes.append_entry()
    if formdata is None:
        form.version.data = str(game.version)
        form.round.data = str(number)
        if fill and number <= len(game.rounds):
            _fill_round(form, game, number)
    return form


def _fill_round(form: RoundForm, game: Game, number: int) -> None:
    _fill_results(form, game.rounds[number - 1].results)


def _fill_results(form: RoundForm, results: Sequence[store.SeatResult]) -> None:
    out = next((seat for seat, r in enumerate(results) if r.went_out), None)
    form.went_out.data = "none" if out is None else str(out)
    form.rummy.data = any(r.rummy for r in results)
    for seat_form, result in zip(form.seats.entries, results, strict=True):
        seat = seat_form.form
        if not result.went_out:
            seat.penalty.data = str(result.penalty)
            if result.cards is not None:
                seat.cards.data = " ".join(result.cards)
        seat.buys.data = result.buys or None


def _merge_stale_correction(form: RoundForm, game: Game, number: int, error: Conflict) -> None:
    """After a 409 on a correction: take the other writer's values where this one typed nothing.

    A field still holding what the round had when this form was made was not touched here, so
    it shows the round as it is now; only what this writer changed stays theirs. Without this,
    saving again would quietly put back the values the other phone had just corrected.
    """
    base = next((c.before for c in error.since if c.round == number), None)
    if base is None or number > len(game.rounds):
        return
    was = _round_form(game, number, fill=False)
    _fill_results(was, base)
    now = _round_form(game, number)

    def same(a: Any, b: Any) -> bool:
        return str(a if a is not None else "").strip() == str(b if b is not None else "").strip()

    pairs = [(form.went_out, was.went_out, now.went_out), (form.rummy, was.rummy, now.rummy)]
    for mine, before, current in zip(form.seats, was.seats, now.seats, strict=False):
        if any(entry.data for entry in mine.form.classes.entries):
            continue  # counted by value here: this writer's count decides the points
        for name in ("penalty", "cards", "buys"):
            pairs.append((mine.form[name], before.form[name], current.form[name]))
    for mine, before, current in pairs:
        if same(mine.data, before.data):
            mine.data = current.data
            mine.raw_data = None


def _entries_from_form(game: Game, form: RoundForm) -> list[dict[str, Any]]:
    """The form as results in the API's shape; class counts become a penalty."""
    classes = _classes(game.variant)
    out_value = (form.went_out.data or "").strip()
    if out_value == "":
        raise GameError("mark_who_went_out", field="went_out")
    out_seat = None if out_value == "none" else out_value
    entries = []
    for seat, (name, seat_entry) in enumerate(zip(game.players, form.seats.entries, strict=False)):
        seat_form = seat_entry.form
        entry: dict[str, Any] = {"player": name}
        if seat_form.buys.data:
            entry["buys"] = seat_form.buys.data
        if out_seat == str(seat):
            entry["went_out"] = True
            if form.rummy.data:
                entry["rummy"] = True
            entries.append(entry)
            continue
        typed = (seat_form.penalty.data or "").strip()
        counts = [c.data or 0 for c in seat_form.classes.entries][: len(classes)]
        by_class = sum(n * c["points"] for n, c in zip(counts, classes, strict=False))
        cards = (seat_form.cards.data or "").strip()
        if any(counts):
            if _whole(typed) is not None and _whole(typed) != by_class:
                raise GameError(
                    "penalty_mismatch",
                    player=seat,
                    field="penalty",
                    penalty=_whole(typed),
                    cards_penalty=by_class,
                )
            typed = str(by_class)
        if typed:
            entry["penalty"] = typed
        if cards:
            entry["cards"] = cards
        entries.append(entry)
    if out_seat is not None and _whole(out_seat) is None:
        raise GameError("bad_input", field="went_out")
    return entries


def _render_round_page(
    game: Game,
    token: str,
    form: RoundForm | None,
    number: int,
    *,
    template: str,
    error: GameError | None = None,
    status: int = 200,
) -> ResponseReturnValue:
    since = error.since if isinstance(error, Conflict) else []
    context = _page_context(game, token)
    context.update(
        form=form,
        number=number,
        form_info=store.round_info(game, number) if form is not None else None,
        classes=_classes(game.variant),
        error_text=game_error_text(error, game.players) if error else None,
        error_seat=error.player if error else None,
        since=since,
        undo_form=UndoForm(formdata=None, version=str(game.version)),
        history=store.history(game.id)[:30],
        can_undo=store.can_undo(game.id),
    )
    return render_template(template, **context), status


# -- start a game -------------------------------------------------------------------------------


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
    status = 200
    error_text = None
    if request.method == "GET":
        form.variant.data = variant.id
        form.lang.data = current_language()
        form.fill(variant)
    elif form.load_variant.data:
        form.fill(variant)
    elif form.validate_on_submit():
        try:
            overrides = form.house_rules(variant, shown=request.form.get("rules_shown") == "1")
            game, token = store.create_game(
                variant.id,
                form.player_names(),
                house_rules=overrides,
                first_dealer=form.first_dealer.data,
                lang=form.lang.data,
            )
        except GameError as error:
            error_text = game_error_text(error)
            status = 400
        else:
            _remember(game.id, token)
            response = redirect(store.edit_url(game.id, token), code=303)
            if form.lang.data in LANGUAGES:
                response.set_cookie(
                    COOKIE_NAME,
                    form.lang.data,
                    max_age=COOKIE_MAX_AGE,
                    samesite="Lax",
                    httponly=True,
                    secure=request.is_secure,
                )
            return response
    else:
        status = 400
    main, more = house_rule_field_names(variant)
    template = (
        "games/_house_rules.html" if request.headers.get("HX-Request") else "games/index.html"
    )
    if request.headers.get("HX-Target") not in (None, "house-rules"):
        template = "games/index.html"
    response = Response(
        render_template(
            template,
            form=form,
            variant=variant,
            summary=variant_summary(variant.id),
            main_rules=main,
            more_rules=more,
            error_text=error_text,
            recent=_recent(),
            import_form=ImportForm(formdata=None),
            max_players=MAX_PLAYERS,
        ),
        status=status,
    )
    response.vary.add("HX-Request")
    return response


@bp.post("/games/import")
def import_game() -> ResponseReturnValue:
    """A JSON export back as a new game (a new id and edit link)."""
    form = ImportForm()
    error_text = None
    if form.validate_on_submit():
        raw = form.text.data or ""
        upload = form.file.data
        if upload and getattr(upload, "filename", ""):
            raw = upload.read(512 * 1024).decode("utf-8", errors="replace")
        try:
            data = json.loads(raw)
        except ValueError:
            data = None
        try:
            game, token = store.import_game(data, lang=current_language())
        except GameError as error:
            error_text = game_error_text(error)
        else:
            _remember(game.id, token)
            return redirect(store.edit_url(game.id, token), code=303)
    else:
        error_text = gettext("Please send the form again.")
    variant = get_variant("contract")
    new_form = NewGameForm(formdata=None)
    new_form.setup(variant)
    new_form.fill(variant)
    new_form.lang.data = current_language()
    main, more = house_rule_field_names(variant)
    return (
        render_template(
            "games/index.html",
            form=new_form,
            variant=variant,
            summary=variant_summary(variant.id),
            main_rules=main,
            more_rules=more,
            error_text=None,
            import_error=error_text,
            recent=_recent(),
            import_form=form,
            max_players=MAX_PLAYERS,
        ),
        400,
    )


# -- the score table ----------------------------------------------------------------------------


@bp.get("/games/<game_id>")
def show(game_id: str) -> ResponseReturnValue:
    """The live score table, read only."""
    game = _game_or_404(game_id)
    _remember(game.id, None)
    return render_template("games/game.html", **_page_context(game, None))


@bp.get("/games/<game_id>/edit/<token>")
def edit(game_id: str, token: str) -> ResponseReturnValue:
    """The score table with the next round's form, corrections and undo."""
    game = _editable_or_403(game_id, token)
    _remember(game.id, token)
    number = game.next_round or len(game.rounds)
    form = _round_form(game, number) if game.next_round else None
    context = _page_context(game, token)
    context.update(
        form=form,
        number=game.next_round,
        form_info=context["next_info"],
        classes=_classes(game.variant),
        error_text=None,
        error_seat=None,
        since=[],
        undo_form=UndoForm(formdata=None, version=str(game.version)),
        history=store.history(game.id)[:30],
        can_undo=store.can_undo(game.id),
    )
    return render_template("games/game.html", **context)


def _live(game_id: str, token: str | None) -> ResponseReturnValue:
    """The score table alone, for polling: 204 while `since` is still the game's version."""
    version = store.get_version(game_id)
    if version is None:
        abort(404)
    etag = f"g{version}-{current_language()}-{'e' if token else 'v'}"
    since = request.args.get("since", "")
    if since == str(version) and request.headers.get("HX-Request"):
        response = Response(status=204)
    elif request.if_none_match and etag in request.if_none_match:
        response = Response(status=304)
    else:
        game = _game_or_404(game_id)
        response = Response(render_template("games/_live.html", **_page_context(game, token)))
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("HX-Request")
    return response


@bp.get("/games/<game_id>/live")
def live(game_id: str) -> ResponseReturnValue:
    return _live(game_id, None)


@bp.get("/games/<game_id>/edit/<token>/live")
def live_edit(game_id: str, token: str) -> ResponseReturnValue:
    _editable_or_403(game_id, token)
    return _live(game_id, token)


# -- entering and correcting rounds -------------------------------------------------------------


def _complete_formdata(game: Game) -> Any:
    """The posted form with every seat's fields present, so seat i is entry i of the lists.

    (WTForms builds list entries only for the indices it sees: a player who went out posts
    nothing, and the rows after would slide up a seat.)
    """
    formdata = request.form.copy()
    classes = len(_classes(game.variant))
    for seat in range(len(game.players)):
        formdata.setdefault(f"seats-{seat}-penalty", "")
        for index in range(classes):
            formdata.setdefault(f"seats-{seat}-classes-{index}", "")
    return formdata


def _save(game_id: str, token: str, number: int | None) -> ResponseReturnValue:
    game = _editable_or_403(game_id, token)
    if number is not None:
        _entered_or_404(game, number)
    target = number if number is not None else (game.next_round or len(game.rounds) + 1)
    form = _round_form(game, target, formdata=_complete_formdata(game))
    template = "games/game.html" if number is None else "games/round.html"
    if not form.validate_on_submit():
        error = GameError("check_fields", field="form")
        return _render_round_page(
            game, token, form, target, template=template, error=error, status=400
        )
    try:
        version = _whole(form.version.data)
        entries = _entries_from_form(game, form)
        if number is None:
            form_round = _whole(form.round.data) or target
            game = store.add_round(
                game.id, form_round, entries, version=version, lang=current_language()
            )
        else:
            game = store.edit_round(
                game.id, number, entries, version=version, lang=current_language()
            )
    except GameError as error:
        if isinstance(error, GameNotFound):
            abort(404)
        fresh = store.get_game(game.id) or game
        if isinstance(error, Conflict):
            # Keep what was typed, but on the current version: saving again is a decision.
            form.version.data = str(fresh.version)
            if number is None:
                # The round this form was for may have been entered meanwhile: the kept entries
                # now go to the round that is next (the page says so), or nowhere at the end.
                target = fresh.next_round or target
                form.round.data = str(target)
                if fresh.next_round is None:
                    form = None  # type: ignore[assignment]
            else:
                _merge_stale_correction(form, fresh, number, error)
        return _render_round_page(
            fresh, token, form, target, template=template, error=error, status=error.status
        )
    return redirect(url_for("games.edit", game_id=game.id, token=token, _anchor="scores"), 303)


@bp.post("/games/<game_id>/edit/<token>/rounds")
def add_round(game_id: str, token: str) -> ResponseReturnValue:
    return _save(game_id, token, None)


@bp.route("/games/<game_id>/edit/<token>/rounds/<int:number>", methods=["GET", "POST"])
def edit_round(game_id: str, token: str, number: int) -> ResponseReturnValue:
    """Correct a round already entered."""
    if request.method == "POST":
        return _save(game_id, token, number)
    game = _editable_or_403(game_id, token)
    _entered_or_404(game, number)
    form = _round_form(game, number)
    return _render_round_page(game, token, form, number, template="games/round.html")


@bp.post("/games/<game_id>/edit/<token>/undo")
def undo(game_id: str, token: str) -> ResponseReturnValue:
    game = _editable_or_403(game_id, token)
    form = UndoForm()
    if not form.validate_on_submit():
        abort(400)
    version = _whole(form.version.data)
    try:
        store.undo(game.id, version=version)
    except GameError as error:
        number = game.next_round or len(game.rounds)
        round_form = _round_form(game, number) if game.next_round else None
        fresh = store.get_game(game.id) or game
        return _render_round_page(
            fresh,
            token,
            round_form,
            number,
            template="games/game.html",
            error=error,
            status=error.status,
        )
    return redirect(url_for("games.edit", game_id=game.id, token=token, _anchor="scores"), 303)


# -- sharing and export -------------------------------------------------------------------------


def _qr(link: str) -> Response:
    svg = segno.make(link, error="m").svg_inline(scale=4, border=2, dark="#111", light="#fff")
    response = Response(svg, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response


@bp.get("/games/<game_id>/qr.svg")
def qr_view(game_id: str) -> ResponseReturnValue:
    game = _game_or_404(game_id)
    return _qr(store.view_url(game.id, external=True))


@bp.get("/games/<game_id>/edit/<token>/qr.svg")
def qr_edit(game_id: str, token: str) -> ResponseReturnValue:
    game = _editable_or_403(game_id, token)
    return _qr(store.edit_url(game.id, token, external=True))


def _download_name(game: Game, ext: str) -> str:
    day = game.created_at.strftime("%Y-%m-%d")
    return f"rummy-{game.variant_id}-{day}-{game.id[:6]}.{ext}"


@bp.get("/games/<game_id>.csv")
def export_csv(game_id: str) -> ResponseReturnValue:
    game = _game_or_404(game_id)
    response = Response(store.to_csv(game), mimetype="text/csv")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{_download_name(game, "csv")}"'
    )
    return response


@bp.get("/games/<game_id>.json")
def export_json(game_id: str) -> ResponseReturnValue:
    game = _game_or_404(game_id)
    body = json.dumps(store.to_json(game), ensure_ascii=False, indent=2)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{_download_name(game, "json")}"'
    )
    return response


def change_text(game: Game, change: store.Change) -> str:
    """One line of history: which round, what happened, whose score moved."""

    def summary(results: Any) -> dict[int, str]:
        if results is None:
            return {}
        return {
            seat: gettext("out") if r.went_out else str(r.penalty) for seat, r in enumerate(results)
        }

    before, after = summary(change.before), summary(change.after)
    if before and after:
        moved = [
            f"{name} {before[seat]}→{after[seat]}"
            for seat, name in enumerate(game.players)
            if before.get(seat) != after.get(seat)
        ]
    else:  # a round entered, or taken back: what it held
        held = after or before
        moved = [f"{name} {held[seat]}" for seat, name in enumerate(game.players) if seat in held]
    if change.action == "add":
        text = gettext("Round %(number)s entered", number=change.round)
    elif change.action == "edit":
        text = gettext("Round %(number)s corrected", number=change.round)
    elif change.after is None:
        text = gettext("Undone: round %(number)s taken back", number=change.round)
    else:
        text = gettext("Undone: round %(number)s as it was before", number=change.round)
    return f"{text} ({', '.join(moved)})" if moved else text


def _card_picker_macros() -> tuple[Any, Any]:
    """The shared picker's macros, loaded once per app (a template module costs a render)."""
    cached = current_app.extensions.get("games_card_picker")
    if cached is None or current_app.debug:
        cached = (None, None)
        if current_app.jinja_env.loader is not None and _has_card_picker():
            module = current_app.jinja_env.get_template("_card_picker.html").module
            cached = (module.card_picker_group, module.card_field)
        current_app.extensions["games_card_picker"] = cached
    return cached


def _has_card_picker() -> bool:
    folder = current_app.template_folder or "templates"
    return (Path(current_app.root_path) / folder / "_card_picker.html").exists()


@bp.context_processor
def games_context() -> dict[str, Any]:
    """What the games templates call: words from messages.py, the shared card picker if there."""
    group, field = _card_picker_macros()
    return {
        "variant_name": variant_name,
        "rank_label": rank_label,
        "format_time": format_time,
        "card_picker_group": group,
        "card_field": field,
        "card_picker_css": url_for("static", filename="css/card-picker.css") if group else None,
        "card_picker_js": url_for("static", filename="js/card-picker.js") if group else None,
    }
