"""The seasons table: a club's season, its dates, its rule and the evenings the host left out.

It shares the games' `MetaData` (one Alembic history). A season keeps no results of its own:
its table is worked out from its evenings' standings whenever it is read (`engine.seasons`),
so an evening's round changes the season with nothing more to write.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    false,
)

from referee.web.games.models import metadata

#: One row per season. `left_out` lists the ids of evenings (and of ordinary club games) within
#: its dates that do not count; `club_games`: the club's ordinary games count too;
#: `version` grows with every change, so a writer that saw an older one is refused.
seasons = Table(
    "seasons",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("club_id", String(32), ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(64), nullable=False),
    Column("starts", Date, nullable=False),
    Column("ends", Date, nullable=False),
    Column("rule", String(16), nullable=False),
    Column("best", Integer, nullable=True),
    Column("min_evenings", Integer, nullable=True),
    Column("left_out", JSON, nullable=False),
    Column("club_games", Boolean, nullable=False, server_default=false()),
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_seasons_club", "club_id", "starts"),
)
