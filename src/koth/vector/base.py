"""What the batched engines (``CardsBatch``, ``BoardBatch``) share: the checks of a
seed and of a step's arrays, and the questions about a batch as a whole.

The checks run before any work, so bad input gets a clear error and changes nothing;
they look at shapes and types only (a few microseconds a step, whatever the batch's
size): whether each action is legal is checked by the engine's compiled loop.
"""

from __future__ import annotations

from typing import ClassVar, Final

import numpy as np
import numpy.typing as npt

from koth.core.errors import GameOverError, IllegalActionError, InvalidParamsError
from koth.vector._jit import seed_streams
from koth.vector.checks import game_index

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
StreamArray = npt.NDArray[np.uint64]

#: the purposes of a seed's generator streams (``seed_streams``): chance's draws, and
#: the draws of ``random_actions``
CHANCE_STREAM: Final = 0
ACTION_STREAM: Final = 1


def seed_value(seed: int) -> int:
    """``seed`` as a batch's seed: a non-negative integer."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidParamsError(f"a seed is a non-negative integer, not {seed!r}")
    return seed


class BatchBase:
    """The part of a batched engine that does not depend on its game. A subclass sets
    the attributes below in its ``__init__``."""

    #: the ``to_move`` code of a game that is over (each engine numbers its nodes)
    over_code: ClassVar[int]
    #: what a chance node's outcome is, in the error messages ("card", "outcome")
    outcome_name: ClassVar[str]
    num_games: int
    num_players: int
    to_move: IntArray
    #: the chance array of a step given none (-1 everywhere: drawn inside)
    _no_chance: IntArray
    #: the active array of a step given none (every game moves)
    _all_games: BoolArray
    #: whether ``reset`` was called
    _started: bool
    #: each game's generator state for chance's draws and for ``random_actions``
    _rng: StreamArray
    _action_rng: StreamArray
    #: each game's number of legal actions, and its legal-action mask
    _count: IntArray
    legal_mask: BoolArray
    #: the last step's outputs
    rewards: npt.NDArray[np.float32]
    terminated: BoolArray
    chance_taken: IntArray

    def _restart(self, seed: int) -> None:
        """What ``reset`` does before it starts the games: ``seed`` checked, game ``i``'s
        streams drawn from ``(seed, i)``, the legal lists and the last step's outputs
        cleared."""
        seed = seed_value(seed)
        self._rng[:] = seed_streams(seed, self.num_games, CHANCE_STREAM)
        self._action_rng[:] = seed_streams(seed, self.num_games, ACTION_STREAM)
        self._count[:] = 0
        self.legal_mask[:] = False
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.chance_taken[:] = -1

    def is_over(self, game: int) -> bool:
        """Whether game ``game`` is over (and not restarted: ``autoreset=False``)."""
        return bool(self.to_move[self._game(game)] == self.over_code)

    def memory_bytes(self) -> int:
        """The bytes the batch's arrays hold (views of another array counted once,
        as that array)."""
        return sum(
            a.nbytes for a in vars(self).values() if isinstance(a, np.ndarray) and a.base is None
        )

    def _game(self, game: int) -> int:
        return game_index(game, self.num_games)

    def _step_inputs(
        self, actions: npt.ArrayLike, chance: npt.ArrayLike | None, active: npt.ArrayLike | None
    ) -> tuple[IntArray, IntArray, BoolArray]:
        """A step's arrays checked for shape: the joint actions, the chance outcomes
        (-1: drawn inside) and the games that move, as contiguous arrays."""
        if not self._started:
            raise GameOverError("the batch has not started: call reset(seed) first")
        n, players = self.num_games, self.num_players
        joint = np.ascontiguousarray(actions, dtype=np.int64)
        if joint.shape != (n, players):
            raise IllegalActionError(
                f"actions must be an array of shape ({n}, {players}), one action per "
                f"game and player, not of shape {joint.shape}"
            )
        dealt = self._no_chance if chance is None else np.ascontiguousarray(chance, dtype=np.int64)
        if dealt.shape != (n,):
            raise IllegalActionError(
                f"chance must be an array of shape ({n},), one {self.outcome_name} per "
                f"game (-1: drawn inside), not of shape {dealt.shape}"
            )
        moving = self._all_games if active is None else np.ascontiguousarray(active, dtype=np.bool_)
        if moving.shape != (n,):
            raise IllegalActionError(
                f"active must be an array of shape ({n},), one flag per game, not of "
                f"shape {moving.shape}"
            )
        return joint, dealt, moving
