"""The JSON API, version 1: the variants, and the calls meld, contract, layoff, penalty, solve.

Every answer is JSON, errors included: `{"error": {"code", "message", ...}}` in the request's
language, 400 for bad input, 413 for a body over `bodies.MAX_BODY`.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from flask import Response, jsonify, request
from flask.typing import ResponseReturnValue
from flask_babel import force_locale

from referee.engine.errors import RefereeError

from .. import verdicts
from . import bp, service
from .bodies import TooLarge, guard, json_body

guard(bp)


def _error(error: RefereeError, status: int = 400) -> ResponseReturnValue:
    response = jsonify(verdicts.error_answer(error))
    response.headers["Cache-Control"] = "no-store"
    return response, status


def _query_language() -> str | None:
    lang = request.args.get("lang", "").strip().lower()
    return lang or None


def _call(call: str) -> ResponseReturnValue:
    try:
        body: Any = json_body()
    except RefereeError as error:
        return _error(error, 413 if isinstance(error, TooLarge) else 400)
    try:
        lang = service.body_language(body)
    except RefereeError as error:
        return _error(error)
    # The body's `lang` decides the language even when the Content-Type was not JSON
    # (the locale selector only looks into JSON bodies).
    with force_locale(lang) if lang else nullcontext():
        try:
            answer = service.answer(call, body, lang=_query_language())
        except RefereeError as error:
            return _error(error, 404 if error.code == "game_not_found" else 400)
        response = jsonify(answer)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/variants")
def variants() -> ResponseReturnValue:
    """Every variant with its full data, the names and contracts in the request's language."""
    response: Response = jsonify(service.variants_answer())
    response.headers["Cache-Control"] = "public, max-age=300"
    return response


@bp.post("/meld")
def meld() -> ResponseReturnValue:
    """Is this a set or a run, with what each joker stands for, or why not."""
    return _call("meld")


@bp.post("/contract")
def contract() -> ResponseReturnValue:
    """Do these melds, laid down together, meet the round's contract."""
    return _call("contract")


@bp.post("/layoff")
def layoff() -> ResponseReturnValue:
    """May these cards be laid off on this meld, and what does it become."""
    return _call("layoff")


@bp.post("/penalty")
def penalty() -> ResponseReturnValue:
    """What the cards left in a hand cost."""
    return _call("penalty")


@bp.post("/solve")
def solve() -> ResponseReturnValue:
    """The best way to lay down the round's contract from a hand, and what it leaves."""
    return _call("solve")
