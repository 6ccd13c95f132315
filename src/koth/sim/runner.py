"""Tournaments: a fair schedule of games, played in worker processes.

Seats rotate: game ``i`` seats agent ``(s + i) mod n`` in seat ``s``, so over a multiple
of ``n`` games every agent plays every seat equally often. Each game is a ``GameTask``
(plain data, picklable) run by the top-level function ``play_task``, which makes it
safe for the ``spawn`` start method and for Ray (``koth.sim.ray_backend``). Interrupting
(KeyboardInterrupt, from Ctrl-C or from a callback) stops the tournament and keeps every
game finished so far.
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from koth.agents.base import derive_seed
from koth.agents.play import play_match
from koth.agents.registry import check_spec, make_agent
from koth.core.errors import InvalidParamsError
from koth.core.game import Game
from koth.core.registry import load_game
from koth.sim.collect import collect
from koth.sim.ray_backend import check_backend, run_on_ray

GameSummary = dict[str, Any]
"""One finished game as JSON data: index, seed, seats (agent labels by seat), specs,
winners (seats), winner_agents, returns, moves, decisions, truncated, termination,
think_seconds (per seat), duration_s, stats."""

ResultHook = Callable[[GameSummary], None]

#: where a tournament's games can run
BACKENDS = ("processes", "ray")


@dataclass(frozen=True)
class TournamentConfig:
    game: str
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    workers: int = 1
    params: Mapping[str, Any] = field(default_factory=dict)
    #: decisions after which a game is stopped and scored a draw
    max_decisions: int | None = 20_000
    #: modules to import in every process first (they may register extra games)
    imports: tuple[str, ...] = ()
    #: where the games run: "processes" (a local pool of ``workers``) or "ray"
    backend: str = "processes"
    #: the Ray cluster to use (None: start a local one with ``workers`` CPUs)
    ray_address: str | None = None

    def load_game(self) -> Game[Any, Any, Any]:
        for module in self.imports:
            importlib.import_module(module)
        return load_game(self.game, self.params)

    @property
    def labels(self) -> tuple[str, ...]:
        """Agent names for tables: the spec, numbered when one appears twice."""
        labels = []
        for index, spec in enumerate(self.agents):
            repeated = self.agents.count(spec) > 1
            labels.append(f"{spec}#{index + 1}" if repeated else spec)
        return tuple(labels)


@dataclass(frozen=True)
class GameTask:
    index: int
    game: str
    params: Mapping[str, Any]
    specs: tuple[str, ...]
    labels: tuple[str, ...]
    seed: int
    max_decisions: int | None
    imports: tuple[str, ...]
    #: which setting of a comparison of variants the game belongs to (None: no comparison)
    variant: str | None = None


@dataclass
class Tournament:
    config: TournamentConfig
    games: list[GameSummary]
    interrupted: bool
    seconds: float


def prepare(config: TournamentConfig) -> TournamentConfig:
    """The config checked against its game; a game with a ``num_players`` parameter is
    given as many seats as there are agents unless the parameters say otherwise."""
    params = dict(config.params)
    for module in config.imports:
        importlib.import_module(module)
    game = load_game(config.game, params)
    if (
        game.num_players != len(config.agents)
        and "num_players" in game.params_type.model_fields
        and "num_players" not in params
    ):
        params["num_players"] = len(config.agents)
        game = load_game(config.game, params)
    if game.num_players != len(config.agents):
        raise InvalidParamsError(
            f"{config.game} ({game.describe_params()}) seats {game.num_players} players "
            f"but {len(config.agents)} agents were given"
        )
    if config.games < 1:
        raise InvalidParamsError(f"--games must be at least 1, not {config.games}")
    if config.backend not in BACKENDS:
        raise InvalidParamsError(
            f"unknown backend {config.backend!r}; known: {', '.join(BACKENDS)}"
        )
    if config.ray_address is not None and config.backend != "ray":
        raise InvalidParamsError("a Ray address needs --backend ray")
    if config.backend == "ray":
        check_backend(config.ray_address)
    for spec in config.agents:
        check_spec(spec, game)
    return TournamentConfig(
        game=config.game,
        agents=config.agents,
        games=config.games,
        seed=config.seed,
        workers=max(1, config.workers),
        params=game.params.to_json(),
        max_decisions=config.max_decisions,
        imports=config.imports,
        backend=config.backend,
        ray_address=config.ray_address,
    )


def schedule(config: TournamentConfig, variant: str | None = None) -> list[GameTask]:
    """Every game of the tournament, with rotated seats and derived seeds (the same for
    every variant of a comparison: each plays the same seeds)."""
    n = len(config.agents)
    labels = config.labels
    tasks = []
    for index in range(config.games):
        order = [(seat + index) % n for seat in range(n)]
        tasks.append(
            GameTask(
                index=index,
                game=config.game,
                params=dict(config.params),
                specs=tuple(config.agents[i] for i in order),
                labels=tuple(labels[i] for i in order),
                seed=derive_seed(config.seed, "game", index),
                max_decisions=config.max_decisions,
                imports=config.imports,
                variant=variant,
            )
        )
    return tasks


def play_task(task: GameTask) -> GameSummary:
    """Play one scheduled game (a top-level function: worker processes import it)."""
    for module in task.imports:
        importlib.import_module(module)
    game = load_game(task.game, task.params)
    started = time.perf_counter()
    result = play_match(
        game, [make_agent(spec) for spec in task.specs], task.seed, max_decisions=task.max_decisions
    )
    outcome = result.outcome
    summary: GameSummary = {
        "index": task.index,
        "seed": task.seed,
        "seats": list(task.labels),
        "specs": list(task.specs),
        "winners": list(result.winners),
        "winner_agents": [task.labels[w] for w in result.winners],
        "returns": list(result.returns),
        "moves": result.moves,
        "decisions": result.decisions,
        "truncated": result.truncated,
        "termination": outcome.termination.value if outcome else "truncated",
        "think_seconds": [round(s, 4) for s in result.think_seconds],
        "duration_s": round(time.perf_counter() - started, 4),
        "stats": collect(game, result.final_state),
    }
    if task.variant is not None:
        summary["variant"] = task.variant
    return summary


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops them itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop(pool: ProcessPoolExecutor) -> None:
    # the pool's own shutdown would let every game in progress run to its end
    workers = dict(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers.values():
        process.terminate()
    for process in workers.values():
        process.join(timeout=5)


def run_tournament(config: TournamentConfig, on_result: ResultHook | None = None) -> Tournament:
    """Play every game of ``config`` (prepared with ``prepare``), calling ``on_result``
    after each one. A KeyboardInterrupt (Ctrl-C, or raised by ``on_result``) ends the
    tournament early; the games finished by then are kept and ``interrupted`` is set."""
    started = time.perf_counter()
    finished, interrupted = run_tasks(schedule(config), config, on_result)
    return Tournament(config, finished, interrupted, time.perf_counter() - started)


def run_comparison(
    variants: Mapping[str, TournamentConfig], on_result: ResultHook | None = None
) -> dict[str, Tournament]:
    """One tournament per variant (configs that differ in their game parameters only),
    played in one pool with the same seeds: game ``i`` of every variant before game
    ``i + 1`` of any, so an interruption leaves the variants with matching games."""
    started = time.perf_counter()
    schedules = [schedule(config, label) for label, config in variants.items()]
    tasks = [task for tasks in zip(*schedules, strict=True) for task in tasks]
    first = next(iter(variants.values()))
    finished, interrupted = run_tasks(tasks, first, on_result)
    seconds = time.perf_counter() - started
    return {
        label: Tournament(
            config, [g for g in finished if g["variant"] == label], interrupted, seconds
        )
        for label, config in variants.items()
    }


def run_tasks(
    tasks: Sequence[GameTask], config: TournamentConfig, on_result: ResultHook | None = None
) -> tuple[list[GameSummary], bool]:
    """Play ``tasks`` where ``config`` says (its backend and workers): the finished
    games in schedule order, and whether a KeyboardInterrupt stopped them early."""
    finished: list[GameSummary] = []
    interrupted = False

    def keep(summary: GameSummary) -> None:
        finished.append(summary)
        if on_result is not None:
            on_result(summary)

    try:
        if config.backend == "ray":
            run_on_ray(tasks, play_task, keep, workers=config.workers, address=config.ray_address)
        elif config.workers <= 1:
            for task in tasks:
                keep(play_task(task))
        else:
            _run_parallel(tasks, config.workers, keep)
    except KeyboardInterrupt:
        interrupted = True
    order = {(task.variant, task.index): k for k, task in enumerate(tasks)}
    finished.sort(key=lambda g: order[(g.get("variant"), int(g["index"]))])
    return finished, interrupted


def _run_parallel(tasks: Sequence[GameTask], workers: int, keep: ResultHook) -> None:
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_ignore_interrupts,
    )
    try:
        with _stop_requests() as stop:
            submitted = {pool.submit(play_task, task): k for k, task in enumerate(tasks)}
            pending: set[Future[GameSummary]] = set(submitted)
            while pending:
                done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=lambda f: submitted[f]):
                    keep(future.result())
                if stop.is_set():
                    raise KeyboardInterrupt
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown(wait=True)


@contextlib.contextmanager
def _stop_requests() -> Iterator[threading.Event]:
    """Ctrl-C and SIGTERM while the pool runs: an event the loop checks between waits.
    Raised at any instant, the KeyboardInterrupt could leave a future's lock taken
    inside ``wait`` and the pool's manager thread (and so the exit) stuck on it."""
    stop = threading.Event()

    def request(signum: int, frame: FrameType | None) -> None:
        stop.set()

    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = {sig: signal.signal(sig, request) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
