"""Reading a JSON API request's body, the same way for every call of /api/v1: at most
`MAX_BODY` bytes (413 past it, refused before reading when the length is announced), and
JSON (400 `bad_json` otherwise, also for JSON nested deeper than the parser goes)."""

from __future__ import annotations

from typing import Any, Final

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import RequestEntityTooLarge

from referee.engine.errors import RefereeError
from referee.web.verdicts import error_answer

from .service import decode

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


def guard(blueprint: Blueprint) -> None:
    """Limit the bodies of every request to `blueprint`, and answer a 413 in JSON."""
    blueprint.before_request(limit_body)
    blueprint.register_error_handler(TooLarge, _too_large)
