"""Storage of what ties people's games together: rematch chains, ratings with their
history, and recovery codes. Synchronous (SQLAlchemy 2 sessions) like ``store``; the
async services run these calls in worker threads.

Every write that must happen once whatever the number of processes is a
compare-and-set: a rematch is one row whose ``rematch_of`` is unique, a rated game's
ratings change in the transaction that moves its ``rating_state`` from empty to
"applied", and a recovery code is used by the update that marks it used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, Engine, Float, Integer, String, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from koth.server.database import Base
from koth.server.games.rows import GameRow, MoveRow, SeatRow, rows_matched
from koth.server.games.schemas import SeatKind

#: how far back a rematch chain is followed for its score
CHAIN_LIMIT = 500


class RatingRow(Base):
    """A person's (a player key's) current rating in one kind of game."""

    __tablename__ = "ratings"

    player_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: the game's registry name (cards, board): ratings are kept per kind
    kind: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingHistoryRow(Base):
    """A person's rating after one rated game: one row per person and game."""

    __tablename__ = "rating_history"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_hash: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    kind: Mapped[str] = mapped_column(String(64))
    seat: Mapped[int] = mapped_column(Integer)
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RecoveryRow(Base):
    """A recovery code of a player key: stored hashed, used once, until it expires."""

    __tablename__ = "recovery_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_hash: Mapped[str] = mapped_column(String(64), index=True)
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


