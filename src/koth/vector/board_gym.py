"""The batched board game as a Gymnasium vector environment: one learner seat, the
other players inside.

``BoardVectorEnv`` follows ``gymnasium.vector.VectorEnv`` like ``CardsVectorEnv``:
``num_envs`` games, one action per game for the learner's seat, observations
``(num_envs, 496)`` int32 from that seat, its legal actions in ``info["action_mask"]``
(``(num_envs, num_actions)`` booleans) and same-step autoreset (``info["final_obs"]``
where ``info["_final_obs"]`` is True). The other players play uniformly random legal
actions and chance is drawn inside; their moves are played before control returns,
so every game waits for the learner. Rewards are the learner's returns at the end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from koth.core.errors import InvalidParamsError
from koth.games.board.params import BoardParams
from koth.vector.board import BoardBatch
from koth.vector.board_layout import OBS_SIZE, TM_ALL, TM_PLAYER0

Obs = npt.NDArray[np.int32]


def board_observation_space() -> spaces.Box:
    """One player's board observation (``board_layout``): counts, never negative."""
    return spaces.Box(0, int(np.iinfo(np.int32).max), (OBS_SIZE,), np.int32)


class BoardLearnerSeat:
    """A board batch played from one seat: the other players' moves are made inside."""

    def __init__(
        self, num_games: int, params: BoardParams | Mapping[str, Any] | None, seat: int
    ) -> None:
        self.batch = BoardBatch(num_games, params, auto_chance=True)
        if isinstance(seat, bool) or seat not in range(self.batch.num_players):
            raise InvalidParamsError(
                f"the learner sits in seat 0..{self.batch.num_players - 1}, not {seat!r}"
            )
        self.seat = seat
        self.rewards = np.zeros(num_games, dtype=np.float32)
        self.terminated = np.zeros(num_games, dtype=np.bool_)
        self.final_obs = np.zeros((num_games, OBS_SIZE), dtype=np.int32)

    def reset(self, seed: int) -> None:
        self.batch.reset(seed)
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self._others_alone()

    def step(self, actions: npt.ArrayLike) -> None:
        batch = self.batch
        chosen = np.asarray(actions, dtype=np.int64).reshape(-1)
        if chosen.shape != (batch.num_games,):
            raise InvalidParamsError(
                f"one action per game: an array of {batch.num_games} action ids, "
                f"not of shape {np.shape(actions)}"
            )
        joint = batch.random_actions()
        joint[:, self.seat] = chosen
        batch.step(joint)
        self.rewards[:] = batch.rewards[:, self.seat]
        self.terminated[:] = batch.terminated
        self.final_obs[batch.terminated] = batch.final_observations[batch.terminated, self.seat]
        self._others_alone()

    def _others_alone(self) -> None:
        """Play the other players' moves until every game waits for the learner."""
        batch = self.batch
        mine = TM_PLAYER0 + self.seat
        while True:
            waiting = (batch.to_move != TM_ALL) & (batch.to_move != mine)
            if not waiting.any():
                return
            batch.step(batch.random_actions(), active=waiting)
            ended = waiting & batch.terminated
            self.rewards[ended] += batch.rewards[ended, self.seat]
            self.terminated |= ended
            self.final_obs[ended] = batch.final_observations[ended, self.seat]

    def observations(self) -> Obs:
        return self.batch.observations[:, self.seat].copy()

    def masks(self) -> npt.NDArray[np.bool_]:
        return self.batch.legal_mask.copy()  # every game waits for the learner


class BoardVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` board games for a learner in ``seat`` (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        params: BoardParams | Mapping[str, Any] | None = None,
        seat: int = 0,
    ) -> None:
        self.games = BoardLearnerSeat(num_envs, params, seat)
        self.num_envs = num_envs
        self.single_observation_space = board_observation_space()
        self.single_action_space = spaces.Discrete(self.games.batch.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._seed = 0

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        if isinstance(seed, list):
            raise InvalidParamsError("the batch takes one seed for all its games, not a list")
        self._seed = self._seed + 1 if seed is None else seed
        self.games.reset(self._seed)
        return self.games.observations(), {"action_mask": self.games.masks()}

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[Obs, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        games = self.games
        games.step(actions)
        info: dict[str, Any] = {"action_mask": games.masks()}
        if games.terminated.any():
            info["final_obs"] = games.final_obs.copy()
            info["_final_obs"] = games.terminated.copy()
        return (
            games.observations(),
            games.rewards.copy(),
            games.terminated.copy(),
            np.zeros(self.num_envs, dtype=np.bool_),
            info,
        )
