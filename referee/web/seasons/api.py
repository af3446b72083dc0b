"""A club's seasons over JSON (SPEC.md "Seasons"): create, list, read (the season's table),
change and delete. Reads are open to anyone with the club's link; every write needs the club's
bearer token (401 without one, 403 with a view link).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from pydantic import BaseModel

from referee.engine.errors import GameRefused, reason
from referee.web.clubs.api import CLUB_ID, FORBIDDEN, REFUSED, UNAUTHORISED, bearer_token, refused
from referee.web.clubs.links import view_url as club_view_url
from referee.web.games.links import view_url as game_view_url
from referee.web.games.schemas import RefusedAnswer, read_body, request_json
from referee.web.jsonapi.bodies import guard, unauthorised
from referee.web.jsonapi.errors import code_answer, reasons_answer
from referee.web.jsonapi.openapi import Parameter, documented
from referee.web.jsonapi.schemas import ErrorAnswer

from . import schemas, service
from .presenting import column_name, rule_sentence

api_bp = Blueprint("seasons_api", __name__, url_prefix="/api/v1/clubs/<club_id>/seasons")
guard(api_bp)
api_bp.register_error_handler(GameRefused, refused)

_SEASON_ID = Parameter("season_id", "path", {"type": "string"}, "the season's id")
_NOT_FOUND = (ErrorAnswer, "No such club or season (`club_not_found`, `season_not_found`)")
_STALE = (RefusedAnswer, "The season moved on since `version` (`stale_season_version`)")


def season_json(shown: service.Table) -> dict[str, Any]:
    """The season and its table as `GET` answers it."""
    stored = shown.stored
    urls = {
        name: url_for(endpoint, club_id=stored.club_id, season_id=stored.id, _external=True)
        for name, endpoint in (("view_url", "seasons.show"), ("csv_url", "seasons.csv"))
    }
    club_url = club_view_url(stored.club_id, external=True)
    evening_url = {
        e.id: club_url
        if isinstance(e, service.GameDay)
        else url_for("events.show", club_id=stored.club_id, event_id=e.id, _external=True)
        for e in (*shown.counted, *shown.left_out)
    } | {g.id: game_view_url(g.id, external=True) for g in shown.games}
    names = {e.id: column_name(e) for e in (*shown.counted, *shown.left_out)}
    answer = schemas.SeasonAnswer.of(
        shown,
        rule_text=rule_sentence(stored.season),
        urls=urls,
        evening_url=evening_url,
        names=names,
    )
    return answer.model_dump(mode="json")


def _answer(result: service.Written, status: int = 200) -> ResponseReturnValue:
    match result:
        case service.Created(stored) | service.Changed(stored):
            response = jsonify(season_json(service.table_of(stored)))
            response.status_code = status
            return response
        case service.Deleted():
            return "", 204
        case service.Refused(reasons):
            return reasons_answer(400, reasons)
        case service.Stale():
            return reasons_answer(409, [reason(result.code, field="version", **result.params)])
        case service.Forbidden(code) if code == "missing_club_token":
            return unauthorised(code)
        case service.Forbidden(code):
            return code_answer(403, code)
        case _:
            return code_answer(404, result.code)


_WRITE_ANSWERS: dict[int, tuple[type[BaseModel] | None, str]] = {
    400: REFUSED,
    401: UNAUTHORISED,
    403: FORBIDDEN,
    404: _NOT_FOUND,
}


@api_bp.post("")
@documented(
    "post",
    "/api/v1/clubs/{club_id}/seasons",
    summary="Start a club's season",
    tag="seasons",
    request=schemas.NewSeason,
    answers={201: (schemas.SeasonAnswer, "The season with its table"), **_WRITE_ANSWERS},
    parameters=[CLUB_ID],
    example={
        "name": "Autumn",
        "starts": "2026-09-01",
        "ends": "2026-12-31",
        "rule": "best",
        "best": 10,
    },
    token=True,
)
def create(club_id: str) -> ResponseReturnValue:
    """A season of the club's evenings within its dates (the club's `edit_token` as bearer);
    `left_out` names evenings within them that do not count."""
    body = read_body(schemas.NewSeason, request_json())
    return _answer(service.create(club_id, bearer_token(), body.model_dump()), 201)


@api_bp.get("")
@documented(
    "get",
    "/api/v1/clubs/{club_id}/seasons",
    summary="A club's seasons",
    tag="seasons",
    answers={200: (schemas.SeasonList, "Newest first"), 404: _NOT_FOUND},
    parameters=[CLUB_ID],
)
def index(club_id: str) -> ResponseReturnValue:
    """The club's seasons, newest start first; each links to its table."""
    if not service.club_exists(club_id):
        return code_answer(404, "club_not_found")
    lines = [
        schemas.SeasonSummary(
            id=s.id,
            name=s.season.name,
            starts=s.season.starts.isoformat(),
            ends=s.season.ends.isoformat(),
            rule=s.season.rule.value,
            club_games=s.season.club_games,
            version=s.version,
            url=url_for("seasons_api.read", club_id=club_id, season_id=s.id, _external=True),
        )
        for s in service.of_club(club_id)
    ]
    return jsonify(schemas.SeasonList(seasons=lines).model_dump(mode="json"))


