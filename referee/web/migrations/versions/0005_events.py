"""Club nights (issue 17): an evening's state in a club, and the game each of its tables plays.

Revision ID: 0005_events (the lead renumbers it on merge)
Revises: 0004_games
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_events"
down_revision = "0004_games"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "club_id", sa.String(32), sa.ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("date", sa.Date, nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
        sa.Column("table_tokens", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_events_club_date", "events", ["club_id", "date"])
    op.create_table(
        "event_games",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "event_id",
            sa.String(32),
            sa.ForeignKey("events.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("series", sa.Integer, nullable=False),
        sa.Column("table_number", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("event_games")
    op.drop_index("ix_events_club_date", table_name="events")
    op.drop_table("events")
