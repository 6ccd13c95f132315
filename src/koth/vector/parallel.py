"""The batched card game in PettingZoo's parallel style: both players act at once.

``CardsParallelBatch`` steps ``num_games`` games: ``step`` takes, per agent
(``"player_0"``, ``"player_1"``), one action per game, and returns per agent the
observations ``{"observation": (num_games, OBS_SIZE) uint8, "action_mask":
(num_games, 310) bool}`` (PettingZoo's convention for masks), rewards, terminations
and truncations (``(num_games,)`` each) and infos. An agent's action is read only
where it is to move (a stack's choice and the assignment of won cards are one
player's; the reserve rounds and attacks both players'); chance is drawn inside, and
a game that ends starts again in the same step (its last observations in
``infos[agent]["final_observation"]``, where ``infos[agent]["_final"]`` is True).

``CardsParallelEnv`` is one game as a ``pettingzoo.ParallelEnv`` (what PettingZoo's
``parallel_api_test`` checks): the game ends the episode, both agents at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import ParallelEnv  # type: ignore[import-untyped]

from koth.core.errors import InvalidParamsError
from koth.games.cards.params import CardsParams
from koth.vector.cards import CardsBatch
from koth.vector.cards_layout import NUM_ACTIONS
from koth.vector.gym import observation_space

AGENTS = ("player_0", "player_1")


def agent_space() -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": observation_space(),
            "action_mask": spaces.MultiBinary(NUM_ACTIONS),
        }
    )


class AgentSpaces:
    """What both parallel forms share: the batch, the agents, their spaces (one object
    each: PettingZoo's checker asks for the same object at every call) and ``reset``."""

    def __init__(self, batch: CardsBatch) -> None:
        self.batch = batch
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._seed = 0
        self._observation = {agent: agent_space() for agent in AGENTS}
        self._action = {agent: spaces.Discrete(NUM_ACTIONS) for agent in AGENTS}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        self._seed = self._seed + 1 if seed is None else seed
        self.batch.reset(self._seed)
        self.agents = list(AGENTS)
        return self._observations(), {agent: {} for agent in AGENTS}

    def _observations(self) -> dict[str, dict[str, Any]]:
        raise NotImplementedError

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action[agent]


def _joint(batch: CardsBatch, actions: Mapping[str, npt.ArrayLike]) -> npt.NDArray[np.int64]:
    unknown = set(actions) - set(AGENTS)
    if unknown:
        raise InvalidParamsError(f"the agents are {list(AGENTS)}, not {sorted(unknown)}")
    joint = np.full((batch.num_games, 2), -1, dtype=np.int64)
    for p, agent in enumerate(AGENTS):
        if agent in actions:
            joint[:, p] = np.asarray(actions[agent], dtype=np.int64).reshape(-1)
    return joint


class CardsParallelBatch(AgentSpaces):
    """``num_games`` card games, both agents acting at once (see the module docstring)."""

    def __init__(
        self, num_games: int, params: CardsParams | Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(CardsBatch(num_games, params, auto_chance=True))

    def step(self, actions: Mapping[str, npt.ArrayLike]) -> tuple[Any, Any, Any, Any, Any]:
        batch = self.batch
        batch.step(_joint(batch, actions))
        ended = batch.terminated.copy()
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        if ended.any():
            for p, agent in enumerate(AGENTS):
                infos[agent] = {
                    "final_observation": batch.final_observations[:, p].copy(),
                    "_final": ended,
                }
        rewards = {agent: batch.rewards[:, p].copy() for p, agent in enumerate(AGENTS)}
        terminations = dict.fromkeys(AGENTS, ended)
        truncations = {agent: np.zeros(batch.num_games, dtype=np.bool_) for agent in AGENTS}
        return self._observations(), rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, dict[str, Any]]:
        batch = self.batch
        return {
            agent: {
                "observation": batch.observations[:, p].copy(),
                "action_mask": batch.legal_mask[:, p].copy(),
            }
            for p, agent in enumerate(AGENTS)
        }


class CardsParallelEnv(AgentSpaces, ParallelEnv):  # type: ignore[misc]  # untyped base
    """One card game as a PettingZoo parallel environment."""

    metadata: ClassVar[dict[str, Any]] = {"name": "koth_cards_v0", "render_modes": []}

    def __init__(self, params: CardsParams | Mapping[str, Any] | None = None) -> None:
        AgentSpaces.__init__(self, CardsBatch(1, params, autoreset=False, auto_chance=True))

    def step(self, actions: Mapping[str, int]) -> tuple[Any, Any, Any, Any, Any]:
        batch = self.batch
        if not self.agents:
            raise InvalidParamsError("the game is over: call reset() to play another")
        batch.step(_joint(batch, {agent: [action] for agent, action in actions.items()}))
        done = bool(batch.terminated[0])
        observations = self._observations()
        rewards = {agent: float(batch.rewards[0, p]) for p, agent in enumerate(AGENTS)}
        terminations = dict.fromkeys(AGENTS, done)
        truncations = dict.fromkeys(AGENTS, False)
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, dict[str, Any]]:
        batch = self.batch
        return {
            agent: {
                "observation": batch.observations[0, p].copy(),
                "action_mask": batch.legal_mask[0, p].astype(np.int8),
            }
            for p, agent in enumerate(AGENTS)
        }
