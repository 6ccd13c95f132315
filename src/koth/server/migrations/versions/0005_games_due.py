"""games owing a computer move (indexed: a start loads only those) and each game's last
move (abandoned games expire)

Revision ID: 0005_games_due
Revises: 0004_analyses
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_games_due"
down_revision = "0004_analyses"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE ... ADD COLUMN (SQLite has it): a batch would copy the table,
    # which SQLite's foreign keys from seats and moves refuse once games are stored
    op.add_column(
        "games",
        sa.Column("computer_due", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column("games", sa.Column("updated", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_games_computer_due", "games", ["computer_due"])
    # games stored before: any unfinished one with a computer seat may owe a move (the
    # first start looks at each once and sets the flag right)
    op.execute(
        "UPDATE games SET computer_due = TRUE WHERE status != 'finished' AND id IN "
        "(SELECT game_id FROM seats WHERE kind = 'computer')"
    )
    op.execute(
        "UPDATE games SET updated = (SELECT MAX(moves.created) FROM moves "
        "WHERE moves.game_id = games.id)"
    )
    op.execute("UPDATE games SET updated = created WHERE updated IS NULL")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_computer_due")
        batch.drop_column("updated")
        batch.drop_column("computer_due")
