"""The referee pages."""

from flask import Blueprint

bp = Blueprint("refereeing", __name__, url_prefix=" check a meld, a contract, a lay-off or a hand:")

from . import routes  # noqa: E402,F401
