"""The trainer: drills built from the referee (issue 32). `GET /api/v1/drills` answers a pack;
the pages (/training) ask ten of them a session, one a screen; the drills themselves are the
engine's (`referee.engine.drills`)."""

from flask import Blueprint

api_bp = Blueprint("training_api", __name__, url_prefix="/api/v1")
bp = Blueprint("training", __name__)

from . import api, messages, offline, pages  # noqa: E402,F401
