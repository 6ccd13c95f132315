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
from typing import Any, Literal, Protocol, TypeVar, cast

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
ObsT = TypeVar("ObsT", bound=npt.NDArray[Any])


def observation_space() -> spaces.Box:
    """One player's observation (``cards_layout``)."""
    return spaces.Box(low=0, high=OBS_HIGH, shape=(OBS_SIZE,), dtype=np.uint8)


class SeatBatch(Protocol):
    """What ``LearnerSeat`` uses of a batched engine (``CardsBatch``, ``BoardBatch``),
    made with ``auto_chance=True``."""

    @property
    def num_games(self) -> int: ...

    @property
    def num_players(self) -> int: ...

    to_move: npt.NDArray[Any]
    rewards: npt.NDArray[Any]
    terminated: npt.NDArray[np.bool_]
    observations: npt.NDArray[Any]
    final_observations: npt.NDArray[Any]
    legal_mask: npt.NDArray[np.bool_]

    def reset(self, seed: int) -> None: ...

    def random_actions(self) -> npt.NDArray[np.int64]: ...

    def step(self, actions: Any, chance: Any = None, active: Any = None) -> None: ...


class LearnerSeat:
    """A batch played from one seat: the other players' moves are made inside, so every
    game waits for the learner (whose turn it is alone, or at a node where ``together``,
    the batch's code of a node where every player acts, all act at once)."""

    def __init__(self, batch: SeatBatch, seat: int, *, together: int, player0: int) -> None:
        if isinstance(seat, bool) or seat not in range(batch.num_players):
            raise InvalidParamsError(
                f"the learner sits in seat 0..{batch.num_players - 1}, not {seat!r}"
            )
        self.batch = batch
        self.seat = seat
        self.together = together
        self.mine = player0 + seat
        num_games = batch.num_games
        self.rewards = np.zeros(num_games, dtype=np.float32)
        self.terminated = np.zeros(num_games, dtype=np.bool_)
        self.final_obs = np.zeros_like(batch.final_observations[:, seat])

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
        while True:
            waiting = (batch.to_move != self.together) & (batch.to_move != self.mine)
            if not waiting.any():
                return
            batch.step(batch.random_actions(), active=waiting)
            ended = waiting & batch.terminated
            self.rewards[ended] += batch.rewards[ended, self.seat]
            self.terminated |= ended
            self.final_obs[ended] = batch.final_observations[ended, self.seat]

    def observations(self) -> npt.NDArray[Any]:
        return self.batch.observations[:, self.seat].copy()

    def masks(self) -> npt.NDArray[np.bool_]:
        mask = self.batch.legal_mask
        # a batch with one mask per player (the cards), or only the mover's (the board:
        # every game waits for the learner)
        return (mask[:, self.seat] if mask.ndim == 3 else mask).copy()


def cards_seat(
    num_games: int, params: CardsParams | Mapping[str, Any] | None, seat: int
) -> LearnerSeat:
    """Card games played from ``seat``, the opponent's moves made inside."""
    batch = CardsBatch(num_games, params, auto_chance=True)
    return LearnerSeat(batch, seat, together=TM_BOTH, player0=TM_PLAYER0)


class SeatVectorEnv(VectorEnv[ObsT, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """A ``LearnerSeat``'s games as a Gymnasium vector env (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(self, games: LearnerSeat, observation_space: spaces.Box, num_actions: int) -> None:
        num_envs = games.batch.num_games
        self.games = games
        self.num_envs = num_envs
        self.single_observation_space = observation_space
        self.single_action_space = spaces.Discrete(num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._seed = 0

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsT, dict[str, Any]]:
        if isinstance(seed, list):
            raise InvalidParamsError("the batch takes one seed for all its games, not a list")
        self._seed = self._seed + 1 if seed is None else seed
        self.games.reset(self._seed)
        return cast(ObsT, self.games.observations()), {"action_mask": self.games.masks()}

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[ObsT, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        games = self.games
        games.step(actions)
        info: dict[str, Any] = {"action_mask": games.masks()}
        if games.terminated.any():
            info["final_obs"] = games.final_obs.copy()
            info["_final_obs"] = games.terminated.copy()
        return (
            cast(ObsT, games.observations()),
            games.rewards.copy(),
            games.terminated.copy(),
            np.zeros(self.num_envs, dtype=np.bool_),
            info,
        )


class CardsVectorEnv(SeatVectorEnv[Obs]):
    """``num_envs`` card games for a learner in ``seat`` (see the module docstring)."""

    def __init__(
        self,
        num_envs: int,
        params: CardsParams | Mapping[str, Any] | None = None,
        seat: int = 0,
    ) -> None:
        super().__init__(cards_seat(num_envs, params, seat), observation_space(), NUM_ACTIONS)


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
        self.games = cards_seat(1, params, seat)
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
