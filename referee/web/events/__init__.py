"""Club nights: an evening in a club, its check-in, series drawn to tables, each table a club
game, the standings, the room's board and the table cards.

Registering the blueprint subscribes the evenings to `core.signals.game_written` (a table's
result is kept in its round's own write) and has a restore read every evening through the
engine (`backup.check_rows_with`).
"""

from flask import Blueprint
from flask.blueprints import BlueprintSetupState

from referee.web import backup
from referee.web.core import signals

bp = Blueprint("events", __name__)

from . import routes, service, store  # noqa: E402,F401


@bp.record_once
def _subscribe(state: BlueprintSetupState) -> None:
    signals.game_written.connect(service.on_game_written)
    backup.check_rows_with(state.app, "events", store.check_row)
