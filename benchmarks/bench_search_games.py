"""CPU seconds of whole games of a search agent against the heuristic, one process.

Plays the games of ``play_match`` with the given seeds (seats alternating: the agent
under test sits first in even seeds, second in odd ones) and prints the CPU time of all
of them (``time.process_time``: other work on a shared machine slows it less than the
wall clock) and each game's returns. Run it under two builds or two checkouts, in turns
(A, B, A, B), to compare their speed: with an iteration budget both play the same games,
which the returns show.

Usage: python benchmarks/bench_search_games.py GAME SPEC [--seeds 0,1,2,3]

  PYTHONPATH=.build/compiled .venv/bin/python benchmarks/bench_search_games.py \\
      cards ismcts:iters=200 --seeds 0,1,2,3
"""

from __future__ import annotations

import argparse
import time

from koth.agents.play import play_match
from koth.agents.registry import make_agent
from koth.build import build_kind
from koth.core.registry import load_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="cards or board")
    parser.add_argument("spec", help="the agent under test, e.g. ismcts:iters=200")
    parser.add_argument("--seeds", default="0,1", help="comma-separated game seeds")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    game = load_game(args.game)
    started = time.process_time()
    returns = []
    for seed in seeds:
        seats = [make_agent(args.spec), make_agent("heuristic")]
        if seed % 2:
            seats.reverse()
        returns.append(tuple(play_match(game, seats, seed).returns))
    spent = time.process_time() - started
    print(f"{build_kind()}: {args.game} {args.spec} against heuristic, seeds {args.seeds}:")
    print(f"  {spent:.1f} s CPU; returns {returns}")


if __name__ == "__main__":
    main()
