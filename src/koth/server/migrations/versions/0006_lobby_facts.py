"""the lobby's facts: each game's count of decisions and its outcome

Revision ID: 0006_lobby_facts
Revises: 0005_games_due
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_lobby_facts"
down_revision = "0005_games_due"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("decisions", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("outcome", sa.JSON(), nullable=True))
    # the games stored before: their decisions counted from their moves (a chance
    # step's player is -1); their outcome stays unknown
    connection = op.get_bind()
    moves = sa.table("moves", sa.column("game_id", sa.String), sa.column("move", sa.JSON))
    games = sa.table("games", sa.column("id", sa.String), sa.column("decisions", sa.Integer))
    counts: dict[str, int] = {}
    for game_id, move in connection.execute(sa.select(moves.c.game_id, moves.c.move)):
        if move.get("player") != -1:
            counts[game_id] = counts.get(game_id, 0) + 1
    for game_id, count in counts.items():
        connection.execute(sa.update(games).where(games.c.id == game_id).values(decisions=count))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("outcome")
        batch.drop_column("decisions")
