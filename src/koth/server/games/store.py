"""Storage of hosted games: the tables and all access to them. Synchronous
(SQLAlchemy 2 sessions); the async service runs these calls in worker threads.

A game is its parameters plus an append-only list of moves (event sourcing).

Writes that advance a game go through ``append_moves``: one transaction moves
``games.version`` from the expected value to the new one (a compare-and-set that fails
when another writer got there first) and inserts the move rows, whose
UNIQUE(game_id, version) is the second line of defence. Nothing is acknowledged to a
client before that transaction commits.
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
    Engine,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    delete,
    false,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection, CursorResult, Result
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.sql.elements import ColumnElement

from koth.core.errors import GameOverError
from koth.server.database import Base
from koth.server.errors import AlreadySubmittedError, NotFoundError, StaleVersionError
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


@dataclass(frozen=True, slots=True)
class Changes:
    """A game as one snapshot saw it: the stored game, its moves after a version, and
    the secret submissions waiting at its current version."""

    game: StoredGame
    moves: list[dict[str, Any]]
    pending: dict[int, str]


def _now() -> datetime:
    return datetime.now(UTC)


def count_decisions(moves: Sequence[dict[str, Any]]) -> int:
    """How many of the stored ``moves`` a seat chose (a chance step's player is -1)."""
    return sum(1 for m in moves if m.get("player") != -1)


class Repository:
    """Games, seats, moves and pending simultaneous submissions."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    # ----------------------------------------------------------------- games
    def create_game(
        self,
        *,
        game_id: str,
        game_name: str,
        params: dict[str, Any],
        chance_seed: int,
        seats: Sequence[StoredSeat],
        status: GameStatus,
        initial_moves: Sequence[dict[str, Any]],
        computer_due: bool = False,
        outcome: dict[str, Any] | None = None,
        clock: dict[str, Any] | None = None,
        rated: bool = False,
    ) -> StoredGame:
        created = _now()
        with self._sessions.begin() as session:
            session.add(
                GameRow(
                    id=game_id,
                    game_name=game_name,
                    params=params,
                    chance_seed=chance_seed,
                    created=created,
                    status=status,
                    version=len(initial_moves),
                    computer_due=computer_due,
                    updated=created,
                    decisions=count_decisions(initial_moves),
                    outcome=outcome,
                    clock=clock,
                    rated=rated,
                )
            )
            session.flush()  # the game row first: seats and moves reference it
            session.add_all(
                SeatRow(
                    game_id=game_id,
                    seat=s.seat,
                    kind=s.kind,
                    agent=s.agent,
                    budget=s.budget,
                    token_hash=s.token_hash,
                    claimed=s.claimed,
                    name=s.name,
                )
                for s in seats
            )
            session.add_all(
                MoveRow(game_id=game_id, version=i + 1, move=m, created=created)
                for i, m in enumerate(initial_moves)
            )
        stored = self.get_game(game_id)
        assert stored is not None
        return stored

    def get_game(self, game_id: str) -> StoredGame | None:
        with self._sessions() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            seats = session.scalars(
                select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
            ).all()
            return _stored(row, seats)

    def list_games(self, statuses: Sequence[GameStatus], limit: int = 50) -> list[StoredGame]:
        with self._sessions() as session:
            rows = session.scalars(
                select(GameRow)
                .where(GameRow.status.in_(list(statuses)))
                .order_by(GameRow.created.desc())
                .limit(limit)
            ).all()
            ids = [r.id for r in rows]
            seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
            if ids:
                for seat in session.scalars(
                    select(SeatRow).where(SeatRow.game_id.in_(ids)).order_by(SeatRow.seat)
                ):
                    seats[seat.game_id].append(seat)
            return [_stored(r, seats[r.id]) for r in rows]

    def game_ids(self, statuses: Sequence[GameStatus]) -> list[str]:
        with self._sessions() as session:
            return list(
                session.scalars(select(GameRow.id).where(GameRow.status.in_(list(statuses))))
            )

    def due_game_ids(self) -> list[str]:
        """The unfinished games a computer seat is to move in (an index answers)."""
        with self._sessions() as session:
            return list(
                session.scalars(
                    select(GameRow.id).where(
                        GameRow.computer_due.is_(True), GameRow.status != GameStatus.FINISHED
                    )
                )
            )

    def expire_abandoned(self, before: datetime, limit: int = 500) -> list[str]:
        """Delete up to ``limit`` unfinished games nobody moved in since ``before``, with
        everything stored of them; returns their ids."""
        with self._sessions.begin() as session:
            last = func.coalesce(GameRow.updated, GameRow.created)
            ids = list(
                session.scalars(
                    select(GameRow.id)
                    .where(GameRow.status != GameStatus.FINISHED, last < before)
                    .limit(limit)
                )
            )
            if ids:
                for table in (PendingRow, MoveRow, SeatRow, AnalysisRow, HintRow):
                    session.execute(delete(table).where(table.game_id.in_(ids)))
                session.execute(delete(GameRow).where(GameRow.id.in_(ids)))
            return ids

    def claim_seat(self, game_id: str, seat: int) -> GameStatus:
        """Mark ``seat`` as taken by its holder; returns the game's status afterwards
        (open turns running once every human seat has been claimed)."""
        with self._sessions.begin() as session:
            session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(claimed=True)
            )
            return self._status_after_claim(session, game_id)

    def take_seat(
        self,
        game_id: str,
        seat: int,
        token_hash: str,
        name: str | None = None,
        person: str | None = None,
    ) -> GameStatus | None:
        """Give the open human ``seat`` a new token (its hash) and mark it claimed, in
        one compare-and-set: of two takers exactly one matches. A seat already tied to
        a player key (a rematch's seat kept for its person) is taken only with that key's
        hash, ``person``. Returns the game's status afterwards, or None when the seat
        was not open."""
        kept: ColumnElement[bool] = SeatRow.player_hash.is_(None)
        if person is not None:
            kept = or_(kept, SeatRow.player_hash == person)
        with self._sessions.begin() as session:
            result = session.execute(
                update(SeatRow)
                .where(
                    SeatRow.game_id == game_id,
                    SeatRow.seat == seat,
                    SeatRow.kind == SeatKind.HUMAN,
                    SeatRow.claimed.is_(False),
                    kept,
                )
                .values(claimed=True, token_hash=token_hash, name=name)
            )
            if _rows(result) != 1:
                return None
            return self._status_after_claim(session, game_id)

    def name_seat(self, game_id: str, seat: int, name: str) -> None:
        """Show ``name`` for ``seat`` from now on."""
        with self._sessions.begin() as session:
            session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(name=name)
            )

    def tie_player(self, game_id: str, seat: int, player_hash: str) -> None:
        """``seat`` is played from the device whose player key hashes to ``player_hash``."""
        with self._sessions.begin() as session:
            session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(player_hash=player_hash)
            )

    def player_seats(self, player_hash: str, limit: int = 50) -> list[tuple[StoredGame, int]]:
        """The games (newest first) with a seat tied to ``player_hash``, and that seat."""
        with self._sessions() as session:
            tied = session.execute(
                select(SeatRow.game_id, SeatRow.seat)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(SeatRow.player_hash == player_hash)
                .order_by(GameRow.created.desc())
                .limit(limit)
            ).all()
        found = []
        for game_id, seat in tied:
            game = self.get_game(game_id)
            if game is not None:
                found.append((game, seat))
        return found

    def _status_after_claim(self, session: Session, game_id: str) -> GameStatus:
        unclaimed = session.scalar(
            select(func.count())
            .select_from(SeatRow)
            .where(
                SeatRow.game_id == game_id,
                SeatRow.kind == SeatKind.HUMAN,
                SeatRow.claimed.is_(False),
            )
        )
        if unclaimed == 0:
            session.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.status == GameStatus.OPEN)
                .values(status=GameStatus.RUNNING)
            )
        status = session.scalar(select(GameRow.status).where(GameRow.id == game_id))
        if status is None:
            raise NotFoundError(f"no game {game_id!r}")
        return GameStatus(status)

    # ----------------------------------------------------------------- moves
    def changes(self, game_id: str, after: int) -> Changes | None:
        """The game, its moves after version ``after`` and the submissions waiting at
        its current version, all read in one snapshot (PostgreSQL's REPEATABLE READ): a
        commit of another process lands wholly before or wholly after it, so the game's
        version is always ``after`` plus the moves read. None: no such game."""
        with self.engine.connect() as connection:
            if self.engine.dialect.name == "postgresql":
                connection = connection.execution_options(isolation_level="REPEATABLE READ")
            with Session(connection) as session, session.begin():
                row = session.get(GameRow, game_id)
                if row is None:
                    return None
                seats = session.scalars(
                    select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
                ).all()
                moves = list(
                    session.scalars(
                        select(MoveRow.move)
                        .where(MoveRow.game_id == game_id, MoveRow.version > after)
                        .order_by(MoveRow.version)
                    )
                )
                pending = session.execute(
                    select(PendingRow.seat, PendingRow.action).where(
                        PendingRow.game_id == game_id, PendingRow.version == row.version
                    )
                ).all()
                return Changes(_stored(row, seats), moves, {s: a for s, a in pending})

    def moves(self, game_id: str, after: int = 0) -> list[dict[str, Any]]:
        """The stored moves, those after version ``after`` only if given."""
        with self._sessions() as session:
            return list(
                session.scalars(
                    select(MoveRow.move)
                    .where(MoveRow.game_id == game_id, MoveRow.version > after)
                    .order_by(MoveRow.version)
                )
            )

    def append_moves(
        self,
        game_id: str,
        expected_version: int,
        moves: Sequence[dict[str, Any]],
        *,
        status: GameStatus | None = None,
        pending: tuple[int, str] | None = None,
        computer_due: bool = False,
        outcome: dict[str, Any] | None = None,
        clock: tuple[dict[str, Any] | None, datetime | None] | None = None,
    ) -> int:
        """Append ``moves`` after version ``expected_version`` in one transaction (with
        the submission ``pending`` that completed a simultaneous node, if any).

        Returns the new version; raises StaleVersionError if the game is no longer at
        ``expected_version`` (another writer appended first) or is over (resigned).
        ``outcome``: the game's end, stored with the moves that reach it; ``clock``: the
        clock and deadline after them.
        """
        new_version = expected_version + len(moves)
        now = _now()
        values: dict[str, Any] = {
            "version": new_version,
            "computer_due": computer_due,
            "updated": now,
            "decisions": GameRow.decisions + count_decisions(moves),
        }
        if status is not None:
            values["status"] = status
        if outcome is not None:
            values["outcome"] = outcome
        if clock is not None:
            values["clock"], values["deadline"] = clock
        try:
            with self._sessions.begin() as session:
                # compare-and-set: of two writers expecting the same version exactly
                # one matches; the other's UPDATE waits for the row lock, then matches
                # nothing.
                result = session.execute(
                    update(GameRow)
                    .where(
                        GameRow.id == game_id,
                        GameRow.version == expected_version,
                        GameRow.status != GameStatus.FINISHED,
                    )
                    .values(**values)
                )
                if _rows(result) != 1:
                    raise self._stale(session, game_id, expected_version)
                if pending is not None:
                    seat, action = pending
                    session.add(
                        PendingRow(
                            game_id=game_id,
                            version=expected_version,
                            seat=seat,
                            action=action,
                            created=_now(),
                        )
                    )
                session.add_all(
                    MoveRow(game_id=game_id, version=expected_version + i + 1, move=m, created=now)
                    for i, m in enumerate(moves)
                )
        except IntegrityError:
            raise StaleVersionError(
                f"stale: game {game_id} already has a move after version {expected_version}; "
                "reload and try again"
            ) from None
        return new_version

    # ------------------------------------------------------------ turn claims
    def claim_turn(self, game_id: str) -> TurnClaim | None:
        """Claim the right to compute ``game_id``'s computer moves now, or None when
        another process holds it. On PostgreSQL it is a session advisory lock on a
        connection of its own: if the process dies, the database lets go of it. On
        SQLite (one process) every claim succeeds."""
        if self.engine.dialect.name != "postgresql":
            return TurnClaim(None, "")
        key = f"koth-turn:{game_id}"
        connection = self.engine.connect()
        try:
            got = connection.execute(select(func.pg_try_advisory_lock(func.hashtext(key))))
            if got.scalar():
                return TurnClaim(connection, key)
        except Exception:
            connection.close()
            raise
        connection.close()
        return None

    # --------------------------------------------------------------- pending
    def add_pending(
        self,
        game_id: str,
        version: int,
        seat: int,
        action: str,
        acting: frozenset[int],
        computers: frozenset[int] = frozenset(),
    ) -> tuple[bool, dict[int, str]]:
        """One seat's secret submission at the simultaneous node of ``version``, where
        the seats ``acting`` act (``computers``: those a computer plays), and the other
        seats' submissions there. If another acting seat has still to submit, it is
        stored (True; one round trip); if it is the last, nothing is stored (False): the
        caller appends the joint move, with this one, through ``append_moves``."""
        try:
            with self._sessions.begin() as session:
                self._lock_node(session, game_id, version)
                rows = session.execute(
                    select(PendingRow.seat, PendingRow.action).where(
                        PendingRow.game_id == game_id, PendingRow.version == version
                    )
                ).all()
                pending = {s: a for s, a in rows}
                if seat in pending:
                    raise AlreadySubmittedError(
                        f"seat {seat} has already chosen its action at this point"
                    )
                waiting = acting - set(pending) - {seat}
                if not waiting:
                    return False, pending
                session.execute(
                    update(GameRow)
                    .where(GameRow.id == game_id)
                    .values(computer_due=bool(waiting & computers), updated=_now())
                )
                session.add(
                    PendingRow(
                        game_id=game_id, version=version, seat=seat, action=action, created=_now()
                    )
                )
                return True, pending
        except IntegrityError:
            raise AlreadySubmittedError(
                f"seat {seat} has already submitted its action at version {version}"
            ) from None

    def remove_pending(self, game_id: str, version: int, seat: int) -> bool:
        """Take back ``seat``'s secret submission at the node of ``version``; False when
        it has none there. Raises StaleVersionError once the node is resolved (every
        acting seat had submitted): a joint move is never taken back."""
        with self._sessions.begin() as session:
            # a submission that completes the node waits for this one or sees it gone
            self._lock_node(session, game_id, version)
            removed = session.execute(
                delete(PendingRow).where(
                    PendingRow.game_id == game_id,
                    PendingRow.version == version,
                    PendingRow.seat == seat,
                )
            )
            return _rows(removed) == 1

    def _lock_node(self, session: Session, game_id: str, version: int) -> None:
        """A no-op update that locks the game row and checks its version, so a pending
        submission is never added to (or taken from) a node already resolved."""
        result = session.execute(
            update(GameRow)
            .where(
                GameRow.id == game_id,
                GameRow.version == version,
                GameRow.status != GameStatus.FINISHED,
            )
            .values(version=version)
        )
        if _rows(result) != 1:
            raise self._stale(session, game_id, version)

    def _stale(self, session: Session, game_id: str, expected: int) -> Exception:
        found = session.execute(
            select(GameRow.version, GameRow.status).where(GameRow.id == game_id)
        ).first()
        if found is None:
            return NotFoundError(f"no game {game_id!r}")
        current, status = found
        if current == expected and status == GameStatus.FINISHED:
            return GameOverError(f"game {game_id} is over (a seat resigned or ran out of time)")
        return StaleVersionError(
            f"stale: the action was made at version {expected} but game {game_id} is at "
            f"version {current}; reload and try again"
        )

    # ----------------------------------------------------------------- hints
    def add_hint(self, game_id: str, version: int, seat: int) -> None:
        """Note that ``seat`` was given a hint at ``version`` (once: a second hint at the
        same decision changes nothing)."""
        try:
            with self._sessions.begin() as session:
                session.add(HintRow(game_id=game_id, version=version, seat=seat, created=_now()))
        except IntegrityError:
            pass

    def hinted_seats(self, game_id: str, version: int) -> list[int]:
        """The seats given a hint at ``version``, in order."""
        with self._sessions() as session:
            return list(
                session.scalars(
                    select(HintRow.seat)
                    .where(HintRow.game_id == game_id, HintRow.version == version)
                    .order_by(HintRow.seat)
                )
            )

    # -------------------------------------------------------------- analyses
    def analysis(self, game_id: str) -> dict[str, Any] | None:
        """The stored analysis of ``game_id``, or None."""
        with self._sessions() as session:
            row = session.get(AnalysisRow, game_id)
            return None if row is None else dict(row.result)

    def save_analysis(self, game_id: str, agent: str, result: dict[str, Any]) -> None:
        """Keep an analysis; when another process stored one first, that one stays (both
        analysed the same record with the same agent)."""
        try:
            with self._sessions.begin() as session:
                session.add(
                    AnalysisRow(game_id=game_id, agent=agent, result=result, created=_now())
                )
        except IntegrityError:
            pass


class TurnClaim:
    """A held claim on a game's computer moves; ``release`` lets go of it."""

    def __init__(self, connection: Connection | None, key: str) -> None:
        self.connection = connection
        self.key = key

    def release(self) -> None:
        if self.connection is None:
            return
        try:
            self.connection.execute(select(func.pg_advisory_unlock(func.hashtext(self.key))))
        finally:
            self.connection.close()
            self.connection = None


def _rows(result: Result[Any]) -> int:
    """How many rows an UPDATE matched."""
    return cast(CursorResult[Any], result).rowcount


def _utc(at: datetime | None) -> Any:
    """``at`` with its offset (SQLite keeps none: every time is stored in UTC)."""
    return at if at is None or at.tzinfo else at.replace(tzinfo=UTC)


def _stored(row: GameRow, seats: Sequence[SeatRow]) -> StoredGame:
    return StoredGame(
        id=row.id,
        game_name=row.game_name,
        params=dict(row.params),
        chance_seed=row.chance_seed,
        created=_utc(row.created),
        status=GameStatus(row.status),
        version=row.version,
        decisions=row.decisions,
        outcome=dict(row.outcome) if row.outcome is not None else None,
        clock=dict(row.clock) if row.clock is not None else None,
        deadline=_utc(row.deadline),
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
