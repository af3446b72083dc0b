"""The edit pages: the round screen (enter or correct a round), undo and restore, a rematch.

A posted round form is read into the seats' results (`RoundForm.read_results`: None where a
seat cannot be read, with every reason) and handed to the games service, which checks it once
and keeps it. Its result comes back as the page: saved, the game's page; refused, the same
form with every problem at once, each under its player and field and all listed at the top,
everything typed kept; the same as the round before, a question first; stale (another phone
saved first), this phone's entry kept on the round it was meant for, beside the saved one.
A post that asks for JSON (the offline outbox) gets a refusal as the API says one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, assert_never
from urllib.parse import urlsplit

from flask import Response, abort, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from referee.engine.errors import GameRefused, RefereeError
from referee.engine.game import SeatResult
from referee.web.plumbing.errors import wants_json
from referee.web.plumbing.i18n import current_language
from referee.web.plumbing.idempotency import form_fingerprint, key_of_request
from referee.web.plumbing.numbers import whole_number
from referee.web.vocabulary.messages import describe, describe_reason

from . import bp, service
from .access import editable_game, game_or_404, remember
from .conflicts import ConflictView, conflict_view, entry_texts, merge_stale_correction
from .forms import RematchForm, RoundForm, UndoForm
from .links import edit_url
from .presenting import class_views, editing_context, page_context
from .problems import Problem, problems_by_place, round_problems
from .queries import Entry, StoredGame
from .schemas import Refusal, refused_answer
from .values import data

# -- the pages ---------------------------------------------------------------------------------


@bp.get("/games/<game_id>/edit/<token>")
def edit(game_id: str, token: str) -> ResponseReturnValue:
    """The round screen: the next round's form, the score table, undo and restore."""
    stored = editable_game(game_id, token)
    remember(stored.id, token)
    number = stored.game.next_round
    form = _round_form(stored, number) if number else None
    return _render(stored, token, form, number, template="games/game.html")


@bp.post("/games/<game_id>/edit/<token>/rounds")
def add_round(game_id: str, token: str) -> ResponseReturnValue:
    return _save(game_id, token, None)


@bp.route("/games/<game_id>/edit/<token>/rounds/<int:number>", methods=["GET", "POST"])
def edit_round(game_id: str, token: str, number: int) -> ResponseReturnValue:
    """Correct a round already entered."""
    if request.method == "POST":
        return _save(game_id, token, number)
    stored = editable_game(game_id, token)
    _check_round(stored, number)
    form = _round_form(stored, number)
    return _render(stored, token, form, number, template="games/round.html", correcting=True)


@bp.post("/games/<game_id>/edit/<token>/undo")
def undo(game_id: str, token: str) -> ResponseReturnValue:
    """Take back the newest change (the page asked first: "Undo round 4?")."""
    return _take_back(game_id, token, service.undo, "changes")


@bp.post("/games/<game_id>/edit/<token>/restore")
def restore(game_id: str, token: str) -> ResponseReturnValue:
    """Put back what the newest undo took."""
    return _take_back(game_id, token, service.redo, "scores")


@bp.post("/games/<game_id>/rematch")
def rematch(game_id: str) -> ResponseReturnValue:
    """Another game for the same table, the first deal passed on; this phone may edit it."""
    game_or_404(game_id)
    if not RematchForm().validate_on_submit():
        abort(400)
    again = service.rematch(game_id)
    if not isinstance(again, service.Created):
        abort(404)  # the game went between the page and the tap
    remember(again.stored.id, again.token)
    return redirect(edit_url(again.stored.id, again.token), 303)


# -- a round saved -----------------------------------------------------------------------------


def _save(game_id: str, token: str, number: int | None) -> ResponseReturnValue:
    """A round form posted: read, handed to the service, and its result said as a page."""
    stored = editable_game(game_id, token)
    posted = _read(stored, token, number)
    if isinstance(posted.once, GameRefused):  # a key of another shape than a key
        return _said(stored, token, posted, _notice(posted.once), 400)
    if posted.correcting:
        result: service.RoundWritten = service.correct_round(
            stored, posted.number, posted.typed, version=posted.version, once=posted.once
        )
    else:
        result = service.enter_round(
            stored,
            posted.number,
            posted.typed,
            version=posted.version,
            once=posted.once,
            repeat_ok=bool(posted.form.same_again.data),
        )
    return _saved(stored, token, posted, result)


