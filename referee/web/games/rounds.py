"""The edit pages: the score table with the next round's form, corrections, undo.

A form becomes the engine's seat results (`RoundForm.seat_results`) and the store takes the
step; a refusal comes back on the same page with every reason and everything typed kept. A
stale version (another phone saved first) keeps what this phone typed on the current version.
"""

from __future__ import annotations

from typing import Any

from flask import abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from referee.engine.errors import RefereeError
from referee.engine.game import GameRefused, Reason, SeatResult, reason
from referee.web.i18n import current_language
from referee.web.idempotency import HEADER, form_fingerprint, key_of_request
from referee.web.inputs import whole_number
from referee.web.messages import describe, describe_reason

from . import bp, store
from .access import editable_game, remember
from .forms import RoundForm, UndoForm
from .presenting import class_views, editing_context, page_context


def _round_form(
    stored: store.StoredGame, number: int, *, formdata: Any = None, fill: bool = True
) -> RoundForm:
    game = stored.game
    form = RoundForm(formdata=formdata)
    classes = len(class_views(game.variant))
    while len(form.seats.entries) < len(game.players):
        form.seats.append_entry()
    for seat_form in form.seats.entries:
        while len(seat_form.form.classes.entries) < classes:
            seat_form.form.classes.append_entry()
    if formdata is None:
        form.version.data = str(game.version)
        form.round.data = str(number)
        if fill and number <= len(game.rounds):
            fill_results(form, game.rounds[number - 1].results)
    return form


def fill_results(form: RoundForm, results: tuple[SeatResult, ...]) -> None:
    """Show a round's results in the form (a correction starts from what was entered)."""
    out = next((seat for seat, r in enumerate(results) if r.went_out), None)
    form.went_out.data = "none" if out is None else str(out)
    form.rummy.data = any(r.rummy for r in results)
    for seat_form, result in zip(form.seats.entries, results, strict=True):
        seat = seat_form.form
        # A hand entered by its cards shows its cards; the points follow from them (a number
        # beside them would have to be changed with every card).
        cards = result.cards if not result.went_out else None
        seat.cards.data = " ".join(str(card) for card in cards) if cards is not None else None
        seat.penalty.data = result.penalty if cards is None and not result.went_out else None
        seat.buys.data = result.buys or None


def _merge_stale_correction(
    form: RoundForm, stored: store.StoredGame, number: int, error: store.Conflict
) -> None:
    """After a 409 on a correction: take the other writer's values where this one typed nothing.

    A field still holding what the round had when this form was made was not touched here, so
    it shows the round as it is now; only what this writer changed stays theirs. Without this,
    saving again would quietly put back the values the other phone had just corrected.
    """
    base = next((e.change.before for e in error.since if e.change.round == number), None)
    if base is None or number > len(stored.game.rounds):
        return
    was = _round_form(stored, number, fill=False)
    fill_results(was, base)
    now = _round_form(stored, number)

    def same(a: Any, b: Any) -> bool:
        return str(a if a is not None else "").strip() == str(b if b is not None else "").strip()

    pairs: list[tuple[Any, Any, Any]] = [
        (form.went_out, was.went_out, now.went_out),
        (form.rummy, was.rummy, now.rummy),
    ]
    for mine, before, current in zip(form.seats, was.seats, now.seats, strict=False):
        if any(entry.data for entry in mine.form.classes.entries):
            continue  # counted by value here: this writer's count decides the points
        for name in ("penalty", "cards", "buys"):
            pairs.append((mine.form[name], before.form[name], current.form[name]))
    for mine, before, current in pairs:
        if same(mine.data, before.data):
            mine.data = current.data
            mine.raw_data = None


def _render(
    stored: store.StoredGame,
    token: str,
    form: RoundForm | None,
    number: int | None,
    *,
    template: str,
    reasons: tuple[Reason, ...] = (),
    since: list[store.Entry] | None = None,
    status: int = 200,
) -> ResponseReturnValue:
    game = stored.game
    context = page_context(stored, token)
    context.update(editing_context(stored))
    context.update(
        form=form,
        number=number,
        form_deal=game.deal(number) if form is not None and number else None,
        errors=[describe_reason(r, game.players) for r in reasons],
        error_seats={r.player for r in reasons if r.player is not None},
        since=since or [],
        undo_form=UndoForm(formdata=None, version=str(game.version)),
    )
    return render_template(template, **context), status


def _whole(text: str | None) -> int | None:
    """The hidden version or round of a form, or None when it is not a number."""
    try:
        return whole_number(text or "", low=0)
    except RefereeError:
        return None


@bp.get("/games/<game_id>/edit/<token>")
def edit(game_id: str, token: str) -> ResponseReturnValue:
    """The score table with the next round's form, corrections and undo."""
    stored = editable_game(game_id, token)
    remember(stored.id, token)
    number = stored.game.next_round
    form = _round_form(stored, number) if number else None
    return _render(stored, token, form, number, template="games/game.html")


def _complete_formdata(stored: store.StoredGame) -> Any:
    """The posted form with every seat's fields present, so seat i is entry i of the lists.

    (WTForms builds list entries only for the indices it sees: a player who went out posts
    nothing, and the rows after would slide up a seat.)
    """
    formdata = request.form.copy()
    classes = len(class_views(stored.game.variant))
    for seat in range(len(stored.game.players)):
        formdata.setdefault(f"seats-{seat}-penalty", "")
        for index in range(classes):
            formdata.setdefault(f"seats-{seat}-classes-{index}", "")
    return formdata


