"""The database rows of hosted games (their tables) and the values read from them: a
``StoredGame`` with its seats (``StoredSeat``). Every store of the games feature
(``store``, ``seat_store``, ``clock_store``, ``friends_store``) writes and reads these
tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    select,
)
from sqlalchemy.engine import CursorResult, Result
from sqlalchemy.orm import Mapped, Session, mapped_column

from koth.server.database import Base
from koth.server.games.schemas import GameStatus, SeatKind


class GameRow(Base):
    """One hosted game: which game, its parameters and its table."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_name: Mapped[str] = mapped_column(String(64))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: seed of the per-game chance RNG; stays on the server, never sent to a client
    chance_seed: Mapped[int] = mapped_column(BigInteger)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: open (a human seat has never connected), running, finished
    status: Mapped[str] = mapped_column(String(16), index=True)
    #: number of moves appended so far (a cache of max(moves.version) for listings)
    version: Mapped[int] = mapped_column(Integer, default=0)
    #: a computer seat is to move (or to submit): the games a (re)started server loads
    #: at once; every other game waits in the database until someone asks for it
    computer_due: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=false(), index=True
    )
    #: the last move (or the creation): an unfinished game idle for the abandon days
    #: expires
    updated: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: how many of those moves were decisions of the seats (chance steps left out)
    decisions: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: koth.core.outcome.Outcome as JSON once the game is over (why it ended, who won)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: the time control, the seats the computer plays for their person and those
    #: resigned (koth.server.games.clocks); None: friendly, nobody resigned or away
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: when the first running clock runs out (the games a process looks at for it)
    deadline: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    #: the finished game this one is a rematch of (one rematch per game)
    rematch_of: Mapped[str | None] = mapped_column(
        String(32), nullable=True, unique=True, index=True
    )
    #: chosen at creation: the result changes its persons' ratings
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: a rated game once over: "applied" (ratings changed, once) or "skipped" (not
    #: between identified persons)
    rating_state: Mapped[str | None] = mapped_column(String(16), nullable=True)


class SeatRow(Base):
    """One seat of a game: a person (holding a secret token) or a computer agent."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # "human" or "computer"
    agent: Mapped[str | None] = mapped_column(String(64), nullable=True)
    budget: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: sha256 of the seat token; the token itself is only ever shown to the creator
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed: Mapped[bool] = mapped_column(Boolean, default=False)
    #: the display name its person chose (None: shown as "Seat n")
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: sha256 of the player key of the device that plays the seat (ties a person's seats)
    player_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class MoveRow(Base):
    """One history entry; (game_id, version) is unique, so two writers racing for the same
    version cannot both succeed."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("game_id", "version", name="uq_moves_game_version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    #: 1 for the first move: the state after it has version 1
    version: Mapped[int] = mapped_column(Integer)
    #: koth.core.record.RecordedMove as JSON
    move: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PendingRow(Base):
    """A seat's secret submission at a simultaneous node (the node is the state at
    ``version``); revealed to nobody until every acting seat has submitted."""

    __tablename__ = "pending"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AnalysisRow(Base):
    """A finished game's analysis (koth.analysis), kept so it is computed once."""

    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    agent: Mapped[str] = mapped_column(String(200))
    #: koth.server.games.schemas.GameAnalysisResponse as JSON
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class HintRow(Base):
    """A hint given to ``seat`` at the decision of the state at ``version``: the move the
    seat plays there is stored marked as played after a hint."""

    __tablename__ = "hint_marks"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True, slots=True)
class StoredSeat:
    seat: int
    kind: SeatKind
    agent: str | None
    budget: int | None
    token_hash: str | None
    claimed: bool
    name: str | None = None


@dataclass(frozen=True, slots=True)
class StoredGame:
    id: str
    game_name: str
    params: dict[str, Any]
    chance_seed: int
    created: datetime
    status: GameStatus
    version: int
    seats: tuple[StoredSeat, ...]
    #: moves that were a seat's decision (chance steps not counted)
    decisions: int = 0
    #: the outcome as JSON once the game is over
    outcome: dict[str, Any] | None = None
    #: the clock (koth.server.games.clocks) and when its first running seat runs out
    clock: dict[str, Any] | None = None
    deadline: datetime | None = None
    #: the result changes its persons' ratings
    rated: bool = False


def rows_matched(result: Result[Any]) -> int:
    """How many rows an UPDATE (or a DELETE) matched."""
    return cast(CursorResult[Any], result).rowcount


def utc(at: datetime | None) -> Any:
    """``at`` with its offset (SQLite keeps none: every time is stored in UTC)."""
    return at if at is None or at.tzinfo else at.replace(tzinfo=UTC)


def read_game(session: Session, game_id: str) -> StoredGame | None:
    """The game ``game_id`` with its seats, as ``session`` sees it; None: no such game."""
    row = session.get(GameRow, game_id)
    if row is None:
        return None
    seats = session.scalars(
        select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
    ).all()
    return stored_game(row, seats)


def stored_game(row: GameRow, seats: Sequence[SeatRow]) -> StoredGame:
    """The value of a game's row and its seats' rows (in seat order)."""
    return StoredGame(
        id=row.id,
        game_name=row.game_name,
        params=dict(row.params),
        chance_seed=row.chance_seed,
        created=utc(row.created),
        status=GameStatus(row.status),
        version=row.version,
        decisions=row.decisions,
        outcome=dict(row.outcome) if row.outcome is not None else None,
        clock=dict(row.clock) if row.clock is not None else None,
        deadline=utc(row.deadline),
        rated=row.rated,
        seats=tuple(
            StoredSeat(
                seat=s.seat,
                kind=SeatKind(s.kind),
                agent=s.agent,
                budget=s.budget,
                token_hash=s.token_hash,
                claimed=s.claimed,
                name=s.name,
            )
            for s in seats
        ),
    )
