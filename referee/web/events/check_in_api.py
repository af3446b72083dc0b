"""An evening's check-in link over JSON (SPEC.md "Check-in link"): what the link sees, a player
checking themselves in or out (answered with the player's token, which an API client keeps as a
phone keeps its cookie), and the host's controls with the club's bearer token (close or open
the link, undo what a phone did)."""

from __future__ import annotations

from typing import Any, Literal

from flask import jsonify
from flask.typing import ResponseReturnValue
from pydantic import Field, StrictInt, StrictStr

from referee.engine.errors import reason
from referee.engine.names import MAX_NAME
from referee.web.clubs.api import CLUB_ID, REFUSED, bearer_token
from referee.web.games.schemas import read_body, request_json
from referee.web.jsonapi.errors import code_answer, reasons_answer
from referee.web.jsonapi.openapi import Parameter, documented
from referee.web.jsonapi.schemas import Answer, Body, ErrorAnswer
from referee.web.plumbing.hosting import keep_private

from . import check_in, service
from .api import _EVENT_ID, _WRITE_ANSWERS, _answer, api_bp
from .schemas import EventAnswer

_KEY = Parameter("key", "path", {"type": "string"}, "the evening's check-in key (its link's end)")
_NO_LINK = (ErrorAnswer, "No such evening, or not its check-in link (`event_not_found`)")


class SelfCheckIn(Body):
    """POST /api/v1/clubs/<id>/events/<eid>/check-in/<key>"""

    name: StrictStr = Field(
        max_length=4 * MAX_NAME, description="the player: a member's name or a new one"
    )
    action: Literal["check_in", "check_out"] = "check_in"
    token: StrictStr | None = Field(
        default=None, max_length=200, description="check_out: the player's token from check_in"
    )


class CheckInControl(Body):
    """POST /api/v1/clubs/<id>/events/<eid>/check-in"""

    action: Literal["open", "close", "undo"]
    name: StrictStr | None = Field(
        default=None, max_length=4 * MAX_NAME, description="undo: the player"
    )
    version: StrictInt | None = Field(default=None, description="the evening's version seen")


class SeatAnswer(Answer):
    series: int
    table: int
    seat: int = Field(description="1-based, in the table's seat order")
    seats: list[str]
    dealer: str = Field(description="who deals first")
    started: bool
    edit_url: str | None = Field(description="the table's round screen, once the series started")


class CheckedInPlayer(Answer):
    name: str
    present: bool
    joined: int = Field(description="the first series they are drawn for")
    left: int | None
    new: bool = Field(description="a name the club did not know when they checked in")
    seat: SeatAnswer | None = Field(description="their seat in the newest series drawn")


class CheckInAnswer(Answer):
    """What a check-in link sees: the evening's name and date, the member names to tap, and
    the player whose token came with the call."""

    event: str
    club: str
    name: str
    date: str
    lang: str
    version: int
    open: bool = Field(description="players may check themselves in or out now")
    next_series: int | None
    members: list[str] = Field(description="the club's members not checked in")
    player: CheckedInPlayer | None
    token: str | None = Field(
        default=None, description="after a check-in: the player's token (send it to check out)"
    )


def _seen(phone: check_in.Phone, token: str | None = None) -> dict[str, Any]:
    keep_private()  # the seat's link holds the table's edit token
    event, player, seat = phone.event, phone.player, phone.seat
    answer = CheckInAnswer(
        event=phone.stored.id,
        club=phone.stored.club_id,
        name=event.name,
        date=event.date.isoformat(),
        lang=phone.stored.lang,
        version=event.version,
        open=phone.open,
        next_series=event.next_series,
        members=list(phone.members),
        player=None
        if player is None
        else CheckedInPlayer(
            name=player.name,
            present=player.present,
            joined=player.joined,
            left=player.left,
            new=player.new,
            seat=None if seat is None else _seat(seat),
        ),
        token=token,
    )
    return answer.model_dump(mode="json")


