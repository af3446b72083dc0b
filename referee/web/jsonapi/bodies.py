"""Reading a JSON API request, the same way for every call of /api/v1: a body of at most
`MAX_BODY` bytes (413 past it, refused before reading when the length is announced), sent as
JSON (415 for any other Content-Type: a cross-site form can send text/plain without asking,
not JSON) and JSON indeed (400 `bad_json` otherwise, also for JSON nested deeper than the
parser goes); `?lang` once, one of ours (400 `bad_language`); OPTIONS answered with the
methods and no body; a missing bearer token a 401 that says how to send one."""

from __future__ import annotations

import json
from typing import Any, Final

from flask import Blueprint, abort, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import RequestEntityTooLarge

from referee.engine.errors import RefereeError
from referee.web.core.languages import LANGUAGES
from referee.web.jsonapi.errors import bad, error_answer
from referee.web.vocabulary.messages import describe

#: The largest request body the API reads (bytes): ample for any hand, small for a phone server.
MAX_BODY: Final = 64 * 1024


class TooLarge(RefereeError):
    """A body over `MAX_BODY`: answered with a 413."""

    def __init__(self) -> None:
        super().__init__("payload_too_large", limit=MAX_BODY)


def limit_body() -> None:
    """Before a request: refuse a body announced as too large; cut off one without a length."""
    # One byte over the limit is read, so that a body cut off at the limit shows as too large.
    request.max_content_length = MAX_BODY + 1
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise TooLarge()


def decode(data: bytes) -> Any:
    """The JSON value of a request body; `bad_json` for anything that is not JSON."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise bad("bad_json") from None


def json_body() -> Any:
    """The decoded JSON body; TooLarge or RefereeError `bad_json`."""
    try:
        data = request.get_data(cache=True)
    except RequestEntityTooLarge:
        raise TooLarge() from None
    if len(data) > MAX_BODY:
        raise TooLarge()
    return decode(data)


def _too_large(error: TooLarge) -> ResponseReturnValue:
    response = jsonify(error_answer(error))
    response.headers["Cache-Control"] = "no-store"
    return response, 413


#: The methods whose requests carry a body.
_WITH_BODY: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class BadQuery(RefereeError):
    """A query parameter the API does not read that way: answered with a 400."""


def json_only() -> ResponseReturnValue | None:
    """Before a request: OPTIONS answered; a body that is not JSON refused (415), whatever it
    says; `?lang` read once (BadQuery)."""
    if request.method == "OPTIONS":
        response = current_app.make_default_options_response()
        response.status_code = 204
        response.set_data(b"")
        del response.headers["Content-Type"]
        return response
    langs = request.args.getlist("lang")
    if langs and (len(langs) > 1 or langs[0] not in LANGUAGES):
        raise BadQuery("bad_language", lang=",".join(langs)[:20])
    if request.method in _WITH_BODY and _has_body() and not request.is_json:
        abort(415)
    return None


def _has_body() -> bool:
    """Whether the request carries a body (or says it does: a Content-Type is a body's)."""
    headers = request.headers
    return bool(
        request.content_length or headers.get("Transfer-Encoding") or headers.get("Content-Type")
    )


def unauthorised(code: str) -> ResponseReturnValue:
    """No bearer token: a 401 that says which scheme to use (RFC 6750)."""
    response = jsonify({"error": {"code": code, "message": describe(code)}})
    response.headers["WWW-Authenticate"] = 'Bearer realm="rummy-referee"'
    response.headers["Cache-Control"] = "no-store"
    return response, 401


def _bad_query(error: BadQuery) -> ResponseReturnValue:
    answer = error_answer(error)
    answer["error"]["field"] = "lang"
    answer["errors"] = [answer["error"]]
    response = jsonify(answer)
    response.headers["Cache-Control"] = "no-store"
    return response, 400


def guard(blueprint: Blueprint) -> None:
    """Every request to `blueprint` read as above; 413 and 400 answered in JSON."""
    blueprint.before_request(limit_body)
    blueprint.before_request(json_only)
    blueprint.register_error_handler(TooLarge, _too_large)
    blueprint.register_error_handler(BadQuery, _bad_query)
