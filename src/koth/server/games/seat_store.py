"""Storage of a game's seats: claiming and taking a seat (one compare-and-set of two
takers), naming it, tying it to the player key of the device that plays it, and the
games a player key holds a seat in ("My games"). ``SeatStore`` is the part of
``store.Repository`` that these writes and reads make up.
"""

from __future__ import annotations

from sqlalchemy import Engine, func, or_, select, update
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.sql.elements import ColumnElement

from koth.server.errors import NotFoundError
from koth.server.games.rows import GameRow, SeatRow, StoredGame, read_game, rows_matched
from koth.server.games.schemas import GameStatus, SeatKind


class SeatStore:
    """A game's seats, and the games tied to a player key."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

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
            if rows_matched(result) != 1:
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
            with self._sessions() as session:
                game = read_game(session, game_id)
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
