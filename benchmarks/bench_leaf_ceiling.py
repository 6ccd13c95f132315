"""What better leaf values can buy a search: leaves of several playouts against one.

A value network trained on games of the rollout policy learns, at best, what that
policy's playouts average to: the expected return of a position. A search whose leaves
get that expectation exactly is the best such a network can make of the search. This
script approximates it by brute force: the game's search (``ismcts`` for the cards,
``mcts`` for the board) whose every new leaf is scored by the mean of ``--playouts``
rollouts of its policy (``K`` playouts cut the noise of a leaf ``K``-fold) plays the same
search with one playout a leaf, both at ``--iters`` iterations a decision (an iteration
budget: the figures do not depend on the machine or its load). The many-playout side
takes about ``K`` times as long a decision: it is a ceiling at equal iterations, not a
player at equal time. ``--max-rollout`` caps a rollout's steps on both sides (the board
defaults to 30 steps then the game's evaluator; a larger cap plays on to the end, what
the board network is trained on).

Prints the many-playout side's win rate with its 95% Wilson interval (a win is being the
only winner) and each side's seconds a searched decision. Usage:

    python benchmarks/bench_leaf_ceiling.py cards --iters 200 --playouts 16 --games 100
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from bench_agents import Timed
from koth.agents.base import Agent, derive_seed
from koth.agents.ismcts import IsmctsAgent
from koth.agents.mcts import MctsAgent, SearchAgent
from koth.agents.play import play_match
from koth.agents.search import RolloutPolicy, SearchSettings, rollout
from koth.core.game import Game
from koth.core.registry import load_game
from koth.sim.stats import wilson_interval

SEARCHES: dict[str, type[SearchAgent]] = {"cards": IsmctsAgent, "board": MctsAgent}


def averaged(base: type[SearchAgent], playouts: int) -> type[SearchAgent]:
    """``base`` whose new leaves are scored by the mean of ``playouts`` rollouts."""

    class Averaged(base):  # type: ignore[valid-type, misc]
        kind = f"{base.kind}:playouts={playouts}"

        def leaf_values(
            self,
            game: Game[Any, Any, Any],
            data: Any,
            rng: random.Random,
            policy: RolloutPolicy,
            max_rollout: int,
        ) -> tuple[float, ...]:
            sums = [0.0] * game.num_players
            for _ in range(playouts):
                for seat, value in enumerate(rollout(game, data, rng, policy, max_rollout)):
                    sums[seat] += value
            return tuple(total / playouts for total in sums)

    return Averaged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(SEARCHES))
    parser.add_argument("--iters", type=int, default=200, help="iterations a decision, both")
    parser.add_argument("--playouts", type=int, default=16, help="playouts a leaf, one side")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-rollout", type=int, default=None)
    args = parser.parse_args()
    if args.iters < 1 or args.playouts < 1 or args.games < 1:
        parser.error("--iters, --playouts and --games must be at least 1")
    game = load_game(args.game, {})
    options = {"iters": str(args.iters)}
    if args.max_rollout is not None:
        options["max_rollout"] = str(args.max_rollout)
    settings = SearchSettings.from_options(options)
    base = SEARCHES[args.game]
    many_kind = averaged(base, args.playouts)
    sides: dict[str, list[Timed]] = {"many": [], "one": []}
    wins = 0
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TimeElapsedColumn()) as progress:
        task = progress.add_task(args.game, total=args.games)
        for index in range(args.games):
            seat = index % game.num_players  # the many-playout side's seat rotates
            agents: list[Agent[Any]] = []
            for at in range(game.num_players):
                side = Timed(many_kind(settings) if at == seat else base(settings))
                sides["many" if at == seat else "one"].append(side)
                agents.append(side)
            result = play_match(game, agents, derive_seed(args.seed, "ceiling", index))
            wins += result.winners == (seat,)
            progress.update(task, advance=1, description=f"{args.game} wins {wins}/{index + 1}")
    low, high = wilson_interval(wins, args.games)
    print(
        f"{args.game}: {args.playouts} playouts a leaf against 1, {args.iters} iterations: "
        f"won {wins} of {args.games} ({wins / args.games:.1%}, 95% {low:.1%}-{high:.1%})"
    )
    for label, timed in sides.items():
        seconds = sum(side.seconds for side in timed)
        decisions = sum(side.decisions for side in timed)
        print(
            f"  {timed[0].name}: {seconds / max(decisions, 1):.3f} s a searched decision "
            f"({decisions} decisions, {label} playout{'s' if label == 'many' else ''} a leaf)"
        )


if __name__ == "__main__":
    main()
