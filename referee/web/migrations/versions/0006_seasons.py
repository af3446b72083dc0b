"""A club's seasons (issue 31): its dates, rule and the evenings left out.

Revision ID: 0006_seasons
Revises: 0005_events
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_seasons"
down_revision = "0005_events"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seasons",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "club_id", sa.String(32), sa.ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("starts", sa.Date, nullable=False),
        sa.Column("ends", sa.Date, nullable=False),
        sa.Column("rule", sa.String(16), nullable=False),
        sa.Column("best", sa.Integer, nullable=True),
        sa.Column("min_evenings", sa.Integer, nullable=True),
        sa.Column("left_out", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_seasons_club", "seasons", ["club_id", "starts"])


def downgrade() -> None:
    op.drop_index("ix_seasons_club", table_name="seasons")
    op.drop_table("seasons")
