"""the hash of the player key of the device that plays each seat

Revision ID: 0008_player_keys
Revises: 0007_seat_names
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_player_keys"
down_revision = "0007_seat_names"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_hash", sa.String(64), nullable=True))
        batch.create_index("ix_seats_player_hash", ["player_hash"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_player_hash")
        batch.drop_column("player_hash")
