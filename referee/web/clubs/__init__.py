"""Clubs: the same people over many games, with stats, ratings and charts."""

from flask import Blueprint

bp = Blueprint("clubs", __name__)

from . import routes  # noqa: E402,F401
