"""Clubs over JSON (SPEC.md "Clubs"): found one, read it and its stats; `POST /api/v1/games`
files a game in a club with the club's bearer token (`create_game_in_club`, which this module
registers with the games API when the app is made: games never imports clubs).

Bodies are read by the games' one reader into the models of `schemas.py`, which also describe
the calls in the OpenAPI document. A refusal answers `error` (the first reason) and `errors`
(every reason, each with its `field`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from flask.blueprints import BlueprintSetupState
from flask.sansio.app import App
from flask.typing import ResponseReturnValue

from referee.engine.errors import GameRefused, Reason, RefereeError, reason
from referee.engine.house_rules import get_variant
from referee.web.games import links as game_links
from referee.web.games.api import file_games_with
from referee.web.games.exports import game_json
from referee.web.games.schemas import (
    NewGame,
    RefusedAnswer,
    body_language,
    read_body,
    request_json,
)
from referee.web.jsonapi.bodies import guard, unauthorised
from referee.web.jsonapi.errors import code_answer
from referee.web.jsonapi.openapi import Parameter, documented
from referee.web.jsonapi.schemas import ErrorAnswer
from referee.web.plumbing.hosting import keep_private
from referee.web.plumbing.i18n import current_language
from referee.web.vocabulary.messages import describe_reason

from . import schemas, service
from .exports import club_answer, club_json, stats_answer
from .links import edit_url, view_url
from .presenting import club_view

api_bp = Blueprint("clubs_api", __name__, url_prefix="/api/v1/clubs")
guard(api_bp)


def _reason_json(found: Reason) -> dict[str, Any]:
    item: dict[str, Any] = {"code": found.code, "message": describe_reason(found)}
    if found.field is not None:
        item["field"] = found.field
    return item


def _refused(reasons: Sequence[Reason]) -> ResponseReturnValue:
    errors = [_reason_json(r) for r in reasons]
    return jsonify({"error": errors[0], "errors": errors}), 400


@api_bp.errorhandler(GameRefused)
def refused(error: GameRefused) -> ResponseReturnValue:
    return _refused(error.reasons)


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


#: What every call under a club (its evenings, its seasons) documents alike: the club's id in
#: the path, and a write's answers without the club's edit token and when refused.
CLUB_ID = Parameter("club_id", "path", {"type": "string"}, "the club's id")
UNAUTHORISED = (ErrorAnswer, "No club edit token (`missing_club_token`)")
FORBIDDEN = (ErrorAnswer, "Not the club's edit token: a view link changes nothing")
REFUSED = (RefusedAnswer, "Refused: every reason, each with its field")
_NOT_FOUND = (ErrorAnswer, "No such club (`club_not_found`)")


@api_bp.post("")
@documented(
    "post",
    "/api/v1/clubs",
    summary="Found a club",
    tag="clubs",
    request=schemas.NewClub,
    answers={
        201: (schemas.ClubCreated, "The club, its edit token and its two links"),
        400: REFUSED,
    },
    example={"name": "Thursday table", "lang": "en"},
)
def create() -> ResponseReturnValue:
    """A club without accounts: its `edit_token` starts games filed in it (with
    `POST /api/v1/games` and `club`); anyone with `view_url` can read it."""
    fields = read_body(schemas.NewClub, request_json())
    founded = service.found(fields.name, lang=body_language(fields.lang))
    if isinstance(founded, service.Refused):
        return _refused(founded.reasons)
    club, token = founded.club, founded.token
    keep_private()  # the answer holds the club's edit token
    answer = schemas.ClubCreated(
        **dict(club_answer(club)),
        edit_token=token,
        edit_url=edit_url(club.id, token, external=True),
    )
    response = jsonify(answer.model_dump(mode="json"))
    response.status_code = 201
    response.headers["Location"] = url_for("clubs_api.read", club_id=club.id)
    return response


@api_bp.get("/<club_id>")
@documented(
    "get",
    "/api/v1/clubs/{club_id}",
    summary="A club: its members and games",
    tag="clubs",
    answers={200: (schemas.ClubAnswer, "The club"), 404: _NOT_FOUND},
    parameters=[CLUB_ID],
)
def read(club_id: str) -> ResponseReturnValue:
    """The club's name, members, and games (newest first), each saying whether it was a club
    night's table (`series`)."""
    club = service.load(club_id)
    if club is None:
        return code_answer(404, "club_not_found")
    lines = service.game_lines(club.id)
    find: SeriesGames | None = current_app.extensions.get(_SERIES_GAMES)
    found = find([line["id"] for line in lines]) if find is not None else {}
    return jsonify(club_json(club, [{**line, "series": found.get(line["id"])} for line in lines]))


