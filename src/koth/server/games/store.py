"""Storage of hosted games: creating and listing them, their moves, the secret choices
waiting at a simultaneous node, hints and analyses (the tables are in ``rows``, the
seats' writes in ``seat_store``). Synchronous (SQLAlchemy 2 sessions); the async service
runs these calls in worker threads.

A game is its parameters plus an append-only list of moves (event sourcing).

Writes that advance a game go through ``append`` (``append_moves``), or through
``add_pending`` for the choice that completes a simultaneous node: one transaction moves
``games.version`` from the expected value to the new one (a compare-and-set that fails
when another writer got there first) and inserts the move rows, whose
UNIQUE(game_id, version) is the second line of defence. A move is one transaction: what
it reads (the hints given before it, the other seats' choices and when they were made)
is read in it. Nothing is acknowledged to a client before that transaction commits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from koth.core.errors import GameOverError
from koth.core.record import RecordedMove
from koth.server.errors import AlreadySubmittedError, NotFoundError, StaleVersionError
from koth.server.games.rows import (
    AnalysisRow,
    GameRow,
    HintRow,
    MoveRow,
    PendingRow,
    SeatRow,
    StoredGame,
    StoredSeat,
    read_game,
    rows_matched,
    stored_game,
)
from koth.server.games.schemas import GameStatus
from koth.server.games.seat_store import SeatStore


@dataclass(frozen=True, slots=True)
class Changes:
    """A game as one snapshot saw it: the stored game, its moves after a version, and
    the secret submissions waiting at its current version."""

    game: StoredGame
    moves: list[dict[str, Any]]
    pending: dict[int, str]


@dataclass(frozen=True, slots=True)
class Append:
    """What a move stores: the moves appended after the expected version (the move,
    then the chance that follows) and the game row's columns after them (``clock``:
    the clock and its next deadline)."""

    moves: list[dict[str, Any]]
    status: GameStatus | None = None
    computer_due: bool = False
    outcome: dict[str, Any] | None = None
    clock: tuple[dict[str, Any] | None, datetime | None] | None = None


#: the joint move that completes a simultaneous node, computed under the game's row lock
#: from every seat's choice there and when each waiting choice was made (epoch seconds)
Completion = Callable[[dict[int, str], dict[int, float]], Append]


@dataclass(frozen=True, slots=True)
class Choice:
    """A seat's secret choice at a simultaneous node, as ``add_pending`` took it."""

    #: it waits for another seat's choice (stored)
    stored: bool
    #: the other seats' choices waiting at the node
    others: dict[int, str]
    #: the node completed: the game's new version and what was appended (its first
    #: move the joint one, with the hint mark)
    version: int | None = None
    appended: Append | None = None


def _now() -> datetime:
    return datetime.now(UTC)


def _epoch(at: datetime) -> float:
    return (at if at.tzinfo else at.replace(tzinfo=UTC)).timestamp()


def move_json(move: RecordedMove, hinted: Sequence[int] = ()) -> dict[str, Any]:
    """A move as stored; ``hinted``: the seats that played it after asking for a hint
    (a mark of the web app's, not part of the game record)."""
    stored = move.model_dump(mode="json", exclude_none=True)
    return {**stored, "hinted": sorted(hinted)} if hinted else stored


def recorded_move(stored: dict[str, Any]) -> RecordedMove:
    """A stored move as a record's move (the hint mark left out)."""
    return RecordedMove.model_validate({k: v for k, v in stored.items() if k != "hinted"})


def count_decisions(moves: Sequence[dict[str, Any]]) -> int:
    """How many of the stored ``moves`` a seat chose (a chance step's player is -1)."""
    return sum(1 for m in moves if m.get("player") != -1)


def _marked(moves: list[dict[str, Any]], hinted: Sequence[int]) -> list[dict[str, Any]]:
    """``moves``, the first one marked with the seats given a hint before it (if any)."""
    if not hinted or not moves:
        return moves
    return [{**moves[0], "hinted": sorted(hinted)}, *moves[1:]]


def _move_taken(game_id: str, version: int) -> StaleVersionError:
    return StaleVersionError(
        f"stale: game {game_id} already has a move after version {version}; reload and try again"
    )


