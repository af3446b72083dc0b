"""Club nights over JSON (SPEC.md "Club nights"): create an evening in a club, read it and its
standings, check players in or out, draw (swap, start, withdraw) a series. Reads are open to
anyone with the link; every write needs the club's bearer token (a 403 otherwise).

Bodies are read by the games' one reader into the models of `schemas.py`, which also describe
the calls in the OpenAPI document; each view maps the service's one result to an answer.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from pydantic import BaseModel

from referee.engine.errors import GameRefused, reason
from referee.engine.tournament import RankBy
from referee.web.clubs.api import CLUB_ID, FORBIDDEN, REFUSED, UNAUTHORISED, bearer_token, refused
from referee.web.games.schemas import RefusedAnswer, body_language, read_body, request_json
from referee.web.jsonapi.bodies import guard, unauthorised
from referee.web.jsonapi.errors import code_answer, reasons_answer
from referee.web.jsonapi.openapi import Parameter, documented
from referee.web.jsonapi.schemas import ErrorAnswer
from referee.web.plumbing.hosting import keep_private
from referee.web.plumbing.numbers import plain_count

from . import schemas, service
from .presenting import ranking_sentence, table_links
from .store import StoredEvent

api_bp = Blueprint("events_api", __name__, url_prefix="/api/v1/clubs/<club_id>/events")
guard(api_bp)
api_bp.register_error_handler(GameRefused, refused)

_EVENT_ID = Parameter("event_id", "path", {"type": "string"}, "the evening's id")
_NOT_FOUND = (ErrorAnswer, "No such club or evening (`club_not_found`, `event_not_found`)")
_CONFLICT = (RefusedAnswer, "Done first on another phone, or the evening moved on (`version`)")
#: What every write of an evening may answer besides its 200 (SPEC's refusals).
_WRITE_ANSWERS: dict[int, tuple[type[BaseModel] | None, str]] = {
    400: REFUSED,
    401: UNAUTHORISED,
    403: FORBIDDEN,
    404: _NOT_FOUND,
    409: _CONFLICT,
}


def event_json(stored: StoredEvent, *, editing: bool) -> dict[str, Any]:
    """The evening as `GET` answers it; with the club's token, the tables' edit links too."""
    tokens = service.tokens(stored) if editing else None
    if editing:
        keep_private()
    view = url_for("events.show", club_id=stored.club_id, event_id=stored.id, _external=True)
    answer = schemas.EventAnswer.of(
        stored.id, stored.club_id, stored.lang, stored.event, table_links(stored, tokens), view
    )
    return answer.model_dump(mode="json")


def _answer(result: Any, status: int = 200) -> ResponseReturnValue:
    """A write's result as the API answers it."""
    match result:
        case service.Changed(stored) | service.Created(stored):
            response = jsonify(event_json(stored, editing=True))
            response.status_code = status
            return response
        case service.Refused(reasons):
            return reasons_answer(400, reasons)
        case service.Conflict(reasons):
            return reasons_answer(409, reasons)
        case service.Stale():
            return reasons_answer(409, [reason(result.code, field="version", **result.params)])
        case service.Forbidden(code) if code == "missing_club_token":
            return unauthorised(code)  # no token: a 401 saying how to send one (RFC 6750)
        case service.Forbidden(code):
            return code_answer(403, code)
        case _:
            return code_answer(404, result.code)


@api_bp.post("")
@documented(
    "post",
    "/api/v1/clubs/{club_id}/events",
    summary="Create a club night",
    tag="events",
    request=schemas.NewEvent,
    answers={
        201: (schemas.EventAnswer, "The evening, without players yet"),
        400: REFUSED,
        401: UNAUTHORISED,
        403: FORBIDDEN,
        404: _NOT_FOUND,
    },
    parameters=[CLUB_ID],
    example={"name": "Club night", "variant": "contract", "series": 3, "table_size": 4},
    token=True,
)
def create(club_id: str) -> ResponseReturnValue:
    """An evening in the club (the club's `edit_token` as bearer): its seed drawn and shown."""
    fields = read_body(schemas.NewEvent, request_json())
    settings = fields.model_dump(exclude={"lang"}, exclude_none=True)
    lang = body_language(fields.lang)
    return _answer(service.create(club_id, bearer_token(), settings, lang=lang), 201)


