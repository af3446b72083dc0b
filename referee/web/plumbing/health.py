"""`GET /healthz`: whether this process can answer and reach its database (SPEC.md).

200 `{"status": "ok", "database": "ok", "version": ..., "live": {...}}`, or 503 naming the part
that failed. `live` is the live push's broker: "in-process" (SQLite: its limit, one worker
process, said) or "postgresql" (whether this worker's LISTEN connection is up; it opens with
the first stream), and the streams this worker holds.
No secrets (not the database's address, not the error's text), no cookies, never cached.
"""

from __future__ import annotations

import logging
from functools import cache
from importlib.metadata import PackageNotFoundError, version

from flask import Blueprint, Response, jsonify
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from referee.web import live
from referee.web.plumbing.database import database

PACKAGE = "rummy-referee"

bp = Blueprint("health", __name__)
log = logging.getLogger(__name__)


@cache
def app_version() -> str:
    """The installed package's version (what `pip show rummy-referee` says)."""
    try:
        return version(PACKAGE)
    except PackageNotFoundError:  # pragma: no cover - run from a tree that was never installed
        return "0+unknown"


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
            "live": live.state(),
        }
    )
    response.status_code = 200 if healthy else 503
    response.headers["Cache-Control"] = "no-store"
    return response