@api_bp.get("/<season_id>")
@documented(
    "get",
    "/api/v1/clubs/{club_id}/seasons/{season_id}",
    summary="A season's table",
    tag="seasons",
    answers={
        200: (schemas.SeasonAnswer, "The season, its evenings and its table"),
        404: _NOT_FOUND,
    },
    parameters=[CLUB_ID, _SEASON_ID],
)
def read(club_id: str, season_id: str) -> ResponseReturnValue:
    """The season's rule, its evenings (counted and left out) and its table: one row per
    player, a cell per evening, the dropped evenings, the movement since the last evening."""
    stored = service.load_in(club_id, season_id)
    if stored is None:
        return code_answer(404, "season_not_found")
    return jsonify(season_json(service.table_of(stored)))


@api_bp.patch("/<season_id>")
@documented(
    "patch",
    "/api/v1/clubs/{club_id}/seasons/{season_id}",
    summary="Change a season's name, dates, rule or evenings",
    tag="seasons",
    request=schemas.SeasonChange,
    answers={
        200: (schemas.SeasonAnswer, "The season as changed"),
        409: _STALE,
        **_WRITE_ANSWERS,
    },
    parameters=[CLUB_ID, _SEASON_ID],
    example={"rule": "best", "best": 3, "version": 1},
    token=True,
)
def change(club_id: str, season_id: str) -> ResponseReturnValue:
    """What the body names changes, the rest stays; `left_out` replaces the evenings left out;
    `version` (optional) the season's version seen."""
    body = read_body(schemas.SeasonChange, request_json())
    fields = body.model_dump(exclude={"version"}, exclude_none=True)
    result = service.change(club_id, season_id, bearer_token(), fields, version=body.version)
    return _answer(result)


@api_bp.delete("/<season_id>")
@documented(
    "delete",
    "/api/v1/clubs/{club_id}/seasons/{season_id}",
    summary="Delete a season",
    tag="seasons",
    request=schemas.SeasonDelete,
    answers={204: (None, "Deleted; its evenings stay"), 409: _STALE, **_WRITE_ANSWERS},
    parameters=[CLUB_ID, _SEASON_ID],
    token=True,
)
def remove(club_id: str, season_id: str) -> ResponseReturnValue:
    """The season gone; the evenings it counted stay as they are. A body is optional."""
    version = None
    if request.get_data(cache=True):
        version = read_body(schemas.SeasonDelete, request_json()).version
    return _answer(service.delete(club_id, season_id, bearer_token(), version=version))
