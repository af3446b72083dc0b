"""Games, their rounds and the history of changes.

Revision ID: 0001
Revises:
Create Date: 2024-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("edit_token_hash", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("house_rules", sa.JSON, nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("first_dealer", sa.Integer, nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_games_updated_at", "games", ["updated_at"])
    op.create_table(
        "game_rounds",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("results", sa.JSON, nullable=False),
        sa.UniqueConstraint("game_id", "number", name="uq_game_rounds_game_number"),
    )
    op.create_table(
        "game_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", sa.String(8), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("before", sa.JSON, nullable=True),
        sa.Column("after", sa.JSON, nullable=True),
        sa.Column("undone", sa.Boolean, nullable=False),
    )
    op.create_index("ix_game_changes_game_id", "game_changes", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_game_changes_game_id", "game_changes")
    op.drop_table("game_changes")
    op.drop_table("game_rounds")
    op.drop_index("ix_games_updated_at", "games")
    op.drop_table("games")
