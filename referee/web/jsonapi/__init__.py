"""The JSON API, version 1 (bearer tokens, no CSRF): the referee's calls, and what every
feature's /api/v1 calls share (bodies, schemas, the OpenAPI document)."""

from flask import Blueprint, Flask

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from referee.web.jsonapi import docs  # noqa: E402,F401
from referee.web.refereeing import api as routes  # noqa: E402,F401
from referee.web.refereeing.service import FIND_GAME, FindGame  # noqa: E402


def init_app(app: Flask, *, find_game: FindGame) -> None:
    """Register the blueprint; `find_game` reads a game named by a check's `game`."""
    app.extensions[FIND_GAME] = find_game
    app.register_blueprint(bp)
