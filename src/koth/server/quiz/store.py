"""Storage of hosted quiz events: one row per event and an append-only log.

``quiz_log`` has UNIQUE(event_id, seq), so two writers can never both append row
``seq``, and UNIQUE(event_id, submission_id), so a retried answer is stored once.
Every append is one transaction that commits before the change is acknowledged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.schema import UniqueConstraint

from koth.i18n import N_
from koth.server.database import Base
from koth.server.errors import NameTakenError, StorageUnavailableError


class QuizEventRow(Base):
    __tablename__ = "quiz_events"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    join_code: Mapped[str] = mapped_column(String(16), unique=True)
    #: sha256 of the host token; the token itself is shown once, to the creator
    host_token_hash: Mapped[str] = mapped_column(String(64))
    title: Mapped[str] = mapped_column(String(100))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: number of log rows (a cache of max(quiz_log.seq) for listings)
    last_seq: Mapped[int] = mapped_column(Integer, default=0)


class QuizLogRow(Base):
    __tablename__ = "quiz_log"
    __table_args__ = (
        UniqueConstraint("event_id", "seq", name="uq_quiz_log_event_seq"),
        UniqueConstraint("event_id", "submission_id", name="uq_quiz_log_event_submission"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("quiz_events.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    submission_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class QuizPictureRow(Base):
    """A picture of an event's question pack (type-checked and size-limited on upload)."""

    __tablename__ = "quiz_pictures"
    __table_args__ = (UniqueConstraint("event_id", "name", name="uq_quiz_pictures_event_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("quiz_events.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    mime: Mapped[str] = mapped_column(String(32))
    data: Mapped[bytes] = mapped_column(LargeBinary)


@dataclass(frozen=True, slots=True)
class StoredEvent:
    id: str
    join_code: str
    host_token_hash: str
    title: str
    created: datetime
    last_seq: int


@dataclass(frozen=True, slots=True)
class LogEntry:
    seq: int
    payload: dict[str, Any]
    submission_id: str | None = None


@dataclass
class BatchOutcome:
    """What folding a batch gave: per queued op its seq or why it was refused, the rows
    to append, and whether rows of other processes were folded first."""

    caught_up: bool
    results: list[int | Exception] = field(default_factory=list)
    entries: list[LogEntry] = field(default_factory=list)


class QuizRepository:
    """Synchronous database access (the live layer calls it from worker threads)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def create_event(
        self, *, event_id: str, join_code: str, host_token_hash: str, title: str, first: LogEntry
    ) -> None:
        now = datetime.now(UTC)
        try:
            with self._sessions.begin() as session:
                session.add(
                    QuizEventRow(
                        id=event_id,
                        join_code=join_code,
                        host_token_hash=host_token_hash,
                        title=title,
                        created=now,
                        last_seq=1,
                    )
                )
                session.flush()
                session.add(_row(event_id, first, now))
        except IntegrityError:
            raise NameTakenError(N_("that join code is taken; try again")) from None

    def get_event(self, event_id: str) -> StoredEvent | None:
        with self._sessions() as session:
            row = session.get(QuizEventRow, event_id)
            return None if row is None else _stored(row)

    def event_by_code(self, join_code: str) -> StoredEvent | None:
        with self._sessions() as session:
            row = session.scalars(
                select(QuizEventRow).where(QuizEventRow.join_code == join_code)
            ).first()
            return None if row is None else _stored(row)

    def list_events(self, limit: int = 20) -> list[StoredEvent]:
        with self._sessions() as session:
            rows = session.scalars(
                select(QuizEventRow).order_by(QuizEventRow.created.desc()).limit(limit)
            ).all()
            return [_stored(r) for r in rows]

    def log(self, event_id: str) -> list[LogEntry]:
        return self.log_after(event_id, 0)

    def log_after(self, event_id: str, seq: int) -> list[LogEntry]:
        """The rows after row ``seq``."""
        with self._sessions() as session:
            return _entries(session, event_id, seq)

    def put_picture(self, event_id: str, name: str, mime: str, data: bytes) -> None:
        """Store (or replace) picture ``name`` of ``event_id``."""
        with self._sessions.begin() as session:
            row = session.scalars(
                select(QuizPictureRow).where(
                    QuizPictureRow.event_id == event_id, QuizPictureRow.name == name
                )
            ).first()
            if row is None:
                session.add(QuizPictureRow(event_id=event_id, name=name, mime=mime, data=data))
            else:
                row.mime, row.data = mime, data

    def picture(self, event_id: str, name: str) -> tuple[str, bytes] | None:
        """The MIME type and bytes of picture ``name`` of ``event_id`` (None: none)."""
        with self._sessions() as session:
            row = session.execute(
                select(QuizPictureRow.mime, QuizPictureRow.data).where(
                    QuizPictureRow.event_id == event_id, QuizPictureRow.name == name
                )
            ).first()
            return None if row is None else (row[0], bytes(row[1]))

    def commit_batch(
        self, event_id: str, known_seq: int, fold: Callable[[list[LogEntry]], BatchOutcome]
    ) -> BatchOutcome:
        """One writer at a time per event, across processes: in one transaction, take
        the event's lock (PostgreSQL: an advisory lock; SQLite has one writer anyway),
        hand ``fold`` the rows appended after ``known_seq`` by other processes, and
        append the rows it returns. Nothing is stored if anything fails."""
        now = datetime.now(UTC)
        try:
            with self._sessions.begin() as session:
                if self.engine.dialect.name == "postgresql":
                    session.execute(
                        text("SELECT pg_advisory_xact_lock(hashtext(:key))"),
                        {"key": f"koth-quiz:{event_id}"},
                    )
                outcome = fold(_entries(session, event_id, known_seq))
                if outcome.entries:
                    session.execute(
                        update(QuizEventRow)
                        .where(QuizEventRow.id == event_id)
                        .values(last_seq=outcome.entries[-1].seq)
                    )
                    session.add_all(_row(event_id, e, now) for e in outcome.entries)
        except IntegrityError as exc:
            raise StorageUnavailableError(
                f"the log of quiz event {event_id} changed under this server; reloading "
                f"({type(exc.orig).__name__})"
            ) from None
        return outcome


def _entries(session: Session, event_id: str, after: int) -> list[LogEntry]:
    rows = session.execute(
        select(QuizLogRow.seq, QuizLogRow.payload, QuizLogRow.submission_id)
        .where(QuizLogRow.event_id == event_id, QuizLogRow.seq > after)
        .order_by(QuizLogRow.seq)
    ).all()
    return [LogEntry(seq, dict(payload), sid) for seq, payload, sid in rows]


def _row(event_id: str, entry: LogEntry, now: datetime) -> QuizLogRow:
    return QuizLogRow(
        event_id=event_id,
        seq=entry.seq,
        kind=str(entry.payload.get("kind", "")),
        payload=entry.payload,
        submission_id=entry.submission_id,
        created=now,
    )


def _stored(row: QuizEventRow) -> StoredEvent:
    return StoredEvent(
        row.id, row.join_code, row.host_token_hash, row.title, row.created, row.last_seq
    )
