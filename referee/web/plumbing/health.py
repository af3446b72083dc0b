"""`GET /healthz`: whether this process can answer and reach its database (SPEC.md).

200 `{"status": "ok", "database": "ok", "version": ..., "live": {...}}`, or 503 naming the part
that failed. `live` is the live push's broker: "in-process" (SQLite: its limit, one worker
process, said) or "postgresql" (whether this worker's LISTEN connection is up; it opens with
the first stream), and the streams this worker holds.
No secrets (not the database's address, not the error's text), no cookies, never cached.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Final

from flask import Blueprint, Flask, Response, current_app, jsonify
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from referee.web.plumbing.database import database
from referee.web.plumbing.version import app_version

bp = Blueprint("health", __name__)
log = logging.getLogger(__name__)
#: app.extensions key: the other parts /healthz reports, by name (create_app gives the live push's).
REPORTS: Final = "health.reports"


def init_app(app: Flask, *, reports: Mapping[str, Callable[[], Any]]) -> None:
    """Register /healthz; `reports` are the parts it says beside the database (each called per
    request): the live push lives above this package, so it is handed over."""
    app.extensions[REPORTS] = dict(reports)
    app.register_blueprint(bp)


def _database_state() -> str:
    try:
        with database().reading() as conn:
            conn.execute(text("SELECT 1")).scalar_one()
    except (SQLAlchemyError, OSError):
        log.exception("health check: the database does not answer")
        return "unavailable"
    return "ok"


@bp.get("/healthz")
def healthz() -> Response:
    state = _database_state()
    healthy = state == "ok"
    response = jsonify(
        {
            "status": "ok" if healthy else "unavailable",
            "database": state,
            "version": app_version(),
            **{name: report() for name, report in current_app.extensions[REPORTS].items()},
        }
    )
    response.status_code = 200 if healthy else 503
    response.headers["Cache-Control"] = "no-store"
    return response