class Repository(SeatStore):
    """Games, moves, pending simultaneous submissions, hints and analyses; the seats'
    writes and reads are ``SeatStore``'s."""

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
            return read_game(session, game_id)

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
            return [stored_game(r, seats[r.id]) for r in rows]

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
                stored = read_game(session, game_id)
                if stored is None:
                    return None
                moves = list(
                    session.scalars(
                        select(MoveRow.move)
                        .where(MoveRow.game_id == game_id, MoveRow.version > after)
                        .order_by(MoveRow.version)
                    )
                )
                pending = session.execute(
                    select(PendingRow.seat, PendingRow.action).where(
                        PendingRow.game_id == game_id, PendingRow.version == stored.version
                    )
                ).all()
                return Changes(stored, moves, {s: a for s, a in pending})

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
        append = Append(list(moves), status, computer_due, outcome, clock)
        return self.append(game_id, expected_version, append, pending=pending)[0]

    def append(
        self,
        game_id: str,
        expected_version: int,
        append: Append,
        *,
        pending: tuple[int, str] | None = None,
        hints: bool = False,
    ) -> tuple[int, list[dict[str, Any]]]:
        """``append_moves`` of ``append``; ``hints``: the seats given a hint at
        ``expected_version`` are read in the same transaction and mark its first move.
        Returns the new version and the moves as stored."""
        try:
            with self._sessions.begin() as session:
                hinted = self._hints_in(session, game_id, expected_version) if hints else []
                moves = _marked(append.moves, hinted)
                self._append_in(session, game_id, expected_version, append, moves, pending)
        except IntegrityError:
            raise _move_taken(game_id, expected_version) from None
        return expected_version + len(moves), moves

    def _append_in(
        self,
        session: Session,
        game_id: str,
        expected_version: int,
        append: Append,
        moves: list[dict[str, Any]],
        pending: tuple[int, str] | None,
    ) -> None:
        """The writes of ``append`` (its moves as ``moves``) in ``session``'s transaction."""
        now = _now()
        values: dict[str, Any] = {
            "version": expected_version + len(moves),
            "computer_due": append.computer_due,
            "updated": now,
            "decisions": GameRow.decisions + count_decisions(moves),
        }
        if append.status is not None:
            values["status"] = append.status
        if append.outcome is not None:
            values["outcome"] = append.outcome
        if append.clock is not None:
            values["clock"], values["deadline"] = append.clock
        self._compare_and_set(session, game_id, expected_version, values)
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
        *,
        complete: Completion | None = None,
        hint_seat: int | None = None,
    ) -> Choice:
        """One seat's secret submission at the simultaneous node of ``version``, where
        the seats ``acting`` act (``computers``: those a computer plays), and the other
        seats' submissions there. If another acting seat has still to submit, it is
        stored (``stored``). If it is the last: with ``complete``, the joint move it
        computes is appended with this submission in the same transaction (the hints
        given at the node are read for it when ``hint_seat`` is one of the seats that
        chose); without, nothing is stored and the caller appends the joint move, with
        this one, through ``append_moves``. One transaction either way."""
        completing = False
        try:
            with self._sessions.begin() as session:
                self._lock_node(session, game_id, version)
                rows = session.execute(
                    select(PendingRow.seat, PendingRow.action, PendingRow.created).where(
                        PendingRow.game_id == game_id, PendingRow.version == version
                    )
                ).all()
                pending = {s: a for s, a, _ in rows}
                if seat in pending:
                    raise AlreadySubmittedError(
                        f"seat {seat} has already chosen its action at this point"
                    )
                waiting = acting - set(pending) - {seat}
                if not waiting:
                    if complete is None:
                        return Choice(False, pending)
                    completing = True
                    joint = {**pending, seat: action}
                    hinted = self._hints_in(session, game_id, version) if hint_seat in joint else []
                    append = complete(joint, {s: _epoch(at) for s, _, at in rows})
                    moves = _marked(append.moves, hinted)
                    self._append_in(session, game_id, version, append, moves, (seat, action))
                    appended = replace(append, moves=moves)
                    return Choice(False, pending, version + len(moves), appended)
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
                return Choice(True, pending)
        except IntegrityError:
            if completing:
                raise _move_taken(game_id, version) from None
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
            return rows_matched(removed) == 1

    def _lock_node(self, session: Session, game_id: str, version: int) -> None:
        """A no-op update that locks the game row and checks its version, so a pending
        submission is never added to (or taken from) a node already resolved."""
        self._compare_and_set(session, game_id, version, {"version": version})

    def _compare_and_set(
        self, session: Session, game_id: str, version: int, values: dict[str, Any]
    ) -> None:
        """Set ``values`` on the game if it is unfinished at ``version``, else raise (not
        found, over, or stale). Of two writers expecting the same version exactly one
        matches; the other's UPDATE waits for the row lock, then matches nothing."""
        result = session.execute(
            update(GameRow)
            .where(
                GameRow.id == game_id,
                GameRow.version == version,
                GameRow.status != GameStatus.FINISHED,
            )
            .values(**values)
        )
        if rows_matched(result) != 1:
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

    @staticmethod
    def _hints_in(session: Session, game_id: str, version: int) -> list[int]:
        """The seats given a hint at ``version``, in order (read in the move's own
        transaction)."""
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
