"""Games: start one, resume recent ones, keep the live score table, enter and correct rounds."""

from flask import Blueprint

bp = Blueprint("games", __name__)

from . import chart, rounds, routes  # noqa: E402,F401
