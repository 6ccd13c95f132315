"""Hosting games: creation, seats, actions, simultaneous submissions, replays.

The stored moves are the truth; ``LiveGame`` caches the state they replay to. Every
change follows the same path: check the action on the cached state, compute the moves it
leads to (the action, then any chance outcomes, sampled with the game's secret seed) on a
copy, commit them in one transaction, and only then swap the copy in, answer the client
and push the new views to every listener.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Collection, Coroutine, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, ParamSpec, TypeVar

from koth.core.errors import GameOverError, InvalidParamsError
from koth.core.log import LogBook
from koth.core.players import NodeKind
from koth.core.record import GameRecord, RecordedMove, moves_from_record
from koth.core.state import GameState
from koth.i18n import DEFAULT
from koth.server import security
from koth.server.broker import Broker
from koth.server.errors import (
    ForbiddenError,
    InvalidRequestError,
    NotFinishedError,
    NotFoundError,
    NotSubmittedError,
    SeatTakenError,
    StaleVersionError,
    TooManyConnectionsError,
)
from koth.server.games import clocks, timekeeping
from koth.server.games.agents import RANDOM_AGENT, check_seat_agent
from koth.server.games.catalog import make_game
from koth.server.games.clock_schemas import ClockMode, ClockOptions
from koth.server.games.clocks import owes_computer
from koth.server.games.live import Audience, LiveGame, LiveHub, Subscriber
from koth.server.games.log import log_entries
from koth.server.games.messages import (
    created_response,
    join_url,
    replay_frame,
    seat_list,
    state_message,
    summary,
)
from koth.server.games.notes import apply_noting, notes_after
from koth.server.games.rows import StoredSeat
from koth.server.games.schemas import (
    PLAYER_KEY_PATTERN,
    CreatedGameResponse,
    GameStatus,
    GameSummary,
    MyGame,
    ReplayResponse,
    SeatKind,
    SeatLink,
    StateMessage,
    TableInfo,
)
from koth.server.games.store import Repository, TurnClaim, count_decisions
from koth.server.listeners import Sink
from koth.server.memory import LiveCache
from koth.server.metrics import MOVES
from koth.server.names import player_name

log = logging.getLogger(__name__)


T = TypeVar("T")
PS = ParamSpec("PS")


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


def move_json(move: RecordedMove, hinted: Sequence[int] = ()) -> dict[str, Any]:
    """A move as stored; ``hinted``: the seats that played it after asking for a hint
    (a mark of the web app's, not part of the game record)."""
    stored = move.model_dump(mode="json", exclude_none=True)
    return {**stored, "hinted": sorted(hinted)} if hinted else stored


def recorded_move(stored: dict[str, Any]) -> RecordedMove:
    """A stored move as a record's move (the hint mark left out)."""
    return RecordedMove.model_validate({k: v for k, v in stored.items() if k != "hinted"})


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


#: live connections one seat may hold at once (its tabs and devices)
SOCKETS_PER_SEAT = 16


def _spectating(audience: Audience) -> bool:
    return audience[0] is None


def _seat_is(seat: int) -> Callable[[Audience], bool]:
    return lambda audience: audience[0] == seat


def _outcome_json(state: GameState[Any, Any]) -> dict[str, Any] | None:
    outcome = state.outcome()
    return dict(outcome.to_json()) if outcome is not None else None


class GameService:
    """The one entry point of routes, pages, websockets and the computer worker."""

    def __init__(
        self,
        repository: Repository,
        *,
        max_listeners: int = 200,
        max_iterations: int = 20_000,
        max_live: int = 2000,
        idle_seconds: float = 3600.0,
    ) -> None:
        self.repository = repository
        self.max_listeners = max_listeners
        self.max_iterations = max_iterations
        self.hub: LiveHub[Audience] = LiveHub()
        self._live: LiveCache[LiveGame] = LiveCache(max_live, idle_seconds, self._busy)
        #: loads under way: concurrent requests for one game share one replay, and the
        #: entry goes when the load ends (an unknown id leaves nothing behind)
        self._loading: dict[str, asyncio.Future[LiveGame]] = {}
        #: called with a game id when it leaves memory (the computer worker listens)
        self.on_forget: list[Callable[[str], None]] = []
        #: where committed changes are announced to every process (None: this one only)
        self.broker: Broker | None = None
        #: names this process in its notices, so it skips its own
        self.origin = secrets.token_hex(6)
        self._background: set[asyncio.Task[None]] = set()
        #: called with a game id after every change (the computer worker listens)
        self.on_change: list[Callable[[str], None]] = []
        #: called with a game id when a live connection to it comes or goes (presence)
        self.on_listen: list[Callable[[str], None]] = []
        #: fill a game's people's facts (``LiveGame.friends``) before a message is built
        self.decorators: list[Callable[[LiveGame], Awaitable[None]]] = []

    async def _db(self, fn: Callable[PS, T], *args: PS.args, **kwargs: PS.kwargs) -> T:
        return await asyncio.to_thread(fn, *args, **kwargs)

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
    async def live(self, game_id: str) -> LiveGame:
        """The cached game, replayed from its stored moves on first use."""
        cached = self._live.get(game_id)
        if cached is not None:
            return cached
        if not security.could_be_id(game_id):
            raise NotFoundError(f"no game {game_id!r}")
        loading = self._loading.get(game_id)
        if loading is not None:
            return await asyncio.shield(loading)
        future: asyncio.Future[LiveGame] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            loaded = await self._load(game_id)
            self._keep(game_id, loaded)
            future.set_result(loaded)
            self._changed(game_id)  # it may owe computer moves that nobody is making
            return loaded
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # marked as seen: no one else may be waiting for it
            raise
        except BaseException:
            future.cancel()
            raise
        finally:
            del self._loading[game_id]

    def _keep(self, game_id: str, live: LiveGame) -> None:
        for gone, _ in self._live.put(game_id, live):
            self._forgotten(gone)

    def _busy(self, game_id: str, live: LiveGame) -> bool:
        return self.hub.count(game_id) > 0 or live.lock.locked()

    def sweep(self) -> int:
        """Let go of the games nobody used for a while; returns how many went."""
        gone = self._live.sweep()
        for game_id, _ in gone:
            self._forgotten(game_id)
        return len(gone)

    def _forgotten(self, game_id: str) -> None:
        for listener in self.on_forget:
            listener(game_id)

    def in_memory(self) -> int:
        return len(self._live)

    async def _load(self, game_id: str) -> LiveGame:
        changes = await self._db(self.repository.changes, game_id, 0)
        if changes is None:
            raise NotFoundError(f"no game {game_id!r}")
        stored, moves = changes.game, changes.moves
        game = make_game(stored.game_name, stored.params)
        record = GameRecord(
            game=game.name,
            params=game.params.to_json(),
            moves=[recorded_move(m) for m in moves],
        )
        state = game.new_initial_state()
        book = LogBook(state)
        # one replay rebuilds the state, its recent events (the notes of its moves) and
        # every reader's log
        notes = await asyncio.to_thread(
            apply_noting, state, moves_from_record(game, record), (), book
        )
        pending: dict[int, str] = {}
        if state.is_simultaneous_node():
            pending = dict(changes.pending)
        return LiveGame(stored, state, len(moves), frozenset(pending), pending, notes, book=book)

    async def subscribe(
        self, game_id: str, sink: Sink, token: str | None, lang: str = DEFAULT
    ) -> tuple[Subscriber, StateMessage]:
        """Listen to ``game_id`` as the seat of ``token``, reading ``lang``; returns the
        listener and the first message (built as it subscribes, so no update falls in
        between)."""
        while True:
            live = await self.live(game_id)
            seat = self.seat_of(live, token)
            # spectators and each seat have caps of their own: no crowd of spectators can
            # keep a player from their own table
            if seat is None and self.hub.count(game_id, _spectating) >= self.max_listeners:
                raise TooManyConnectionsError(
                    f"this game already has {self.max_listeners} spectators connected"
                )
            if seat is not None and self.hub.count(game_id, _seat_is(seat)) >= SOCKETS_PER_SEAT:
                raise TooManyConnectionsError(
                    f"seat {seat} already has {SOCKETS_PER_SEAT} live connections"
                )
            await self.claim(live, seat)
            await self.decorate(live)
            if self._live.get(game_id) is live:
                break  # not replaced while the facts were read
        # subscribed, first message built and its log counted with no pause in between:
        # every later update reaches this listener and starts where its first message ended
        subscriber = self.hub.subscribe(game_id, sink, (seat, lang))
        first = state_message(live, seat, lang)
        self.hub.first_sent(game_id, (seat, lang), len(first.log))
        self._listened(game_id)
        return subscriber, first

    def unsubscribe(self, game_id: str, subscriber: Subscriber) -> None:
        self.hub.unsubscribe(game_id, subscriber)
        self._listened(game_id)

    def _listened(self, game_id: str) -> None:
        for listener in self.on_listen:
            listener(game_id)

    def cached(self, game_id: str) -> LiveGame | None:
        """The game if it is held in memory now (this look does not count as a use)."""
        return self._live.peek(game_id)

    def refresh_tables(
        self, live: LiveGame, *, reread: bool = True, announce: bool = False
    ) -> None:
        """The game's people's facts changed: send every listener the new picture
        (``reread``: read them again first; ``announce``: in every process too)."""
        if reread:
            live.friends = None
        if announce:
            self._announce(live.stored.id, live.version)
        self._fan_out(live)

    async def decorate(self, live: LiveGame) -> None:
        """Fill the people's facts of ``live`` where they are to be read again."""
        for decorator in self.decorators:
            await decorator(live)

    async def table(self, game_id: str) -> TableInfo:
        """Which game ``game_id`` is and how many seats it has (for its pages)."""
        live = await self.live(game_id)
        return TableInfo(
            game=live.game.name,
            params=live.game.params.to_json(),
            num_players=live.game.num_players,
        )

    def forget(self, game_id: str) -> None:
        """Drop the cached state (after a stale write: another writer moved on)."""
        self._live.pop(game_id)

    async def list_games(self, statuses: Sequence[GameStatus], base_url: str) -> list[GameSummary]:
        games = await self._db(self.repository.list_games, statuses)
        return [summary(game, base_url) for game in games]

    async def claim_turn(self, game_id: str) -> TurnClaim | None:
        """The right to compute ``game_id``'s computer moves, or None (another process
        has it)."""
        return await self._db(self.repository.claim_turn, game_id)

    async def release_turn(self, claim: TurnClaim) -> None:
        await self._db(claim.release)

    def held_game_ids(self) -> list[str]:
        """The games held in memory now."""
        return [live.stored.id for live in self._live.values()]

    async def running_game_ids(self) -> list[str]:
        return await self._db(self.repository.game_ids, [GameStatus.OPEN, GameStatus.RUNNING])

    async def due_game_ids(self) -> list[str]:
        """The unfinished games a computer seat is to move in (from the database's index:
        no game is loaded to find them)."""
        return await self._db(self.repository.due_game_ids)

    async def expire_abandoned(self, days: float) -> int:
        """Delete the unfinished games nobody moved in for ``days``; returns how many."""
        before = datetime.now(UTC) - timedelta(days=days)
        gone = 0
        while True:
            ids = await self._db(self.repository.expire_abandoned, before)
            for game_id in ids:
                if self._live.pop(game_id) is not None:
                    self._forgotten(game_id)
            gone += len(ids)
            if not ids:
                return gone

    def seat_of(self, live: LiveGame, token: str | None) -> int | None:
        """The seat whose token this is; None (a spectator) without a token.

        Every seat's hash is compared in constant time, so timing tells nothing about
        which seat or how much of a token matched.
        """
        if token is None:
            return None
        digest = security.hash_token(token)
        found: int | None = None
        for seat in live.stored.seats:
            if security.hash_matches(digest, seat.token_hash):
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
        if live.stored.status is not GameStatus.FINISHED:
            live.stored = replace(live.stored, seats=seats, status=status)
        else:
            live.stored = replace(live.stored, seats=seats)
        await timekeeping.start(self, live)
        self._announce(live.stored.id, live.version)
        self._fan_out(live)

    async def take_seat(
        self,
        game_id: str,
        seat: int,
        base_url: str,
        name: str | None = None,
        person: str | None = None,
    ) -> SeatLink:
        """Hand the open human ``seat`` to whoever asks first: a new secret token (the
        creator's link of that seat stops working), given out once; ``name``: shown for
        the seat; ``person``: the player key hash a seat kept for a person needs."""
        shown = player_name(name) if name is not None else None
        live = await self.live(game_id)
        seats = live.stored.seats
        if not 0 <= seat < len(seats):
            raise InvalidRequestError(
                f"seat {seat}: game {game_id} has seats 0 to {len(seats) - 1}"
            )
        if live.state.is_terminal():
            raise GameOverError(f"game {game_id} is over: its seats cannot be taken")
        if seats[seat].kind is not SeatKind.HUMAN or seats[seat].claimed:
            raise SeatTakenError(f"seat {seat} of game {game_id} is not open")
        token = security.new_token()
        status = await self._db(
            self.repository.take_seat, game_id, seat, security.hash_token(token), shown, person
        )
        if status is None:
            raise SeatTakenError(
                f"seat {seat} of game {game_id} was taken just now, or is kept for its person"
            )
        await self.seats_changed(live)
        return SeatLink(
            seat=seat,
            kind=SeatKind.HUMAN,
            claimed=True,
            name=shown,
            token=token,
            join_url=join_url(base_url, game_id, seat, token),
        )

    async def name_seat(
        self, game_id: str, token: str | None, name: str, lang: str = DEFAULT
    ) -> StateMessage:
        """Show ``name`` for the token's seat from now on; every listener is told."""
        shown = player_name(name)
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ForbiddenError("naming a seat needs that seat's token")
        await self._db(self.repository.name_seat, game_id, seat, shown)
        await self.seats_changed(live)
        return state_message(live, seat, lang)

    async def tie_player(self, game_id: str, token: str | None, key: str) -> None:
        """The token's seat is played from the device of player ``key`` ("My games")."""
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ForbiddenError("tying a seat to a player needs that seat's token")
        await self._db(self.repository.tie_player, game_id, seat, security.hash_token(key))
        live.friends = None  # its person's rating shows from now on
        self._fan_out(live)

    async def my_games(self, key: str | None, base_url: str) -> list[MyGame]:
        """The games of the device of player ``key``: running first, those where it is
        to act before the others, then the newest."""
        if key is None or not re.fullmatch(PLAYER_KEY_PATTERN, key):
            raise ForbiddenError("'My games' needs this device's player key")
        tied = await self._db(self.repository.player_seats, security.hash_token(key))
        games = []
        for stored, seat in tied:
            to_move: list[int] = []
            if stored.status is not GameStatus.FINISHED:
                live = await self.live(stored.id)
                stored = live.stored
                if not live.state.is_terminal():
                    to_move = [p for p in live.state.to_move().players if p >= 0]
                    to_move = [p for p in to_move if p not in live.submitted]
            entry = summary(stored, base_url)
            games.append(
                MyGame(**entry.model_dump(), seat=seat, to_move=to_move, my_turn=seat in to_move)
            )
        order = {GameStatus.RUNNING: 0, GameStatus.OPEN: 1, GameStatus.FINISHED: 2}
        games.sort(key=lambda g: (order[g.status], not g.my_turn))
        return games

    async def seats_changed(self, live: LiveGame) -> None:
        """The stored seats changed: take them in, and tell every process and listener."""
        async with live.lock:
            stored = await self._db(self.repository.get_game, live.stored.id)
            if stored is not None:
                live.stored = replace(live.stored, seats=stored.seats, status=stored.status)
            live.friends = None
        await timekeeping.start(self, live)
        self._announce(live.stored.id, live.version)
        self._fan_out(live)

    async def message(self, game_id: str, token: str | None, lang: str = DEFAULT) -> StateMessage:
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        await self.claim(live, seat)
        await self.decorate(live)
        return state_message(live, seat, lang)

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

    async def resign(self, game_id: str, token: str | None, lang: str = DEFAULT) -> StateMessage:
        """The token's seat resigns (``koth.server.games.clocks`` says what that means);
        returns the new message for the seat."""
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ForbiddenError("spectators cannot resign: a seat token is required")
        return state_message(await timekeeping.resign(self, game_id, seat), seat, lang)

    async def back(self, game_id: str, token: str | None, lang: str = DEFAULT) -> StateMessage:
        """The token's person is back: the computer stops playing for the seat."""
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ForbiddenError("only a seat's person can be back: a seat token is required")
        if live.status is GameStatus.FINISHED:
            raise GameOverError(f"game {game_id} is over")
        await timekeeping.come_back(self, live, seat)
        return state_message(await self.live(game_id), seat, lang)

    def published(self, live: LiveGame) -> None:
        """``live`` changed without a move (a resignation, a clock): tell every process,
        every listener and the computer worker."""
        self._announce(live.stored.id, live.version)
        self._fan_out(live)
        self._changed(live.stored.id)

    async def submit(
        self, game_id: str, seat: int, action: str | int, expected_version: int | None
    ) -> None:
        """Apply ``seat``'s action (notation or id) once it is stored; the game lock
        serialises writers in this process, the store's compare-and-set all others."""
        live = await self.live(game_id)
        if expected_version is not None and expected_version > live.version:
            live = await self.reload(game_id)  # another process moved it on
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
            try:
                if state.to_move().kind is NodeKind.SIMULTANEOUS:
                    await self._submit_simultaneous(live, seat, text)
                else:
                    after = state.clone()
                    after.apply_action(parsed, seat)
                    hinted = await self._hinted(live, [seat])
                    move = move_json(RecordedMove(player=seat, action=text), hinted)
                    await self._commit(live, after, [move], None)
            except StaleVersionError:
                self.forget(game_id)  # another process wrote first: replay on next use
                raise
        live = await self.live(game_id)
        self._announce(game_id, live.version)
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
            live.submitted = frozenset(live.pending)
        self._announce(game_id, live.version)
        self._fan_out(live)
        return state_message(live, seat, lang)

    async def _submit_simultaneous(self, live: LiveGame, seat: int, text: str) -> None:
        game_id, version = live.stored.id, live.version
        acting = frozenset(live.state.acting_players())
        seats = clocks.acting_seats(live.stored.seats, live.stored.clock)
        computers = frozenset(s.seat for s in seats if s.kind is SeatKind.COMPUTER)
        stored, pending = await self._db(
            self.repository.add_pending, game_id, version, seat, text, acting, computers
        )
        if stored:  # another seat has still to choose
            live.pending = {**pending, seat: text}
            live.submitted = frozenset(live.pending)
            return
        joint = {**pending, seat: text}
        after = live.state.clone()
        after.apply_actions(joint)
        hinted = await self._hinted(live, joint)
        move = move_json(RecordedMove(joint=joint), hinted)
        paid = await timekeeping.paid_times(self, live, joint)
        await self._commit(live, after, [move], (seat, text), paid)

    async def _commit(
        self,
        live: LiveGame,
        after: GameState[Any, Any],
        moves: list[dict[str, Any]],
        pending: tuple[int, str] | None,
        paid: dict[int, float] | None = None,
    ) -> None:
        """Store ``moves`` (and the chance that follows), made by the seats of ``paid``
        at the times given (default: the one mover, now); then cache ``after``."""
        seed = live.stored.chance_seed
        moves = moves + resolve_chance(after, seed, live.version + len(moves))
        committed = len(moves)
        status = GameStatus.FINISHED if after.is_terminal() else None
        if paid is None:
            paid = {p: time.time() for p in live.state.to_move().players if p >= 0}
        clock, deadline = timekeeping.clock_after(live, after, paid)
        version = await self._db(
            self.repository.append_moves,
            live.stored.id,
            live.version,
            moves,
            status=status,
            pending=pending,
            computer_due=owes_computer(clocks.acting_seats(live.stored.seats, clock), after),
            outcome=_outcome_json(after),
            clock=(clock, timekeeping.as_time(deadline)),
        )
        MOVES.inc(committed)
        book = live.book.copy() if live.book is not None else None
        notes = notes_after(live.state, after, live.notes, book)
        # committed: only now does the cache (and so every client) see the move
        live.state, live.notes, live.book = after, notes, book
        live.version = version
        live.submitted, live.pending = frozenset(), {}
        decisions = live.stored.decisions + count_decisions(moves)
        live.stored = replace(
            live.stored,
            status=status or live.stored.status,
            version=version,
            decisions=decisions,
            outcome=_outcome_json(after),
            clock=clock,
            deadline=timekeeping.as_time(deadline),
        )

    async def note_hint(self, game_id: str, version: int, seat: int) -> None:
        """``seat`` was given a hint at ``version``: its move there is marked so, whichever
        process receives it (the mark is stored)."""
        await self._db(self.repository.add_hint, game_id, version, seat)

    async def _hinted(self, live: LiveGame, seats: Collection[int]) -> list[int]:
        """Those of ``seats`` given a hint at the current decision (only a person playing
        the computer alone gets hints: for any other move the store is not asked)."""
        people = [s.seat for s in live.stored.seats if s.kind is SeatKind.HUMAN]
        if len(people) != 1 or people[0] not in seats:
            return []
        return await self._db(self.repository.hinted_seats, live.stored.id, live.version)

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

    # ------------------------------------------------------------- listeners
    async def _publish(self, live: LiveGame) -> None:
        """Send every listener its audience's message, with only the log entries that
        audience was not sent before (each connection's first message had the whole log;
        a client that finds a gap asks for the whole picture)."""
        await self.decorate(live)
        sent = self.hub.log_sent(live.stored.id)

        def message_for(audience: Audience) -> str:
            message = state_message(live, *audience, log_from=sent.get(audience, 0))
            sent[audience] = message.log_from + len(message.log)
            return message.model_dump_json()

        await self.hub.publish(live.stored.id, message_for)

    def _fan_out(self, live: LiveGame) -> None:
        """Send the listeners the new state after the request is answered: a slow or
        dead spectator never delays a player."""
        self._in_background(self._publish(live))

    def _announce(self, game_id: str, version: int) -> None:
        """Tell every process that ``game_id`` changed (once it is committed)."""
        if self.broker is not None:
            self._in_background(self.broker.publish(f"game {game_id} {version} {self.origin}"))

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def on_notice(self, game_id: str, version: int, origin: str) -> None:
        """Another process changed ``game_id``: catch up if it is held here, or if
        someone here listens to it (a game dropped from memory after a stale write still
        has its tables connected: they must hear of the change)."""
        if origin == self.origin:
            return
        if game_id not in self._live and self.hub.count(game_id) == 0:
            return
        live = await self.reload(game_id)
        live.friends = None  # a rematch or a rating may have changed without a move
        await self._publish(live)
        self._changed(game_id)

    async def reload(self, game_id: str) -> LiveGame:
        """Catch ``game_id`` up with the database (a process never trusts its cache over
        what another process committed): the moves after the cached version are applied
        to it; if anything does not fit, the game is replayed from the start."""
        live = self._live.get(game_id)
        if live is None:
            return await self.live(game_id)
        async with live.lock:  # a write of this process finishes first
            try:
                await self._catch_up(live)
                return live
            except Exception:
                log.warning("catching up game %s failed; replaying it", game_id, exc_info=True)
                self._live.pop(game_id)
        return await self.live(game_id)

    async def _catch_up(self, live: LiveGame) -> None:
        game_id = live.stored.id
        changes = await self._db(self.repository.changes, game_id, live.version)
        if changes is None:
            raise NotFoundError(f"no game {game_id!r}")
        stored = changes.game
        if changes.moves:
            game = live.game
            record = GameRecord(
                game=game.name,
                params=game.params.to_json(),
                moves=[recorded_move(m) for m in changes.moves],
            )
            after = live.state.clone()
            book = live.book.copy() if live.book is not None else None
            notes = apply_noting(after, moves_from_record(game, record), live.notes, book)
            if after.num_moves != stored.version:
                raise StaleVersionError(f"game {game_id} has a gap in its stored moves")
            live.state, live.version, live.notes, live.book = after, stored.version, notes, book
        elif stored.version > live.version:
            raise StaleVersionError(f"game {game_id} has a gap in its stored moves")
        live.submitted, live.pending = frozenset(), {}
        if live.state.is_simultaneous_node():
            live.pending = dict(changes.pending)
            live.submitted = frozenset(live.pending)
        live.stored = stored

    def _changed(self, game_id: str) -> None:
        for listener in self.on_change:
            listener(game_id)
