"""The error answer of every /api/v1 call and of the command line: `{"error": {"code",
"message", ...}}`, the message in the request's language (needs an app context with a locale).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue

from referee.engine.errors import Reason, RefereeError
from referee.web.vocabulary.messages import describe, describe_reason

JSON = dict[str, Any]


def bad(code: str, **params: Any) -> RefereeError:
    """An input error with a web-level code (its sentence registered by the feature's
    `messages.py`)."""
    return RefereeError(code, **params)


def error_answer(error: RefereeError, **extra: Any) -> JSON:
    """`{"error": {"code", "message", ...}}`; a bad card also gives its `input`."""
    body: JSON = {"code": error.code, "message": describe(error.code, error.params)}
    if error.code == "bad_card" and "token" in error.params:
        body["input"] = error.params["token"]
    for key in ("field", "limit", "least", "variant", "rule"):
        if key in error.params and key not in body:
            body[key] = error.params[key]
    body.update(extra)
    return {"error": body}


def code_answer(status: int, code: str) -> ResponseReturnValue:
    """`{"error": {"code", "message"}}` with `status`: a refusal that needs no parameter."""
    return jsonify({"error": {"code": code, "message": describe(code)}}), status


def reasons_answer(status: int, reasons: Iterable[Reason]) -> ResponseReturnValue:
    """Every reason, each with its field; the first also as `error` (SPEC's shape)."""
    errors = [
        {"code": r.code, "message": describe_reason(r), **({"field": r.field} if r.field else {})}
        for r in reasons
    ]
    return jsonify({"error": errors[0], "errors": errors}), status