@api_bp.get("/<event_id>")
@documented(
    "get",
    "/api/v1/clubs/{club_id}/events/{event_id}",
    summary="A club night: its players, series and tables",
    tag="events",
    answers={200: (schemas.EventAnswer, "The evening"), 404: _NOT_FOUND},
    parameters=[CLUB_ID, _EVENT_ID],
)
def read(club_id: str, event_id: str) -> ResponseReturnValue:
    """The evening; the tables' edit links only with the club's bearer token."""
    stored = service.load_in(club_id, event_id)
    if stored is None:
        return code_answer(404, "event_not_found")
    return jsonify(event_json(stored, editing=service.can_edit(club_id, bearer_token())))


@api_bp.post("/<event_id>/players")
@documented(
    "post",
    "/api/v1/clubs/{club_id}/events/{event_id}/players",
    summary="Check players in, or out",
    tag="events",
    request=schemas.PlayersChange,
    answers={
        200: (schemas.EventAnswer, "The evening"),
        **_WRITE_ANSWERS,
    },
    parameters=[CLUB_ID, _EVENT_ID],
    example={"action": "check_in", "names": ["Ann", "Bo", "Cy"]},
    token=True,
)
def players(club_id: str, event_id: str) -> ResponseReturnValue:
    """Check-in (new names become club members; late arrivals play from the next series) or
    leave (out of later draws; what they scored stays)."""
    body = read_body(schemas.PlayersChange, request_json())
    token, version = bearer_token(), body.version
    if body.action == "check_in":
        return _answer(service.check_in(club_id, event_id, token, body.names, version=version))
    if len(body.names) != 1:
        raise GameRefused([reason("one_name_at_a_time", field="names")])
    return _answer(service.leave(club_id, event_id, token, body.names[0], version=version))


@api_bp.post("/<event_id>/series")
@documented(
    "post",
    "/api/v1/clubs/{club_id}/events/{event_id}/series",
    summary="Draw the next series (or swap, move, start, withdraw, reopen or close one)",
    tag="events",
    request=schemas.SeriesChange,
    answers={
        200: (schemas.EventAnswer, "The evening, the series' tables with their games' links"),
        **_WRITE_ANSWERS,
    },
    parameters=[CLUB_ID, _EVENT_ID],
    example={"series": 1},
    token=True,
)
def series(club_id: str, event_id: str) -> ResponseReturnValue:
    """`draw` the next series (seeded; started at once unless `start` is false), `swap` two
    players or `move` one to another table before it starts, `start` it, `withdraw` it to draw
    it again; `reopen` a series the next draw fixed (its tables may change their results),
    `close` it again."""
    body = read_body(schemas.SeriesChange, request_json())
    return _answer(_series_change(club_id, event_id, body))


def _series_change(club_id: str, event_id: str, body: schemas.SeriesChange) -> Any:
    token, number, version = bearer_token(), body.series, body.version
    match body.action:
        case "draw":
            return service.draw(
                club_id, event_id, token, number, method=body.method, seed=body.seed,
                start=body.start, version=version,
            )  # fmt: skip
        case "swap":
            pair = body.swap or []
            if len(pair) != 2:
                raise GameRefused([reason("swap_two_players", field="swap")])
            return service.swap(club_id, event_id, token, number, *pair, version=version)
        case "move":
            if body.name is None or body.table is None:
                raise GameRefused([reason("move_names_a_table", field="table")])
            return service.move(
                club_id, event_id, token, number, body.name, body.table, version=version
            )
        case "start":
            return service.start(club_id, event_id, token, number, version=version)
        case "reopen":
            return service.reopen(club_id, event_id, token, number, version=version)
        case "close":
            return service.close(club_id, event_id, token, number, version=version)
        case _:
            return service.withdraw(club_id, event_id, token, number, version=version)


