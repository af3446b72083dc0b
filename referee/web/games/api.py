"""Games over JSON (SPEC.md): create, read, enter and correct rounds, undo, with a bearer token.

A refusal answers `error` (the first reason) and `errors` (every reason, each with the `player`
and `field` it is about where there is one), in the request's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue

from referee.engine.errors import RefereeError
from referee.engine.game import Game, GameRefused, Reason, reason
from referee.web.api.bodies import TooLarge, guard, json_body
from referee.web.clubs.api import create_game_in_club
from referee.web.i18n import LANGUAGES, current_language
from referee.web.messages import describe, describe_reason

from . import store
from .exports import game_json
from .links import edit_url, view_url
from .results import read_results

api_bp = Blueprint("games_api", __name__, url_prefix="/api/v1/games")
guard(api_bp)


def _reason_json(reason: Reason, players: Sequence[str] | None) -> dict[str, Any]:
    item: dict[str, Any] = {"code": reason.code, "message": describe_reason(reason, players)}
    if reason.player is not None and players is not None:
        item["player"] = players[reason.player]
    if reason.field is not None:
        item["field"] = reason.field
    if reason.code == "bad_card" and "token" in reason.params:
        item["input"] = reason.params["token"]
    return item


def _error(status: int, code: str, **extra: Any) -> ResponseReturnValue:
    return jsonify({"error": {"code": code, "message": describe(code), **extra}}), status


def _conflict(error: store.Conflict) -> ResponseReturnValue:
    changes = [
        {"version": e.version, "action": e.change.action.value, "round": e.change.round,
         "at": e.at.isoformat()}
        for e in error.since
    ]  # fmt: skip
    return _error(409, error.code, version=error.current, changes=changes)


def _body() -> dict[str, Any]:
    """The request's JSON object; GameRefused (`bad_json`, `not_an_object`), or TooLarge."""
    try:
        body = json_body()
    except TooLarge:
        raise
    except RefereeError as error:
        raise GameRefused([reason(error.code, field="body")]) from None
    if not isinstance(body, dict):
        raise GameRefused([reason("not_an_object", field="body")])
    return body


def _version(body: dict[str, Any]) -> int | None:
    """The version the writer saw, if it says: a whole number."""
    version = body.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise GameRefused([reason("bad_input", field="version")])
    return version


def _lang(body: dict[str, Any]) -> str:
    """The body's `lang` when it names one of ours (anything else, even a list, is ignored)."""
    lang = body.get("lang")
    return lang if isinstance(lang, str) and lang in LANGUAGES else current_language()


def _token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def _answer(stored: store.StoredGame, status: int = 200, **extra: Any) -> Response:
    response = jsonify({**game_json(stored), **extra})
    response.status_code = status
    response.set_etag(f"g{stored.game.version}-{current_language()}")
    return response


@api_bp.errorhandler(GameRefused)
def refused(error: GameRefused) -> ResponseReturnValue:
    """Every refusal of a games call: `error` (the first reason) and `errors` (all of them)."""
    stored = store.load(request.view_args.get("game_id", "")) if request.view_args else None
    players = stored.game.players if stored is not None else None
    errors = [_reason_json(r, players) for r in error.reasons]
    return jsonify({"error": errors[0], "errors": errors}), 400


@api_bp.post("")
def create() -> ResponseReturnValue:
    body = _body()
    if body.get("club") is not None:  # filed in a club, with the club's token (SPEC "Clubs")
        return create_game_in_club(body, _token())
    game = Game.start(
        body.get("variant", ""),
        body.get("players", []),
        house_rules=body.get("house_rules"),
        first_dealer=body.get("first_dealer"),
    )
    stored, token = store.create(game, lang=_lang(body))
    response = _answer(
        stored,
        201,
        edit_token=token,
        view_url=view_url(stored.id, external=True),
        edit_url=edit_url(stored.id, token, external=True),
    )
    response.headers["Location"] = f"/api/v1/games/{stored.id}"
    return response


@api_bp.get("/<game_id>")
def read(game_id: str) -> ResponseReturnValue:
    stored = store.load(game_id)
    if stored is None:
        return _error(404, "game_not_found")
    return _answer(stored).make_conditional(request)


def _authorised(game_id: str) -> store.StoredGame | ResponseReturnValue:
    stored = store.load(game_id)
    if stored is None:
        return _error(404, "game_not_found")
    token = _token()
    if token is None:
        return _error(403, "missing_token")
    if not store.check_token(game_id, token):
        return _error(403, "bad_token")
    return stored


def _write(game_id: str, number: int | None) -> ResponseReturnValue:
    stored = _authorised(game_id)
    if not isinstance(stored, store.StoredGame):
        return stored
    body = _body()
    version = _version(body)
    posted = body.get("round", number)
    if isinstance(posted, bool) or not isinstance(posted, int) or number not in (None, posted):
        raise GameRefused([reason("bad_input", field="round")])
    results = read_results(stored.game, body.get("results"), _lang(body))
    try:
        if number is None:
            stored = store.enter_round(game_id, posted, results, version=version)
        else:
            stored = store.correct_round(game_id, number, results, version=version)
    except store.Conflict as conflict:
        return _conflict(conflict)
    except store.GameNotFound:
        return _error(404, "game_not_found")
    return _answer(stored)


@api_bp.post("/<game_id>/rounds")
def add_round(game_id: str) -> ResponseReturnValue:
    return _write(game_id, None)


@api_bp.put("/<game_id>/rounds/<int:number>")
def edit_round(game_id: str, number: int) -> ResponseReturnValue:
    return _write(game_id, number)


@api_bp.post("/<game_id>/undo")
def undo(game_id: str) -> ResponseReturnValue:
    """Take back the last change (the pages' undo, for scripts)."""
    stored = _authorised(game_id)
    if not isinstance(stored, store.StoredGame):
        return stored
    body = _body() if request.get_data(cache=True).strip() else {}
    try:
        stored = store.undo(game_id, version=_version(body))
    except store.Conflict as conflict:
        return _conflict(conflict)
    return _answer(stored)
