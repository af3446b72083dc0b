"""Games written to the database, on the connection of the transaction the games service opened:
a new game, a step the engine took, and the answer kept with a write's key. Nothing here decides
anything: the engine decided the step (and what its history links to), the service decided to
keep it. Reading is `queries.py`'s.

Edit tokens are kept as hashes only. A change is added to the history and never altered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from referee.engine.game import Game, Step
from referee.web.core import clock, ids

from .models import changes, games, requests, rounds
from .values import results_data

#: How long the answer to a keyed write is kept (SPEC: at least 7 days).
KEYS_KEPT = timedelta(days=8)


@dataclass(frozen=True)
class Answer:
    """What a write answered: a status with a body, or a redirect."""

    status: int
    body: str | None = None
    content_type: str | None = None
    location: str | None = None


@dataclass(frozen=True)
class Kept:
    """A key's kept answer, and what the request it answered asked (its fingerprint)."""

    fingerprint: str
    answer: Answer


def insert_game(conn: Connection, game: Game, *, lang: str) -> tuple[str, str]:
    """A new game's row, as `game` starts; its id and edit token."""
    game_id, token = ids.new_id(), ids.new_edit_token()
    now = clock.now()
    conn.execute(
        insert(games).values(
            id=game_id,
            edit_token_hash=ids.token_hash(token),
            variant=game.variant.id,
            house_rules=dict(game.house_rules),
            players=list(game.players),
            first_dealer=game.first_dealer,
            lang=lang,
            version=game.version,
            created_at=now,
            updated_at=now,
        )
    )
    return game_id, token


def keep(conn: Connection, game_id: str, step: Step) -> datetime:
    """The step's round and its change kept, and the game's version moved on to the step's;
    the moment it was kept (the game's `updated_at`).

    The game's row was locked by the writer that read it at the version before the step.
    """
    change, logged = step.change, step.logged
    now = clock.now()
    where = (rounds.c.game_id == game_id) & (rounds.c.number == change.round)
    if change.before is None:
        values = {"game_id": game_id, "number": change.round, "results": results_data(change.after)}
        conn.execute(insert(rounds).values(values))
    elif change.after is None:
        conn.execute(delete(rounds).where(where))
    else:
        conn.execute(update(rounds).where(where).values(results=results_data(change.after)))
    conn.execute(
        insert(changes).values(
            game_id=game_id,
            version=logged.version,
            at=now,
            action=change.action.value,
            round=change.round,
            before=results_data(change.before),
            after=results_data(change.after),
            next_undo=logged.next_undo,
        )
    )
    done = conn.execute(
        update(games)
        .where(games.c.id == game_id, games.c.version == logged.version - 1)
        .values(version=logged.version, updated_at=now)
    )
    # The row lock (or, for a new game, the insert in this transaction) makes this hold.
    assert done.rowcount == 1, "a game's version moved on under its row lock"
    return now


def kept_answer(conn: Connection, game_id: str, key: str) -> Kept | None:
    """The answer kept with `key` for this game, if any."""
    row = conn.execute(
        select(requests).where(requests.c.game_id == game_id, requests.c.key == key)
    ).first()
    if row is None:
        return None
    return Kept(row.fingerprint, Answer(row.status, row.body, row.content_type, row.location))


def keep_answer(conn: Connection, game_id: str, key: str, kept: Kept) -> None:
    """The answer to a keyed write, kept with its key (and keys older than KEYS_KEPT dropped)."""
    now = clock.now()
    conn.execute(delete(requests).where(requests.c.created_at < now - KEYS_KEPT))
    answer = kept.answer
    conn.execute(
        insert(requests).values(
            game_id=game_id,
            key=key,
            fingerprint=kept.fingerprint,
            status=answer.status,
            content_type=answer.content_type,
            body=answer.body,
            location=answer.location,
            created_at=now,
        )
    )


def keep_all(conn: Connection, game_id: str, steps: Sequence[Step]) -> None:
    """The steps of a new game (an import's rounds) kept at once: each round as the last step
    left it and every change, in two statements (a club file brings a thousand games), then
    the game's version moved on to the last step's."""
    if not steps:
        return
    now = clock.now()
    last: dict[int, Any] = {}
    history = []
    for step in steps:
        change, logged = step.change, step.logged
        last[change.round] = change.after
        history.append(
            {
                "game_id": game_id,
                "version": logged.version,
                "at": now,
                "action": change.action.value,
                "round": change.round,
                "before": results_data(change.before),
                "after": results_data(change.after),
                "next_undo": logged.next_undo,
            }
        )
    kept = [
        {"game_id": game_id, "number": number, "results": results_data(after)}
        for number, after in sorted(last.items())
        if after is not None
    ]
    if kept:
        conn.execute(insert(rounds), kept)
    conn.execute(insert(changes), history)
    conn.execute(
        update(games)
        .where(games.c.id == game_id)
        .values(version=steps[-1].logged.version, updated_at=now)
    )
