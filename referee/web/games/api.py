"""Games over JSON (SPEC.md): create, read, enter and correct rounds, undo, with a bearer token.

A refusal answers `error` (the first reason) and `errors` (every reason, each with the `player`
and `field` it is about where there is one), in the request's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue

from referee.engine.game import Game, GameRefused, Reason
from referee.web.i18n import LANGUAGES, current_language
from referee.web.messages import describe, describe_reason

from . import store
from .exports import game_json
from .links import edit_url, view_url
from .results import read_results

api_bp = Blueprint("games_api", __name__, url_prefix="/api/v1/games")


def _reason_json(reason: Reason, players: Sequence[str] | None) -> dict[str, Any]:
    item: dict[str, Any] = {"code": reason.code, "message": describe_reason(reason, players)}
    if reason.player is not None and players is not None:
        item["player"] = players[reason.player]
    if reason.field is not None:
        item["field"] = reason.field
    if reason.code == "bad_card" and "token" in reason.params:
        item["input"] = reason.params["token"]
    return item


def _refused(
    reasons: Sequence[Reason], players: Sequence[str] | None = None
) -> ResponseReturnValue:
    errors = [_reason_json(reason, players) for reason in reasons]
    return jsonify({"error": errors[0], "errors": errors}), 400


def _error(status: int, code: str, **extra: Any) -> ResponseReturnValue:
    return jsonify({"error": {"code": code, "message": describe(code), **extra}}), status


def _conflict(error: store.Conflict) -> ResponseReturnValue:
    changes = [
        {"version": e.version, "action": e.change.action.value, "round": e.change.round,
         "at": e.at.isoformat()}
        for e in error.since
    ]  # fmt: skip
    return _error(409, error.code, version=error.current, changes=changes)


def _body() -> dict[str, Any] | None:
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # JSON nested deeper than the parser goes
        return None
    return body if isinstance(body, dict) else None


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


@api_bp.post("")
def create() -> ResponseReturnValue:
    body = _body()
    if body is None:
        return _error(400, "bad_json")
    try:
        game = Game.start(
            body.get("variant", ""),
            body.get("players", []),
            house_rules=body.get("house_rules"),
            first_dealer=body.get("first_dealer"),
        )
    except GameRefused as refused:
        return _refused(refused.reasons)
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
        return _error(403, "forbidden", message=describe("missing_token"))
    return stored


def _write(game_id: str, number: int | None) -> ResponseReturnValue:
    stored = _authorised(game_id)
    if not isinstance(stored, store.StoredGame):
        return stored
    body = _body()
    if body is None:
        return _error(400, "bad_json")
    game = stored.game
    version = body.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        return _refused([Reason("bad_input", {"field": "version"}, None, "version")])
    posted = body.get("round", number)
    if isinstance(posted, bool) or not isinstance(posted, int) or number not in (None, posted):
        return _refused([Reason("bad_input", {"field": "round"}, None, "round")])
    try:
        results = read_results(game, body.get("results"), _lang(body))
        if number is None:
            stored = store.enter_round(game_id, posted, results, version=version)
        else:
            stored = store.correct_round(game_id, number, results, version=version)
    except GameRefused as refused:
        return _refused(refused.reasons, game.players)
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
    body = _body() or {}
    version = body.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        return _refused([Reason("bad_input", {"field": "version"}, None, "version")])
    try:
        stored = store.undo(game_id, version=version)
    except GameRefused as refused:
        return _refused(refused.reasons, stored.game.players)
    except store.Conflict as conflict:
        return _conflict(conflict)
    return _answer(stored)
