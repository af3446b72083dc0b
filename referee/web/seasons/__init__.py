"""A club's seasons: its evenings added up by the rule the host picks (the sum, the best N,
the average with a minimum attendance), the season's table by the club's view link, its files
and its API (/api/v1/clubs/<id>/seasons). A season keeps no result of its own: its table is
worked out from its evenings whenever it is read (`engine.seasons`).
"""

from flask import Blueprint

bp = Blueprint("seasons", __name__)

from . import messages, routes  # noqa: E402,F401
