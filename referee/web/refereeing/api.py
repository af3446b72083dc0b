"""The referee's JSON API, version 1: the variants, and the calls meld, contract, layoff,
penalty, solve (blueprint "refereeing_api").

Every answer is JSON, errors included: `{"error": {"code", "message", ...}}` in the request's
language, 400 for bad input, 413 for a body over `bodies.MAX_BODY`.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue
from flask_babel import force_locale

from referee.engine.errors import RefereeError
from referee.web.jsonapi.bodies import TooLarge, guard, json_body
from referee.web.jsonapi.errors import error_answer
from referee.web.jsonapi.openapi import OPERATIONS, documented
from referee.web.jsonapi.schemas import ErrorAnswer
from referee.web.refereeing import schemas, service

api_bp = Blueprint("refereeing_api", __name__, url_prefix="/api/v1")
guard(api_bp)


def _error(error: RefereeError, status: int = 400) -> ResponseReturnValue:
    response = jsonify(error_answer(error))
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


def _referee_call(
    call: str, summary: str, example: dict[str, Any]
) -> Callable[[Callable[[], ResponseReturnValue]], Callable[[], ResponseReturnValue]]:
    return documented(
        "post",
        f"/api/v1/{call}",
        summary=summary,
        tag="referee",
        request=schemas.REQUESTS[call],
        answers={
            200: (schemas.ANSWERS[call], "The verdict"),
            400: (ErrorAnswer, "The body could not be read: the reason, translated"),
            404: (ErrorAnswer, "The `game` named is not there"),
        },
        example=example,
    )


@api_bp.get("/variants")
@documented(
    "get",
    "/api/v1/variants",
    summary="Every variant with its full data, and the house rules",
    tag="referee",
    answers={200: (schemas.VariantsAnswer, "The variants in SPEC order")},
)
def variants() -> ResponseReturnValue:
    """Every variant with its full data, the names and contracts in the request's language."""
    response: Response = jsonify(service.variants_answer())
    response.headers["Cache-Control"] = "public, max-age=300"
    return response


@api_bp.post("/meld")
@_referee_call("meld", "Is this a set or a run?", {"variant": "contract", "cards": "5H 6H 7H JK"})
def meld() -> ResponseReturnValue:
    """Is this a set or a run, with what each joker stands for, or why not."""
    return _call("meld")


@api_bp.post("/contract")
@_referee_call(
    "contract",
    "Do these melds meet the round's contract?",
    {"variant": "contract", "round": 1, "melds": ["7H 7S 7D", "KC KD JK"]},
)
def contract() -> ResponseReturnValue:
    """Do these melds, laid down together, meet the round's contract."""
    return _call("contract")


@api_bp.post("/layoff")
@_referee_call(
    "layoff",
    "May these cards be laid off on this meld?",
    {"variant": "contract", "meld": "4C 5C 6C", "cards": "7C"},
)
def layoff() -> ResponseReturnValue:
    """May these cards be laid off on this meld, and what does it become."""
    return _call("layoff")


@api_bp.post("/penalty")
@_referee_call(
    "penalty",
    "What do the cards left in a hand cost?",
    {"variant": "contract", "cards": "KS 2C JK"},
)
def penalty() -> ResponseReturnValue:
    """What the cards left in a hand cost."""
    return _call("penalty")


@api_bp.post("/solve")
@_referee_call(
    "solve",
    "The best way to lay down the round's contract",
    {"variant": "contract", "round": 1, "hand": "7H 7S 7D KC KD KS 2C 9H"},
)
def solve() -> ResponseReturnValue:
    """The best way to lay down the round's contract from a hand, and what it leaves."""
    return _call("solve")


assert OPERATIONS  # the calls above registered themselves
