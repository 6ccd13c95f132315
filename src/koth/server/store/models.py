"""SQLAlchemy 2 models. The schema itself is created by the Alembic migrations."""

from __future__ import annotations

from datetime import datetime
from typing import Any

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
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


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
