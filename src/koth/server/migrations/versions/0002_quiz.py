"""quiz hosting: quiz events and their append-only log

Revision ID: 0002_quiz
Revises: 0001_initial
Create Date: 2025-01-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_quiz"
down_revision = "0001_initial"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "quiz_events",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("join_code", sa.String(16), nullable=False, unique=True),
        sa.Column("host_token_hash", sa.String(64), nullable=False),
        sa.Column("title", sa.String(100), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
    )
    op.create_table(
        "quiz_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.String(32), sa.ForeignKey("quiz_events.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("submission_id", sa.String(64), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("event_id", "seq", name="uq_quiz_log_event_seq"),
        sa.UniqueConstraint("event_id", "submission_id", name="uq_quiz_log_event_submission"),
    )
    op.create_index("ix_quiz_log_event_id", "quiz_log", ["event_id"])


def downgrade() -> None:
    op.drop_index("ix_quiz_log_event_id", table_name="quiz_log")
    op.drop_table("quiz_log")
    op.drop_table("quiz_events")
