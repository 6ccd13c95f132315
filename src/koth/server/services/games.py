"""Hosting games: creation, seats, actions, simultaneous submissions, replays.

The stored moves are the truth; ``LiveGame`` caches the state they replay to. Every
change follows the same path: check the action on the cached state, compute the moves it
leads to (the action, then any chance outcomes, sampled with the game's secret seed) on a
copy, commit them in one transaction, and only then swap the copy in, answer the client
and push the new views to every listener.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ParamSpec, TypeVar

from koth.core.errors import InvalidParamsError
from koth.core.game import Game
from koth.core.players import NodeKind
from koth.core.record import GameRecord, RecordedMove, replay
from koth.core.state import GameState
from koth.server.errors import (
    AlreadySubmittedError,
    ForbiddenError,
    NotFinishedError,
    NotFoundError,
    StaleVersionError,
)
from koth.server.services.agents import RANDOM_AGENT, check_seat_agent
from koth.server.services.catalog import make_game
from koth.server.services.live import LiveHub
from koth.server.services.messages import replay_frame, state_message
from koth.server.store.repository import (
    FINISHED,
    OPEN,
    RUNNING,
    Repository,
    StoredGame,
    StoredSeat,
)

T = TypeVar("T")
PS = ParamSpec("PS")

HUMAN = "human"
COMPUTER = "computer"


@dataclass(frozen=True, slots=True)
class SeatRequest:
    kind: str = HUMAN
    agent: str | None = None
    budget: int | None = None


@dataclass(frozen=True, slots=True)
class CreatedGame:
    stored: StoredGame
    #: seat -> secret token, for the human seats; shown once, to the creator only
    tokens: dict[int, str]


@dataclass(eq=False)
class LiveGame:
    """A game's replayed state, cached in memory."""

    stored: StoredGame
    state: GameState[Any, Any]
    version: int
    #: seats that have a secret submission waiting at the current simultaneous node
    submitted: frozenset[int] = frozenset()
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def status(self) -> str:
        return self.stored.status

    @property
    def game(self) -> Game[Any, Any, Any]:
        return self.state.game

    def seat_kind(self, seat: int) -> str:
        return self.stored.seats[seat].kind


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def chance_rng(seed: int, version: int) -> random.Random:
    """The RNG of the chance node at ``version``: the same after any restart."""
    return random.Random(f"koth-chance:{seed}:{version}")


def move_json(move: RecordedMove) -> dict[str, Any]:
    return move.model_dump(mode="json", exclude_none=True)


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


