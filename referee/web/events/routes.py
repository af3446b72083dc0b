"""The club nights' pages: a new evening from the club's page, the host's page (check-in, the
draw with its seed, the swap, the tables' QR codes, the standings), the read-only page, the
room's board and its one refreshing fragment, the files (JSON, CSV, table cards, standings).

Each view reads its input, asks the service once and maps its result (thin: 25 lines at most).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from flask import Response, abort, redirect, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from werkzeug.wrappers import Response as HttpResponse

from referee.engine.errors import Reason, RefereeError, reason
from referee.web.clubs.access import editable_club, remember
from referee.web.clubs.links import edit_url as club_edit_url
from referee.web.clubs.store import StoredClub
from referee.web.core.languages import LANGUAGES
from referee.web.games import links as game_links
from referee.web.plumbing import formats
from referee.web.plumbing.numbers import plain_count
from referee.web.plumbing.qr import qr_response
from referee.web.vocabulary.house_rules import overrides_from_query
from referee.web.vocabulary.messages import describe_reason
from referee.web.vocabulary.words import variant_name

from . import bp, exports, printing, service
from .access import editable_event, event_or_404
from .forms import CheckInForm, NewEventForm, SeatingForm, SeriesForm
from .links import edit_url, view_url
from .presenting import board_context, board_etag, club_name, page_context, results_text
from .store import StoredEvent


def _said(reasons: Sequence[Reason]) -> list[str]:
    return [describe_reason(found) for found in reasons]


# -- a new evening ------------------------------------------------------------------------------


def _house_rules(text: str) -> dict[str, Any]:
    """`name=value` lines as house rules (HouseRuleError when one cannot be read)."""
    pairs = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    unread = [line for line in text.splitlines() if line.strip() and "=" not in line]
    return overrides_from_query({k.strip(): v.strip() for k, v in pairs.items()} | (
        {"house_rules": unread[0]} if unread else {}
    ))  # fmt: skip


def _new_page(
    club: StoredClub, token: str, form: NewEventForm, errors: Sequence[str], status: int
) -> ResponseReturnValue:
    back = club_edit_url(club.id, token)
    page = render_template(
        "events/new.html", club=club, token=token, form=form, errors=list(errors), back=back
    )
    return page, status


@bp.route("/clubs/<club_id>/edit/<token>/events/new", methods=["GET", "POST"])
def new(club_id: str, token: str) -> ResponseReturnValue:
    """A new evening in the club; a 403 without the club's edit token."""
    club = editable_club(club_id, token)
    form = NewEventForm(formdata=request.form if request.method == "POST" else None)
    form.setup()
    if request.method == "GET":
        form.lang.data, form.name.data = club.lang, gettext("Club night")
        return _new_page(club, token, form, (), 200)
    if not form.validate_on_submit():
        return _new_page(club, token, form, (), 400)
    try:
        settings = form.settings(_house_rules(form.house_rules.data or ""))
    except RefereeError as error:
        found = reason(error.code, field="house_rules", **error.params)
        return _new_page(club, token, form, [describe_reason(found)], 400)
    made = service.create(club.id, token, settings, lang=form.lang.data or club.lang)
    if isinstance(made, service.Created):
        return redirect(edit_url(club.id, made.stored.id, token), code=303)
    return _new_page(club, token, form, _said(getattr(made, "reasons", ())), 400)


# -- the evening's page -------------------------------------------------------------------------


def _page(
    stored: StoredEvent,
    token: str | None,
    *,
    errors: Sequence[str] = (),
    status: int = 200,
    typed: Any = None,
    seating: Any = None,
) -> ResponseReturnValue:
    """The evening's page; `typed`, `seating`: a check-in's or a seating rule's form as posted
    (a refused one keeps what was chosen)."""
    context = page_context(stored, token, request.args.get("series"))
    forms = _forms(stored, token, typed, seating) if token else {}
    page = render_template("events/event.html", errors=list(errors), **context, **forms)
    return page, status


