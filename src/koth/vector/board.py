"""``BoardBatch``: many board games stepped at once, with observations and masks.

A batch holds ``num_games`` games of one set of parameters (2-4 players, every
variant) in arrays; ``step`` moves every game one step in compiled loops
(``board_legal``, ``board_rules``, ``board_kernels``), one worker per core. The action
ids are those of ``koth.games.board.actions`` (``action_id``), so a batch and
``GameState`` take and give the same numbers.

Each game is at one of four kinds of node (``to_move``): chance (a ring's terrain, the
draw of the areas, a die of the round, the die of an alliance's fight), one player (a
turn's action, an alliance's answer, an area's placement), every player at once (the
one-excluded variant's secret choice, B16.2), or over. ``step(actions)`` takes an
``(num_games, num_players)`` array whose entry for a player who is not to move is
ignored; a chance node takes the outcome from ``chance`` where it is given (one of
``chance_outcomes(i)``) and draws it from the game's own seeded generator otherwise.
With ``auto_chance`` every chance node is drawn inside the step. A game that ends
reports its returns in ``rewards`` and ``terminated``; with ``autoreset`` (the default)
it starts again in the same step, its last observations kept in
``final_observations``.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import factorial
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from koth.core.errors import IllegalActionError, InvalidParamsError
from koth.games.board.actions import action_from_id
from koth.games.board.params import BoardParams
from koth.games.board.state import Phase
from koth.vector import board_kernels as k
from koth.vector._jit import seed_streams
from koth.vector.base import (
    ACTION_STREAM,
    CHANCE_STREAM,
    BatchBase,
    BoolArray,
    IntArray,
    StreamArray,
)
from koth.vector.board_buffer import sections, views_of
from koth.vector.board_layout import (
    F_PHASE,
    FIELD_MAX,
    OBS_SIZE,
    TM_ALL,
    TM_CHANCE,
    TM_OVER,
    TM_PLAYER0,
    area_draws,
    num_actions,
)
from koth.vector.board_rules import chance_count, chance_id
from koth.vector.checks import batch_size

#: the batch size from which ``step`` runs one worker per core by default
PARALLEL_FROM: Final = 1024


def params_row(params: BoardParams) -> IntArray:
    """The parameters as the compiled loops read them (``board_layout.P_*``)."""
    return np.array(
        [
            params.num_players,
            params.runner_range,
            params.fighter_range,
            params.blocker_range,
            params.runner_first_round,
            int(params.runners_blocked_by_own),
            int(params.blockers_avoid_blockers),
            int(params.score_own_turns_only),
            int(params.countdown),
            int(params.one_excluded),
            int(params.teamplay),
            params.round_limit,
            params.target_points,
            params.countdown_start,
        ],
        dtype=np.int64,
    )


class BoardBatch(BatchBase):
    """``num_games`` board games of ``params`` in arrays (see the module docstring)."""

    observation_size: Final = OBS_SIZE
    over_code = TM_OVER
    outcome_name = "outcome"

    def __init__(
        self,
        num_games: int,
        params: BoardParams | Mapping[str, Any] | None = None,
        *,
        autoreset: bool = True,
        auto_chance: bool = False,
        parallel: bool | None = None,
    ) -> None:
        batch_size(num_games)
        self.params = BoardParams.parse(params)
        if self.params.countdown_start > FIELD_MAX:
            raise InvalidParamsError(
                f"countdown_start={self.params.countdown_start}: the batched board game "
                f"holds the countdown in 32 bits (at most {FIELD_MAX})"
            )
        self.num_players = n = self.params.num_players
        self.num_actions = num_actions(n)
        self.num_games = num_games
        self.autoreset = autoreset
        self.auto_chance = auto_chance
        #: whether ``step`` splits the batch among one worker per core
        self.parallel = num_games >= PARALLEL_FROM if parallel is None else parallel
        self._dims = (num_games, n, self.num_actions, factorial(n))
        #: every array of the batch but a step's inputs, as one buffer (``board_buffer``):
        #: the attributes below are views of it, and a step hands numba this one array
        self._buf = np.zeros(sections(self._dims)[-1], dtype=np.uint8)
        parts = views_of(self._buf, self._dims)
        self._g: npt.NDArray[np.int32] = parts["_g"]
        self._params: IntArray = parts["_params"]
        self._params[:] = params_row(self.params)
        self._draws: IntArray = parts["_draws"]
        self._draws[:] = area_draws(n)
        self._rng: StreamArray = parts["_rng"]
        self._action_rng: StreamArray = parts["_action_rng"]
        self._ids: npt.NDArray[np.int16] = parts["_ids"]
        self._count: IntArray = parts["_count"]
        self._no_chance = np.full(num_games, -1, dtype=np.int64)
        self._all_games = np.ones(num_games, dtype=np.bool_)
        #: each player's observation (``board_layout``), from its own seat
        self.observations: npt.NDArray[np.int32] = parts["observations"]
        #: the observations of the games that ended in the last step, before they restarted
        self.final_observations: npt.NDArray[np.int32] = parts["final_observations"]
        #: ``legal_mask[i, a]``: the player to move in game ``i`` may take action ``a``
        #: (at the one simultaneous node, every player may take the same three)
        self.legal_mask: BoolArray = parts["legal_mask"]
        #: each game's node: ``board_layout.TM_*`` (chance, player p, all, over)
        self.to_move: IntArray = parts["to_move"]
        #: the returns of the games that ended in the last step (0 for the others)
        self.rewards: npt.NDArray[np.float32] = parts["rewards"]
        #: which games ended in the last step
        self.terminated: BoolArray = parts["terminated"]
        #: the chance outcome (an action id) each game took in the last step, or -1
        self.chance_taken: IntArray = parts["chance_taken"]
        self._rng[:] = seed_streams(0, num_games, CHANCE_STREAM)
        self._action_rng[:] = seed_streams(0, num_games, ACTION_STREAM)
        self.chance_taken[:] = -1
        self._started = False

    # ----------------------------------------------------------------- steps
    def reset(self, seed: int = 0) -> None:
        """Start every game anew; game ``i`` draws from a stream of ``(seed, i)``."""
        self._restart(seed)
        k.reset_range(self._buf, self._dims, self.auto_chance)
        self._started = True

    def step(
        self,
        actions: npt.ArrayLike,
        chance: npt.ArrayLike | None = None,
        active: npt.ArrayLike | None = None,
    ) -> None:
        """Every game one step: ``actions[i, p]`` for each player ``p`` to move in game
        ``i`` (others ignored), ``chance[i]`` an outcome's id at a chance node (-1 or no
        array: drawn inside). With ``active`` (booleans, one per game) only the games
        marked True move. Nothing changes when any action is illegal."""
        joint, dealt, moving = self._step_inputs(actions, chance, active)
        step = k.step_parallel if self.parallel else k.step_serial
        # the actions are checked inside, before any game moves (one compiled call)
        bad = step(self._buf, self._dims, joint, dealt, moving, self.autoreset, self.auto_chance)
        if bad >= 0:
            self._refuse(bad // 5, bad % 5, joint, dealt)

    def _refuse(self, game: int, player: int, joint: IntArray, dealt: IntArray) -> None:
        if player == 4:
            raise IllegalActionError(
                f"game {game}: {dealt[game]} is not an outcome of its chance node; the "
                f"outcomes are {[a for a, _ in self.chance_outcomes(game)]}"
            )
        action = int(joint[game, player])
        name = (
            str(action_from_id(action, self.num_players))
            if 0 <= action < self.num_actions
            else "no action"
        )
        raise IllegalActionError(
            f"game {game}: player {player} may not take action {action} ({name}) in phase "
            f"{self.phase(game)}; its legal actions are {self.legal_actions(game, player)}"
        )

    def random_actions(self) -> IntArray:
        """A uniformly random legal action per game and player (-1 for a player not
        to move), from the batch's own seeded streams (apart from chance's)."""
        out = np.empty((self.num_games, self.num_players), dtype=np.int64)
        k.random_actions(self._buf, self._dims, out)
        return out

    # ----------------------------------------------------------------- reading
    def phase(self, game: int) -> str:
        """The phase of game ``game`` in words (``Phase`` names, lower case)."""
        return Phase(int(self._g[self._game(game), F_PHASE])).name.lower()

    def legal_actions(self, game: int, player: int) -> list[int]:
        """Player ``player``'s legal action ids in game ``game``, in id order."""
        i = self._game(game)
        if isinstance(player, bool) or player not in range(self.num_players):
            raise InvalidParamsError(
                f"this table has players 0..{self.num_players - 1}, not {player!r}"
            )
        mover = int(self.to_move[i])
        if mover in (TM_CHANCE, TM_OVER) or (mover != TM_ALL and mover != TM_PLAYER0 + player):
            return []
        return [int(a) for a in self._ids[i, : self._count[i]]]

    def chance_outcomes(self, game: int) -> list[tuple[int, float]]:
        """The outcomes of game ``game``'s chance node: (action id, probability), in id
        order; empty where the game is not at a chance node."""
        i = self._game(game)
        if self.to_move[i] != TM_CHANCE:
            return []
        size = chance_count(self._g, self._params, i, self._draws.shape[0])
        first = chance_id(self._g, i, 0)
        return [(first + x, 1.0 / size) for x in range(size)]
