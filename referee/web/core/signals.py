"""What one feature tells the others without importing them: a game was written.

The games service sends `game_written` inside the write's transaction, after the step is kept,
with the connection (`conn`), the game as it now is (`stored`) and the change (`change`, None
for a new game). A receiver that keeps something derived from games (a club's records and
ratings, an evening's tables, the live push's NOTIFY) writes it on the same connection, so it
commits or rolls back with the game: nothing derived is ever written while a page is read.
"""

from __future__ import annotations

from blinker import Namespace

_signals = Namespace()

#: sender: the game's id; keyword arguments: conn, stored, change.
game_written = _signals.signal("game-written")