def _seat(seat: check_in.Seat) -> SeatAnswer:
    return SeatAnswer(
        series=seat.series,
        table=seat.table,
        seat=seat.seat,
        seats=list(seat.seats),
        dealer=seat.dealer,
        started=seat.started,
        edit_url=seat.link,
    )


@api_bp.get("/<event_id>/check-in/<key>")
@documented(
    "get",
    "/api/v1/clubs/{club_id}/events/{event_id}/check-in/{key}",
    summary="What an evening's check-in link sees",
    tag="events",
    answers={200: (CheckInAnswer, "The evening, the names to tap, the player"), 404: _NO_LINK},
    parameters=[CLUB_ID, _EVENT_ID, _KEY],
    token=True,
)
def check_in_read(club_id: str, event_id: str, key: str) -> ResponseReturnValue:
    """The evening's name and date, whether check-in is open, the club's members not checked
    in; with a player's token as bearer, that player, their table, seat and dealer."""
    stored = check_in.load(club_id, event_id, key)
    if stored is None:
        return code_answer(404, "event_not_found")
    return jsonify(_seen(check_in.phone(stored, bearer_token())))


@api_bp.post("/<event_id>/check-in/<key>")
@documented(
    "post",
    "/api/v1/clubs/{club_id}/events/{event_id}/check-in/{key}",
    summary="A player checks themselves in, or out",
    tag="events",
    request=SelfCheckIn,
    answers={
        200: (CheckInAnswer, "The player's state and token"),
        400: REFUSED,
        403: (ErrorAnswer, "Not this player's token (`not_your_check_in`)"),
        404: _NO_LINK,
    },
    parameters=[CLUB_ID, _EVENT_ID, _KEY],
    example={"name": "Ann", "action": "check_in"},
)
def check_in_write(club_id: str, event_id: str, key: str) -> ResponseReturnValue:
    """`check_in`: the player is drawn from the next series not yet drawn (a new name becomes
    a club member, marked new for the host). `check_out`: with the player's `token`, out of
    later draws (what they scored stays). Refused once the host closed check-in."""
    body = read_body(SelfCheckIn, request_json())
    if body.action == "check_out":
        done = check_in.check_out(club_id, event_id, key, body.name, body.token)
    else:
        done = check_in.check_in(club_id, event_id, key, body.name)
    match done:
        case check_in.CheckedIn(kept, _, token):
            return jsonify(_seen(check_in.phone(kept, token), token))
        case service.Refused(reasons):
            return reasons_answer(400, reasons)
        case service.Forbidden(code):
            return code_answer(403, code)
        case _:
            return code_answer(404, "event_not_found")


@api_bp.post("/<event_id>/check-in")
@documented(
    "post",
    "/api/v1/clubs/{club_id}/events/{event_id}/check-in",
    summary="Close or open an evening's check-in link, or undo a player's own check-in or out",
    tag="events",
    request=CheckInControl,
    answers={
        200: (EventAnswer, "The evening"),
        **_WRITE_ANSWERS,
    },
    parameters=[CLUB_ID, _EVENT_ID],
    example={"action": "undo", "name": "Ann"},
    token=True,
)
def check_in_control(club_id: str, event_id: str) -> ResponseReturnValue:
    """With the club's bearer token: `close` or `open` the check-in link, or `undo` what a
    player's phone did (a check-in taken back: a player never seated is no longer of the
    evening; a check-out taken back: back from the next series)."""
    body = read_body(CheckInControl, request_json())
    token, version = bearer_token(), body.version
    if body.action == "undo":
        if not (body.name or "").strip():  # whose check-in to undo: a name is needed
            return reasons_answer(400, [reason("bad_input", field="name")])
        name = body.name or ""
        return _answer(service.undo_self_service(club_id, event_id, token, name, version=version))
    is_open = body.action == "open"
    return _answer(service.set_check_in(club_id, event_id, token, is_open, version=version))
