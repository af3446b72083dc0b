"""The clubs tables: a club, its members, and its games with each game's record and ratings.

They share the games' `MetaData` (one Alembic history): a club game is a row of `games`.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
)

from referee.web.games.models import metadata

#: One row per club. `version` grows with every member or game filed (pages' ETags).
clubs = Table(
    "clubs",
    metadata,
    Column("id", String(32), primary_key=True),
    # sha256 of the edit token, as for games: a leaked database does not leak the right to edit.
    Column("edit_token_hash", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("lang", String(8), nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # What the club's pages show, worked out from its games (clubs/board.py), and which state
    # of the games it was worked out from: "<games>:<sum of their versions summed up>".
    Column("board", JSON, nullable=True),
    Column("board_games", JSON, nullable=True),  # every game's line, for the club's JSON
    Column("board_key", String(64), nullable=True),
)

#: The club's people, by name; `name_key` is how two spellings are the same person.
club_members = Table(
    "club_members",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("club_id", String(32), ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(64), nullable=False),
    Column("name_key", String(128), nullable=False),
    Column("joined_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("club_id", "name_key", name="uq_club_members_club_name"),
)

#: A game filed in a club, with what the club's pages read instead of replaying it: the
#: game's `record` as of `version` (stale when the game's version has moved on), and the
#: `ratings` after it (None unless finished). `played_at` orders the games: the game's date.
club_games = Table(
    "club_games",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("club_id", String(32), ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
    Column("played_at", DateTime(timezone=True), nullable=False),
    Column("version", Integer, nullable=False),  # 0: not summed up yet
    Column("record", JSON, nullable=True),
    Column("ratings", JSON, nullable=True),
    Index("ix_club_games_club_played", "club_id", "played_at", "game_id"),
)
