"""The edit pages: the round screen (enter or correct a round), undo and restore, a rematch.

A form becomes the engine's seat results (`RoundForm.read_results`, then the engine's verify)
and the store takes the step. A refusal comes back on the same page with every problem at once,
each under its player and field and all listed at the top, everything typed kept. A new round
that scores exactly as the one before asks first. A stale version (another phone saved first)
keeps this phone's entry on the round it was meant for, beside the saved one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from flask import Response, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from referee.engine.errors import RefereeError
from referee.engine.game import Game, GameRefused, Reason, SeatResult
from referee.web.i18n import current_language
from referee.web.idempotency import form_fingerprint, key_of_request
from referee.web.inputs import whole_number
from referee.web.messages import describe, describe_reason

from . import bp, store
from .access import editable_game, game_or_404, remember
from .conflicts import ConflictView, conflict_view, entry_texts
from .forms import RematchForm, RoundForm, UndoForm
from .links import edit_url
from .presenting import class_views, editing_context, page_context
from .problems import Problem, problems_by_place, round_problems


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


@dataclass
class Screen:
    """What the round screen says around the form: problems, a notice, a conflict."""

    problems: list[Problem] = field(default_factory=list)
    notice: str | None = None  # said above the form (a stale version, an undo refused)
    since: list[store.Entry] = field(default_factory=list)  # what changed meanwhile
    conflict: ConflictView | None = None  # this phone's entry beside the round saved
    repeat: int | None = None  # the round this one scores exactly as: asks before saving


def _render(
    stored: store.StoredGame,
    token: str,
    form: RoundForm | None,
    number: int | None,
    *,
    template: str,
    correcting: bool = False,
    screen: Screen | None = None,
    status: int = 200,
) -> ResponseReturnValue:
    game = stored.game
    screen = screen or Screen()
    placed = problems_by_place(screen.problems)
    context = page_context(stored, token)
    context.update(editing_context(stored))
    context.update(
        form=form,
        number=number,
        correcting=correcting,
        form_action=(
            url_for("games.edit_round", game_id=stored.id, token=token, number=number)
            if correcting
            else url_for("games.add_round", game_id=stored.id, token=token)
        ),
        form_deal=game.deal(number) if form is not None and number else None,
        screen=screen,
        problems_at=lambda seat, *fields: [t for f in fields for t in placed.get((seat, f), [])],
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
    """The round screen: the next round's form, the score table, undo and restore."""
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


@dataclass(frozen=True)
class Posted:
    """A round form as posted: which round it is for, and what it says."""

    form: RoundForm
    number: int  # the round it is meant for
    correcting: bool
    results: list[SeatResult | None]  # None: a seat that could not be read
    reasons: list[Reason]  # everything that cannot be read


def _read(stored: store.StoredGame, number: int | None) -> Posted:
    game = stored.game
    target = number if number is not None else (game.next_round or len(game.rounds) + 1)
    form = _round_form(stored, target, formdata=_complete_formdata(stored))
    form.validate_on_submit()  # each field's own errors, said under it
    classes = [c.points for c in class_views(game.variant)]
    results, reasons = form.read_results(game, classes, current_language())
    posted = _whole(form.round.data)
    if number is not None:
        meant = number
    elif posted is not None and 1 <= posted <= len(game.rounds) + 1:
        meant = posted  # the round the form was drawn for (a stale one says so)
    else:
        meant = target
    return Posted(form, meant, number is not None, results, reasons)


def _verified(game: Game, posted: Posted) -> list[Reason]:
    """What the engine says of the round, beside what could not be read: all at once.

    A seat that could not be read stands in as an empty hand, and the engine's word on that
    hand is left out (the seat already says what is wrong with it).
    """
    unread = {seat for seat, result in enumerate(posted.results) if result is None}
    unread |= {r.player for r in posted.reasons if r.player is not None}
    stand_in = [result or SeatResult() for result in posted.results]
    verify = game.verify_correction if posted.correcting else game.verify_round
    try:
        verify(posted.number, stand_in)
    except GameRefused as refused:
        unmarked = any(r.code == "mark_who_went_out" for r in posted.reasons)
        return [
            r
            for r in refused.reasons
            if not (r.player in unread and r.field in ("penalty", "cards"))
            and not (unmarked and r.code == "no_player_out")
        ]
    return []


