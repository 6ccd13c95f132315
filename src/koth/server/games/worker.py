"""Computer seats: a background task per game plays them; agents run elsewhere.

The event loop never runs an agent: each decision is computed on a copy of the state
and then submitted like a person's action (so it is stored before anyone sees it). A
stale submission (a person moved first) is simply re-planned.

Searching agents (mcts, ismcts) think in a pool of worker processes, so a long think
holds neither the server's event loop nor its interpreter lock; the quick agents
(random, heuristic) decide in a thread. Fairness: a game asks for one decision at a
time, and every search stops at the server's time cap, so with more workers than games
thinking at once no game waits for another's think, and otherwise a decision waits for
at most the thinks queued before it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib
import logging
import multiprocessing
import os
import random
import signal
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from koth.core.chance import random_policy
from koth.core.errors import KothError
from koth.core.game import Game
from koth.core.state import GameState
from koth.server.games.agents import SEARCH_AGENTS, Policy, make_policy, resolve_seat
from koth.server.games.live import LiveGame
from koth.server.games.schemas import SeatKind
from koth.server.games.service import GameService
from koth.server.metrics import COMPUTER_QUEUE
from koth.server.supervision import parent_death_signal

log = logging.getLogger(__name__)

T = TypeVar("T")


def derive_seed(seed: int, *labels: object) -> int:
    """A seed derived from the game's secret seed, the same in every process."""
    text = ":".join([str(seed), *map(str, labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


class ComputerWorker:
    """Plays every computer seat that is to move, in any game, as soon as it is."""

    def __init__(
        self,
        service: GameService,
        *,
        threads: int = 4,
        delay_s: float = 0.0,
        max_seconds: float = 5.0,
        extra_games: tuple[str, ...] = (),
    ) -> None:
        self.service = service
        self.delay_s = delay_s
        self.max_seconds = max_seconds
        self.workers = threads
        self.extra_games = extra_games
        #: started on the first search decision (a server without search seats has none)
        self._processes: ProcessPoolExecutor | None = None
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="koth-agent")
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._policies: dict[tuple[str, int], Policy] = {}
        self._stopping = False
        service.on_change.append(self.kick)
        service.on_forget.append(self.forget)

    def forget(self, game_id: str) -> None:
        """Drop what is kept for ``game_id`` (it left memory; it is rebuilt if needed)."""
        self.forget_policies(game_id)
        task = self._tasks.get(game_id)
        if task is not None and task.done():
            del self._tasks[game_id]

    def kick(self, game_id: str) -> None:
        """Look at ``game_id`` again (called after every change)."""
        if self._stopping:
            return
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._drive(game_id))

    def forget_policies(self, game_id: str) -> None:
        for key in [k for k in self._policies if k[0] == game_id]:
            del self._policies[key]

    async def resume_all(self) -> None:
        """After a (re)start: the games that owe a computer move (the database's index
        says which) are loaded and played; every other game waits until it is asked for."""
        for game_id in await self.service.due_game_ids():
            self.kick(game_id)

    async def stop(self) -> None:
        self._stopping = True
        tasks = [t for t in self._tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._executor.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)

    def _due(self, live: LiveGame) -> list[int]:
        state = live.state
        if state.is_terminal():
            return []
        return [
            seat
            for seat in state.acting_players()
            if live.seat_kind(seat) is SeatKind.COMPUTER and seat not in live.submitted
        ]

    async def _drive(self, game_id: str) -> None:
        try:
            while not self._stopping:
                # a held game is looked at without counting as used: the watch kicks every
                # held game, and an idle one must still leave memory
                live = self.service.cached(game_id) or await self.service.live(game_id)
                due = self._due(live)
                if not due:
                    if live.state.is_terminal():
                        self.forget_policies(game_id)
                    return
                self._warm(live, due)
                claim = await self.service.claim_turn(game_id)
                if claim is None:
                    return  # another process moves (if it dies, `watch` takes over)
                try:
                    if self.delay_s:
                        await asyncio.sleep(self.delay_s)
                    for seat in due:
                        if not await self._play(game_id, seat):
                            break
                finally:
                    await self.service.release_turn(claim)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer seat driver of game %s failed", game_id)

    async def watch(self, every: float) -> None:
        """Look now and then at every game held in memory and every game that owes a
        computer move: a claim another process held when it died is free again, and its
        moves are owed (another process's game is loaded here to make them)."""
        while not self._stopping:
            await asyncio.sleep(every)
            try:
                due = await self.service.due_game_ids()
            except Exception:  # the database is away for a moment: the held games still
                log.warning("could not list the games owing computer moves", exc_info=True)
                due = []
            for game_id in dict.fromkeys([*self.service.held_game_ids(), *due]):
                self.kick(game_id)

    async def _play(self, game_id: str, seat: int) -> bool:
        """One decision of ``seat`` (its game claimed); False when the game moved on."""
        live = await self.service.live(game_id)
        if seat not in self._due(live):
            return False
        version = live.version
        snapshot = live.state.clone()
        rng = random.Random(derive_seed(live.stored.chance_seed, "agent", seat, version))
        info = live.seat_info(seat)
        agent = info.agent or "random"
        COMPUTER_QUEUE.inc()
        try:
            action = await self._decide(live, seat, agent, snapshot, rng)
        finally:
            COMPUTER_QUEUE.dec()
        try:
            await self.service.submit(game_id, seat, snapshot.game.action_to_str(action), version)
        except KothError as exc:  # stale, or the node changed: decide again on the new state
            log.info("computer seat %s of %s re-plans: %s", seat, game_id, exc)
            return False
        return True

    async def _decide(
        self,
        live: LiveGame,
        seat: int,
        agent: str,
        snapshot: GameState[Any, Any],
        rng: random.Random,
    ) -> Any:
        loop = asyncio.get_running_loop()
        info = live.seat_info(seat)
        name, budget = resolve_seat(agent, info.budget, live.game.name)
        if name in SEARCH_AGENTS:
            seed = derive_seed(live.stored.chance_seed, "policy", seat)
            call = (name, budget, self.max_seconds, seed, snapshot, seat, rng)
            action = await loop.run_in_executor(self._search_pool(), _decide_elsewhere, *call)
        else:
            policy = self._policy(live, seat)
            action = await loop.run_in_executor(
                self._executor, _decide, policy, snapshot, seat, rng
            )
        return action

    def _warm(self, live: LiveGame, due: list[int]) -> None:
        """Start the search pool (its first process) when a searching seat of a game held
        here is to move, even while another process claims that move: if that process
        dies, taking the move over here does not first wait for a process to start
        and import the games (seconds on a busy machine)."""
        if self._processes is not None:
            return
        for seat in due:
            info = live.seat_info(seat)
            name, _ = resolve_seat(info.agent or "random", info.budget, live.game.name)
            if name in SEARCH_AGENTS:
                self._search_pool().submit(_ready)
                return

    async def in_search_pool(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the searching agents' worker processes (at their lower
        priority): other long searches, like a finished game's analysis, share them."""
        return await asyncio.get_running_loop().run_in_executor(self._search_pool(), fn, *args)

    def _search_pool(self) -> Executor:
        if self._processes is None:
            # spawn, not fork: forking a process that runs an event loop and threads
            # copies their locks in whatever state they are
            self._processes = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(self.extra_games, os.getpid()),
            )
        return self._processes

    def _policy(self, live: LiveGame, seat: int) -> Policy:
        key = (live.stored.id, seat)
        policy = self._policies.get(key)
        if policy is None:
            info = live.seat_info(seat)
            seed = derive_seed(live.stored.chance_seed, "policy", seat)
            agent = info.agent or "random"
            policy = make_policy(agent, info.budget, live.game, seat, seed, self.max_seconds)
            self._policies[key] = policy
        return policy


