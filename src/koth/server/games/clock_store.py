"""Storage of clocks, resignations and stand-ins: the writes that change a game's
table without a move, each one compare-and-set on the game row (the row lock a move
takes), so that of two processes acting on one clock exactly one succeeds."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.orm import Session

from koth.server.games.rows import GameRow
from koth.server.games.schemas import GameStatus
from koth.server.games.store import Repository


def change_table(
    repository: Repository,
    game_id: str,
    version: int,
    deadline: datetime | None,
    values: dict[str, Any],
) -> bool:
    """Set ``values`` (clock, deadline, computer_due, status, outcome) on the game if it
    is still unfinished at ``version`` with the first clock running out at ``deadline``
    (what the caller saw); False when another writer changed it first."""
    with Session(repository.engine) as session, session.begin():
        expected = GameRow.deadline.is_(None) if deadline is None else GameRow.deadline == deadline
        result = session.execute(
            update(GameRow)
            .where(
                GameRow.id == game_id,
                GameRow.version == version,
                GameRow.status != GameStatus.FINISHED,
                expected,
            )
            .values(**values, updated=datetime.now(UTC))
        )
        return cast(CursorResult[Any], result).rowcount == 1


def expired_ids(repository: Repository, now: datetime, limit: int = 200) -> list[str]:
    """The unfinished games whose first running clock ran out by ``now`` (an index
    answers)."""
    with Session(repository.engine) as session:
        return list(
            session.scalars(
                select(GameRow.id)
                .where(GameRow.deadline <= now, GameRow.status != GameStatus.FINISHED)
                .order_by(GameRow.deadline)
                .limit(limit)
            )
        )


def next_deadline(repository: Repository) -> datetime | None:
    """When the first running clock of any unfinished game runs out."""
    with Session(repository.engine) as session:
        found = session.scalar(
            select(GameRow.deadline)
            .where(GameRow.deadline.is_not(None), GameRow.status != GameStatus.FINISHED)
            .order_by(GameRow.deadline)
            .limit(1)
        )
    return found if found is None or found.tzinfo else found.replace(tzinfo=UTC)