class SeriesGames(Protocol):
    """Which of a club's games were a club night's tables (the events package answers: clubs
    never import it): game id -> `schemas.SeriesGame` as JSON."""

    def __call__(self, game_ids: list[str], /) -> dict[str, dict[str, Any]]: ...


_SERIES_GAMES = "clubs.series_games"


def find_series_with(app: App, find: SeriesGames) -> None:
    """Let `find` say which games of a club were series games."""
    app.extensions[_SERIES_GAMES] = find


@api_bp.get("/<club_id>/stats")
@documented(
    "get",
    "/api/v1/clubs/{club_id}/stats",
    summary="A club's stats and ratings",
    tag="clubs",
    answers={
        200: (schemas.ClubStats, "Every member's stats and rating"),
        400: (RefusedAnswer, "`variant` names no variant"),
        404: _NOT_FOUND,
    },
    parameters=[
        CLUB_ID,
        Parameter("variant", "query", {"type": "string"}, "only this variant's games"),
    ],
)
def stats(club_id: str) -> ResponseReturnValue:
    """Every member's stats and rating, over all the club's games or one variant's."""
    club = service.load(club_id)
    if club is None:
        return code_answer(404, "club_not_found")
    asked = request.args.get("variant")
    variant = None
    if asked:
        try:
            variant = get_variant(asked).id
        except RefereeError as error:
            raise GameRefused([reason(error.code, field="variant", **error.params)]) from None
    view = club_view(club, service.board(club.id), variant)
    return jsonify(stats_answer(view).model_dump(mode="json"))


@api_bp.record_once
def _file_new_games(state: BlueprintSetupState) -> None:
    """`POST /api/v1/games` with `club` is answered here (games does not import clubs)."""
    file_games_with(state.app, create_game_in_club)


def create_game_in_club(body: dict[str, Any], token: str | None) -> ResponseReturnValue:
    """`POST /api/v1/games` with `club` (`service.file_new_game`): the club's token starts the
    game, which keeps a token of its own. GameRefused (the games API answers it) when the game
    cannot start."""
    fields = read_body(NewGame, body)
    filed = service.file_new_game(
        fields.club,
        token,
        variant=fields.variant,
        players=fields.players,
        lang=body_language(fields.lang),
        house_rules=fields.house_rules,
        first_dealer=fields.first_dealer,
    )
    if isinstance(filed, service.ClubMissing):
        return code_answer(404, "club_not_found")
    if isinstance(filed, service.Forbidden):
        # No token is a 401 (RFC 6750: which scheme to use); the wrong one a 403.
        if filed.code == "missing_club_token":
            return unauthorised(filed.code)
        return code_answer(403, filed.code)
    if isinstance(filed, service.Refused):
        raise GameRefused(filed.reasons)
    return _filed_answer(filed)


def _filed_answer(filed: service.GameFiled) -> Response:
    """201: the game as `GET /api/v1/games/<id>` answers it, its token and links, its club."""
    stored, game_token, club_id = filed.game, filed.token, filed.club.id
    filed_in = schemas.FiledIn(id=club_id, view_url=view_url(club_id, external=True))
    response: Response = jsonify(
        {
            **game_json(stored, current_language()),
            "edit_token": game_token,
            "view_url": game_links.view_url(stored.id, external=True),
            "edit_url": game_links.edit_url(stored.id, game_token, external=True),
            "club": filed_in.model_dump(mode="json"),
        }
    )
    response.status_code = 201
    response.set_etag(f"g{stored.game.version}-{current_language()}")
    response.headers["Location"] = url_for("games_api.read", game_id=stored.id)
    return response
