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

from koth.games.board.params import BoardParams
from koth.vector.board import BoardBatch
from koth.vector.board_layout import OBS_SIZE, TM_ALL, TM_PLAYER0
from koth.vector.gym import LearnerSeat, SeatVectorEnv

Obs = npt.NDArray[np.int32]


def board_observation_space() -> spaces.Box:
    """One player's board observation (``board_layout``): counts, never negative."""
    return spaces.Box(0, int(np.iinfo(np.int32).max), (OBS_SIZE,), np.int32)


class BoardVectorEnv(SeatVectorEnv[Obs]):
    """``num_envs`` board games for a learner in ``seat`` (see the module docstring)."""

    def __init__(
        self,
        num_envs: int,
        params: BoardParams | Mapping[str, Any] | None = None,
        seat: int = 0,
    ) -> None:
        batch = BoardBatch(num_envs, params, auto_chance=True)
        games = LearnerSeat(batch, seat, together=TM_ALL, player0=TM_PLAYER0)
        super().__init__(games, board_observation_space(), batch.num_actions)
