"""The games tables: a game, its rounds as entered, and the history of every change."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

#: One row per game. `version` grows by one with every change: writers send the version they
#: saw, and a stale one is refused (optimistic concurrency), pollers compare it to skip work.
games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    # sha256 of the edit token: a leaked database does not leak the right to edit.
    Column("edit_token_hash", String(64), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("house_rules", JSON, nullable=False),
    Column("players", JSON, nullable=False),
    Column("first_dealer", Integer, nullable=False),
    Column("lang", String(8), nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False, index=True),
)

#: One row per round entered: each seat's result as entered (out, penalty, cards, buys).
rounds = Table(
    "game_rounds",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("results", JSON, nullable=False),
    UniqueConstraint("game_id", "number", name="uq_game_rounds_game_number"),
)

#: Every change to a game's rounds, kept for the history and for undo: rows are only ever added.
#: A change is named by the game's version it made; `next_undo` is the engine's link to the change
#: an undo takes back after it (`referee.engine.game.Logged`).
changes = Table(
    "game_changes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column(
        "game_id",
        String(32),
        ForeignKey("games.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("version", Integer, nullable=False),  # the game's version after this change
    Column("at", DateTime(timezone=True), nullable=False),
    Column("action", String(8), nullable=False),  # add, edit, undo, redo
    Column("round", Integer, nullable=False),
    Column("before", JSON, nullable=True),  # the round's results before (None: not entered)
    Column("after", JSON, nullable=True),  # the round's results after (None: removed)
    Column("next_undo", Integer, nullable=True),  # a version of this game's
    UniqueConstraint("game_id", "version", name="uq_game_changes_game_version"),
)

#: The answers to writes sent with an `Idempotency-Key` (SPEC "Never twice, never lost"): a
#: repeat with the same key gets the same answer and changes nothing. Keys belong to a game.
requests = Table(
    "game_requests",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("key", String(64), primary_key=True),
    Column("fingerprint", String(64), nullable=False),  # sha256 of what was asked
    Column("status", Integer, nullable=False),
    Column("content_type", String(64), nullable=True),
    Column("body", Text, nullable=True),
    Column("location", String(600), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False, index=True),
)