def _forms(
    stored: StoredEvent, token: str, typed: Any = None, seating: Any = None
) -> dict[str, Any]:
    check_in = CheckInForm(formdata=typed)
    here = {p.name for p in stored.event.players if p.present}
    club = service.club_members(stored.club_id)
    check_in.setup([name for name in club if name not in here])
    series = SeriesForm(formdata=None)
    newest = stored.event.series[-1] if stored.event.series else None
    series.setup([] if newest is None or newest.started else newest.seats)
    rules = SeatingForm(formdata=seating)
    rules.setup([p.name for p in stored.event.players if p.present], stored.event.most_tables)
    return {"check_in_form": check_in, "series_form": series, "seating_form": rules}


@bp.get("/clubs/<club_id>/events/<event_id>")
def show(club_id: str, event_id: str) -> ResponseReturnValue:
    """The evening, read only: its series, tables and standings."""
    return _page(event_or_404(club_id, event_id), None)


@bp.get("/clubs/<club_id>/events/<event_id>/edit/<token>")
def edit(club_id: str, event_id: str, token: str) -> ResponseReturnValue:
    """The host's page: check-in, the draw, the swap, the tables' QR codes."""
    stored = editable_event(club_id, event_id, token)
    remember(club_id, token)
    return _page(stored, token)


def _after(
    stored: StoredEvent,
    token: str,
    result: Any,
    anchor: str,
    typed: Any = None,
    seating: Any = None,
) -> ResponseReturnValue:
    """A write's result as the host's page answers it: back where the host was (`anchor`)."""
    match result:
        case service.Changed(kept):
            return redirect(f"{edit_url(kept.club_id, kept.id, token)}#{anchor}", code=303)
        case service.Refused(reasons):
            return _page(
                stored, token, errors=_said(reasons), status=400, typed=typed, seating=seating
            )
        case service.Conflict(reasons, current):
            return _page(current, token, errors=_said(reasons), status=409)
        case service.Stale(_, current):
            said = gettext(
                "The evening changed on another phone meanwhile: here it is as it is now."
            )
            return _page(current, token, errors=[said], status=409)
        case _:
            abort(404)


def _version() -> int | None:
    """The version the form was drawn at; one that is sent but unreadable matches none (409)."""
    sent = request.form.get("version")
    if sent is None:
        return None
    read = plain_count(sent)
    return -1 if read is None else read


@bp.post("/clubs/<club_id>/events/<event_id>/edit/<token>/players")
def players(club_id: str, event_id: str, token: str) -> ResponseReturnValue:
    """Check-in (members by tap, new names), or one player leaving."""
    stored = editable_event(club_id, event_id, token)
    if "leave" in request.form:
        name = request.form.get("name", "")
        result = service.leave(club_id, event_id, token, name, version=_version())
        return _after(stored, token, result, "players")
    form = CheckInForm()
    form.setup(service.club_members(club_id))
    names = form.names()
    result = service.check_in(club_id, event_id, token, names, version=_version())
    return _after(stored, token, result, "players", typed=request.form)


@bp.post("/clubs/<club_id>/events/<event_id>/edit/<token>/seating")
def seating(club_id: str, event_id: str, token: str) -> ResponseReturnValue:
    """A seating rule added (two players apart or together, one at a fixed table), or one
    removed (`remove`: its number in the list)."""
    stored = editable_event(club_id, event_id, token)
    if "remove" in request.form:
        number = plain_count(request.form.get("remove", ""))
        result = service.remove_seating_rule(
            club_id, event_id, token, -1 if number is None else number, version=_version()
        )
        return _after(stored, token, result, "seating")
    form = SeatingForm()
    result = service.add_seating_rule(club_id, event_id, token, form.rule(), version=_version())
    return _after(stored, token, result, "seating", seating=request.form)


#: Where the host's page opens after each action of the series' form.
_SERIES_ANCHORS = {"start": "series-{}", "reopen": "series-{}", "close": "series-{}"}


