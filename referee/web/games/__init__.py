"""Games: start one, resume recent ones, keep the live score table, enter and correct rounds."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g
from flask.blueprints import BlueprintSetupState

from referee.web.i18n import speak_by_default

bp = Blueprint("games", __name__)


@bp.record_once
def _speak_the_games_language(state: BlueprintSetupState) -> None:
    """Every page of a game (view and edit pages, exports, its score sheet, which printing
    serves) speaks the game's language to a phone that never chose one. The JSON API keeps
    its own default (SPEC: en)."""
    state.app.url_value_preprocessor(_game_language)


def _game_language(endpoint: str | None, values: dict[str, Any] | None) -> None:
    game_id = (values or {}).get("game_id")
    if isinstance(game_id, str) and endpoint and not endpoint.startswith(("games_api.", "api.")):
        # The page has usually loaded the game before its first word (access.game_or_404
        # keeps its language): asked only otherwise.
        speak_by_default(lambda: g.get("game_language") or queries.lang_of(game_id))


from . import chart, queries, rounds, routes  # noqa: E402,F401