@dataclass(frozen=True, slots=True)
class ChainGame:
    """One game of a rematch chain, as the score reads it."""

    id: str
    status: str
    outcome: dict[str, Any] | None
    seats: int


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    game_id: str
    kind: str
    seat: int
    before: float
    after: float
    created: datetime


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime) -> datetime:
    """SQLite keeps no offset: every time is stored in UTC, so it is said so again."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


#: the new rating of each person from their old ones (None: a first rated game)
Rater = Callable[[list[Rating | None]], list[Rating]]


class FriendsRepository:
    """Rematch chains, ratings and recovery codes."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    # --------------------------------------------------------------- rematch
    def rematch_of(self, game_id: str) -> str | None:
        """The rematch of ``game_id``, if one was offered."""
        with self._sessions() as session:
            return session.scalar(select(GameRow.id).where(GameRow.rematch_of == game_id))

    def mark_rematch(self, game_id: str, previous: str) -> bool:
        """Make ``game_id`` the rematch of ``previous``; False when ``previous`` already
        has one (of two offers at once, one wins)."""
        try:
            with self._sessions.begin() as session:
                session.execute(
                    update(GameRow).where(GameRow.id == game_id).values(rematch_of=previous)
                )
        except IntegrityError:
            return False
        return True

    def drop_game(self, game_id: str) -> None:
        """Delete a game created just now and never played (an offer that lost)."""
        with self._sessions.begin() as session:
            for table in (MoveRow, SeatRow):
                session.execute(delete(table).where(table.game_id == game_id))
            session.execute(delete(GameRow).where(GameRow.id == game_id))

    def chain(self, game_id: str) -> list[ChainGame]:
        """``game_id`` and the games it is a rematch of, the newest first."""
        found: list[ChainGame] = []
        with self._sessions() as session:
            current: str | None = game_id
            while current is not None and len(found) < CHAIN_LIMIT:
                row = session.get(GameRow, current)
                if row is None:
                    break
                count = len(
                    session.scalars(select(SeatRow.seat).where(SeatRow.game_id == current)).all()
                )
                found.append(ChainGame(row.id, row.status, row.outcome, count))
                current = row.rematch_of
        return found

    def player_hashes(self, game_id: str) -> list[str | None]:
        """The player key hash tied to each seat of ``game_id``, by seat."""
        with self._sessions() as session:
            return list(
                session.scalars(
                    select(SeatRow.player_hash)
                    .where(SeatRow.game_id == game_id)
                    .order_by(SeatRow.seat)
                )
            )

    # --------------------------------------------------------------- ratings
    def ratings(self, player_hashes: Sequence[str | None], kind: str) -> list[Rating | None]:
        """The current rating of each player hash in ``kind`` (None: none yet)."""
        wanted = [h for h in player_hashes if h is not None]
        with self._sessions() as session:
            rows = {
                r.player_hash: Rating(r.mu, r.sigma, r.games)
                for r in session.scalars(
                    select(RatingRow).where(
                        RatingRow.player_hash.in_(wanted), RatingRow.kind == kind
                    )
                )
            }
        return [rows.get(h) if h is not None else None for h in player_hashes]

    def apply_rating(
        self, game_id: str, kind: str, rate: Rater, shown: Callable[[Rating | None], float]
    ) -> str | None:
        """Change the ratings of the persons of the finished rated ``game_id`` once:
        the transaction that moves its ``rating_state`` from empty does it, any other
        call finds it set and does nothing. Returns the state it set ("applied", or
        "skipped" when its seats are not distinct identified persons), or None."""
        for attempt in range(2):
            try:
                with self._sessions.begin() as session:
                    return self._apply(session, game_id, kind, rate, shown)
            except IntegrityError:  # another game created the same new rating first
                if attempt:
                    raise
        return None

    def _apply(
        self,
        session: Session,
        game_id: str,
        kind: str,
        rate: Rater,
        shown: Callable[[Rating | None], float],
    ) -> str | None:
        hashes = list(
            session.scalars(
                select(SeatRow.player_hash).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
            )
        )
        persons = [h for h in hashes if h is not None]
        state = "applied" if len(persons) == len(hashes) == len(set(persons)) else "skipped"
        claimed = session.execute(
            update(GameRow)
            .where(GameRow.id == game_id, GameRow.rated.is_(True), GameRow.rating_state.is_(None))
            .values(rating_state=state)
        )
        if rows_matched(claimed) != 1 or state == "skipped":
            return state if rows_matched(claimed) == 1 else None
        # rows locked in one order, so two games ending at once never wait on each other
        rows = {
            r.player_hash: r
            for r in session.scalars(
                select(RatingRow)
                .where(RatingRow.player_hash.in_(sorted(persons)), RatingRow.kind == kind)
                .order_by(RatingRow.player_hash)
                .with_for_update()
            )
        }
        old = [
            Rating(rows[h].mu, rows[h].sigma, rows[h].games) if h in rows else None for h in persons
        ]
        new = rate(old)
        now = _now()
        for seat, (player, before, after) in enumerate(zip(persons, old, new, strict=True)):
            row = rows.get(player)
            if row is None:
                row = RatingRow(player_hash=player, kind=kind, games=0)
                session.add(row)
            row.mu, row.sigma, row.games, row.updated = after.mu, after.sigma, after.games, now
            session.add(
                RatingHistoryRow(
                    game_id=game_id,
                    player_hash=player,
                    kind=kind,
                    seat=seat,
                    before=shown(before),
                    after=shown(after),
                    mu=after.mu,
                    sigma=after.sigma,
                    created=now,
                )
            )
        return state

    def seat_ratings(self, game_ids: Sequence[str]) -> dict[tuple[str, int, str], Rating]:
        """The current rating of each tied seat of the games ``game_ids`` in each kind
        its person has one in, by (game, seat, kind): one query for a whole list."""
        if not game_ids:
            return {}
        with self._sessions() as session:
            rows = session.execute(
                select(SeatRow.game_id, SeatRow.seat, RatingRow)
                .join(RatingRow, RatingRow.player_hash == SeatRow.player_hash)
                .where(SeatRow.game_id.in_(list(game_ids)))
            ).all()
            return {
                (game_id, seat, r.kind): Rating(r.mu, r.sigma, r.games) for game_id, seat, r in rows
            }

    def history(self, player_hash: str, limit: int = 200) -> list[HistoryEntry]:
        """The rated games of ``player_hash``, the newest first."""
        with self._sessions() as session:
            return [
                HistoryEntry(r.game_id, r.kind, r.seat, r.before, r.after, _utc(r.created))
                for r in session.scalars(
                    select(RatingHistoryRow)
                    .where(RatingHistoryRow.player_hash == player_hash)
                    .order_by(RatingHistoryRow.created.desc())
                    .limit(limit)
                )
            ]

    def current(self, player_hash: str) -> dict[str, Rating]:
        """Every current rating of ``player_hash``, by kind."""
        with self._sessions() as session:
            return {
                r.kind: Rating(r.mu, r.sigma, r.games)
                for r in session.scalars(
                    select(RatingRow).where(RatingRow.player_hash == player_hash)
                )
            }

    # -------------------------------------------------------------- recovery
    def reissue_seat(self, game_id: str, player_hash: str, token_hash: str) -> int | None:
        """Give the person's seat of ``game_id`` tied to ``player_hash`` a new token (its
        hash): the seat's earlier token stops working. Returns the seat, or None when no
        seat of that game is tied to that player."""
        with self._sessions.begin() as session:
            seat = session.scalar(
                select(SeatRow.seat)
                .where(
                    SeatRow.game_id == game_id,
                    SeatRow.player_hash == player_hash,
                    SeatRow.kind == SeatKind.HUMAN,
                )
                .order_by(SeatRow.seat)
                .limit(1)
            )
            if seat is None:
                return None
            session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(token_hash=token_hash)
            )
            return int(seat)

    def add_recovery(self, code_hash: str, player_hash: str, expires: datetime) -> None:
        with self._sessions.begin() as session:
            session.add(RecoveryRow(code_hash=code_hash, player_hash=player_hash, expires=expires))

    def use_recovery(self, code_hash: str, new_hash: str, also: str | None) -> str:
        """Use the code: every seat, rating and rating of the old player key (and the
        seats of ``also``, the redeeming device's own key) pass to ``new_hash``.
        Returns "moved", "unknown", "expired" or "used"."""
        now = _now()
        with self._sessions.begin() as session:
            row = session.get(RecoveryRow, code_hash)
            if row is None:
                return "unknown"
            if row.used is not None:
                return "used"
            if _utc(row.expires) <= now:
                return "expired"
            taken = session.execute(
                update(RecoveryRow)
                .where(RecoveryRow.code_hash == code_hash, RecoveryRow.used.is_(None))
                .values(used=now)
            )
            if rows_matched(taken) != 1:
                return "used"
            old = row.player_hash
            owners = [old] if also is None or also == old else [old, also]
            session.execute(
                update(SeatRow).where(SeatRow.player_hash.in_(owners)).values(player_hash=new_hash)
            )
            for table in (RatingRow, RatingHistoryRow):
                session.execute(
                    update(table).where(table.player_hash == old).values(player_hash=new_hash)
                )
            session.execute(
                update(RecoveryRow)
                .where(RecoveryRow.player_hash == old, RecoveryRow.used.is_(None))
                .values(used=now)
            )
            return "moved"
