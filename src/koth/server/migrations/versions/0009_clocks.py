"""time controls: each game's clock (with the seats the computer plays for their person
and those resigned) and when its first running clock runs out

Revision ID: 0009_clocks
Revises: 0008_player_keys
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_clocks"
down_revision = "0008_player_keys"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # added in place (no batch copy: SQLite's foreign keys refuse copying a stored games
    # table); a new nullable column and an index need none
    op.add_column("games", sa.Column("clock", sa.JSON(), nullable=True))
    op.add_column("games", sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_games_deadline", "games", ["deadline"])


def downgrade() -> None:
    op.drop_index("ix_games_deadline", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("deadline")
        batch.drop_column("clock")
