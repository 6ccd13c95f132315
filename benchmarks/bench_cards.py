"""Random-playout throughput of the card game engine on one core.

Two loops over the same seeded random games:

* ``engine``: the pure rules (``legal_actions`` + ``apply``/``apply_joint``, chance
  sampled from ``chance_outcomes``), what search agents and RL adapters call;
* ``GameState``: the checked handle (``koth.core.chance.random_game``), which adds the
  framework checks (legality, parsing, history) on every step.

CPU time of this process is measured (the machine may be shared).

Usage: python benchmarks/bench_cards.py [--games N] [--seconds S]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from koth.build import build_kind
from koth.core.chance import random_game
from koth.games.cards import CardsGame
from playouts import engine_playout


def gamestate_playout(game: CardsGame, seed: int) -> int:
    return random_game(game, seed).num_moves


def measure(
    name: str, playout: Callable[[CardsGame, int], int], games: int, seconds: float
) -> None:
    game = CardsGame()
    steps = played = 0
    start = time.process_time()
    while played < games or time.process_time() - start < seconds:
        steps += playout(game, played)
        played += 1
        if played >= games and time.process_time() - start >= seconds:
            break
    elapsed = time.process_time() - start
    print(
        f"{name:<10} {played:>6} games in {elapsed:6.2f} s: {played / elapsed:8.1f} games/s, "
        f"{steps / elapsed:9.0f} steps/s, mean length {steps / played:6.1f} steps"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="at least this many games")
    parser.add_argument("--seconds", type=float, default=3.0, help="and at least this long")
    args = parser.parse_args()
    print(
        "cards: random playouts, one core (a step is a chance, single or joint action); "
        f"koth {build_kind()}"
    )
    measure("engine", engine_playout, args.games, args.seconds)
    measure("GameState", gamestate_playout, args.games, args.seconds)


if __name__ == "__main__":
    main()
