"""The batched board game in PettingZoo's parallel style.

``BoardParallelBatch`` steps ``num_games`` board games: ``step`` takes, per agent
(``"player_0"`` .. ``"player_{n-1}"``), one action per game, read only where that
agent is to move (one player at a time, every player at the one-excluded variant's
secret choice); chance is drawn inside, and a game that ends starts again in the same
step (its last observations in ``infos[agent]["final_observation"]``, where
``infos[agent]["_final"]`` is True). Each agent gets ``{"observation": (num_games,
496) int32, "action_mask": (num_games, num_actions) bool}``, its mask all False
where it is not to move, with rewards, terminations and truncations.

``BoardParallelEnv`` is one game as a ``pettingzoo.ParallelEnv`` (what PettingZoo's
``parallel_api_test`` checks).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import ParallelEnv  # type: ignore[import-untyped]

from koth.core.errors import InvalidParamsError
from koth.games.board.params import BoardParams
from koth.vector.board import BoardBatch
from koth.vector.board_layout import OBS_SIZE, TM_ALL, TM_PLAYER0

#: the bound of an observation's entries (counts, rounds and points are not negative)
_OBS_HIGH = int(np.iinfo(np.int32).max)


class BoardAgents:
    """What both parallel forms share: the batch, the agents, their spaces and
    ``reset``."""

    def __init__(self, batch: BoardBatch) -> None:
        self.batch = batch
        self.possible_agents = [f"player_{p}" for p in range(batch.num_players)]
        self.agents = list(self.possible_agents)
        self._seed = 0
        self._observation = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, _OBS_HIGH, (OBS_SIZE,), np.int32),
                    "action_mask": spaces.MultiBinary(batch.num_actions),
                }
            )
            for agent in self.possible_agents
        }
        self._action = {agent: spaces.Discrete(batch.num_actions) for agent in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        self._seed = self._seed + 1 if seed is None else seed
        self.batch.reset(self._seed)
        self.agents = list(self.possible_agents)
        return self.observe_all(), {agent: {} for agent in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action[agent]

    def joint(self, actions: Mapping[str, npt.ArrayLike]) -> npt.NDArray[np.int64]:
        """The agents' actions as the batch's ``(num_games, num_players)`` array."""
        unknown = set(actions) - set(self.possible_agents)
        if unknown:
            raise InvalidParamsError(
                f"the agents are {self.possible_agents}, not {sorted(unknown)}"
            )
        batch = self.batch
        joint = np.full((batch.num_games, batch.num_players), -1, dtype=np.int64)
        for p, agent in enumerate(self.possible_agents):
            if agent in actions:
                joint[:, p] = np.asarray(actions[agent], dtype=np.int64).reshape(-1)
        return joint

    def observe_all(self) -> dict[str, dict[str, Any]]:
        batch = self.batch
        out = {}
        for p, agent in enumerate(self.possible_agents):
            moves = (batch.to_move == TM_PLAYER0 + p) | (batch.to_move == TM_ALL)
            out[agent] = {
                "observation": batch.observations[:, p].copy(),
                "action_mask": batch.legal_mask & moves[:, None],
            }
        return out


class BoardParallelBatch(BoardAgents):
    """``num_games`` board games in PettingZoo's parallel style (see the module
    docstring)."""

    def __init__(
        self, num_games: int, params: BoardParams | Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(BoardBatch(num_games, params, auto_chance=True))

    def step(self, actions: Mapping[str, npt.ArrayLike]) -> tuple[Any, Any, Any, Any, Any]:
        batch = self.batch
        batch.step(self.joint(actions))
        ended = batch.terminated.copy()
        agents = self.possible_agents
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        if ended.any():
            for p, agent in enumerate(agents):
                infos[agent] = {
                    "final_observation": batch.final_observations[:, p].copy(),
                    "_final": ended,
                }
        rewards = {agent: batch.rewards[:, p].copy() for p, agent in enumerate(agents)}
        terminations = dict.fromkeys(agents, ended)
        truncations = {agent: np.zeros(batch.num_games, dtype=np.bool_) for agent in agents}
        return self.observe_all(), rewards, terminations, truncations, infos


class BoardParallelEnv(BoardAgents, ParallelEnv):  # type: ignore[misc]  # untyped base
    """One board game as a PettingZoo parallel environment."""

    metadata: ClassVar[dict[str, Any]] = {"name": "koth_board_v0", "render_modes": []}

    def __init__(self, params: BoardParams | Mapping[str, Any] | None = None) -> None:
        BoardAgents.__init__(self, BoardBatch(1, params, autoreset=False, auto_chance=True))

    def step(self, actions: Mapping[str, int]) -> tuple[Any, Any, Any, Any, Any]:
        batch = self.batch
        if not self.agents:
            raise InvalidParamsError("the game is over: call reset() to play another")
        batch.step(self.joint({agent: [action] for agent, action in actions.items()}))
        done = bool(batch.terminated[0])
        agents = self.possible_agents
        observations = {
            agent: {
                "observation": seen["observation"][0],
                "action_mask": seen["action_mask"][0].astype(np.int8),
            }
            for agent, seen in self.observe_all().items()
        }
        rewards = {agent: float(batch.rewards[0, p]) for p, agent in enumerate(agents)}
        terminations = dict.fromkeys(agents, done)
        truncations = dict.fromkeys(agents, False)
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        observations, infos = super().reset(seed, options)
        return {
            agent: {
                "observation": seen["observation"][0],
                "action_mask": seen["action_mask"][0].astype(np.int8),
            }
            for agent, seen in observations.items()
        }, infos
