"""The JSON API, version 1 (bearer tokens, no CSRF)."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from . import docs, routes  # noqa: E402,F401
