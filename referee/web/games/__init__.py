"""Games: start one, resume recent ones, keep the live score table, enter and correct rounds."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("games", __name__)

# The language of a game's pages is the game's (to a phone that chose none): create_app names
# `game_id` among the records with a language of their own (referee/web/plumbing/i18n.py).

from . import chart, messages, queries, rounds, routes  # noqa: E402,F401
