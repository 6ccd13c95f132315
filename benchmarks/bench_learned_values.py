"""How close a leaf's value is to the truth: the network against one search playout.

A search scores each new leaf by one estimate of its value: ``ismcts`` and ``mcts`` by
one rollout (``ismcts`` from a state redrawn for the searching seat), ``learned`` by the
network from each seat's view. The better estimate is the one nearer the leaf's expected
return. This script takes positions of seeded heuristic games (decisions and chance
nodes, ``--rate`` of them) and, for every seat of each, compares with the average of
``--playouts`` rollouts of the search's policy from states redrawn for that seat (the
value of what the seat knows, the "truth"; its own noise, the variance of a mean, is
printed beside it) these estimates:

- ``playout``: one rollout from a state redrawn for the seat (the ``ismcts`` leaf),
- ``network``: the network's value of the seat's view (the ``learned`` leaf, MODEL or
  the shipped one; a second ``--model`` is compared too),
- ``mix m``: (1 - ``m``) x network + ``m`` x playout (``learned:mix=m``),
- ``after k``: the network's value of the seat's view after ``k`` rollout steps from a
  state redrawn for the seat (``learned:steps=k``; the returns if the game ended), for
  each ``k`` of ``--steps``.

It prints each one's mean squared error against the truth (in return units) and its
bias. Usage: python benchmarks/bench_learned_values.py cards [--games 20] [--rate 0.1]
[--playouts 100] [--model MODEL ...] [--steps 10,20] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Any

import numpy as np

from koth.agents.base import InformationSet
from koth.agents.learned import ValueReader, load_model
from koth.agents.play import play_match
from koth.agents.registry import make_agent
from koth.agents.search import (
    SearchSettings,
    default_max_rollout,
    play_steps,
    rollout,
    rollout_policy,
)
from koth.core.game import Game
from koth.core.players import NodeKind
from koth.core.registry import load_game
from koth.core.state import GameState

MIXES = (0.25, 0.5, 0.75)


def positions(game: Game[Any, Any, Any], games: int, rate: float, seed: int) -> list[Any]:
    """States of seeded heuristic games, ``rate`` of those not at the end."""
    found: list[Any] = []
    pick = random.Random(seed)
    for index in range(games):

        def on_step(state: GameState[Any, Any]) -> None:
            if not state.is_terminal() and pick.random() < rate:
                found.append(state.data)

        agents = [make_agent("heuristic") for _ in range(game.num_players)]
        play_match(game, agents, seed * 1000 + index, on_step=on_step)
    return found


def after_steps(
    game: Game[Any, Any, Any], data: Any, rng: random.Random, policy: Any, steps: int
) -> tuple[Any, tuple[float, ...] | None]:
    """``data`` after ``steps`` rollout steps, and the returns if the game ended."""
    data = play_steps(game, data, rng, policy, steps)
    if game.to_move(data).kind is NodeKind.TERMINAL:
        return data, game.returns(data)
    return data, None


def view_value(reader: ValueReader, view: Any, seat: int) -> float:
    """The network's value of ``seat``'s ``view``."""
    x = reader.rows(1)
    reader.write(view, seat, x[0])
    return float(reader.net(x)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rate", type=float, default=0.1)
    parser.add_argument("--playouts", type=int, default=100)
    parser.add_argument("--model", action="append", default=[])
    parser.add_argument("--steps", default="", help="rollout steps before the network: 10,20")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = load_game(args.game)
    settings = SearchSettings()
    policy = rollout_policy(game, settings.rollout, settings.epsilon)
    steps = default_max_rollout(game, settings.max_rollout)
    models = args.model or [None]
    readers = [ValueReader(game, load_model(game, m)) for m in models]
    rng = random.Random(args.seed)
    states = positions(game, args.games, args.rate, args.seed)
    truth: list[float] = []
    noise: list[float] = []
    single: list[float] = []
    nets: list[list[float]] = [[] for _ in readers]
    ahead = [int(k) for k in args.steps.split(",") if k]
    later: list[list[float]] = [[] for _ in readers for _ in ahead]
    for data in states:
        state = GameState(game, data)
        for seat in range(game.num_players):
            info = InformationSet.of(state, seat)
            outcomes = [
                rollout(game, info.sample_data(rng), rng, policy, steps)[seat]
                for _ in range(args.playouts + 1)
            ]
            single.append(outcomes[0])
            truth.append(statistics.fmean(outcomes[1:]))
            noise.append(statistics.pvariance(outcomes[1:]) / args.playouts)
            view = game.view(data, seat)
            for reader, values in zip(readers, nets, strict=True):
                values.append(view_value(reader, view, seat))
            for index, k in enumerate(ahead):
                reached, ended = after_steps(game, info.sample_data(rng), rng, policy, k)
                for r, reader in enumerate(readers):
                    if ended is not None:
                        later[r * len(ahead) + index].append(ended[seat])
                        continue
                    later[r * len(ahead) + index].append(
                        view_value(reader, game.view(reached, seat), seat)
                    )
    t = np.array(truth)
    rows: list[tuple[str, np.ndarray[Any, Any]]] = [("playout", np.array(single))]
    for model, values in zip(models, nets, strict=True):
        name = f"network {model or 'shipped'}"
        rows.append((name, np.array(values)))
        for a in MIXES:
            mixed = (1 - a) * np.array(values) + a * rows[0][1]
            rows.append((f"mix {a} {model or 'shipped'}", mixed))
    for r, model in enumerate(models):
        for index, k in enumerate(ahead):
            rows.append(
                (f"after {k} {model or 'shipped'}", np.array(later[r * len(ahead) + index]))
            )
    print(
        f"{args.game}: {len(states)} positions x {game.num_players} seats from {args.games} "
        f"heuristic games (seed {args.seed}); truth: mean of {args.playouts} playouts, its "
        f"own noise (variance of the mean) {statistics.fmean(noise):.4f}; "
        f"variance of the truth {float(np.var(t)):.4f}"
    )
    print(f"{'estimate':<40} {'MSE':>8} {'bias':>8}")
    for name, values in rows:
        error = values - t
        print(f"{name:<40} {float(np.mean(error**2)):8.4f} {float(np.mean(error)):8.4f}")


if __name__ == "__main__":
    main()
