"""Where a step of the PettingZoo AEC loop goes: the loop of bench_interop_speed.py next
to the same loop without reading the mask, and without making it, one core.

For each koth game, in interleaved rounds (as bench_interop_speed.py measures):

* ``GameState``: the koth loop over ``GameState``, no adapter;
* ``AEC, the benchmark's loop``: ``env.last(observe=False)`` and a random action of the
  mask in the acting agent's info, read as booleans (bench_interop_speed.py's row);
* ``AEC, ids from the environment``: the same loop choosing among the legal ids the
  environment keeps, without scanning the mask (no PettingZoo user can write it: it
  reads the environment's own lists; it finds what the scan costs);
* ``AEC, no mask made``: that loop again with the environment's mask making replaced by
  one shared array (what making the masks costs; what is left is PettingZoo's cycle,
  the environment's bookkeeping and ``GameState``).

Each row prints its steps/s (median round) and its time a step as a multiple of the
game's ``GameState`` step. The last two rows reach into the environment's private
methods: they are measurements, not a way to use it.

Usage: python benchmarks/bench_aec_floor.py [--seconds S] [--rounds R] [--cpu N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for tests.core.toy_game, which bench_interop_speed reads
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402

from bench_interop_speed import (  # noqa: E402
    Row,
    aec_playout,
    gamestate_playout,
    measure_round,
    pin_to_one_core,
)
from koth.build import build_kind, notice_pure_build  # noqa: E402
from koth.core.registry import load_game  # noqa: E402
from koth.interop.pettingzoo import KothAECEnv, raw_env  # noqa: E402

GAMESTATE = "GameState"


def aec_ids_playout(env: KothAECEnv, rng: random.Random) -> int:
    """The AEC loop choosing among the environment's own legal ids (no mask scan)."""
    env.reset(seed=rng.randrange(2**31))
    players = {agent: p for p, agent in enumerate(env.possible_agents)}
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last(False)
        if terminated or truncated:
            env.step(None)
            continue
        env.step(rng.choice(env._legal_of(players[agent])[1]))
    steps: int = env.koth_state.num_moves
    return steps


class NoMaskEnv(KothAECEnv):
    """The environment with one shared array for every mask (it still lists the ids)."""

    def _mask(self, player: int) -> Any:
        self._legal_of(player)
        return self._shared_mask

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._shared_mask = np.zeros(self._num_actions, np.int8)
        super().reset(seed, options)


def rows_of(name: str) -> list[tuple[Row, Callable[[random.Random], int]]]:
    game = load_game(name)
    env = raw_env(game)
    bare = NoMaskEnv(game)
    return [
        (Row(name, GAMESTATE), lambda rng: gamestate_playout(game, rng)),
        (Row(name, "AEC, the benchmark's loop"), lambda rng: aec_playout(env, rng)),
        (Row(name, "AEC, ids from the environment"), lambda rng: aec_ids_playout(env, rng)),
        (Row(name, "AEC, no mask made"), lambda rng: aec_ids_playout(bare, rng)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="CPU seconds per row")
    parser.add_argument("--rounds", type=int, default=6, help="interleaved rounds per row")
    parser.add_argument("--cpu", type=int, default=None, help="core to pin to")
    args = parser.parse_args()
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds positive")
    notice_pure_build()
    cpu = pin_to_one_core(args.cpu)
    measured = rows_of("cards") + rows_of("board")
    for _, playout in measured:
        playout(random.Random(0))  # warm caches outside the measurement
    for _ in range(args.rounds):
        for row, playout in measured:
            measure_round(row, playout, args.seconds / args.rounds)
    print(f"AEC loop split, one core (cpu {cpu}), koth {build_kind()}")
    for row, _ in measured:
        base = next(r for r, _ in measured if r.engine == row.engine and r.api == GAMESTATE)
        speed = row.steps_per_second
        times = statistics.median(
            theirs / mine for mine, theirs in zip(row.rounds, base.rounds, strict=True)
        )
        print(
            f"{row.engine:6} {row.api:31} {speed:10,.0f} steps/s {1e6 / speed:6.2f} us a step"
            f" {times:5.2f} x GameState's"
        )


if __name__ == "__main__":
    main()