@bp.post("/clubs/<club_id>/events/<event_id>/edit/<token>/series")
def series(club_id: str, event_id: str, token: str) -> ResponseReturnValue:
    """Draw the next series (by the method chosen), swap two players or move one, start it,
    draw it again; reopen a series the next draw fixed, or close it again."""
    stored = editable_event(club_id, event_id, token)
    form, action = request.form, request.form.get("action", "draw")
    sent = form.get("series", "")
    read = plain_count(sent)
    # Unreadable: the engine refuses it as no series it could draw (a 400, said with the text).
    number = sent[:10] if read is None else read
    result = _series_act(club_id, event_id, token, number, action, form)
    anchor = _SERIES_ANCHORS.get(action, "draw").format(number)
    return _after(stored, token, result, anchor)


def _series_act(
    club_id: str, event_id: str, token: str, number: Any, action: str, form: Any
) -> service.Written:
    args, version = (club_id, event_id, token, number), _version()
    match action:
        case "swap":
            first, second = form.get("first", ""), form.get("second", "")
            return service.swap(*args, first, second, version=version)
        case "move":
            table = plain_count(form.get("table", ""))
            moved = form.get("name", "")
            return service.move(*args, moved, -1 if table is None else table, version=version)
        case "start":
            return service.start(*args, version=version)
        case "withdraw":
            return service.withdraw(*args, version=version)
        case "reopen":
            return service.reopen(*args, version=version)
        case "close":
            return service.close(*args, version=version)
        case _:
            method = form.get("method") or None
            return service.draw(*args, method=method, version=version)


@bp.get("/clubs/<club_id>/events/<event_id>/edit/<token>/tables/<int:number>/<int:table>/qr.svg")
def table_qr(
    club_id: str, event_id: str, token: str, number: int, table: int
) -> ResponseReturnValue:
    """A table's QR code: its game's edit page."""
    stored = editable_event(club_id, event_id, token)
    found = service.table_edit_link_token(stored, number, table)
    if found is None:
        abort(404)
    return qr_response(game_links.edit_url(*found, external=True))


# -- the room's board -----------------------------------------------------------------------------


@bp.get("/clubs/<club_id>/events/<event_id>/board")
def board(club_id: str, event_id: str) -> ResponseReturnValue:
    """The room's board: full screen, large type, dark (light with `?light`: a bright room),
    no controls; it refreshes itself."""
    stored = event_or_404(club_id, event_id)
    light = request.args.get("light") is not None
    context = board_context(stored, light=light)
    return render_template("events/board.html", light=light, **context)


@bp.get("/clubs/<club_id>/events/<event_id>/board/live")
def board_live(club_id: str, event_id: str) -> ResponseReturnValue:
    """THE board's refresh (one fragment, `#board-live` with the evening's version): 204 to
    htmx while `since` is the version, 304 to a conditional request, else the fragment. The
    live push (issue 18) can send the same fragment when the version moves."""
    version = service.version_of(event_id)
    if version is None:
        abort(404)
    light = request.args.get("light") is not None
    etag = board_etag(version, light=light)
    if request.args.get("since") == str(version) and request.headers.get("HX-Request"):
        response = Response(status=204)
    elif request.if_none_match.contains(etag):
        response = Response()  # make_conditional answers it with a 304
    else:
        stored = event_or_404(club_id, event_id)
        context = board_context(stored, light=light)
        page = render_template("events/_board_live.html", light=light, **context)
        response = Response(page)
    response.set_etag(etag)
    response.cache_control.no_cache = True
    response.vary.add("HX-Request")
    return response.make_conditional(request)


# -- files ----------------------------------------------------------------------------------------