def _save(game_id: str, token: str, number: int | None) -> ResponseReturnValue:
    stored = editable_game(game_id, token)
    game = stored.game
    if number is not None and not 1 <= number <= len(game.rounds):
        abort(404, description=describe("no_such_round", {"round": number}))
    target = number if number is not None else (game.next_round or len(game.rounds) + 1)
    form = _round_form(stored, target, formdata=_complete_formdata(stored))
    template = "games/game.html" if number is None else "games/round.html"
    if not form.validate_on_submit():
        reasons = (reason("check_fields", field="form"),)
        return _render(stored, token, form, target, template=template, reasons=reasons, status=400)
    version = _whole(form.version.data)
    classes = [c.points for c in class_views(game.variant)]
    back = url_for("games.edit", game_id=stored.id, token=token, _anchor="scores")
    try:
        once = _once(back)
        results = form.seat_results(game, classes, current_language())
        if number is None:
            number_posted = _whole(form.round.data) or target
            store.enter_round(stored.id, number_posted, results, version=version, once=once)
        else:
            store.correct_round(stored.id, number, results, version=version, once=once)
    except store.Replayed as replay:
        return redirect(replay.answer.location or back, 303)
    except store.KeyReused as reused:
        reasons = (reason(reused.code, field=HEADER),)
        return _render(stored, token, form, target, template=template, reasons=reasons, status=422)
    except GameRefused as refused:
        fresh = store.load(stored.id) or stored
        return _render(
            fresh, token, form, target, template=template, reasons=refused.reasons, status=400
        )
    except store.Conflict as conflict:
        return _stale(game_id, token, form, number, target, template, conflict)
    except store.GameNotFound:
        abort(404)
    return redirect(back, 303)


def _once(back: str) -> store.Once | None:
    """The form's key: a second post of the same form (a double tap, a retry) changes nothing.

    GameRefused for a key of another shape than a key.
    """
    try:
        key = key_of_request()
    except RefereeError as error:
        raise GameRefused([reason(error.code, field=HEADER)]) from None
    if key is None:
        return None
    fingerprint = form_fingerprint(request.form.items(multi=True))
    return store.Once(key, fingerprint, lambda _stored: store.Answer(303, location=back))


def _stale(
    game_id: str,
    token: str,
    form: RoundForm,
    number: int | None,
    target: int,
    template: str,
    conflict: store.Conflict,
) -> ResponseReturnValue:
    """Keep what was typed, on the current version: saving again is a decision."""
    fresh = editable_game(game_id, token)
    form.version.data = str(fresh.game.version)
    shown: RoundForm | None = form
    if number is None:
        # The round this form was for may have been entered meanwhile: the kept entries now go
        # to the round that is next (the page says so), or nowhere at the end.
        target = fresh.game.next_round or target
        form.round.data = str(target)
        if fresh.game.next_round is None:
            shown = None
    else:
        _merge_stale_correction(form, fresh, number, conflict)
    reasons = (reason(conflict.code, **conflict.params),)
    return _render(
        fresh,
        token,
        shown,
        target,
        template=template,
        reasons=reasons,
        since=conflict.since,
        status=409,
    )


@bp.post("/games/<game_id>/edit/<token>/rounds")
def add_round(game_id: str, token: str) -> ResponseReturnValue:
    return _save(game_id, token, None)


@bp.route("/games/<game_id>/edit/<token>/rounds/<int:number>", methods=["GET", "POST"])
def edit_round(game_id: str, token: str, number: int) -> ResponseReturnValue:
    """Correct a round already entered."""
    if request.method == "POST":
        return _save(game_id, token, number)
    stored = editable_game(game_id, token)
    if not 1 <= number <= len(stored.game.rounds):
        abort(404, description=describe("no_such_round", {"round": number}))
    form = _round_form(stored, number)
    return _render(stored, token, form, number, template="games/round.html")


@bp.post("/games/<game_id>/edit/<token>/undo")
def undo(game_id: str, token: str) -> ResponseReturnValue:
    stored = editable_game(game_id, token)
    form = UndoForm()
    if not form.validate_on_submit():
        abort(400)
    back = url_for("games.edit", game_id=stored.id, token=token, _anchor="scores")
    try:
        store.undo(stored.id, version=_whole(form.version.data), once=_once(back))
    except store.Replayed:
        return redirect(back, 303)
    except (GameRefused, store.Conflict, store.KeyReused) as error:
        fresh = store.load(stored.id) or stored
        number = fresh.game.next_round
        round_form = _round_form(fresh, number) if number else None
        if isinstance(error, GameRefused):
            reasons, status = error.reasons, 400
        elif isinstance(error, store.KeyReused):
            reasons, status = (reason(error.code, field=HEADER),), 422
        else:
            reasons, status = (reason(error.code, **error.params),), 409
        return _render(
            fresh,
            token,
            round_form,
            number,
            template="games/game.html",
            reasons=reasons,
            status=status,
        )
    return redirect(back, 303)