def _save(game_id: str, token: str, number: int | None) -> ResponseReturnValue:
    stored = editable_game(game_id, token)
    game = stored.game
    if number is not None and not 1 <= number <= len(game.rounds):
        abort(404, description=describe("no_such_round", {"round": number}))
    posted = _read(stored, number)
    template = "games/game.html" if number is None else "games/round.html"
    once, answer = _key_first(stored, token, posted, template)
    if answer is not None:
        return answer
    version = _whole(posted.form.version.data)
    if version is not None and version != game.version:
        conflict = store.Conflict(version, game.version, store.changes_since(stored.id, version))
        return _stale(game_id, token, posted, template, conflict)
    reasons = [*posted.reasons, *_verified(game, posted)]
    problems = round_problems(posted.form, reasons, game.players)
    if problems:
        screen = Screen(problems=problems)
        return _render(
            stored,
            token,
            posted.form,
            posted.number,
            template=template,
            correcting=posted.correcting,
            screen=screen,
            status=400,
        )
    results = [r for r in posted.results if r is not None]
    again = not posted.correcting and not posted.form.same_again.data
    if again and game.repeats_previous(posted.number, results):
        return _ask_again(stored, token, posted, template)
    try:
        if posted.correcting:
            store.correct_round(stored.id, posted.number, results, version=version, once=once)
        else:
            store.enter_round(stored.id, posted.number, results, version=version, once=once)
    except (store.Replayed, store.KeyReused) as error:  # the same key came in between
        return _key_answer(stored, token, posted, template, error)
    except GameRefused as refused:  # another phone's change came between the check and now
        fresh = store.load(stored.id) or stored
        screen = Screen(problems=round_problems(posted.form, refused.reasons, game.players))
        return _render(
            fresh,
            token,
            posted.form,
            posted.number,
            template=template,
            correcting=posted.correcting,
            screen=screen,
            status=400,
        )
    except store.Conflict as conflict:
        return _stale(game_id, token, posted, template, conflict)
    except store.GameNotFound:
        abort(404)
    return _back_to_the_game(stored.id, token, corrected=_to_the_scores(posted))


#: What the conflict view's form says it settles (templates/games/_conflict.html): after
#: either choice, saving this phone's entry or keeping the saved one, the phone goes on to the
#: next round.
SETTLES_A_CONFLICT = "next-round"


def _to_the_scores(posted: Posted) -> bool:
    """Whether a save goes back to the score table: a correction does, unless it settled a
    conflict (then the phone is on the next round, as after keeping the saved one)."""
    return posted.correcting and request.form.get("then") != SETTLES_A_CONFLICT


def _back_url(game_id: str, token: str, *, corrected: bool) -> str:
    """Where a save leads: the game's page; after a correction, its score table."""
    return f"{edit_url(game_id, token)}#scores" if corrected else edit_url(game_id, token)


def _back_to_the_game(game_id: str, token: str, *, corrected: bool) -> ResponseReturnValue:
    """After a save: the game's page (a correction: its score table). htmx asking from that
    very page follows the redirect and swaps the page in; from another address (a correction's
    page) the phone is told to load it, so that its address says where it is."""
    where = _back_url(game_id, token, corrected=corrected)
    if request.headers.get("HX-Request") and not _asked_from(where):
        response = Response(status=204)
        response.headers["HX-Redirect"] = where
        return response
    return redirect(where, 303)


def _asked_from(where: str) -> bool:
    """Whether an htmx request comes from the page at `where` (told to load an address that
    differs only by its #part, a browser would merely scroll, leaving the old page on screen)."""
    current = urlsplit(request.headers.get("HX-Current-URL", ""))
    return current.path == urlsplit(where).path


def _ask_again(
    stored: store.StoredGame, token: str, posted: Posted, template: str
) -> ResponseReturnValue:
    """A new round that scores exactly as the one before: more often the last round sent
    again than a table dealt the same twice. Saved when the table says so."""
    previous = posted.number - 1
    text = describe("same_as_previous_round", {"round": posted.number, "previous": previous})
    screen = Screen(problems=[Problem(text, None, "repeat", "same-again")], repeat=previous)
    return _render(
        stored, token, posted.form, posted.number, template=template, screen=screen, status=400
    )


def _once(back: str) -> store.Once | None:
    """The form's key: a second post of the same form (a double tap, a retry) changes nothing.

    GameRefused for a key of another shape than a key.
    """
    key = key_of_request()
    if key is None:
        return None
    fingerprint = form_fingerprint(request.form.items(multi=True))
    return store.Once(key, fingerprint, lambda _stored: store.Answer(303, location=back))


def _key_first(
    stored: store.StoredGame, token: str, posted: Posted, template: str
) -> tuple[store.Once | None, ResponseReturnValue | None]:
    """The form's key, or the answer when that key came before: a retry (a double tap, a lost
    answer, the outbox) is answered before any check, never judged stale or a repeat."""
    try:
        once = _once(_back_url(stored.id, token, corrected=_to_the_scores(posted)))
        if once is not None:
            store.answered(stored.id, once)
    except (store.Replayed, store.KeyReused, GameRefused) as error:
        return None, _key_answer(stored, token, posted, template, error)
    return once, None