class GameService:
    """The one entry point of routes, pages, websockets and the computer worker."""

    def __init__(self, repository: Repository) -> None:
        self.repository = repository
        self.hub = LiveHub()
        self._live: dict[str, LiveGame] = {}
        self._load_locks: dict[str, asyncio.Lock] = {}
        #: called with a game id after every change (the computer worker listens)
        self.on_change: list[Callable[[str], None]] = []

    async def _db(self, fn: Callable[PS, T], *args: PS.args, **kwargs: PS.kwargs) -> T:
        return await asyncio.to_thread(fn, *args, **kwargs)

    # -------------------------------------------------------------- creation
    async def create(
        self, game_name: str, params: dict[str, Any], seats: Sequence[SeatRequest] | None
    ) -> CreatedGame:
        game = make_game(game_name, params)
        requests = list(seats) if seats else [SeatRequest() for _ in range(game.num_players)]
        if len(requests) != game.num_players:
            raise InvalidParamsError(
                f"{game_name} with these parameters seats {game.num_players} players, "
                f"but {len(requests)} seats were given"
            )
        tokens: dict[int, str] = {}
        stored_seats = []
        for index, request in enumerate(requests):
            if request.kind == COMPUTER:
                agent = request.agent or RANDOM_AGENT
                try:
                    check_seat_agent(agent, request.budget, game)
                except InvalidParamsError as exc:
                    raise InvalidParamsError(f"seat {index}: {exc}") from None
                stored_seats.append(
                    StoredSeat(index, COMPUTER, agent, request.budget, None, claimed=True)
                )
            elif request.kind == HUMAN:
                tokens[index] = secrets.token_urlsafe(32)
                stored_seats.append(
                    StoredSeat(index, HUMAN, None, None, hash_token(tokens[index]), claimed=False)
                )
            else:
                raise InvalidParamsError(f"seat {index}: kind must be human or computer")
        seed = secrets.randbits(63)
        state = game.new_initial_state()
        initial_moves = resolve_chance(state, seed, 0)
        status = RUNNING if not tokens else OPEN
        if state.is_terminal():
            status = FINISHED
        stored = await self._db(
            self.repository.create_game,
            game_id=secrets.token_urlsafe(9),
            game_name=game.name,
            params=game.params.to_json(),
            chance_seed=seed,
            seats=stored_seats,
            status=status,
            initial_moves=initial_moves,
        )
        self._live[stored.id] = LiveGame(stored, state, stored.version)
        self._changed(stored.id)
        return CreatedGame(stored, tokens)

    # --------------------------------------------------------------- reading
    async def live(self, game_id: str) -> LiveGame:
        """The cached game, replayed from its stored moves on first use."""
        cached = self._live.get(game_id)
        if cached is not None:
            return cached
        lock = self._load_locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            cached = self._live.get(game_id)
            if cached is None:
                cached = await self._load(game_id)
                self._live[game_id] = cached
            return cached

    async def _load(self, game_id: str) -> LiveGame:
        stored = await self._db(self.repository.get_game, game_id)
        if stored is None:
            raise NotFoundError(f"no game {game_id!r}")
        moves = await self._db(self.repository.moves, game_id)
        game = make_game(stored.game_name, stored.params)
        record = GameRecord(
            game=game.name,
            params=game.params.to_json(),
            moves=[RecordedMove.model_validate(m) for m in moves],
        )
        state = await asyncio.to_thread(replay, record, game)
        submitted: frozenset[int] = frozenset()
        if state.is_simultaneous_node():
            submitted = frozenset(await self._db(self.repository.pending, game_id, len(moves)))
        return LiveGame(stored, state, len(moves), submitted)

    def forget(self, game_id: str) -> None:
        """Drop the cached state (after a stale write: another writer moved on)."""
        self._live.pop(game_id, None)

    async def list_games(self, statuses: Sequence[str]) -> list[StoredGame]:
        return await self._db(self.repository.list_games, statuses)

    async def running_game_ids(self) -> list[str]:
        return await self._db(self.repository.game_ids, [OPEN, RUNNING])

    def seat_of(self, live: LiveGame, token: str | None) -> int | None:
        """The seat whose token this is; None (a spectator) without a token.

        Every seat's hash is compared in constant time, so timing tells nothing about
        which seat or how much of a token matched.
        """
        if token is None:
            return None
        digest = hash_token(token)
        found: int | None = None
        for seat in live.stored.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                found = seat.seat
        if found is None:
            raise ForbiddenError("this seat token is not valid for this game")
        return found

    async def claim(self, live: LiveGame, seat: int | None) -> None:
        """Note that a person holds ``seat`` now (the game leaves 'open' when all do)."""
        if seat is None or live.stored.seats[seat].claimed:
            return
        status = await self._db(self.repository.claim_seat, live.stored.id, seat)
        seats = tuple(replace(s, claimed=True) if s.seat == seat else s for s in live.stored.seats)
        if live.stored.status != FINISHED:
            live.stored = replace(live.stored, seats=seats, status=status)
        else:
            live.stored = replace(live.stored, seats=seats)
        await self._publish(live)

    async def message(self, game_id: str, token: str | None) -> dict[str, Any]:
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        await self.claim(live, seat)
        return state_message(live, seat)

    # --------------------------------------------------------------- actions
    async def act(
        self,
        game_id: str,
        token: str | None,
        action: str | int,
        expected_version: int | None,
    ) -> dict[str, Any]:
        """A person's action; returns the new message for the seat."""
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ForbiddenError("spectators cannot act: a seat token is required")
        await self.claim(live, seat)
        await self.submit(game_id, seat, action, expected_version)
        return state_message(await self.live(game_id), seat)

    async def submit(
        self, game_id: str, seat: int, action: str | int, expected_version: int | None
    ) -> None:
        """Apply ``seat``'s action (notation or id) once it is stored; the game lock
        serialises writers in this process, the store's compare-and-set all others."""
        live = await self.live(game_id)
        async with live.lock:
            live = await self.live(game_id)  # it may have been reloaded meanwhile
            if expected_version is not None and expected_version != live.version:
                raise StaleVersionError(
                    f"stale: the action was made at version {expected_version} but the game "
                    f"is at version {live.version}; reload and try again"
                )
            state = live.state
            game = state.game
            parsed = state.check_action(
                game.action_from_id(action) if isinstance(action, int) else action, seat
            )
            text = game.action_to_str(parsed)
            try:
                if state.to_move().kind is NodeKind.SIMULTANEOUS:
                    await self._submit_simultaneous(live, seat, text)
                else:
                    after = state.clone()
                    after.apply_action(parsed, seat)
                    move = move_json(RecordedMove(player=seat, action=text))
                    await self._commit(live, after, [move], None)
            except StaleVersionError:
                self.forget(game_id)
                raise
        await self._publish(await self.live(game_id))
        self._changed(game_id)

    async def _submit_simultaneous(self, live: LiveGame, seat: int, text: str) -> None:
        game_id, version = live.stored.id, live.version
        pending = await self._db(self.repository.pending, game_id, version)
        if seat in pending:
            raise AlreadySubmittedError(f"seat {seat} has already chosen its action at this point")
        acting = set(live.state.acting_players())
        if acting - set(pending) - {seat}:
            await self._db(self.repository.add_pending, game_id, version, seat, text)
            live.submitted = frozenset({*pending, seat})
            return
        joint = {**pending, seat: text}
        after = live.state.clone()
        after.apply_actions(joint)
        move = move_json(RecordedMove(joint=joint))
        await self._commit(live, after, [move], (seat, text))

    async def _commit(
        self,
        live: LiveGame,
        after: GameState[Any, Any],
        moves: list[dict[str, Any]],
        pending: tuple[int, str] | None,
    ) -> None:
        seed = live.stored.chance_seed
        moves = moves + resolve_chance(after, seed, live.version + len(moves))
        status = FINISHED if after.is_terminal() else None
        version = await self._db(
            self.repository.append_moves,
            live.stored.id,
            live.version,
            moves,
            status=status,
            pending=pending,
        )
        # committed: only now does the cache (and so every client) see the move
        live.state = after
        live.version = version
        live.submitted = frozenset()
        if status is not None:
            live.stored = replace(live.stored, status=status, version=version)
        else:
            live.stored = replace(live.stored, version=version)

    # --------------------------------------------------------------- records
    async def replay_frames(self, game_id: str, token: str | None) -> dict[str, Any]:
        """Every step of the game as views: the viewer's own until the game is over,
        then every seat's (the hidden cards revealed)."""
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        history = live.state.history
        finished = live.state.is_terminal()
        seats: list[int | None] = [None, *range(live.game.num_players)] if finished else [seat]
        state = live.game.new_initial_state()
        frames = [replay_frame(state, seats)]
        for move in history:
            state.apply_move(move)
            frames.append(replay_frame(state, seats))
        return {
            "game_id": game_id,
            "game": live.game.name,
            "params": live.game.params.to_json(),
            "seat": seat,
            "finished": finished,
            "frames": frames,
        }

    async def record(self, game_id: str) -> GameRecord:
        """The full record (every secret included), available once the game is over."""
        live = await self.live(game_id)
        if not live.state.is_terminal():
            raise NotFinishedError(
                "the record holds every hidden card: it can be downloaded once the game is over"
            )
        return GameRecord.from_state(
            live.state,
            id=game_id,
            created=live.stored.created.isoformat(),
            seats=[{"seat": s.seat, "kind": s.kind, "agent": s.agent} for s in live.stored.seats],
        )

    # ------------------------------------------------------------- listeners
    async def _publish(self, live: LiveGame) -> None:
        await self.hub.publish(live.stored.id, lambda seat: state_message(live, seat))

    def _changed(self, game_id: str) -> None:
        for listener in self.on_change:
            listener(game_id)
