"""`GET /api/v1/drills`: a pack of drills, each with its question, choices, answer and the
referee's reasons, in the request's language; the same pack for the same seed."""

from __future__ import annotations

from flask import jsonify, request
from flask.typing import ResponseReturnValue

from referee.engine import drills as engine
from referee.engine.errors import RefereeError
from referee.engine.variants import VARIANTS
from referee.web.jsonapi.bodies import guard
from referee.web.jsonapi.errors import error_answer
from referee.web.jsonapi.openapi import Parameter, documented
from referee.web.jsonapi.schemas import ErrorAnswer

from . import api_bp, schemas, service

guard(api_bp)

#: The field each refusal is about, where the code does not say it.
_FIELDS = {
    "unknown_variant": "variant",
    "bad_house_rule": "house_rules",
    "unknown_house_rule": "house_rules",
    "unknown_drill_kind": "kind",
    "no_drills_of_kind": "kind",
    "no_contract": "kind",
    "too_few_drills": "count",
    "bad_drill_level": "level",
    "bad_drill_count": "count",
    "bad_seed": "seed",
    "bad_players": "players",
}

_PARAMETERS = [
    Parameter(
        "variant",
        "query",
        {"type": "string", "examples": list(VARIANTS)},
        "the variant's id (or an alias)",
        required=True,
    ),
    Parameter("kind", "query", {"enum": list(engine.KINDS)}, "one kind; left out: every kind"),
    Parameter("level", "query", {"type": "integer", "enum": list(engine.LEVELS)}, "1 easy to 3"),
    Parameter(
        "count",
        "query",
        {"type": "integer", "minimum": 1, "maximum": engine.MAX_COUNT},
        "drills in the pack (10 when left out)",
    ),
    Parameter(
        "seed",
        "query",
        {"type": "integer", "minimum": 0, "maximum": engine.MAX_SEED},
        "the same seed, the same pack (drawn when left out)",
    ),
    Parameter("players", "query", {"type": "integer"}, "the table's size (else each drill's own)"),
    Parameter("house_rules", "query", {"type": "string"}, "the table's house rules as JSON"),
]


@api_bp.get("/drills")
@documented(
    "get",
    "/api/v1/drills",
    summary="Drills for learning the rules, answered by the referee",
    tag="training",
    answers={
        200: (schemas.DrillsAnswer, "The pack"),
        400: (ErrorAnswer, "A parameter could not be read: the reason, translated"),
    },
    parameters=_PARAMETERS,
)
def drills() -> ResponseReturnValue:
    """A pack of drills (meld, contract, value, layoff, swap, solve, facts) drawn from the
    table's shoe; every answer and reason is the referee's own verdict."""
    try:
        answer = service.pack(request.args)
    except RefereeError as error:
        field = error.params.get("field") or _FIELDS.get(error.code)
        response = jsonify(error_answer(error, **({"field": field} if field else {})))
        response.headers["Cache-Control"] = "no-store"
        return response, 400
    response = jsonify(answer)
    response.headers["Cache-Control"] = (
        "no-store" if not request.args.get("seed", "").strip() else "public, max-age=300"
    )
    return response
