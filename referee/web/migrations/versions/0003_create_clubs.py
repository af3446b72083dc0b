"""Clubs: a club, its members, and its games with their records and ratings.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("edit_token_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("board", sa.JSON, nullable=True),
        sa.Column("board_games", sa.JSON, nullable=True),
        sa.Column("board_key", sa.String(64), nullable=True),
    )
    op.create_table(
        "club_members",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "club_id", sa.String(32), sa.ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(128), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("club_id", "name_key", name="uq_club_members_club_name"),
    )
    op.create_table(
        "club_games",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "club_id", sa.String(32), sa.ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("record", sa.JSON, nullable=True),
        sa.Column("ratings", sa.JSON, nullable=True),
    )
    op.create_index("ix_club_games_club_played", "club_games", ["club_id", "played_at", "game_id"])


def downgrade() -> None:
    op.drop_index("ix_club_games_club_played", "club_games")
    op.drop_table("club_games")
    op.drop_table("club_members")
    op.drop_table("clubs")
