"""How well the learned network values positions, against the evaluators it wraps.

Plays ``--games`` seeded games of the game's heuristic in every seat, records a share
(``--rate``) of the positions (decisions and chance nodes, as self-play does) and, for
every seat of each, compares with the return that seat got at the end of its game:

- ``network``: the learned network's value (``ValueReader.state_values``, what the
  learned search backs up at a leaf), for each ``--model`` (default: the shipped one);
- ``evaluator``: the game's view evaluator (the board's points lead, part of the
  network's input);
- ``state evaluator``: the search's evaluator at the end of a cut rollout (the board's
  points lead with the units on their way);
- ``zero``: always 0 (the spread of the returns).

It prints the mean squared error against the return (lower is better; the outcome's
own noise adds the same to every row, so differences between rows are what counts) and
the rank correlation (Spearman's, higher is better). With ``--playouts K`` the target is
instead the mean return of K rollouts of the search's rollout policy from the position
(less noise, K times the cost). Held-out by construction: pick a ``--seed`` that no
training run used (self-play seeds derive from the run's seed).

Usage: python benchmarks/bench_learned_outcomes.py board [--games 400] [--seed 9001]
           [--rate 0.1] [--model a.npz --model b.npz] [--playouts 0]
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import numpy as np
from scipy.stats import spearmanr

from koth.agents.base import derive_seed
from koth.agents.heuristics import evaluator, state_evaluator
from koth.agents.learned import ValueReader, load_model
from koth.agents.play import play_match
from koth.agents.registry import make_agent
from koth.agents.search import play_step, rollout_policy
from koth.core.game import Game
from koth.core.players import NodeKind
from koth.core.registry import load_game
from koth.core.state import GameState


def spearman(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> float:
    """Spearman's rank correlation (SciPy's), NaN where a side is constant."""
    if np.ptp(a) == 0 or np.ptp(b) == 0:
        return float("nan")
    return float(spearmanr(a, b).statistic)


def playout_mean(game: Game[Any, Any, Any], data: Any, playouts: int, seed: int) -> list[float]:
    """Each seat's mean return over ``playouts`` rollouts of the rollout policy."""
    policy = rollout_policy(game, "auto", 0.0)
    totals = [0.0] * game.num_players
    for k in range(playouts):
        rng = random.Random(derive_seed(seed, "playout", k))
        state = data
        while game.to_move(state).kind is not NodeKind.TERMINAL:
            after = play_step(game, state, rng, policy)
            if after is None:
                break
            state = after
        for seat, value in enumerate(game.returns(state)):
            totals[seat] += value / playouts
    return totals


def heuristic_game(
    game: Game[Any, Any, Any], seed: int, rate: float
) -> tuple[list[Any], tuple[float, ...]]:
    """A seeded game of the heuristic in every seat: a ``rate`` share of its positions
    (decisions and chance nodes) and the returns at its end."""
    pick = random.Random(derive_seed(seed, "record"))
    kept: list[Any] = []

    def on_step(state: GameState[Any, Any]) -> None:
        if not state.is_terminal() and pick.random() < rate:
            kept.append(state.data)

    agents = [make_agent("heuristic") for _ in range(game.num_players)]
    return kept, play_match(game, agents, seed, on_step=on_step).returns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=9001)
    parser.add_argument("--rate", type=float, default=0.1)
    parser.add_argument("--model", action="append", default=None)
    parser.add_argument("--playouts", type=int, default=0)
    args = parser.parse_args()
    game = load_game(args.game, {})
    n = game.num_players
    models = args.model or [None]
    readers = [ValueReader(game, load_model(game, path)) for path in models]
    view_eval, data_eval = evaluator(game), state_evaluator(game)
    columns: dict[str, list[float]] = {"target": []}
    names = [f"network {path or '(shipped)'}" for path in models]
    for name in [*names, "evaluator", "state evaluator"]:
        columns[name] = []
    for index in range(args.games):
        seed = derive_seed(args.seed, "game", index)
        kept, returns = heuristic_game(game, seed, args.rate)
        for k, data in enumerate(kept):
            target = (
                playout_mean(game, data, args.playouts, derive_seed(seed, "position", k))
                if args.playouts
                else list(returns)
            )
            columns["target"] += target
            for name, reader in zip(names, readers, strict=True):
                columns[name] += reader.state_values(data)
            for name, judge in (("evaluator", view_eval), ("state evaluator", data_eval)):
                if judge is None:
                    columns[name] += [0.0] * n
                elif name == "evaluator":  # each seat's estimate from its own view
                    columns[name] += [judge(game, game.view(data, s))[s] for s in range(n)]
                else:
                    columns[name] += judge(game, data)
    target = np.array(columns.pop("target"))
    columns["zero"] = [0.0] * len(target)
    print(f"{args.game}: {args.games} heuristic games, {len(target)} rows (seat x position)")
    print(f"{'':<36} {'mse':>7} {'spearman':>9}")
    for name, values in columns.items():
        v = np.array(values)
        print(f"{name:<36} {np.mean((v - target) ** 2):7.4f} {spearman(v, target):9.3f}")


if __name__ == "__main__":
    main()
