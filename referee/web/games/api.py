"""Games over JSON (SPEC.md): create, read, enter and correct rounds with a bearer token."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue

from referee.web.i18n import LANGUAGES, current_language

from . import store
from .store import Conflict, GameError
from .texts import error_text, game_error_text

api_bp = Blueprint("games_api", __name__, url_prefix="/api/v1/games")


def _error(status: int, code: str, message: str, **extra: Any) -> tuple[Response, int] | Response:
    return jsonify({"error": {"code": code, "message": message, **extra}}), status


def _game_error(error: GameError, players: Any = None) -> ResponseReturnValue:
    extra: dict[str, Any] = {}
    if error.field:
        extra["field"] = error.field
    if error.code == "bad_card" and "token" in error.params:
        extra["input"] = error.params["token"]
    if isinstance(error, Conflict):
        extra["version"] = error.current
        extra["changes"] = [
            {"version": c.version, "action": c.action, "round": c.round, "at": c.at.isoformat()}
            for c in error.since
        ]
    return _error(error.status, error.code, game_error_text(error, players), **extra)


def _body() -> dict[str, Any] | ResponseReturnValue:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return _error(400, "bad_json", error_text("bad_json", {}))
    return body


def _lang(body: dict[str, Any]) -> str:
    """The body's `lang` when it names one of ours (anything else, even a list, is ignored)."""
    lang = body.get("lang")
    return lang if isinstance(lang, str) and lang in LANGUAGES else current_language()


def _token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def _game_answer(game: store.Game, status: int = 200) -> ResponseReturnValue:
    response = jsonify(store.to_json(game))
    response.set_etag(f"g{game.version}-{current_language()}")
    return response, status


@api_bp.post("")
def create() -> ResponseReturnValue:
    body = _body()
    if not isinstance(body, dict):
        return body
    lang = _lang(body)
    try:
        game, token = store.create_game(
            body.get("variant", ""),
            body.get("players", []),
            house_rules=body.get("house_rules"),
            first_dealer=body.get("first_dealer"),
            lang=lang,
        )
    except GameError as error:
        return _game_error(error)
    data = store.to_json(game)
    data.update(
        edit_token=token,
        view_url=store.view_url(game.id, external=True),
        edit_url=store.edit_url(game.id, token, external=True),
    )
    response = jsonify(data)
    response.headers["Location"] = f"/api/v1/games/{game.id}"
    return response, 201


@api_bp.get("/<game_id>")
def read(game_id: str) -> ResponseReturnValue:
    game = store.get_game(game_id)
    if game is None:
        return _error(404, "game_not_found", error_text("game_not_found", {}))
    etag = f"g{game.version}-{current_language()}"
    if request.if_none_match and etag in request.if_none_match:
        response = Response(status=304)
        response.set_etag(etag)
        return response
    return _game_answer(game)


def _write(game_id: str, number: int | None) -> ResponseReturnValue:
    game = store.get_game(game_id)
    if game is None:
        return _error(404, "game_not_found", error_text("game_not_found", {}))
    token = _token()
    if token is None:
        return _error(403, "missing_token", error_text("missing_token", {}))
    if not store.check_token(game_id, token):
        return _error(403, "forbidden", error_text("missing_token", {}))
    body = _body()
    if not isinstance(body, dict):
        return body
    version = body.get("version")
    lang = _lang(body)
    try:
        if number is None:
            game = store.add_round(
                game_id, body.get("round"), body.get("results"), version=version, lang=lang
            )
        else:
            if "round" in body and body["round"] != number:
                raise GameError("bad_input", field="round")
            game = store.edit_round(
                game_id, number, body.get("results"), version=version, lang=lang
            )
    except GameError as error:
        return _game_error(error, game.players)
    return _game_answer(game)


@api_bp.post("/<game_id>/rounds")
def add_round(game_id: str) -> ResponseReturnValue:
    return _write(game_id, None)


@api_bp.put("/<game_id>/rounds/<int:number>")
def edit_round(game_id: str, number: int) -> ResponseReturnValue:
    return _write(game_id, number)


@api_bp.post("/<game_id>/undo")
def undo(game_id: str) -> ResponseReturnValue:
    """Take back the last change (not in SPEC's table; the pages' undo, for scripts)."""
    game = store.get_game(game_id)
    if game is None:
        return _error(404, "game_not_found", error_text("game_not_found", {}))
    token = _token()
    if token is None or not store.check_token(game_id, token):
        return _error(403, "missing_token", error_text("missing_token", {}))
    body = request.get_json(silent=True)
    version = body.get("version") if isinstance(body, dict) else None
    try:
        game = store.undo(game_id, version=version)
    except GameError as error:
        return _game_error(error, game.players)
    return _game_answer(game)
