"""Never twice (SPEC "Never twice, never lost"): the `Idempotency-Key` a write carries, what the
request asked (its fingerprint), and the kept answer given again to a repeat.

The JSON API takes the key as a header, the round forms as a hidden field of the same name;
`new_key()` makes one for every form a page draws. The store keeps the answer with the key in
the write's own transaction (`games.store.Once`).
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Iterable
from typing import Any, Final

from flask import Flask, Response, request

from referee.engine.errors import GameRefused, reason

HEADER: Final = "Idempotency-Key"
#: 8 to 64 visible ASCII characters: a UUID fits, so does any client's own scheme.
_KEY: Final = re.compile(r"[\x21-\x7e]{8,64}")
#: Form fields that are not part of what a form asks for.
_NOT_ASKED: Final = frozenset({"csrf_token", "save", HEADER})  # "save": the button


def key_of_request() -> str | None:
    """The request's key (header, else the form's field), None when it sends none.

    GameRefused (`bad_idempotency_key`, field: the header) for a key of another shape: a write
    refused, like any other reason it cannot be taken.
    """
    raw = request.headers.get(HEADER)
    if raw is None and request.mimetype == "application/x-www-form-urlencoded":
        raw = request.form.get(HEADER)
    if raw is None or raw == "":
        return None
    if not _KEY.fullmatch(raw):
        raise GameRefused([reason("bad_idempotency_key", field=HEADER)])
    return raw


def _digest(*parts: str) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def json_fingerprint(body: Any) -> str:
    """What a JSON write asks for: its method, path and body (keys in any order)."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return _digest(request.method, request.path, canonical)


def form_fingerprint(fields: Iterable[tuple[str, str]]) -> str:
    """What a form post asks for: its method, path and fields (the key and CSRF token aside)."""
    asked = sorted((name, value) for name, value in fields if name not in _NOT_ASKED)
    return _digest(request.method, request.path, json.dumps(asked, ensure_ascii=False))


def new_key() -> str:
    """A fresh key for a form drawn now: a retry of that form is the same request."""
    return str(uuid.uuid4())


def replayed(
    status: int, body: str | None, content_type: str | None, location: str | None
) -> Response:
    """The kept answer, as it was first given."""
    response = Response(body or "", status=status, content_type=content_type)
    if location:
        response.headers["Location"] = location
    response.headers["Idempotent-Replayed"] = "true"
    return response


def init_app(app: Flask) -> None:
    app.add_template_global(new_key, "new_idempotency_key")
