"""The answers to writes sent with an Idempotency-Key, kept to answer a repeat the same way.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_requests",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("status", sa.Integer, nullable=False),
        sa.Column("content_type", sa.String(64), nullable=True),
        sa.Column("body", sa.Text, nullable=True),
        sa.Column("location", sa.String(600), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_game_requests_created_at", "game_requests", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_game_requests_created_at", "game_requests")
    op.drop_table("game_requests")
