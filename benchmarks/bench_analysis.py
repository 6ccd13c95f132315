"""How long a post-game analysis takes: seeded heuristic games of each game analysed
for every seat, decision by decision, with a given search agent.

    .venv/bin/python benchmarks/bench_analysis.py --agent ismcts:iters=300 --games 2

Prints, per game, the decisions analysed, the seconds in all and per decision, the
search iterations per second and how many moves were marked (?? / ? / ?!).
"""

from __future__ import annotations

import argparse
import time

from koth.agents.play import play_match
from koth.agents.registry import make_agent
from koth.analysis.engine import Mark, analyse_record
from koth.build import build_kind
from koth.core.registry import load_game

GAMES = {"cards": {}, "board": {"target_points": 10}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default="ismcts:iters=300")
    parser.add_argument("--games", type=int, default=2, help="records analysed per game")
    parser.add_argument("--only", choices=sorted(GAMES), default=None)
    args = parser.parse_args()
    print(f"koth build: {build_kind()}; agent {args.agent}")
    print(
        f"{'game':6} {'seed':>4} {'decisions':>9} {'seconds':>8} {'s/decision':>10} "
        f"{'iters/s':>8} {'??':>3} {'?':>3} {'?!':>3}"
    )
    for name, params in GAMES.items():
        if args.only and name != args.only:
            continue
        game = load_game(name, params)
        for seed in range(args.games):
            agents = [make_agent("heuristic"), make_agent("heuristic")]
            record = play_match(game, agents, seed=seed).record()
            started = time.perf_counter()
            analysis = analyse_record(record, agent=args.agent, seed=seed)
            seconds = time.perf_counter() - started
            decisions = [d for seat in analysis.seats for d in seat.decisions]
            iterations = sum(d.iterations for d in decisions)
            marks = [
                sum(d.mark is m for d in decisions)
                for m in (Mark.BLUNDER, Mark.MISTAKE, Mark.INACCURACY)
            ]
            print(
                f"{name:6} {seed:>4} {len(decisions):>9} {seconds:>8.2f} "
                f"{seconds / max(1, len(decisions)):>10.3f} {iterations / seconds:>8.0f} "
                f"{marks[0]:>3} {marks[1]:>3} {marks[2]:>3}"
            )


if __name__ == "__main__":
    main()
