"""What every /api/v1 call shares, and no feature owns: reading a request (bodies.py), the
error answer (errors.py), the base shapes of bodies and answers (schemas.py), the OpenAPI
document built from the views that describe themselves (openapi.py) and its page (docs.py).
Blueprint "api": /api/v1/openapi.json and /api/v1/docs. Imports no feature (the `web`
import contract): each feature's API is its own blueprint beside its service.
"""

from flask import Blueprint, Flask

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from referee.web.jsonapi import docs, messages  # noqa: E402,F401


def init_app(app: Flask) -> None:
    """Register the blueprint (the OpenAPI document and its page)."""
    app.register_blueprint(bp)
