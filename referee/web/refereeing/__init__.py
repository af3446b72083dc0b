"""The referee: check a meld, a contract, a lay-off, a joker swap or a hand, on the page
(blueprint "refereeing", /referee) and by the API (blueprint "refereeing_api" in api.py,
/api/v1/variants, meld, contract, layoff, penalty, solve), each check under the table that
tables.py reads one way for both."""

from flask import Blueprint

bp = Blueprint("refereeing", __name__)

from . import messages, routes  # noqa: E402,F401