@dataclass(frozen=True)
class Posted:
    """A round form as posted: which round it is for, what it says, and its key."""

    form: RoundForm
    number: int  # the round it is meant for
    correcting: bool
    typed: service.Typed
    version: int | None  # the version the form was drawn at
    back: str  # where a save leads
    once: service.Once | GameRefused | None  # the form's key (None: it sent none)

    @property
    def template(self) -> str:
        return "games/round.html" if self.correcting else "games/game.html"


def _read(stored: StoredGame, token: str, number: int | None) -> Posted:
    """The posted form read: each seat's result (None where it cannot be read) with every reason,
    the round it was drawn for, the version it saw and its key."""
    game = stored.game
    if number is not None:
        _check_round(stored, number)
    target = number if number is not None else (game.next_round or len(game.rounds) + 1)
    classes = [c.points for c in class_views(game.variant)]  # worked out once for the post
    formdata = _complete_formdata(stored, len(classes))
    form = _round_form(stored, target, formdata=formdata, classes=len(classes))
    form.validate_on_submit()  # each field's own errors, said under it
    results, reasons = form.read_results(game, classes, current_language())
    posted = _whole(form.round.data)
    if number is None and posted is not None and 1 <= posted <= len(game.rounds) + 1:
        target = posted  # the round the form was drawn for (a stale one says so)
    back = _back_url(stored.id, token, corrected=_to_the_scores(number is not None))
    typed = service.Typed(tuple(results), tuple(reasons))
    version = _whole(form.version.data)
    return Posted(form, target, number is not None, typed, version, back, _once(back))


def _check_round(stored: StoredGame, number: int) -> None:
    """A 404 for a round that is not there to correct."""
    if not 1 <= number <= len(stored.game.rounds):
        abort(404, description=describe("no_such_round", {"round": number}))


def _complete_formdata(stored: StoredGame, classes: int) -> Any:
    """The posted form with every seat's fields present (`classes`: the value classes a hand
    may be counted by), so seat i is entry i of the lists.

    (WTForms builds list entries only for the indices it sees: a player who went out posts
    nothing, and the rows after would slide up a seat.)
    """
    formdata = request.form.copy()
    for seat in range(len(stored.game.players)):
        formdata.setdefault(f"seats-{seat}-penalty", "")
        for index in range(classes):
            formdata.setdefault(f"seats-{seat}-classes-{index}", "")
    return formdata


def _round_form(
    stored: StoredGame,
    number: int,
    *,
    formdata: Any = None,
    fill: bool = True,
    classes: int | None = None,
) -> RoundForm:
    """The round form for round `number`, a row a seat with a field per value class (`classes`
    of them, worked out here when the caller has not)."""
    game = stored.game
    form = RoundForm(formdata=formdata)
    if classes is None:
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


def _whole(text: str | None) -> int | None:
    """The hidden version or round of a form, or None when it is not a number."""
    try:
        return whole_number(text or "", low=0)
    except RefereeError:
        return None


#: What the conflict view's form says it settles (templates/games/_conflict.html): after
#: either choice, saving this phone's entry or keeping the saved one, the phone goes on to the
#: next round.
SETTLES_A_CONFLICT = "next-round"


def _to_the_scores(correcting: bool) -> bool:
    """Whether a save goes back to the score table: a correction does, unless it settled a
    conflict (then the phone is on the next round, as after keeping the saved one)."""
    return correcting and request.form.get("then") != SETTLES_A_CONFLICT


def _back_url(game_id: str, token: str, *, corrected: bool) -> str:
    """Where a save leads: the game's page; after a correction, its score table."""
    return f"{edit_url(game_id, token)}#scores" if corrected else edit_url(game_id, token)


