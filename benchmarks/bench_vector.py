"""Steps per second of the batched card and board games, beside OpenSpiel's goofspiel
and koth's own GameState, in one run.

Rows, measured in ``--rounds`` interleaved rounds (every row once per round, its
median round reported, the ratios taken round by round as in bench_interop_speed.py):

* ``goofspiel`` through ``pyspiel``: OpenSpiel's C++ game driven by the Python loop of
  bench_interop_speed.py (random legal actions, chance sampled from its outcomes);
* koth ``cards`` through ``GameState``: the same loop over koth's checked API;
* ``CardsBatch`` at each ``--batch`` size, one worker: ``random_actions()`` then
  ``step()`` for the whole batch, which computes both players' observations and
  legal-action masks after every step (a step is one transition of one game, chance
  included, as in the other rows);
* the largest batch with one worker per core (``parallel=True``), timed by the wall
  clock (the other rows by the CPU time of the thread that runs them);
* koth ``board`` through ``GameState`` and ``BoardBatch`` (two players, the default
  rules) at each ``--batch`` size, one worker, and the largest with one worker per
  core, like the card game's rows (every player's observation and the mover's mask
  after every step; the "vs GameState" column compares each game with its own);
* the adapters at the largest batch: ``CardsVectorEnv`` (one learner step: the
  learner's and the opponent's actions, and the opponent's lone moves) and
  ``CardsParallelBatch`` (both agents), their actions from the batch's own
  ``random_actions``.

Memory is what the batch's arrays hold, per 1,000 games.

With ``--games cards`` or ``--games board`` only ``goofspiel`` and that game's rows run.

Usage: python benchmarks/bench_vector.py [--seconds S] [--rounds R] [--batch N ...]
       [--games cards|board ...]
       [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import numba  # noqa: E402
import pyspiel  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from bench_interop_speed import gamestate_playout, pyspiel_playout  # noqa: E402
from koth.build import build_kind, notice_pure_build  # noqa: E402
from koth.core.registry import load_game  # noqa: E402
from koth.vector.board import BoardBatch  # noqa: E402
from koth.vector.cards import CardsBatch  # noqa: E402
from koth.vector.gym import CardsVectorEnv  # noqa: E402
from koth.vector.parallel import AGENTS, CardsParallelBatch  # noqa: E402

REFERENCE = "goofspiel"

#: a measured loop: runs for about the given seconds, returns (steps, seconds)
Loop = Callable[[float], tuple[int, float]]


@dataclass
class Row:
    engine: str
    api: str
    clock: str = "CPU"
    memory_per_1000: float | None = None
    steps: int = 0
    seconds: float = 0.0
    rounds: list[float] = field(default_factory=list)

    @property
    def steps_per_second(self) -> float:
        return statistics.median(self.rounds) if self.rounds else 0.0

    def relative_to(self, other: Row) -> float:
        return statistics.median(a / b for a, b in zip(self.rounds, other.rounds, strict=True))


def playout_loop(playout: Callable[[random.Random], int]) -> Loop:
    rng = random.Random(20240601)

    def run(seconds: float) -> tuple[int, float]:
        steps, start = 0, time.thread_time()
        while time.thread_time() - start < seconds:
            steps += playout(rng)
        return steps, time.thread_time() - start

    return run


def batch_loop(batch: CardsBatch | BoardBatch, clock: Callable[[], float]) -> Loop:
    batch.reset(1)

    def run(seconds: float) -> tuple[int, float]:
        steps, start = 0, clock()
        while clock() - start < seconds:
            batch.step(batch.random_actions())
            steps += batch.num_games
        return steps, clock() - start

    return run


def vector_env_loop(num_envs: int) -> Loop:
    env = CardsVectorEnv(num_envs)
    env.reset(seed=1)
    games = env.games

    def run(seconds: float) -> tuple[int, float]:
        steps, start = 0, time.thread_time()
        while time.thread_time() - start < seconds:
            env.step(games.batch.random_actions()[:, games.seat])
            steps += num_envs
        return steps, time.thread_time() - start

    return run


def parallel_batch_loop(num_games: int) -> Loop:
    env = CardsParallelBatch(num_games)
    env.reset(seed=1)

    def run(seconds: float) -> tuple[int, float]:
        steps, start = 0, time.thread_time()
        while time.thread_time() - start < seconds:
            joint = env.batch.random_actions()
            env.step({agent: joint[:, p] for p, agent in enumerate(AGENTS)})
            steps += num_games
        return steps, time.thread_time() - start

    return run


def rows_to_measure(batches: list[int], games: list[str]) -> list[tuple[Row, Loop]]:
    goofspiel = pyspiel.load_game("goofspiel")
    measured: list[tuple[Row, Loop]] = [
        (
            Row(REFERENCE, "pyspiel (OpenSpiel)"),
            playout_loop(lambda r: pyspiel_playout(goofspiel, r)),
        )
    ]
    workers = numba.get_num_threads()
    if "cards" in games:
        measured += cards_rows(batches, workers)
    if "board" in games:
        measured += board_rows(batches, workers)
    return measured


def cards_rows(batches: list[int], workers: int) -> list[tuple[Row, Loop]]:
    cards = load_game("cards")
    measured: list[tuple[Row, Loop]] = [
        (Row("koth cards", "GameState"), playout_loop(lambda r: gamestate_playout(cards, r)))
    ]
    for size in batches:
        batch = CardsBatch(size, parallel=False)
        row = Row("koth cards", f"CardsBatch({size:,}), 1 worker")
        row.memory_per_1000 = batch.memory_bytes() / size * 1000
        measured.append((row, batch_loop(batch, time.thread_time)))
    largest = max(batches)
    if workers > 1:
        batch = CardsBatch(largest, parallel=True)
        row = Row("koth cards", f"CardsBatch({largest:,}), {workers} workers", clock="wall")
        row.memory_per_1000 = batch.memory_bytes() / largest * 1000
        measured.append((row, batch_loop(batch, time.perf_counter)))
    measured.append((Row("koth cards", f"CardsVectorEnv({largest:,})"), vector_env_loop(largest)))
    measured.append(
        (Row("koth cards", f"CardsParallelBatch({largest:,})"), parallel_batch_loop(largest))
    )
    return measured


def board_rows(batches: list[int], workers: int) -> list[tuple[Row, Loop]]:
    board = load_game("board")
    measured: list[tuple[Row, Loop]] = [
        (Row("koth board", "GameState"), playout_loop(lambda r: gamestate_playout(board, r)))
    ]
    for size in batches:
        batch = BoardBatch(size, parallel=False)
        row = Row("koth board", f"BoardBatch({size:,}), 1 worker")
        row.memory_per_1000 = batch.memory_bytes() / size * 1000
        measured.append((row, batch_loop(batch, time.thread_time)))
    largest = max(batches)
    if workers > 1:
        batch = BoardBatch(largest, parallel=True)
        row = Row("koth board", f"BoardBatch({largest:,}), {workers} workers", clock="wall")
        row.memory_per_1000 = batch.memory_bytes() / largest * 1000
        measured.append((row, batch_loop(batch, time.perf_counter)))
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="seconds per row")
    parser.add_argument("--rounds", type=int, default=6, help="interleaved rounds per row")
    parser.add_argument(
        "--batch", type=int, nargs="+", default=[64, 1024, 8192], help="batch sizes"
    )
    parser.add_argument(
        "--games",
        nargs="+",
        choices=("cards", "board"),
        default=["cards", "board"],
        help="which games' rows to measure beside goofspiel (both by default)",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    args = parser.parse_args()
    notice_pure_build()
    if args.rounds < 1 or args.seconds <= 0 or min(args.batch) < 1:
        parser.error("--rounds and --batch must be at least 1 and --seconds positive")
    console = Console(width=170)
    measured = rows_to_measure(args.batch, args.games)
    for _, loop in measured:
        loop(0.05)  # compile, warm caches and lazy imports outside the measurement
    per_round = args.seconds / args.rounds
    with console.status("measuring...") as status:
        for number in range(1, args.rounds + 1):
            for row, loop in measured:
                status.update(f"round {number}/{args.rounds}: {row.engine} via {row.api}")
                steps, seconds = loop(per_round)
                row.steps += steps
                row.seconds += seconds
                row.rounds.append(steps / seconds)
    rows = [row for row, _ in measured]
    reference = rows[0]
    # each game's rows against its own GameState row
    gamestates = {row.engine: row for row in rows if row.api == "GameState"}
    table = Table(
        title=f"Batched card and board games: random steps/s, observations and masks included; "
        f"{os.cpu_count()} cores, {args.seconds:g} s per row in {args.rounds} interleaved "
        f"rounds; koth {build_kind()}, numba {numba.__version__}"
    )
    columns = (
        "engine", "API", "clock", "steps", "steps/s", "spread", f"vs {REFERENCE}",
        "vs GameState", "memory / 1,000 games",
    )  # fmt: skip
    for column in columns:
        table.add_column(column, justify="left" if column in ("engine", "API") else "right")
    for row in rows:
        memory = row.memory_per_1000
        table.add_row(
            row.engine,
            row.api,
            row.clock,
            f"{row.steps:,}",
            f"{row.steps_per_second:,.0f}",
            f"{min(row.rounds) / 1000:,.0f}k-{max(row.rounds) / 1000:,.0f}k",
            f"{row.relative_to(reference):.2f}x",
            f"{row.relative_to(gamestates.get(row.engine, rows[1])):.2f}x",
            "" if memory is None else f"{memory / 2**20:.2f} MiB",
        )
    console.print(table)
    if args.json:
        payload: list[dict[str, Any]] = [
            {
                **asdict(r),
                "steps_per_second": r.steps_per_second,
                "vs_reference": r.relative_to(reference),
                "vs_gamestate": r.relative_to(gamestates.get(r.engine, rows[1])),
            }
            for r in rows
        ]
        args.json.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