def _download(stored: StoredEvent, body: str | bytes, mimetype: str, name: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = (
        f'attachment; filename="rummy-evening-{stored.id[:6]}{name}"'
    )
    return response


@bp.get("/clubs/<club_id>/events/<event_id>.json")
def export_json(club_id: str, event_id: str) -> ResponseReturnValue:
    stored = event_or_404(club_id, event_id)
    body = json.dumps(exports.event_file(stored), ensure_ascii=False, indent=1)
    return _download(stored, body, "application/json", ".json")


@bp.get("/clubs/<club_id>/events/<event_id>.csv")
def export_csv(club_id: str, event_id: str) -> ResponseReturnValue:
    stored = event_or_404(club_id, event_id)
    return _download(stored, exports.to_csv(stored, pdf_language(stored)), "text/csv", ".csv")


@bp.get("/clubs/<club_id>/events/<event_id>/results.txt")
def results_txt(club_id: str, event_id: str) -> ResponseReturnValue:
    """The results as a message for the club's chat (what the evening's page offers to share),
    in the evening's language or `?lang`'s."""
    stored = event_or_404(club_id, event_id)
    text = results_text(
        stored,
        pdf_language(stored),
        club=club_name(stored.club_id),
        link=view_url(stored.club_id, stored.id, external=True),
    )
    response = Response(text, mimetype="text/plain")
    response.cache_control.no_cache = True
    return response


def pdf_language(stored: StoredEvent) -> str:
    """A file's language: the evening's, or the one `?lang` names (a 400 for one we do not
    speak)."""
    asked = request.args.get("lang")
    if asked is None:
        return stored.lang
    if asked not in LANGUAGES:
        abort(400)
    return asked


def printed(pdf: printing.Pdf) -> HttpResponse:
    response = Response(pdf.cached.body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{pdf.filename}"'
    response.set_etag(pdf.cached.etag)
    response.cache_control.no_cache = True
    return response.make_conditional(request)


def paper_asked() -> str:
    paper = request.args.get("paper", "a4").strip().lower() or "a4"
    if paper not in ("a4", "letter"):
        abort(400, description=gettext("Paper must be A4 or Letter."))
    return paper


@bp.get("/clubs/<club_id>/events/<event_id>/edit/<token>/series/<int:number>/tables.pdf")
def table_cards(club_id: str, event_id: str, token: str, number: int) -> ResponseReturnValue:
    """A series' table cards (with each table's QR) and blank sheets, one PDF."""
    stored = editable_event(club_id, event_id, token)
    if stored.event.series_of(number) is None:
        abort(404)
    links = service.table_edit_links(stored, number)
    lang, paper = pdf_language(stored), paper_asked()
    return printed(printing.table_cards(stored.id, stored.event, number, links, lang, paper))


@bp.get("/clubs/<club_id>/events/<event_id>/standings.pdf")
def standings_pdf(club_id: str, event_id: str) -> ResponseReturnValue:
    """The evening's standings as they stand (final once every table finished)."""
    stored = event_or_404(club_id, event_id)
    lang, paper = pdf_language(stored), paper_asked()
    return printed(printing.standings_pdf(stored.id, stored.event, lang, paper))


@bp.context_processor
def events_context() -> dict[str, object]:
    return {
        "variant_name": variant_name,
        "format_day": formats.day,
        "format_number": formats.number,
    }


@bp.app_context_processor
def evenings_of_club_context() -> dict[str, object]:
    """The club page lists its evenings (templates/events/_of_club.html) without the clubs
    package importing this one."""

    def club_evenings(club_id: str) -> list[tuple[str, str, Any]]:
        return [(eid, name, day) for eid, name, day, _ in service.of_club(club_id)]

    return {"club_evenings": club_evenings}


@bp.app_context_processor
def series_games_context() -> dict[str, object]:
    """The club page marks its games that were a club night's tables (clubs never import
    events): `series_games(ids)` -> {game id: {event, name, series, table}}."""
    return {"series_games": service.series_games}


@bp.app_context_processor
def event_of_game_context() -> dict[str, object]:
    """A game's page says which evening's table it is (templates/events/_of_game.html), without
    the games package importing this one."""
    return {"game_in_event": service.table_of_game}
