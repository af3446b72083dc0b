"""Games: start one, resume recent ones, and keep the live score table."""

from flask import Blueprint

bp = Blueprint("games", __name__)

from . import routes  # noqa: E402,F401
