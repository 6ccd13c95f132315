"""Random-playout throughput of the board game engine on one core.

Run: ``.venv/bin/python benchmarks/bench_board.py [--games N] [--players P ...]
[--breakdown] [--profile N]``.

Two loops over the same seeded random games, per player count:

* ``engine``: the pure rules (``legal_actions`` + ``apply``, chance sampled from
  ``chance_outcomes``; ``playouts.engine_playout``);
* ``GameState``: the checked handle (``koth.core.chance.random_game``), which adds the
  framework checks (legality, parsing, history) on every step.

``--breakdown`` replays the recorded steps of the same games and times the parts of a
step alone: listing a decision's legal actions, applying a decision, applying a chance
outcome. ``--profile N`` prints the N functions with the most own time in the engine
loop (cProfile: compiled functions show as single built-in calls, and the profiler's
own cost inflates Python functions most).

CPU time of this process is measured: the one-core figure even on a busy machine.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from collections.abc import Callable
from typing import Any

from koth.build import build_kind
from koth.core.chance import random_game
from koth.core.players import CHANCE, SIMULTANEOUS
from koth.games.board import BoardGame
from playouts import Step, engine_playout


def gamestate_playout(game: BoardGame, seed: int) -> int:
    """One seeded random game through the checked GameState API; returns its steps."""
    return random_game(game, seed).num_moves


def measure(
    name: str, game: BoardGame, playout: Callable[[BoardGame, int], int], games: int
) -> None:
    start, cpu_start = time.perf_counter(), time.process_time()
    steps = sum(playout(game, seed) for seed in range(games))
    wall = time.perf_counter() - start
    elapsed = time.process_time() - cpu_start
    print(
        f"  {name:<10} {games} games, {elapsed:.2f}s CPU ({wall:.2f}s wall): "
        f"{games / elapsed:.1f} games/s, {steps / elapsed:,.0f} steps/s, "
        f"mean game length {steps / games:.0f} steps"
    )


def per_call_us(calls: list[Callable[[], Any]], repeats: int = 5) -> float:
    """The fastest of ``repeats`` passes over ``calls``, in microseconds per call."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for call in calls:
            call()
        best = min(best, time.process_time() - start)
    return best / max(1, len(calls)) * 1e6


def breakdown(game: BoardGame, games: int) -> None:
    steps: list[Step] = []
    for seed in range(games):
        engine_playout(game, seed, steps)
    decisions = [(s, p, a) for s, p, a in steps if p not in (CHANCE, SIMULTANEOUS)]
    chance = [(s, a) for s, p, a in steps if p == CHANCE]
    listed = sum(len(game.legal_actions(s, p)) for s, p, _ in decisions)
    listing = per_call_us([lambda s=s, p=p: game.legal_actions(s, p) for s, p, _ in decisions])
    applying = per_call_us([lambda s=s, p=p, a=a: game.apply(s, p, a) for s, p, a in decisions])
    rolling = per_call_us([lambda s=s, a=a: game.apply(s, CHANCE, a) for s, a in chance])
    outcomes = per_call_us([lambda s=s: game.chance_outcomes(s) for s, _ in chance])
    print(
        f"  parts of a step over {len(steps):,} steps ({len(decisions):,} decisions, "
        f"{len(chance):,} chance; {listed / max(1, len(decisions)):.0f} legal actions a "
        "decision on average):"
    )
    print(f"    list a decision's legal actions  {listing:7.2f} us")
    print(f"    apply a decision                 {applying:7.2f} us")
    print(f"    list chance outcomes             {outcomes:7.2f} us")
    print(f"    apply a chance outcome           {rolling:7.2f} us")


def profile(game: BoardGame, games: int, top: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(games):
        engine_playout(game, seed)
    profiler.disable()
    print(f"  engine loop profile, {games} games, the {top} largest own times:")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--breakdown", action="store_true", help="time the parts of a step")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="cProfile top N")
    args = parser.parse_args()
    print(f"board: random playouts, one core; koth {build_kind()}")
    for players in args.players:
        game = BoardGame(num_players=players)
        print(f"board {players}p:")
        measure("engine", game, engine_playout, args.games)
        measure("GameState", game, gamestate_playout, args.games)
        if args.breakdown:
            breakdown(game, min(args.games, 20))
        if args.profile:
            profile(game, min(args.games, 20), args.profile)


if __name__ == "__main__":
    main()
