"""rematch chains, rated games, ratings with their history, and recovery codes

Revision ID: 0011_rematch_ratings
Revises: 0010_hint_marks
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_rematch_ratings"
down_revision = "0010_hint_marks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE ... ADD COLUMN (SQLite has it): a batch would copy the games
    # table, which SQLite's foreign keys refuse once games are stored
    op.add_column("games", sa.Column("rematch_of", sa.String(32), nullable=True))
    op.add_column(
        "games", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column("games", sa.Column("rating_state", sa.String(16), nullable=True))
    op.create_index("ix_games_rematch_of", "games", ["rematch_of"], unique=True)
    op.create_table(
        "ratings",
        sa.Column("player_hash", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("player_hash", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_history_player_hash", "rating_history", ["player_hash"])
    op.create_table(
        "recovery_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("player_hash", sa.String(64), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_recovery_codes_player_hash", "recovery_codes", ["player_hash"])


def downgrade() -> None:
    op.drop_index("ix_recovery_codes_player_hash", "recovery_codes")
    op.drop_table("recovery_codes")
    op.drop_index("ix_rating_history_player_hash", "rating_history")
    op.drop_table("rating_history")
    op.drop_table("ratings")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_rematch_of")
        batch.drop_column("rating_state")
        batch.drop_column("rated")
        batch.drop_column("rematch_of")
