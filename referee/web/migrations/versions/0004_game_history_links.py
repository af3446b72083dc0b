"""A game's history links its changes as the engine keeps them: each change names the one an
undo takes back after it (`next_undo`), so storage never works out what an undo takes back. The
`undone` marks that the store used to search for it go; a change is named by its version.

Revision ID: 0004_games (the lead renumbers it on merge)
Revises: 0003
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004_games"
down_revision = "0003"
branch_labels = None
depends_on = None

_changes = sa.table(
    "game_changes",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.String),
    sa.column("action", sa.String),
    sa.column("version", sa.Integer),
    sa.column("next_undo", sa.Integer),
    sa.column("undone", sa.Boolean),
)


def _games(conn: sa.Connection) -> Iterator[Sequence[Any]]:
    """Each game's changes, oldest first."""
    game_ids = conn.execute(sa.select(_changes.c.game_id).distinct()).scalars().all()
    for game_id in game_ids:
        yield conn.execute(
            sa.select(_changes.c.id, _changes.c.action, _changes.c.version)
            .where(_changes.c.game_id == game_id)
            .order_by(_changes.c.id)
        ).all()


def _links(rows: Sequence[Any]) -> dict[int, int | None]:
    """Row id -> next_undo, by the rule the engine keeps (and the `undone` marks kept): a
    round entered, corrected or restored goes on top; an undo takes the top off."""
    stack: list[int] = []  # versions, the top last
    links: dict[int, int | None] = {}
    for row in rows:
        if row.action == "undo":
            if stack:
                stack.pop()
            links[row.id] = stack[-1] if stack else None
        else:
            links[row.id] = stack[-1] if stack else None
            stack.append(row.version)
    return links


def _undone(rows: Sequence[Any]) -> set[int]:
    """The row ids an undo took back, and the undos a restore took back (for a downgrade)."""
    stack: list[int] = []  # row ids
    undone: set[int] = set()
    for index, row in enumerate(rows):
        if row.action == "undo" and stack:
            undone.add(stack.pop())
        elif row.action == "redo" and index and rows[index - 1].action == "undo":
            undone.add(rows[index - 1].id)
        if row.action != "undo":
            stack.append(row.id)
    return undone


def upgrade() -> None:
    with op.batch_alter_table("game_changes") as batch:
        batch.add_column(sa.Column("next_undo", sa.Integer, nullable=True))
    conn = op.get_bind()
    for rows in _games(conn):
        for row_id, next_undo in _links(rows).items():
            if next_undo is not None:
                conn.execute(
                    sa.update(_changes).where(_changes.c.id == row_id).values(next_undo=next_undo)
                )
    with op.batch_alter_table("game_changes") as batch:
        batch.drop_column("undone")
        batch.create_unique_constraint("uq_game_changes_game_version", ["game_id", "version"])


def downgrade() -> None:
    with op.batch_alter_table("game_changes") as batch:
        batch.drop_constraint("uq_game_changes_game_version", type_="unique")
        batch.add_column(sa.Column("undone", sa.Boolean, nullable=False, server_default=sa.false()))
    conn = op.get_bind()
    for rows in _games(conn):
        for row_id in _undone(rows):
            conn.execute(sa.update(_changes).where(_changes.c.id == row_id).values(undone=True))
    with op.batch_alter_table("game_changes") as batch:
        batch.drop_column("next_undo")
