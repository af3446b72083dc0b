"""Games."""

from flask import Blueprint

bp = Blueprint("games", __name__, url_prefix=" start, resume and keep the score table:")

from . import routes  # noqa: E402,F401