def _key_answer(
    stored: store.StoredGame,
    token: str,
    posted: Posted,
    template: str,
    error: store.Replayed | store.KeyReused | GameRefused,
) -> ResponseReturnValue:
    """Saved before under this key: where the save led. The key came before with another entry
    (422), or is no key at all (400): the entry stays as typed, with a fresh key to save it by."""
    if isinstance(error, store.Replayed):
        return _back_to_the_game(stored.id, token, corrected=_to_the_scores(posted))
    if isinstance(error, GameRefused):
        notice, status = " ".join(describe_reason(r) for r in error.reasons), 400
    else:
        notice, status = describe(error.code, error.params), 422
    return _render(
        stored,
        token,
        posted.form,
        posted.number,
        template=template,
        correcting=posted.correcting,
        screen=Screen(notice=notice),
        status=status,
    )


def _stale(
    game_id: str, token: str, posted: Posted, template: str, conflict: store.Conflict
) -> ResponseReturnValue:
    """Another phone changed the game since this form was made: nothing typed is lost, and the
    entry stays on the round it was meant for. Saving again is a decision."""
    fresh = editable_game(game_id, token)
    game = fresh.game
    form = posted.form
    form.version.data = str(game.version)
    screen = Screen(notice=describe(conflict.code, conflict.params), since=conflict.since)
    number = posted.number
    if number <= len(game.rounds):
        entry = entry_texts(form, posted.results, game.variant)
        if not posted.correcting and _saved_as_typed(game, posted):
            return _back_to_the_game(fresh.id, token, corrected=False)
        screen.conflict = conflict_view(game, number, entry)
        # The table shows this round as saved; what else changed is said below it.
        screen.since = [e for e in screen.since if e.change.round != number]
        if posted.correcting:
            _merge_stale_correction(form, fresh, number, conflict)
        return _render(
            fresh,
            token,
            form,
            number,
            template=template,
            correcting=True,
            screen=screen,
            status=409,
        )
    # Not saved by anyone: still the round to enter, unless an undo took the round before it.
    target = game.next_round
    if target is not None and number != target:
        form.round.data = str(target)
        number = target
    shown = form if target is not None else None
    return _render(fresh, token, shown, number, template=template, screen=screen, status=409)


def _saved_as_typed(game: Game, posted: Posted) -> bool:
    """Whether the round this new entry was meant for was saved meanwhile just as typed here."""
    if any(result is None for result in posted.results) or posted.reasons:
        return False
    results = [r for r in posted.results if r is not None]
    try:
        game.verify_correction(posted.number, results)
    except GameRefused as refused:
        return any(r.code == "nothing_changed" for r in refused.reasons)
    return False


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
    return _render(stored, token, form, number, template="games/round.html", correcting=True)


def _take_back(
    game_id: str, token: str, take: Callable[..., store.StoredGame], where: str
) -> ResponseReturnValue:
    """Undo or restore, from the version the phone saw; refused, the page says why."""
    stored = editable_game(game_id, token)
    form = UndoForm()
    if not form.validate_on_submit():
        abort(400)
    back = f"{edit_url(stored.id, token)}#{where}"
    try:
        take(stored.id, version=_whole(form.version.data), once=_once(back))
    except store.Replayed:
        return redirect(back, 303)
    except (GameRefused, store.Conflict, store.KeyReused) as error:
        fresh = store.load(stored.id) or stored
        number = fresh.game.next_round
        round_form = _round_form(fresh, number) if number else None
        if isinstance(error, GameRefused):
            status, notice = 400, " ".join(describe_reason(r) for r in error.reasons)
        elif isinstance(error, store.KeyReused):
            status, notice = 422, describe(error.code, error.params)
        else:
            status, notice = 409, describe(error.code, error.params)
        return _render(
            fresh,
            token,
            round_form,
            number,
            template="games/game.html",
            screen=Screen(notice=notice),
            status=status,
        )
    return redirect(back, 303)


@bp.post("/games/<game_id>/edit/<token>/undo")
def undo(game_id: str, token: str) -> ResponseReturnValue:
    """Take back the newest change (the page asked first: "Undo round 4?")."""
    return _take_back(game_id, token, store.undo, "changes")


@bp.post("/games/<game_id>/edit/<token>/restore")
def restore(game_id: str, token: str) -> ResponseReturnValue:
    """Put back what the newest undo took."""
    return _take_back(game_id, token, store.redo, "scores")


@bp.post("/games/<game_id>/rematch")
def rematch(game_id: str) -> ResponseReturnValue:
    """Another game for the same table, the first deal passed on; this phone may edit it."""
    stored = game_or_404(game_id)
    if not RematchForm().validate_on_submit():
        abort(400)
    again, token = store.create(stored.game.rematch(), lang=stored.lang)
    remember(again.id, token)
    return redirect(edit_url(again.id, token), 303)
