"""Where a step of ``BoardBatch`` goes: its compiled parts timed one at a time over the
states of a fixed batch, one core.

A batch (two players, the default rules) is played ``--warmup`` random steps from a
seed, and a copy of its buffer is then handed to compiled loops that each run one part
of a step over every game, again and again (the states do not move, so the parts
read what a step would read, from the caches):

* ``legal listing``: the mover's legal action ids (``board_legal.legal``);
* ``observation header``: every player's first ``O_UNITS`` entries
  (``observe_changes`` with no location changed);
* ``mask update``: the legal list's mask entries cleared and set;
* ``whole step, compiled``: ``random_actions`` and ``step_serial`` in one compiled
  loop (the states move: chance, transitions, restarts, everything);
* ``whole step, from Python``: ``batch.step(batch.random_actions())``.

Each row prints microseconds a game (CPU time of this thread), the best of
``--rounds`` rounds and every round. The rows are for comparing two versions of the
kernels run back to back, not absolute figures.

Usage: python benchmarks/bench_board_parts.py [--games N] [--rounds R] [--warmup W]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numba
import numpy as np

from koth.vector import board_kernels as k
from koth.vector.board import BoardBatch
from koth.vector.board_buffer import batch_views
from koth.vector.board_layout import TM_ALL, TM_CHANCE, TM_OVER, TM_PLAYER0
from koth.vector.board_legal import legal

Array = Any
OPTIONS: dict[str, Any] = {"cache": False, "_nrt": False}


@numba.njit(**OPTIONS)
def legal_loop(buf: Array, dims: Array, reps: int) -> int:
    g, prm, _, _, _, _, _, _, ids, _, movers = batch_views(buf, dims)[:11]
    total = 0
    for _ in range(reps):
        for i in range(g.shape[0]):
            mover = movers[i]
            if mover != TM_CHANCE and mover != TM_OVER:
                total += legal(g, prm, i, 0 if mover == TM_ALL else mover - TM_PLAYER0, ids[i])
    return total


@numba.njit(**OPTIONS)
def header_loop(buf: Array, dims: Array, reps: int) -> int:
    g, prm, _, _, _, obs, _, _, _, _, movers = batch_views(buf, dims)[:11]
    for _ in range(reps):
        for i in range(g.shape[0]):
            for p in range(obs.shape[1]):
                k.observe_changes(g, prm, i, p, movers[i], obs[i, p], 0)
    return 0


@numba.njit(**OPTIONS)
def mask_loop(buf: Array, dims: Array, reps: int) -> int:
    _, _, _, _, _, _, _, mask, ids, count, _ = batch_views(buf, dims)[:11]
    for _ in range(reps):
        for i in range(mask.shape[0]):
            row = mask[i]
            for j in range(count[i]):
                row[ids[i, j]] = False
            for j in range(count[i]):
                row[ids[i, j]] = True
    return 0


@numba.njit(**OPTIONS)
def step_loop(buf: Array, dims: Array, reps: int, out: Array, dealt: Array, moving: Array) -> int:
    for _ in range(reps):
        k.random_actions(buf, dims, out)
        k.step_serial(buf, dims, out, dealt, moving, True, False)
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=64, help="the batch size")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per row")
    parser.add_argument("--warmup", type=int, default=200, help="random steps first")
    args = parser.parse_args()
    n = args.games
    batch = BoardBatch(n, parallel=False)
    batch.reset(seed=3)
    for _ in range(args.warmup):
        batch.step(batch.random_actions())
    dims = np.array(batch._dims, dtype=np.int64)
    reps = max(1, 200_000 // n)
    out = np.empty((n, batch.num_players), dtype=np.int64)
    dealt = np.full(n, -1, dtype=np.int64)
    moving = np.ones(n, dtype=np.bool_)
    fixed = batch._buf.copy()

    def python_steps(count: int) -> None:
        for _ in range(count):
            batch.step(batch.random_actions())

    rows: list[tuple[str, Callable[[int], object]]] = [
        ("legal listing", lambda r: legal_loop(fixed, dims, r)),
        ("observation header", lambda r: header_loop(fixed, dims, r)),
        ("mask update", lambda r: mask_loop(fixed, dims, r)),
        ("whole step, compiled", lambda r: step_loop(batch._buf, dims, r, out, dealt, moving)),
        ("whole step, from Python", python_steps),
    ]
    for _, run in rows:
        run(1)  # compiled here, before the clock
    times: dict[str, list[float]] = {name: [] for name, _ in rows}
    for _ in range(args.rounds):
        for name, run in rows:
            start = time.thread_time()
            run(reps)
            times[name].append((time.thread_time() - start) / (reps * n) * 1e6)
    print(f"BoardBatch({n:,}), us a game, best of {args.rounds} rounds (every round)")
    for name, values in times.items():
        spread = " ".join(f"{v:.3f}" for v in values)
        print(f"{name:24s} {min(values):.3f}  ({spread})")


if __name__ == "__main__":
    main()
