"""The referee pages: check a meld, a contract, a lay-off or a hand."""

from flask import Blueprint

bp = Blueprint("refereeing", __name__)

from . import messages, routes  # noqa: E402,F401
