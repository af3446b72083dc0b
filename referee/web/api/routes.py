"""The JSON API, version 1: the variants, and the calls meld, contract, layoff, penalty, solve.

Every answer is JSON, errors included: `{"error": {"code", "message", ...}}` in the request's
language, 400 for bad input, 413 for a body over `service.MAX_BODY`.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from flask import Response, jsonify, request
from flask.typing import ResponseReturnValue
from flask_babel import force_locale
from werkzeug.exceptions import RequestEntityTooLarge

from referee.engine.errors import RefereeError

from .. import verdicts
from . import bp, service


def _error(error: RefereeError, status: int = 400) -> ResponseReturnValue:
    response = jsonify(verdicts.error_answer(error))
    response.headers["Cache-Control"] = "no-store"
    return response, status


def _too_large() -> ResponseReturnValue:
    return _error(service.bad("payload_too_large", limit=service.MAX_BODY), 413)


@bp.before_request
def limit_body() -> ResponseReturnValue | None:
    """Refuse a large body before reading it; a body without a length is cut off while read."""
    # One byte over the limit is read, so that a body cut off at the limit shows as too large.
    request.max_content_length = service.MAX_BODY + 1
    if request.content_length is not None and request.content_length > service.MAX_BODY:
        return _too_large()
    return None


def _query_language() -> str | None:
    lang = request.args.get("lang", "").strip().lower()
    return lang or None


def _call(call: str) -> ResponseReturnValue:
    try:
        data = request.get_data(cache=True)
    except RequestEntityTooLarge:
        return _too_large()
    if len(data) > service.MAX_BODY:
        return _too_large()
    try:
        body: Any = service.decode(data)
    except RefereeError as error:
        return _error(error)
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
            return _error(error)
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
