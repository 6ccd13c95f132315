"""Random-playout throughput of the board game engine on one core.

Run: ``.venv/bin/python benchmarks/bench_board.py [--games N] [--players P]``.
Each game goes through ``GameState`` (the framework checks included), like
``koth.core.chance.random_game``: legal actions, a uniform random choice, apply.
"""

from __future__ import annotations

import argparse
import time

from koth.build import build_kind
from koth.core.chance import random_game
from koth.games.board import BoardGame


def playout(game: BoardGame, seed: int) -> int:
    """One seeded random game through the checked GameState API; returns its steps."""
    return len(random_game(game, seed).history)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    args = parser.parse_args()
    print(f"board: random playouts through GameState, one core; koth {build_kind()}")
    for players in args.players:
        game = BoardGame(num_players=players)
        start, cpu_start = time.perf_counter(), time.process_time()
        steps = sum(playout(game, seed) for seed in range(args.games))
        wall = time.perf_counter() - start
        # CPU time of this process: the one-core figure even on a busy machine
        elapsed = time.process_time() - cpu_start
        print(
            f"board {players}p: {args.games} games, {elapsed:.2f}s CPU ({wall:.2f}s wall): "
            f"{args.games / elapsed:.1f} games/s, {steps / elapsed:,.0f} steps/s, "
            f"mean game length {steps / args.games:.0f} steps"
        )


if __name__ == "__main__":
    main()
