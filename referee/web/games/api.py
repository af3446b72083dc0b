"""Games over JSON (SPEC.md): create, read, enter and correct rounds, undo, with a bearer token.

A refusal answers `error` (the first reason) and `errors` (every reason, each with the `player`
and `field` it is about where there is one), in the request's language.
"""

from __future__ import annotations

from typing import Any, Protocol, assert_never

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from flask.sansio.app import App
from flask.typing import ResponseReturnValue

from referee.engine.errors import GameRefused, reason
from referee.web.jsonapi.bodies import guard, unauthorised
from referee.web.jsonapi.openapi import Parameter, documented
from referee.web.jsonapi.schemas import ErrorAnswer, ErrorDetail
from referee.web.plumbing.hosting import keep_private
from referee.web.plumbing.i18n import current_language
from referee.web.plumbing.idempotency import HEADER, json_fingerprint, key_of_request, replayed
from referee.web.vocabulary.messages import describe

from . import queries, service
from .exports import game_json
from .links import edit_url
from .results import read_results
from .schemas import (
    ConflictAnswer,
    NewGame,
    RefusedAnswer,
    RoundBody,
    UndoBody,
    body_language,
    conflict_answer,
    read_body,
    refusal_of,
    refused_answer,
    request_json,
)
from .values import CreatedGame, GameAnswer, data

api_bp = Blueprint("games_api", __name__, url_prefix="/api/v1/games")
guard(api_bp)


class ClubGames(Protocol):
    """`POST /api/v1/games` with `club` (SPEC "Clubs"): a game started for a club and filed in
    it, answered by the clubs package. It registers one when the app is made (`file_games_with`):
    games never imports clubs."""

    def __call__(self, body: dict[str, Any], token: str | None, /) -> ResponseReturnValue: ...


_CLUB_GAMES = "games.club_games"


def file_games_with(app: App, club_games: ClubGames) -> None:
    """Let `club_games` answer a new game that names a club."""
    app.extensions[_CLUB_GAMES] = club_games


def _error(status: int, code: str) -> ResponseReturnValue:
    detail = ErrorDetail(code=code, message=describe(code))
    return jsonify(data(ErrorAnswer(error=detail))), status


def _token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def _answer(
    stored: queries.StoredGame,
    status: int = 200,
    shape: type[GameAnswer] = GameAnswer,
    **extra: Any,
) -> Response:
    response = jsonify(game_json(stored, current_language(), shape, **extra))
    response.status_code = status
    response.set_etag(f"g{stored.game.version}-{current_language()}")
    return response


#: Refusals of a write the game as it is cannot take, whatever is sent: a 409 (the game over,
#: a series game after its series' rounds; a table of a series fixed by the next draw; a
#: table whose series clock ran out, after its last round).
CONFLICTS = frozenset({"game_finished", "series_closed", "series_time_up"})


@api_bp.errorhandler(GameRefused)
def refused(error: GameRefused) -> ResponseReturnValue:
    """Every refusal of a games call: `error` (the first reason) and `errors` (all of them);
    one the game's state makes, a 409 with the game's version."""
    stored = queries.load(request.view_args.get("game_id", "")) if request.view_args else None
    players = stored.game.players if stored is not None else None
    found = [refusal_of(r, players) for r in error.reasons]
    if stored is not None and error.code in CONFLICTS:
        answer = conflict_answer(error.code, stored.game.version, (), found[0].message)
        return jsonify(data(answer)), 409
    return jsonify(data(refused_answer(found))), 400


_GAME_ID = Parameter("game_id", "path", {"type": "string"}, "the game's id")
_ROUND = Parameter("number", "path", {"type": "integer", "minimum": 1}, "the round's number")
_REFUSED = (RefusedAnswer, "Refused: every reason, each with its player and field")
_NOT_FOUND = (ErrorAnswer, "No such game (`game_not_found`)")
_WRITE_ANSWERS: dict[int, tuple[Any, str]] = {
    200: (GameAnswer, "The game after the change"),
    400: _REFUSED,
    401: (ErrorAnswer, "No edit token (`missing_token`)"),
    403: (ErrorAnswer, "Not this game's edit token (`bad_token`)"),
    404: _NOT_FOUND,
    409: (
        ConflictAnswer,
        "`version` is stale: the game's version now and what changed since; or the game takes "
        "no more rounds (`game_finished`: over, or a club night's table after its series' "
        "rounds), or its series is fixed since the next was drawn (`series_closed`), or its "
        "series' time ran out and its last round is played (`series_time_up`)",
    ),
    422: (ErrorAnswer, "This Idempotency-Key came before with another body"),
}
_KEY = Parameter(
    HEADER,
    "header",
    {"type": "string", "minLength": 8, "maxLength": 64, "pattern": "^[!-~]{8,64}$"},
    "any 8 to 64 visible characters (a UUID): the same key again answers the first answer "
    "and changes nothing; keys belong to the game and are kept at least 7 days",
)
_ROUND_EXAMPLE = {
    "round": 1,
    "results": [
        {"player": "Ann", "went_out": True},
        {"player": "Bo", "penalty": 25},
        {"player": "Cy", "cards": "KS 2C JK"},
    ],
    "version": 1,
}