def _ready() -> None:
    """Nothing: submitted to start a search process ahead of its first decision."""


def _decide(policy: Policy, state: GameState[Any, Any], seat: int, rng: random.Random) -> Any:
    try:
        action = policy(state, seat, rng)
        state.check_action(action, seat)
        return action
    except Exception:  # a faulty agent must not stall the table: play a legal move
        log.exception("agent of seat %s failed; playing a random legal action", seat)
        return random_policy(state, seat, rng)


#: in a worker process: the policies built so far, by seat (an agent is built once)
_WORKER_POLICIES: dict[tuple[str, int | None, float, int, str, int], Policy] = {}


#: how much lower a search process runs than the server (Unix nice): answering people
#: comes before thinking for the computer
SEARCH_NICENESS = 10


def _start_worker(extra_games: tuple[str, ...], server_pid: int) -> None:
    with contextlib.suppress(OSError):
        os.nice(SEARCH_NICENESS)
    _die_with_the_server()
    # a server killed while this process was starting sent no signal (it was not asked
    # for yet), and the pool's queue would never tell: this process holds both of its
    # ends. Orphaned already, it leaves now instead of waiting forever
    if os.getppid() != server_pid:
        os._exit(0)
    for module in extra_games:
        importlib.import_module(module)


def _die_with_the_server() -> None:
    """A search process outlives a killed server only to finish a think nobody will
    read; on Linux it is told to stop when the server dies."""
    parent_death_signal(signal.SIGKILL)


def _decide_elsewhere(
    agent: str,
    budget: int | None,
    max_seconds: float,
    seed: int,
    state: GameState[Any, Any],
    seat: int,
    rng: random.Random,
) -> Any:
    """A search seat's decision, in a worker process."""
    game: Game[Any, Any, Any] = state.game
    key = (agent, budget, max_seconds, seed, repr(game.params.to_json()), seat)
    policy = _WORKER_POLICIES.get(key)
    if policy is None:
        if len(_WORKER_POLICIES) > 1000:
            _WORKER_POLICIES.clear()
        policy = make_policy(agent, budget, game, seat, seed, max_seconds)
        _WORKER_POLICIES[key] = policy
    return _decide(policy, state, seat, rng)
