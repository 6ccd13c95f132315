"""games, seats, append-only moves and secret pending submissions

Revision ID: 0001_initial
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_initial"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game_name", sa.String(64), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("chance_seed", sa.BigInteger(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("agent", sa.String(64), nullable=True),
        sa.Column("budget", sa.Integer(), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("claimed", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "moves",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("move", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "version", name="uq_moves_game_version"),
    )
    op.create_index("ix_moves_game_id", "moves", ["game_id"])
    op.create_table(
        "pending",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("pending")
    op.drop_index("ix_moves_game_id", table_name="moves")
    op.drop_table("moves")
    op.drop_table("seats")
    op.drop_index("ix_games_status", table_name="games")
    op.drop_table("games")