@api_bp.post("/<event_id>/clock")
@documented(
    "post",
    "/api/v1/clubs/{club_id}/events/{event_id}/clock",
    summary="Pause or resume a series' clock, give one table extra minutes, set the minutes",
    tag="events",
    request=schemas.ClockChange,
    answers={
        200: (schemas.EventAnswer, "The evening, the series' clock as it now runs"),
        **_WRITE_ANSWERS,
    },
    parameters=[CLUB_ID, _EVENT_ID],
    example={"action": "extra", "table": 2, "minutes": 5},
    token=True,
)
def clock(club_id: str, event_id: str) -> ResponseReturnValue:
    """`pause` and `resume` the running series' clock (the server's time), `extra` minutes
    for one `table` (that table only), `set` the `minutes` (null: none) and `rule` of the
    series not started yet."""
    body = read_body(schemas.ClockChange, request_json())
    return _answer(
        service.clock(
            club_id,
            event_id,
            bearer_token(),
            body.action,
            series=body.series,
            table=body.table,
            minutes=body.minutes,
            rule=body.rule,
            version=body.version,
        )
    )


@api_bp.post("/<event_id>/seating")
@documented(
    "post",
    "/api/v1/clubs/{club_id}/events/{event_id}/seating",
    summary="Set the seating rules: keep two apart, two together, one at a fixed table",
    tag="events",
    request=schemas.SeatingChange,
    answers={
        200: (schemas.EventAnswer, "The evening with its seating rules"),
        **_WRITE_ANSWERS,
    },
    parameters=[CLUB_ID, _EVENT_ID],
    example={
        "rules": [
            {"keep": "apart", "players": ["Ann", "Bo"]},
            {"keep": "together", "players": ["Cy", "Di"]},
            {"keep": "table", "players": ["Ed"], "table": 1},
        ]
    },
    token=True,
)
def seating(club_id: str, event_id: str) -> ResponseReturnValue:
    """Every seating rule of the evening at once (they replace those it had): the draws from
    now on honour them, and each series drawn says which it could not and why."""
    body = read_body(schemas.SeatingChange, request_json())
    rules = [rule.model_dump(exclude_none=True) for rule in body.rules]
    return _answer(
        service.set_seating(club_id, event_id, bearer_token(), rules, version=body.version)
    )


@api_bp.get("/<event_id>/standings")
@documented(
    "get",
    "/api/v1/clubs/{club_id}/events/{event_id}/standings",
    summary="A club night's standings",
    tag="events",
    answers={
        200: (schemas.StandingsAnswer, "The board, best first"),
        400: REFUSED,
        404: _NOT_FOUND,
    },
    parameters=[
        CLUB_ID,
        _EVENT_ID,
        Parameter("series", "query", {"type": "integer"}, "one series only"),
        Parameter("by", "query", {"enum": ["tournament_points", "points"]}, "the board's order"),
        Parameter("unfinished", "query", {"type": "boolean"}, "count tables still playing"),
    ],
)
def standings(club_id: str, event_id: str) -> ResponseReturnValue:
    """Over the evening or of one series; finished tables only unless `unfinished`."""
    stored = service.load_in(club_id, event_id)
    if stored is None:
        return code_answer(404, "event_not_found")
    board = stored.event.standings(**_board_args())
    answer = schemas.StandingsAnswer.of(board, ranking_sentence(board), stored.event.reopened)
    return jsonify(answer.model_dump())


def _board_args() -> dict[str, Any]:
    """`series`, `by`, `unfinished` from the query (GameRefused when unreadable)."""
    asked, by = request.args.get("series"), request.args.get("by", "tournament_points")
    series = plain_count(asked)
    if asked is not None and series is None:
        raise GameRefused([reason("no_such_series", field="series", series=asked[:10])])
    if by not in {b.value for b in RankBy}:
        raise GameRefused([reason("bad_input", field="by")])
    unfinished = request.args.get("unfinished", "false")
    if unfinished not in ("true", "false"):
        raise GameRefused([reason("bad_input", field="unfinished")])
    return {
        "series": series,
        "by": RankBy(by),
        "unfinished": unfinished == "true",
    }
