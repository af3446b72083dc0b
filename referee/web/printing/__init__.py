"""Rule cards and score sheets as pages and PDFs."""

from flask import Blueprint

bp = Blueprint("printing", __name__)

from . import routes  # noqa: E402,F401