def _once(back: str) -> service.Once | GameRefused | None:
    """The form's key: a second post of the same form (a double tap, a retry, the outbox)
    changes nothing and leads where the first did. GameRefused: a key of another shape."""
    try:
        key = key_of_request()
    except GameRefused as refused:
        return refused
    if key is None:
        return None
    fingerprint = form_fingerprint(request.form.items(multi=True))
    return service.Once(key, fingerprint, lambda _stored: service.Answer(303, location=back))


def _saved(
    stored: StoredGame, token: str, posted: Posted, result: service.RoundWritten
) -> ResponseReturnValue:
    """A round's save, as the page says it."""
    match result:
        case service.Saved() | service.Replayed():
            return _back_to_the_game(posted.back)
        case service.Refused(reasons=reasons, current=current):
            problems = round_problems(posted.form, reasons, stored.game.players)
            return _said(current or stored, token, posted, Screen(problems=problems), 400)
        case service.Repeat(of=previous, current=current):
            return _said(current, token, posted, _repeat_screen(posted.number, previous), 400)
        case service.Stale():
            return _stale(token, posted, result)
        case service.KeyReused():
            return _said(stored, token, posted, _notice(result), 422)
        case service.NotFound():  # the game went meanwhile
            abort(404)
    assert_never(result)


def _back_to_the_game(where: str) -> ResponseReturnValue:
    """After a save: the game's page (a correction: its score table). htmx asking from that
    very page follows the redirect and swaps the page in; from another address (a correction's
    page) the phone is told to load it, so that its address says where it is."""
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


def _said(
    stored: StoredGame, token: str, posted: Posted, screen: Screen, status: int
) -> ResponseReturnValue:
    """The form again as it was posted, with what the screen says about it."""
    return _render(
        stored,
        token,
        posted.form,
        posted.number,
        template=posted.template,
        correcting=posted.correcting,
        screen=screen,
        status=status,
    )


def _repeat_screen(number: int, previous: int) -> Screen:
    """A new round that scores exactly as the one before: saved when the table says so."""
    text = describe("same_as_previous_round", {"round": number, "previous": previous})
    problem = Problem(text, None, "repeat", "same-again", "same_as_previous_round")
    return Screen(problems=[problem], repeat=previous)


def _stale(token: str, posted: Posted, stale: service.Stale) -> ResponseReturnValue:
    """Another phone changed the game since this form was made: nothing typed is lost, and the
    entry stays on the round it was meant for. Saving again is a decision."""
    fresh, number = stale.current, posted.number
    if stale.entered_as_sent:  # saved meanwhile just as typed here: nothing to decide
        return _back_to_the_game(posted.back)
    game, form = fresh.game, posted.form
    form.version.data = str(game.version)
    notice = describe(stale.code, stale.params)
    screen = Screen(notice=notice, code=stale.code, since=list(stale.since))
    if number <= len(game.rounds):
        entry = entry_texts(form, posted.typed.results, game.variant)
        screen.conflict = conflict_view(game, number, entry)
        # The table shows this round as saved; what else changed is said below it.
        screen.since = [e for e in screen.since if e.change.round != number]
        if posted.correcting:
            _merge_stale_correction(form, fresh, number, stale.since)
        return _render(
            fresh, token, form, number, template=posted.template, correcting=True, screen=screen,
            status=409,
        )  # fmt: skip
    # Not saved by anyone: still the round to enter, unless an undo took the round before it.
    target = game.next_round
    if target is not None and number != target:
        form.round.data = str(target)
        number = target
    shown = form if target is not None else None
    return _render(fresh, token, shown, number, template=posted.template, screen=screen, status=409)


def _merge_stale_correction(
    form: RoundForm, stored: StoredGame, number: int, since: tuple[Entry, ...]
) -> None:
    """After a 409 on a correction: the round as it was when this form was made and as it is
    now, each drawn as a form, for `conflicts.merge_stale_correction` to keep what this writer
    changed and take the rest from the other writer."""
    base = next((e.change.before for e in since if e.change.round == number), None)
    if base is None or number > len(stored.game.rounds):
        return
    classes = len(class_views(stored.game.variant))
    was = _round_form(stored, number, fill=False, classes=classes)
    fill_results(was, base)
    merge_stale_correction(form, was, _round_form(stored, number, classes=classes))


