"""Self-play games and evaluation games of the learned agent, without the training stack.

A self-play game seats the current network (alone, one move ahead, with a share of
random moves for exploration) against itself and, for a share of seats, the game's
heuristic (so that the first networks learn from play that already means something).
Every recorded position (a decision or a chance node: the search and the network alone
score both) gives one training row per seat: that seat's features (from its
own view) and its return at the end over the model's scale. Each game is reproducible
from its seed, whichever process plays it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from koth.agents.base import Agent, derive_seed
from koth.agents.heuristics import has_heuristic
from koth.agents.learned import (
    FloatArray,
    LearnedSettings,
    NetworkAgent,
    NumpyValueNet,
    ValueReader,
)
from koth.agents.play import play_match
from koth.agents.registry import make_agent
from koth.core.game import Game
from koth.core.registry import load_game
from koth.core.state import GameState


@dataclass(frozen=True)
class SelfPlaySettings:
    game: str
    params: dict[str, Any]
    #: random moves of the learning seats
    epsilon: float = 0.1
    #: seats played by the game's heuristic instead of the network
    heuristic_share: float = 0.5
    #: positions recorded, of all positions where someone decides
    sample_rate: float = 0.25


@dataclass
class GameSamples:
    """One game's training rows and how it went."""

    x: FloatArray
    y: FloatArray
    returns: tuple[float, ...]


def network_agent(net: NumpyValueNet, epsilon: float) -> NetworkAgent:
    return NetworkAgent(LearnedSettings(search=False, epsilon=epsilon), net)


def play_self(settings: SelfPlaySettings, net: NumpyValueNet, seed: int) -> GameSamples:
    """One self-play game from ``seed`` and its rows."""
    game = load_game(settings.game, settings.params)
    n = game.num_players
    rng = random.Random(derive_seed(seed, "seats"))
    fixed = "heuristic" if has_heuristic(game) else "random"
    agents: list[Agent[Any]] = [
        make_agent(fixed)
        if rng.random() < settings.heuristic_share
        else network_agent(net, settings.epsilon)
        for _ in range(n)
    ]
    reader = ValueReader(game, net)
    rows: list[FloatArray] = []
    seats: list[int] = []
    record = random.Random(derive_seed(seed, "record"))

    def on_step(state: GameState[Any, Any]) -> None:
        # chance nodes too: the search scores leaves and the network alone scores
        # afterstates that wait for a draw (the board's dice), so it must know them
        if state.is_terminal() or record.random() >= settings.sample_rate:
            return
        x = reader.rows(n)
        for seat in range(n):
            reader.write(game.view(state.data, seat), seat, x[seat])
        rows.append(x)
        seats.extend(range(n))

    result = play_match(game, agents, seed, on_step=on_step)
    returns = result.returns
    x = np.concatenate(rows) if rows else reader.rows(0)
    y = np.array([returns[s] / net.scale for s in seats], dtype=np.float32)
    return GameSamples(x.astype(np.float16), y, returns)


def evaluate(
    game: Game[Any, Any, Any], net: NumpyValueNet, opponent: str, games: int, seed: int
) -> float:
    """The network alone's score against ``opponent`` over ``games`` seat-rotated games
    (a win 1, a shared first place 1/2)."""
    n = game.num_players
    score = 0.0
    for index in range(games):
        seat = index % n
        agents: list[Agent[Any]] = [make_agent(opponent) for _ in range(n)]
        agents[seat] = network_agent(net, 0.0)
        result = play_match(game, agents, derive_seed(seed, "eval", opponent, index))
        if seat in result.winners:
            score += 1.0 / len(result.winners)
    return score / games
