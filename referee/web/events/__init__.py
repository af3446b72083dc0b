"""Club nights: an evening in a club, its check-in, series drawn to tables, each table a club
game, the standings, the room's board and the table cards.

Registering the blueprint subscribes the evenings to `core.signals.game_writing` (a table of a
series fixed by the next draw takes no change, one whose clock ran out no round past its last)
and `game_written` (a table's result is kept in its round's own write). A restore reads every
evening back through the engine before it commits (`backup.checks`).
"""

from flask import Blueprint
from flask.blueprints import BlueprintSetupState

from referee.web.clubs.api import find_series_with
from referee.web.core import signals

bp = Blueprint("events", __name__)

from . import check_in_api, check_in_routes, messages, routes, service, timing  # noqa: E402,F401


@bp.record_once
def _subscribe(state: BlueprintSetupState) -> None:
    signals.game_writing.connect(service.on_game_writing)
    signals.game_written.connect(service.on_game_written)
    find_series_with(state.app, service.series_games)  # the club's JSON marks series games
