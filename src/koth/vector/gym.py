"""The batched card game as Gymnasium environments: one learner seat, an opponent
inside.

``CardsVectorEnv`` follows ``gymnasium.vector.VectorEnv``: ``num_envs`` games, one
action per game for the learner's seat, observations ``(num_envs, OBS_SIZE)`` uint8,
the learner's legal actions in ``info["action_mask"]`` (``(num_envs, 310)`` booleans),
and same-step autoreset (``metadata["autoreset_mode"]``): a game that ends starts
again at once, its last observation in ``info["final_obs"]`` where
``info["_final_obs"]`` is True. The opponent plays uniformly random legal actions,
chance is drawn inside, and the steps where only the opponent moves (its choice of a
stack, its assignment of won cards) are played before control returns, so every game
waits for the learner. Rewards are the learner's returns (+1, -1 or 0 at the end).

``CardsEnv`` is the same for one game, as a ``gymnasium.Env`` (what Gymnasium's own
``check_env`` checks). An illegal action is refused with an error, or, with
``on_illegal="lose"``, ends the game as a loss (-1) for the learner: the convention of
learners that sample from the whole action space.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from koth.core.errors import InvalidParamsError
from koth.games.cards.params import CardsParams
from koth.vector.cards import CardsBatch
from koth.vector.cards_layout import NUM_ACTIONS, OBS_HIGH, OBS_SIZE, TM_BOTH, TM_PLAYER0

Obs = npt.NDArray[np.uint8]


def observation_space() -> spaces.Box:
    """One player's observation (``cards_layout``)."""
    return spaces.Box(low=0, high=OBS_HIGH, shape=(OBS_SIZE,), dtype=np.uint8)


class LearnerSeat:
    """A batch played from one seat: the opponent's moves are made inside."""

    def __init__(
        self, num_games: int, params: CardsParams | Mapping[str, Any] | None, seat: int
    ) -> None:
        if seat not in (0, 1):
            raise InvalidParamsError(f"the learner sits in seat 0 or 1, not {seat!r}")
        self.seat = seat
        self.batch = CardsBatch(num_games, params, auto_chance=True)
        self.rewards = np.zeros(num_games, dtype=np.float32)
        self.terminated = np.zeros(num_games, dtype=np.bool_)
        self.final_obs = np.zeros((num_games, OBS_SIZE), dtype=np.uint8)

    def reset(self, seed: int) -> None:
        self.batch.reset(seed)
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self._opponent_alone()

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
        self._opponent_alone()

    def _opponent_alone(self) -> None:
        """Play the opponent's lone moves until every game waits for the learner."""
        batch = self.batch
        mine = TM_PLAYER0 + self.seat
        while True:
            waiting = (batch.to_move != TM_BOTH) & (batch.to_move != mine)
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
        return self.batch.legal_mask[:, self.seat].copy()


class CardsVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` card games for a learner in ``seat`` (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        params: CardsParams | Mapping[str, Any] | None = None,
        seat: int = 0,
    ) -> None:
        self.games = LearnerSeat(num_envs, params, seat)
        self.num_envs = num_envs
        self.single_observation_space = observation_space()
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
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


class CardsEnv(gymnasium.Env[Obs, np.int64]):
    """One card game for a learner in ``seat``: ``CardsVectorEnv`` of one game, without
    autoreset (the episode ends with the game)."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        params: CardsParams | Mapping[str, Any] | None = None,
        seat: int = 0,
        on_illegal: Literal["raise", "lose"] = "raise",
    ) -> None:
        if on_illegal not in ("raise", "lose"):
            raise InvalidParamsError(f"on_illegal is 'raise' or 'lose', not {on_illegal!r}")
        self.on_illegal = on_illegal
        self.games = LearnerSeat(1, params, seat)
        self.observation_space = observation_space()  # type: ignore[assignment]
        self.action_space = spaces.Discrete(NUM_ACTIONS)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        self.games.reset(int(self.np_random.integers(2**31)))
        return self.games.observations()[0], {"action_mask": self.games.masks()[0]}

    def step(self, action: np.int64) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        games = self.games
        legal = games.masks()[0]
        if self.on_illegal == "lose" and not (0 <= action < NUM_ACTIONS and legal[action]):
            legal[:] = False
            return games.observations()[0], -1.0, True, False, {"action_mask": legal}
        games.step(np.array([action]))
        done = bool(games.terminated[0])
        observation = games.final_obs[0].copy() if done else games.observations()[0]
        mask = games.masks()[0]
        if done:
            mask[:] = False
        return observation, float(games.rewards[0]), done, False, {"action_mask": mask}