# -- undo and restore --------------------------------------------------------------------------


class TakeBack(Protocol):
    """The service's undo or redo."""

    def __call__(
        self, game: service.Loaded, *, version: int | None, once: service.Once | None = None
    ) -> service.Written: ...


def _take_back(game_id: str, token: str, take: TakeBack, where: str) -> ResponseReturnValue:
    """Undo or restore, from the version the phone saw; refused, the page says why."""
    stored = editable_game(game_id, token)
    form = UndoForm()
    if not form.validate_on_submit():
        abort(400)
    back = f"{edit_url(stored.id, token)}#{where}"
    once = _once(back)
    if isinstance(once, GameRefused):
        return _taken_back_refused(stored, token, _notice(once), 400)
    match result := take(stored, version=_whole(form.version.data), once=once):
        case service.Saved() | service.Replayed():
            return redirect(back, 303)
        case service.Refused(current=current):
            return _taken_back_refused(current or stored, token, _notice(result), 400)
        case service.Stale(current=current):
            return _taken_back_refused(current, token, _notice(result), 409)
        case service.KeyReused():
            return _taken_back_refused(stored, token, _notice(result), 422)
        case service.NotFound():
            abort(404)
    assert_never(result)


def _taken_back_refused(
    stored: StoredGame, token: str, screen: Screen, status: int
) -> ResponseReturnValue:
    """The game's page as it is now, saying why nothing was taken back."""
    number = stored.game.next_round
    round_form = _round_form(stored, number) if number else None
    return _render(
        stored, token, round_form, number, template="games/game.html", screen=screen, status=status
    )


# -- what the round screen says ----------------------------------------------------------------


@dataclass
class Screen:
    """What the round screen says around the form: problems, a notice, a conflict."""

    problems: list[Problem] = field(default_factory=list)
    notice: str | None = None  # said above the form (a stale version, an undo refused)
    code: str | None = None  # the notice's code
    since: list[Entry] = field(default_factory=list)  # what changed meanwhile
    conflict: ConflictView | None = None  # this phone's entry beside the round saved
    repeat: int | None = None  # the round this one scores exactly as: asks before saving

    def refusals(self, players: tuple[str, ...]) -> list[Refusal]:
        """What the screen says, as the API says a refusal (for a post that asks for JSON)."""
        found = [
            Refusal(
                code=p.code,
                message=p.text,
                player=None if p.seat is None else players[p.seat],
                field=p.field,
            )
            for p in self.problems
        ]
        if self.conflict is not None:  # what the round screen's conflict view says first
            text = gettext(
                "Round %(number)s was saved on another phone", number=self.conflict.number
            )
            found.insert(0, Refusal(code=self.code or "stale_version", message=text))
        elif self.notice:
            found.insert(0, Refusal(code=self.code or "refused", message=self.notice))
        return found


def _notice(
    said: GameRefused | service.Refused | service.Stale | service.KeyReused,
) -> Screen:
    """A refusal said above the form: every reason of a refusal, else what the code says."""
    if isinstance(said, GameRefused | service.Refused):
        text = " ".join(describe_reason(r) for r in said.reasons)
        return Screen(notice=text, code=said.reasons[0].code)
    params = said.params if isinstance(said, service.Stale) else {}
    return Screen(notice=describe(said.code, params), code=said.code)


def _render(
    stored: StoredGame,
    token: str,
    form: RoundForm | None,
    number: int | None,
    *,
    template: str,
    correcting: bool = False,
    screen: Screen | None = None,
    status: int = 200,
) -> ResponseReturnValue:
    """The page (a refusal asked for as JSON: what it says, as the API says a refusal)."""
    game = stored.game
    screen = screen or Screen()
    if status >= 400 and wants_json():
        return jsonify(data(refused_answer(screen.refusals(game.players)))), status
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
