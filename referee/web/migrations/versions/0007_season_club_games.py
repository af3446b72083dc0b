"""A season may count the club's ordinary games besides its club nights (issue 31, point 1).

Revision ID: 0007_season_club_games
Revises: 0006_seasons
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_season_club_games"
down_revision = "0006_seasons"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every season made before counted club nights only: false keeps each as it was.
    with op.batch_alter_table("seasons") as batch:
        batch.add_column(
            sa.Column("club_games", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("seasons") as batch:
        batch.drop_column("club_games")
