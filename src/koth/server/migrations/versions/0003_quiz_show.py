"""quiz show: the pictures of an event's question pack, and seasons (series of events)

Revision ID: 0003_quiz_show
Revises: 0002_quiz
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_quiz_show"
down_revision = "0002_quiz"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "quiz_pictures",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.String(32), sa.ForeignKey("quiz_events.id"), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("mime", sa.String(32), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.UniqueConstraint("event_id", "name", name="uq_quiz_pictures_event_name"),
    )
    op.create_index("ix_quiz_pictures_event_id", "quiz_pictures", ["event_id"])
    op.create_table(
        "quiz_series",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("title", sa.String(100), nullable=False),
        sa.Column("host_token_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("quiz_series")
    op.drop_index("ix_quiz_pictures_event_id", table_name="quiz_pictures")
    op.drop_table("quiz_pictures")