@api_bp.post("")
@documented(
    "post",
    "/api/v1/games",
    summary="Start a game",
    tag="games",
    request=NewGame,
    answers={
        201: (CreatedGame, "The game, its edit token and its two links"),
        400: _REFUSED,
        401: (ErrorAnswer, "With `club`: no club edit token (`missing_club_token`)"),
        403: (ErrorAnswer, "With `club`: not that club's edit token (`bad_club_token`)"),
        404: (ErrorAnswer, "With `club`: no such club (`club_not_found`)"),
    },
    example={"variant": "contract", "players": ["Ann", "Bo", "Cy"]},
)
def create() -> ResponseReturnValue:
    """A game without an account: its `edit_token` is the secret that lets its holder change
    it; anyone with `view_url` can read it. With `club` (and the club's edit token as the
    bearer token) the game is filed in that club."""
    raw = request_json()
    if isinstance(raw, dict) and raw.get("club") is not None:  # SPEC "Clubs"
        keep_private()  # the answer holds the game's edit token
        club_games: ClubGames | None = current_app.extensions.get(_CLUB_GAMES)
        return club_games(raw, _token()) if club_games else _error(404, "club_not_found")
    body = read_body(NewGame, raw)
    started = service.start(
        body.variant,
        body.players,
        lang=body_language(body.lang),
        house_rules=body.house_rules,
        first_dealer=body.first_dealer,
    )
    if isinstance(started, service.Refused):
        raise GameRefused(started.reasons)
    keep_private()  # the answer holds the edit token
    stored, token = started.stored, started.token
    link = edit_url(stored.id, token, external=True)
    response = _answer(stored, 201, CreatedGame, edit_token=token, edit_url=link)
    response.headers["Location"] = url_for("games_api.read", game_id=stored.id)
    return response


@api_bp.get("/<game_id>")
@documented(
    "get",
    "/api/v1/games/{game_id}",
    summary="A game as it stands",
    tag="games",
    answers={
        200: (GameAnswer, "The game"),
        304: (None, "Not changed since the ETag sent in If-None-Match"),
        404: _NOT_FOUND,
    },
    parameters=[_GAME_ID],
)
def read(game_id: str) -> ResponseReturnValue:
    stored = queries.load(game_id)
    if stored is None:
        return _error(404, "game_not_found")
    return _answer(stored).make_conditional(request)


def _authorised(game_id: str) -> queries.StoredGame | ResponseReturnValue:
    token = _token()
    found = queries.load_editable(game_id, token)
    if found is None:
        return _error(404, "game_not_found")
    if token is None:
        return unauthorised("missing_token")
    stored, editable = found
    if not editable:
        return _error(403, "bad_token")
    return stored


def _once(body: Any) -> service.Once | None:
    """The write's key (SPEC "Never twice, never lost"), if it sends one; the answer kept with
    it is the game as written."""
    key = key_of_request()
    if key is None:
        return None

    def answer(stored: queries.StoredGame) -> service.Answer:
        return service.Answer(200, _answer(stored).get_data(as_text=True), "application/json")

    return service.Once(key, json_fingerprint(body), answer)


def _answered(result: service.Written) -> ResponseReturnValue:
    """A write's result as the API answers it."""
    match result:
        case service.Saved(stored=stored):
            return _answer(stored)
        case service.Replayed(answer=kept):
            return replayed(kept.status, kept.body, kept.content_type, kept.location)
        case service.Refused(reasons=reasons):
            raise GameRefused(reasons)
        case service.Stale(since=since, current=current):
            return jsonify(data(conflict_answer(result.code, current.game.version, since))), 409
        case service.KeyReused():
            return _error(422, result.code)
        case service.NotFound():
            return _error(404, result.code)
    assert_never(result)


def _write(game_id: str, number: int | None) -> ResponseReturnValue:
    stored = _authorised(game_id)
    if not isinstance(stored, queries.StoredGame):
        return stored
    raw = request_json()
    body = read_body(RoundBody, raw, stored.game.players)
    once = _once(raw)
    posted = body.round if body.round is not None else number
    if posted is None or number not in (None, posted):
        raise GameRefused([reason("bad_input", field="round")])
    typed = service.Typed.read(read_results(stored.game, body.results, body_language(body.lang)))
    if number is None:
        return _answered(
            service.enter_round(stored, posted, typed, version=body.version, once=once)
        )
    return _answered(service.correct_round(stored, number, typed, version=body.version, once=once))


@api_bp.post("/<game_id>/rounds")
@documented(
    "post",
    "/api/v1/games/{game_id}/rounds",
    summary="Enter the next round",
    tag="games",
    request=RoundBody,
    answers=_WRITE_ANSWERS,
    parameters=[_GAME_ID, _KEY],
    token=True,
    example=_ROUND_EXAMPLE,
)
def add_round(game_id: str) -> ResponseReturnValue:
    """Each player's result: went out, a penalty, or the cards held (the referee counts them).
    With `version`, a client that saw an older game gets a 409 instead of overwriting."""
    return _write(game_id, None)


@api_bp.put("/<game_id>/rounds/<int:number>")
@documented(
    "put",
    "/api/v1/games/{game_id}/rounds/{number}",
    summary="Correct a round already entered",
    tag="games",
    request=RoundBody,
    answers=_WRITE_ANSWERS,
    parameters=[_GAME_ID, _ROUND, _KEY],
    token=True,
    example=_ROUND_EXAMPLE,
)
def edit_round(game_id: str, number: int) -> ResponseReturnValue:
    """The round's results as they should have been; the history keeps what they were."""
    return _write(game_id, number)


@api_bp.post("/<game_id>/undo")
@documented(
    "post",
    "/api/v1/games/{game_id}/undo",
    summary="Take back the last change",
    tag="games",
    request=UndoBody,
    answers=_WRITE_ANSWERS,
    parameters=[_GAME_ID, _KEY],
    token=True,
    example={"version": 2},
)
def undo(game_id: str) -> ResponseReturnValue:
    """Take back the last change (the pages' undo, for scripts)."""
    stored = _authorised(game_id)
    if not isinstance(stored, queries.StoredGame):
        return stored
    raw = request_json() if request.get_data(cache=True).strip() else {}
    body = read_body(UndoBody, raw)
    return _answered(service.undo(stored, version=body.version, once=_once(raw)))
