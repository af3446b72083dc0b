"""What one feature tells the others without importing them: a game is about to be written, a
game was written.

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

#: sender: the game's id; keyword arguments: conn, stored (the game as it is, its row locked).
#: Sent inside a write's transaction before the game changes (a round entered or corrected, an
#: undo, a restore): a receiver that raises `GameRefused` refuses the write, nothing kept (an
#: evening's table whose series is fixed once the next is drawn). A receiver that returns True
#: is sent it once more with `game` (the game as the write would leave it) when the write adds
#: a round (an evening's table whose series clock ran out, after its last round).
game_writing = _signals.signal("game-writing")

#: sender: a topic (`topic("club", id)`, `topic("event", id)`); keyword arguments: conn, version
#: (a number that only grows). Sent inside the write's transaction by a feature whose pages
#: follow something that is not a game; the live push (web/live/) tells the pages that follow
#: the topic once the write commits. A game's own topic is told through `game_written`.
changed = _signals.signal("changed")


def topic(kind: str, item_id: str) -> str:
    """The name pages follow a thing by: "game:<id>", "club:<id>", "event:<id>"."""
    return f"{kind}:{item_id}"
