"""the hints given to a person playing the computer alone, so that the move played after
one is marked whichever process receives it

Revision ID: 0010_hint_marks
Revises: 0009_clocks
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_hint_marks"
down_revision = "0009_clocks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hint_marks",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hint_marks")
