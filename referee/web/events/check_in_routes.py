"""The check-in link's pages: the player's phone (tap a name or type a new one, check out,
then "your table, your seat, who deals"), the link's QR on the board, and the host's controls
(close or open the link, undo what a phone did, the poster).

Each view reads its input, asks `check_in` or the service once and maps its result.
"""

from __future__ import annotations

from typing import Any

from flask import abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from referee.engine.names import MAX_NAME
from referee.web.plumbing.hosting import keep_private
from referee.web.plumbing.i18n import known_language
from referee.web.plumbing.numbers import plain_count
from referee.web.plumbing.qr import qr_response
from referee.web.vocabulary.messages import describe, describe_reason

from . import bp, check_in, check_in_messages, printing, service  # noqa: F401  (words registered)
from .access import editable_event, event_or_404
from .forms import SelfCheckInForm
from .links import edit_url
from .routes import paper_asked, pdf_language, printed
from .store import StoredEvent


def check_in_url(club_id: str, event_id: str, *, external: bool = False) -> str:
    key = check_in.key_of(club_id, event_id)
    return url_for(
        "events.check_in_page", club_id=club_id, event_id=event_id, key=key, _external=external
    )


def _evening(club_id: str, event_id: str, key: str) -> StoredEvent:
    stored = check_in.load(club_id, event_id, key)
    if stored is None:
        abort(404, description=describe("event_not_found"))
    known_language("event_id", event_id, stored.lang)
    return stored


def _phone_page(
    stored: StoredEvent, token: str | None, *, errors: list[str] | None = None, status: int = 200
) -> ResponseReturnValue:
    keep_private()  # the player's table link holds the table's edit token
    form = SelfCheckInForm(formdata=request.form if errors else None)
    page = render_template(
        "events/check_in.html",
        phone=check_in.phone(stored, token),
        here_link=check_in_url(stored.club_id, stored.id),
        form=form,
        errors=errors or [],
        max_name=MAX_NAME,
    )
    return page, status


@bp.route("/clubs/<club_id>/events/<event_id>/check-in/<key>", methods=["GET", "POST"])
def check_in_page(club_id: str, event_id: str, key: str) -> ResponseReturnValue:
    """The player's phone: the evening, the names to tap, their own state and seat."""
    stored = _evening(club_id, event_id, key)
    token = request.cookies.get(check_in.COOKIE)
    if request.method == "GET":
        return _phone_page(stored, token)
    form = SelfCheckInForm()
    if not form.validate_on_submit() or form.action.data not in ("check_in", "check_out"):
        return _phone_page(stored, token, errors=[describe("bad_input")], status=400)
    if form.action.data == "check_out":
        done = check_in.check_out(club_id, event_id, key, form.name.data, token)
    else:
        done = check_in.check_in(club_id, event_id, key, form.typed_name())
    match done:
        case check_in.CheckedIn(kept, _, player):
            response = redirect(check_in_url(kept.club_id, kept.id), code=303)
            _remember(response, kept, player)
            return response
        case service.Refused(reasons):
            said = [describe_reason(r) for r in reasons]
            return _phone_page(stored, token, errors=said, status=400)
        case service.Forbidden(code):
            return _phone_page(stored, token, errors=[describe(code)], status=403)
        case _:
            abort(404)


def _remember(response: Response, stored: StoredEvent, player: str) -> None:
    """The phone keeps its player's token for this evening's check-in link only (the answer
    that sets it is never stored by a cache)."""
    keep_private()
    response.set_cookie(
        check_in.COOKIE,
        player,
        max_age=2 * 24 * 3600,
        path=check_in_url(stored.club_id, stored.id),
        secure=request.is_secure,
        httponly=True,
        samesite="Lax",
    )


@bp.get("/clubs/<club_id>/events/<event_id>/board/check-in.svg")
def check_in_board_qr(club_id: str, event_id: str) -> ResponseReturnValue:
    """The check-in link's QR for the room's board: a 404 once check-in is closed."""
    stored = event_or_404(club_id, event_id)
    if not check_in_open(stored):
        abort(404)
    response = qr_response(check_in_url(club_id, event_id, external=True))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/clubs/<club_id>/events/<event_id>/edit/<token>/check-in.svg")
def check_in_qr(club_id: str, event_id: str, token: str) -> ResponseReturnValue:
    """The check-in link's QR on the host's page."""
    editable_event(club_id, event_id, token)
    response = qr_response(check_in_url(club_id, event_id, external=True))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/clubs/<club_id>/events/<event_id>/edit/<token>/check-in.pdf")
def check_in_poster(club_id: str, event_id: str, token: str) -> ResponseReturnValue:
    """The check-in poster (A4 or Letter) in the evening's language, for the door or the wall."""
    stored = editable_event(club_id, event_id, token)
    link = check_in_url(club_id, event_id, external=True)
    lang, paper = pdf_language(stored), paper_asked()
    response = printed(printing.check_in_poster(stored.id, stored.event, link, lang, paper))
    response.headers["Cache-Control"] = "no-store"  # it carries the check-in link
    return response


@bp.post("/clubs/<club_id>/events/<event_id>/edit/<token>/check-in")
def check_in_host(club_id: str, event_id: str, token: str) -> ResponseReturnValue:
    """The host closes or opens the check-in link, or undoes what a player's phone did."""
    editable_event(club_id, event_id, token)
    form = SelfCheckInForm()
    action = form.action.data
    wanted = action in ("open", "close") or (action == "undo" and (form.name.data or "").strip())
    if not form.validate_on_submit() or not wanted:
        abort(400, description=describe("bad_input"))
    version = _version()
    if action == "undo":
        name = form.name.data or ""
        result = service.undo_self_service(club_id, event_id, token, name, version=version)
    else:
        result = service.set_check_in(club_id, event_id, token, action == "open", version=version)
    match result:
        case service.Changed(kept):
            return redirect(f"{edit_url(kept.club_id, kept.id, token)}#check-in-link", code=303)
        case service.Refused(reasons) | service.Conflict(reasons):
            abort(400, description=" ".join(describe_reason(r) for r in reasons))
        case service.Stale():
            abort(409, description=describe(result.code, result.params))
        case _:
            abort(404)


def _version() -> int | None:
    """The version the host's page showed; one sent but unreadable matches none (a 409)."""
    sent = request.form.get("version")
    if sent is None:
        return None
    read = plain_count(sent)
    return -1 if read is None else read


def check_in_open(stored: StoredEvent) -> bool:
    return stored.event.check_in_open


@bp.app_context_processor
def check_in_context() -> dict[str, Any]:
    """The host's page and the board show the check-in link (templates/events/_check_in_host.html,
    the board's corner) without their views knowing of it."""
    return {"check_in_link": check_in_url, "check_in_open": check_in_open}
