"""Hosting games: creation, actions, simultaneous submissions, replays and records.

The stored moves are the truth; ``LiveGame`` caches the state they replay to. Every
change follows the same path: check the action on the cached state, compute the moves it
leads to (the action, then any chance outcomes, sampled with the game's secret seed) on a
copy, commit them in one transaction, and only then swap the copy in, answer the client
and push the new views to every listener.

``GameService`` stands on two parts of its own: ``seating`` (seat tokens, taking and naming
seats, listening to a table) and ``publishing`` (the games in memory, catching up with
other processes, and the notices and fan-out of every change).
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from koth.core.errors import GameOverError, InvalidParamsError
from koth.core.log import LogBook
from koth.core.players import NodeKind
from koth.core.record import GameRecord, RecordedMove
from koth.core.state import GameState
from koth.i18n import DEFAULT
from koth.server import security
from koth.server.errors import (
    ForbiddenError,
    NotFinishedError,
    NotSubmittedError,
    StaleVersionError,
)
from koth.server.games import clocks, timekeeping
from koth.server.games.agents import RANDOM_AGENT, check_seat_agent
from koth.server.games.catalog import make_game
from koth.server.games.clock_schemas import ClockMode, ClockOptions
from koth.server.games.clocks import owes_computer
from koth.server.games.live import LiveGame
from koth.server.games.log import log_entries
from koth.server.games.messages import (
    created_response,
    replay_frame,
    seat_list,
    state_message,
    summary,
)
from koth.server.games.notes import notes_after
from koth.server.games.notice import Appended, Submitted, Withdrawn, appended
from koth.server.games.rows import StoredGame, StoredSeat
from koth.server.games.schemas import (
    CreatedGameResponse,
    GameStatus,
    GameSummary,
    ReplayResponse,
    SeatKind,
    StateMessage,
    TableInfo,
)
from koth.server.games.seating import Seating
from koth.server.games.store import (
    Append,
    Repository,
    TurnClaim,
    count_decisions,
    move_json,
)
from koth.server.metrics import MOVES
from koth.server.names import player_name


@dataclass(frozen=True, slots=True)
class SeatRequest:
    kind: SeatKind = SeatKind.HUMAN
    agent: str | None = None
    budget: int | None = None
    #: a person's seat: the name shown for it, as typed (checked at creation)
    name: str | None = None


def chance_rng(seed: int, version: int) -> random.Random:
    """The RNG of the chance node at ``version``: the same after any restart."""
    return random.Random(f"koth-chance:{seed}:{version}")


def resolve_chance(state: GameState[Any, Any], seed: int, version: int) -> list[dict[str, Any]]:
    """Sample and apply chance outcomes on ``state`` (at ``version``) until a player or
    nobody must act; returns the moves to store."""
    moves: list[dict[str, Any]] = []
    game = state.game
    while state.is_chance_node():
        outcome = state.sample_chance(chance_rng(seed, version + len(moves)))
        state.apply_action(outcome)
        moves.append(move_json(RecordedMove(player=-1, action=game.action_to_str(outcome))))
    return moves


def _outcome_json(state: GameState[Any, Any]) -> dict[str, Any] | None:
    outcome = state.outcome()
    return dict(outcome.to_json()) if outcome is not None else None


def _hint_seat(live: LiveGame) -> int | None:
    """The seat whose moves may follow a hint: the one person's at a table of
    computers (None at any other table: the store is not asked)."""
    people = [s.seat for s in live.stored.seats if s.kind is SeatKind.HUMAN]
    return people[0] if len(people) == 1 else None


def _append_after(
    stored: StoredGame,
    version: int,
    ran: set[int],
    after: GameState[Any, Any],
    move: dict[str, Any],
    paid: dict[int, float],
) -> Append:
    """What ``move`` stores, made at ``version`` of ``stored`` by the seats of ``paid``
    (each at the time given) and leading to ``after``: the move, the chance that follows
    (sampled onto ``after``), and the game's status, end and clock after them (``ran``:
    the seats whose clock ran before it). Pure: any thread."""
    moves = [move, *resolve_chance(after, stored.chance_seed, version + 1)]
    clock, deadline = timekeeping.clock_between(stored.clock, stored.seats, ran, after, paid)
    return Append(
        moves,
        status=GameStatus.FINISHED if after.is_terminal() else None,
        computer_due=owes_computer(clocks.acting_seats(stored.seats, clock), after),
        outcome=_outcome_json(after),
        clock=(clock, timekeeping.as_time(deadline)),
    )


class GameService(Seating):
    """The one entry point of routes, pages, websockets and the computer worker: it
    creates games and plays their moves; the seats are ``Seating``'s, the games in
    memory and the news of their changes ``GamePublisher``'s."""

    def __init__(
        self,
        repository: Repository,
        *,
        max_listeners: int = 200,
        max_iterations: int = 20_000,
        max_live: int = 2000,
        idle_seconds: float = 3600.0,
    ) -> None:
        super().__init__(
            repository,
            max_listeners=max_listeners,
            max_live=max_live,
            idle_seconds=idle_seconds,
        )
        self.max_iterations = max_iterations

    # -------------------------------------------------------------- creation
    async def create(
        self,
        game_name: str,
        params: dict[str, Any],
        seats: Sequence[SeatRequest] | None,
        base_url: str,
        *,
        creator_seated: bool = False,
        clock: ClockOptions | None = None,
        rated: bool = False,
    ) -> CreatedGameResponse:
        """A new game; the response holds each human seat's secret join link (once).
        ``creator_seated``: the first human seat is the creator's, taken at once (the
        lobby then offers only the others); ``clock``: its time control."""
        requests = list(seats) if seats else []
        names = {i: player_name(r.name) for i, r in enumerate(requests) if r.name is not None}
        game = make_game(game_name, params)
        requests = requests if requests else [SeatRequest() for _ in range(game.num_players)]
        if len(requests) != game.num_players:
            raise InvalidParamsError(
                f"{game_name} with these parameters seats {game.num_players} players, "
                f"but {len(requests)} seats were given"
            )
        if rated and any(r.kind is SeatKind.COMPUTER for r in requests):
            raise InvalidParamsError(
                "a rated game is played between persons: no seat may be a computer"
            )
        tokens: dict[int, str] = {}
        stored_seats = []
        for index, request in enumerate(requests):
            if request.kind is SeatKind.COMPUTER:
                agent = request.agent or RANDOM_AGENT
                try:
                    check_seat_agent(agent, request.budget, game, self.max_iterations)
                except InvalidParamsError as exc:
                    raise InvalidParamsError(f"seat {index}: {exc}") from None
                stored_seats.append(
                    StoredSeat(index, SeatKind.COMPUTER, agent, request.budget, None, claimed=True)
                )
            else:
                seated = creator_seated and not tokens
                tokens[index] = security.new_token()
                token_hash = security.hash_token(tokens[index])
                stored_seats.append(
                    StoredSeat(
                        index,
                        SeatKind.HUMAN,
                        None,
                        None,
                        token_hash,
                        claimed=seated,
                        name=names.get(index),
                    )
                )
        if clock is not None and clock.mode is not ClockMode.NONE:
            try:
                check_seat_agent(clock.level, None, game, self.max_iterations)
            except InvalidParamsError as exc:
                raise InvalidParamsError(f"clock level: {exc}") from None
        seed = secrets.randbits(63)
        state = game.new_initial_state()
        initial_moves = resolve_chance(state, seed, 0)
        waiting = any(s.kind is SeatKind.HUMAN and not s.claimed for s in stored_seats)
        status = GameStatus.OPEN if waiting else GameStatus.RUNNING
        if state.is_terminal():
            status = GameStatus.FINISHED
        stored = await self._db(
            self.repository.create_game,
            game_id=security.new_id(9),
            game_name=game.name,
            params=game.params.to_json(),
            chance_seed=seed,
            seats=stored_seats,
            status=status,
            initial_moves=initial_moves,
            computer_due=owes_computer(stored_seats, state),
            outcome=_outcome_json(state),
            clock=clocks.new_clock(clock, game.num_players),
            rated=rated,
        )
        start = game.new_initial_state()
        book = LogBook(start)
        notes = notes_after(start, state, (), book)
        live = LiveGame(stored, state, stored.version, notes=notes, book=book)
        self._keep(stored.id, live)
        await timekeeping.start(self, live)  # every seat taken at once: the clocks run
        self._changed(stored.id)
        self._announce(stored.id, stored.version)
        return created_response(stored, tokens, base_url)

    # --------------------------------------------------------------- reading
    async def table(self, game_id: str) -> TableInfo:
        """Which game ``game_id`` is and how many seats it has (for its pages)."""
        live = await self.live(game_id)
        return TableInfo(
            game=live.game.name,
            params=live.game.params.to_json(),
            num_players=live.game.num_players,
        )

    async def list_games(self, statuses: Sequence[GameStatus], base_url: str) -> list[GameSummary]:
        games = await self._db(self.repository.list_games, statuses)
        return [summary(game, base_url) for game in games]

    async def claim_turn(self, game_id: str) -> TurnClaim | None:
        """The right to compute ``game_id``'s computer moves, or None (another process
        has it)."""
        return await self._db(self.repository.claim_turn, game_id)

    async def release_turn(self, claim: TurnClaim) -> None:
        await self._db(claim.release)

    async def running_game_ids(self) -> list[str]:
        return await self._db(self.repository.game_ids, [GameStatus.OPEN, GameStatus.RUNNING])

    async def due_game_ids(self) -> list[str]:
        """The unfinished games a computer seat is to move in (from the database's index:
        no game is loaded to find them)."""
        return await self._db(self.repository.due_game_ids)

    # --------------------------------------------------------------- actions
    async def act(
        self,
        game_id: str,
        token: str | None,
        action: str | int,
        expected_version: int | None,
        lang: str = DEFAULT,
    ) -> StateMessage:
        """A person's action; returns the new message for the seat, in ``lang``."""
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ForbiddenError("spectators cannot act: a seat token is required")
        await self.claim(live, seat)
        await timekeeping.come_back(self, live, seat)  # a person who moves is back
        await self.submit(game_id, seat, action, expected_version)
        live = await self.live(game_id)
        await self.decorate(live)
        return state_message(live, seat, lang)

    async def submit(
        self, game_id: str, seat: int, action: str | int, expected_version: int | None
    ) -> None:
        """Apply ``seat``'s action (notation or id) once it is stored; the game lock
        serialises writers in this process, the store's compare-and-set all others."""
        live = await self.live(game_id)
        if expected_version is not None and expected_version > live.version:
            live = await self.reload(game_id)  # another process moved it on
        written_first: StaleVersionError | None = None
        async with live.lock:
            live = await self.live(game_id)  # it may have been reloaded meanwhile
            if expected_version is not None and expected_version != live.version:
                raise StaleVersionError(
                    f"stale: the action was made at version {expected_version} but the game "
                    f"is at version {live.version}; reload and try again"
                )
            if live.status is GameStatus.FINISHED:
                raise GameOverError(f"game {game_id} is over: no more moves")
            state = live.state
            game = state.game
            parsed = state.check_action(
                game.action_from_id(action) if isinstance(action, int) else action, seat
            )
            text = game.action_to_str(parsed)
            change: Appended | Submitted
            try:
                if state.to_move().kind is NodeKind.SIMULTANEOUS:
                    change = await self._submit_simultaneous(live, seat, text)
                else:
                    after = state.clone()
                    after.apply_action(parsed, seat)
                    move = move_json(RecordedMove(player=seat, action=text))
                    change = await self._commit(live, after, move, _hint_seat(live) == seat)
            except StaleVersionError as stale:
                written_first = stale
        if written_first is not None:
            # another process wrote first: take in what it committed (the moves after
            # this version, read once; a game that does not fit them is replayed), so
            # that the seat's next read here is current
            await self.reload(game_id)
            raise written_first
        live = await self.live(game_id)
        self._announce(game_id, live.version, change)
        self._fan_out(live)
        self._changed(game_id)

    async def withdraw(
        self, game_id: str, token: str | None, expected_version: int | None, lang: str = DEFAULT
    ) -> StateMessage:
        """Take back the seat's secret action at the current simultaneous node, as long
        as the node waits for another seat (once all are in, the joint move is played
        and stays); returns the new message for the seat."""
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ForbiddenError("spectators cannot act: a seat token is required")
        if expected_version is not None and expected_version > live.version:
            live = await self.reload(game_id)
        async with live.lock:
            live = await self.live(game_id)
            if expected_version is not None and expected_version != live.version:
                raise StaleVersionError(
                    f"stale: the choice was made at version {expected_version} but the game "
                    f"is at version {live.version}: every seat had chosen, so it was played"
                )
            try:
                removed = await self._db(
                    self.repository.remove_pending, game_id, live.version, seat
                )
            except StaleVersionError:
                self.forget(game_id)
                raise
            if not removed:
                raise NotSubmittedError(
                    f"seat {seat + 1} has no secret choice waiting at version {live.version}"
                )
            live.pending = {s: a for s, a in live.pending.items() if s != seat}
            live.submitted = live.submitted - {seat}
            live.withdrawn = live.withdrawn | {seat}
        self._announce(game_id, live.version, Withdrawn(seat=seat))
        self._fan_out(live)
        return state_message(live, seat, lang)

    async def _submit_simultaneous(
        self, live: LiveGame, seat: int, text: str
    ) -> Appended | Submitted:
        """Store ``seat``'s secret choice, or, when it is the last, append the joint move
        (and the chance that follows): one transaction either way. The joint move is
        computed in the database thread from the choices read under the row lock."""
        game_id, version = live.stored.id, live.version
        acting = frozenset(live.state.acting_players())
        seats = clocks.acting_seats(live.stored.seats, live.stored.clock)
        computers = frozenset(s.seat for s in seats if s.kind is SeatKind.COMPUTER)
        state, stored, ran = live.state, live.stored, timekeeping.ran_before(live)
        reached: list[GameState[Any, Any]] = []  # the state after the joint move

        def complete(joint: dict[int, str], made: dict[int, float]) -> Append:
            after = state.clone()
            after.apply_actions(joint)
            reached.append(after)
            paid = timekeeping.paid_times(stored.clock, joint, made)
            return _append_after(
                stored, version, ran, after, move_json(RecordedMove(joint=joint)), paid
            )

        choice = await self._db(
            self.repository.add_pending,
            game_id,
            version,
            seat,
            text,
            acting,
            computers,
            complete=complete,
            hint_seat=_hint_seat(live),
        )
        if choice.stored:  # another seat has still to choose
            live.pending = {**choice.others, seat: text}
            live.submitted = frozenset(live.pending)
            return Submitted(seat=seat)
        assert choice.version is not None and choice.appended is not None
        return self._took(live, reached[0], choice.version, choice.appended)

    async def _commit(
        self, live: LiveGame, after: GameState[Any, Any], move: dict[str, Any], hints: bool
    ) -> Appended:
        """Store ``move``, made by the one seat to move, now (and the chance that
        follows; ``hints``: marked with the hints given before it, read in the same
        transaction); then cache ``after``. Returns the change as the other processes
        are told of it."""
        paid = {p: time.time() for p in live.state.to_move().players if p >= 0}
        append = _append_after(
            live.stored, live.version, timekeeping.ran_before(live), after, move, paid
        )
        version, moves = await self._db(
            self.repository.append, live.stored.id, live.version, append, hints=hints
        )
        return self._took(live, after, version, replace(append, moves=moves))

    def _took(
        self, live: LiveGame, after: GameState[Any, Any], version: int, append: Append
    ) -> Appended:
        """``append`` is committed at ``version``: only now does the cache (and so every
        client) see the move."""
        MOVES.inc(len(append.moves))
        book = live.book.copy() if live.book is not None else None
        notes = notes_after(live.state, after, live.notes, book)
        before = live.version
        live.moved(after, version, notes, book)
        clock, deadline = append.clock if append.clock is not None else (None, None)
        live.stored = stored = replace(
            live.stored,
            status=append.status or live.stored.status,
            version=version,
            decisions=live.stored.decisions + count_decisions(append.moves),
            outcome=append.outcome,
            clock=clock,
            deadline=deadline,
        )
        return appended(before, append.moves, stored)

    async def note_hint(self, game_id: str, version: int, seat: int) -> None:
        """``seat`` was given a hint at ``version``: its move there is marked so, whichever
        process receives it (the mark is stored)."""
        await self._db(self.repository.add_hint, game_id, version, seat)

    # --------------------------------------------------------------- records
    async def replay(self, game_id: str, token: str | None, lang: str = DEFAULT) -> ReplayResponse:
        """Every step of the game as views: the viewer's own until the game is over,
        then every seat's (the hidden cards revealed); with each of those readers' logs,
        worded in ``lang``."""
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        history = live.state.history
        finished = live.state.is_terminal() or live.status is GameStatus.FINISHED
        seats: list[int | None] = [None, *range(live.game.num_players)] if finished else [seat]
        stored = await self._db(self.repository.moves, game_id)
        hinted = [list(m.get("hinted", ())) for m in stored[: len(history)]]
        state = live.game.new_initial_state()
        frames = [replay_frame(state, seats)]
        for index, move in enumerate(history):
            state.apply_move(move)
            frames.append(replay_frame(state, seats, hinted[index] if index < len(hinted) else []))
        return ReplayResponse(
            game_id=game_id,
            game=live.game.name,
            params=live.game.params.to_json(),
            seat=seat,
            finished=finished,
            seats=seat_list(live.stored),
            frames=frames,
            logs={
                ("spectator" if s is None else str(s)): log_entries(live.book.entries(s), lang)
                for s in seats
                if live.book is not None
            },
            ending=clocks.ending_of(live.stored.outcome, live.stored.seats, lang),
        )

    async def record(self, game_id: str) -> GameRecord:
        """The full record (every secret included), available once the game is over."""
        live = await self.live(game_id)
        if not (live.state.is_terminal() or live.status is GameStatus.FINISHED):
            raise NotFinishedError(
                "the record holds every hidden card: it can be downloaded once the game is over"
            )
        return GameRecord.from_state(
            live.state,
            id=game_id,
            created=live.stored.created.isoformat(),
            seats=[{"seat": s.seat, "kind": s.kind, "agent": s.agent} for s in live.stored.seats],
            **timekeeping.record_meta(live),
        )
