"""`core.signals.game_written` sent from the games store's writes, for the tests and benches,
until the games service sends it itself (issue 20, the games side; then this file goes).

The store's write hands each step's `take` the write's connection: the shim sends the signal
from there, inside the write's transaction, with the game as the step leaves it, as the
service will.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, select

from referee.engine.game import Game, Step
from referee.web.core import clock, signals
from referee.web.games import store
from referee.web.games.models import games


@contextmanager
def sending_game_written() -> Iterator[None]:
    """While inside, every write of a game through the store sends `game_written`."""
    real = store._write

    def write(
        game_id: str,
        version: int | None,
        take: Callable[[Game, Connection], Step],
        once: Any = None,
    ) -> store.StoredGame:
        def taking(game: Game, conn: Connection) -> Step:
            step = take(game, conn)
            row = conn.execute(
                select(games.c.lang, games.c.created_at).where(games.c.id == game_id)
            ).one()
            stored = store.StoredGame(
                id=game_id,
                lang=row.lang,
                created_at=clock.aware(row.created_at),
                updated_at=clock.now(),
                game=step.game,
            )
            signals.game_written.send(game_id, conn=conn, stored=stored, change=step.change)
            return step

        return real(game_id, version, taking, once)

    store._write = write
    try:
        yield
    finally:
        store._write = real
