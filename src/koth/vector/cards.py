"""``CardsBatch``: many card games stepped at once, with observations and masks.

A batch holds ``num_games`` games of one set of parameters in arrays; ``step`` moves
every game one step in compiled loops (``cards_loops``, over the rules of
``cards_kernels`` and the observations of ``cards_view``), one worker per core. The
action ids are those of ``koth.games.cards.actions`` (``action_id``), so a batch and
``GameState`` take and give the same numbers.

Each game is at one of four kinds of node (``to_move``): chance (the deal, C2.1),
one player (the choice of a stack, the assignment of won cards), both players at once
(the reserve rounds and the attacks, C4 and C6), or over. ``step(actions)`` takes a
joint action per game, an ``(num_games, 2)`` array whose entry for a player who is
not to move is ignored; a chance node takes the outcome from ``chance`` where it is
given (one of ``chance_outcomes(i)``) and draws it from the game's own seeded
generator otherwise. With ``auto_chance`` every chance node is drawn inside the step,
so the caller only meets decisions. A game that ends reports its returns in
``rewards`` and ``terminated``; with ``autoreset`` (the default) it starts again in
the same step, its last observation kept in ``final_observations``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from koth.core.errors import IllegalActionError, InvalidParamsError
from koth.games.cards.actions import action_from_id
from koth.games.cards.params import CardsParams
from koth.vector import cards_loops as k
from koth.vector._jit import seed_streams
from koth.vector.base import ACTION_STREAM, CHANCE_STREAM, BatchBase, IntArray
from koth.vector.cards_layout import (
    F_PHASE,
    F_UNDEALT,
    MAX_LEGAL,
    NUM_ACTIONS,
    NUM_FIELDS,
    OBS_SIZE,
    P_DEALER,
    P_JOKERS,
    P_REVEAL,
    P_TENS_EQUAL,
    STACK_DEPTH,
    TM_CHANCE,
    TM_OVER,
)
from koth.vector.checks import batch_size

#: the batch size from which ``step`` runs one worker per core by default
PARALLEL_FROM: Final = 2048


class CardsBatch(BatchBase):
    """``num_games`` card games of ``params`` in arrays (see the module docstring)."""

    over_code = TM_OVER
    outcome_name = "card"
    num_players = 2
    num_actions: Final = NUM_ACTIONS
    observation_size: Final = OBS_SIZE

    def __init__(
        self,
        num_games: int,
        params: CardsParams | Mapping[str, Any] | None = None,
        *,
        autoreset: bool = True,
        auto_chance: bool = False,
        parallel: bool | None = None,
    ) -> None:
        batch_size(num_games)
        self.params = CardsParams.parse(params)
        self.num_games = num_games
        self.autoreset = autoreset
        self.auto_chance = auto_chance
        #: whether ``step`` splits the batch among one worker per core (by default for
        #: batches of ``PARALLEL_FROM`` games or more, where the hand-over pays)
        self.parallel = num_games >= PARALLEL_FROM if parallel is None else parallel
        n = num_games
        self._params = np.array(
            [
                self.params.jokers,
                int(self.params.tens_equal),
                self.params.dealer,
                int(self.params.reveal_discarded_stacks),
            ],
            dtype=np.int64,
        )
        assert (P_JOKERS, P_TENS_EQUAL, P_DEALER, P_REVEAL) == (0, 1, 2, 3)
        self._g = np.zeros((n, NUM_FIELDS), dtype=np.int64)
        self._stacks = np.zeros((n, 15, STACK_DEPTH), dtype=np.int8)
        self._rng = seed_streams(0, n, CHANCE_STREAM)
        self._action_rng = seed_streams(0, n, ACTION_STREAM)
        self._ids = np.zeros((n, 2, MAX_LEGAL), dtype=np.int16)
        self._count = np.zeros((n, 2), dtype=np.int64)
        self._no_chance = np.full(n, -1, dtype=np.int64)
        self._all_games = np.ones(n, dtype=np.bool_)
        #: each player's observation (``cards_layout``), from its own seat
        self.observations = np.zeros((n, 2, OBS_SIZE), dtype=np.uint8)
        #: the observations of the games that ended in the last step, before they restarted
        self.final_observations = np.zeros((n, 2, OBS_SIZE), dtype=np.uint8)
        #: ``legal_mask[i, p, a]``: player ``p`` may take action ``a`` in game ``i``
        self.legal_mask = np.zeros((n, 2, NUM_ACTIONS), dtype=np.bool_)
        #: each game's node: ``cards_layout.TM_*`` (chance, player 0, player 1, both, over)
        self.to_move = np.zeros(n, dtype=np.int64)
        #: the returns of the games that ended in the last step (0 for the others)
        self.rewards = np.zeros((n, 2), dtype=np.float32)
        #: which games ended in the last step
        self.terminated = np.zeros(n, dtype=np.bool_)
        #: the card each game dealt in the last step, -1 where it dealt none
        self.chance_taken = np.full(n, -1, dtype=np.int64)
        self._started = False

    # ----------------------------------------------------------------- steps
    def reset(self, seed: int = 0) -> None:
        """Start every game anew; game ``i`` draws from a stream of ``(seed, i)``."""
        self._restart(seed)
        k.reset_range(
            self._g,
            self._stacks,
            self._params,
            self._rng,
            self.observations,
            self.legal_mask,
            self._ids,
            self._count,
            self.to_move,
            self.auto_chance,
        )
        self._started = True

    def step(
        self,
        actions: npt.ArrayLike,
        chance: npt.ArrayLike | None = None,
        active: npt.ArrayLike | None = None,
    ) -> None:
        """Every game one step: ``actions[i, p]`` for each player ``p`` to move in game
        ``i`` (others ignored), ``chance[i]`` a card id to deal at a chance node (-1 or
        no array: drawn inside). With ``active`` (booleans, one per game) only the
        games marked True move; the others keep their state and last step's rewards.
        Nothing changes when any action is illegal."""
        joint, dealt, moving = self._step_inputs(actions, chance, active)
        step = k.step_parallel if self.parallel else k.step_serial
        arrays = (
            self._g,
            self._stacks,
            self._params,
            self._rng,
            joint,
            dealt,
            self.observations,
            self.legal_mask,
            self._ids,
            self._count,
            self.to_move,
            self.rewards,
            self.terminated,
            self.chance_taken,
            self.final_observations,
            moving,
        )
        # one compiled call checks every action, then steps (or returns the first
        # bad one, having changed nothing): a call costs microseconds of Python
        bad = step(arrays, self.autoreset, self.auto_chance)
        if bad >= 0:
            self._refuse(bad // 3, bad % 3, joint, dealt)

    def _refuse(self, game: int, player: int, joint: IntArray, dealt: IntArray) -> None:
        if player == 2:
            raise IllegalActionError(
                f"game {game}: card {dealt[game]} cannot be dealt; the undealt cards are "
                f"{[a for a, _ in self.chance_outcomes(game)]} (C2.1)"
            )
        action = int(joint[game, player])
        name = str(action_from_id(action)) if 0 <= action < NUM_ACTIONS else "no action"
        raise IllegalActionError(
            f"game {game}: player {player} may not take action {action} ({name}) in phase "
            f"{self.phase(game)}; its legal actions are {self.legal_actions(game, player)}"
        )

    def random_actions(self) -> IntArray:
        """A uniformly random legal action per game and player (-1 for a player not
        to move), from the batch's own seeded streams (apart from chance's)."""
        out = np.empty((self.num_games, 2), dtype=np.int64)
        k.random_actions(self._action_rng, self._ids, self._count, out)
        return out

    # ----------------------------------------------------------------- reading
    def phase(self, game: int) -> str:
        """The phase of game ``game`` in words (``Phase`` names, lower case)."""
        names = ("deal", "reserve", "choose", "attack", "tiebreak", "assign", "over")
        return names[int(self._g[self._game(game), F_PHASE])]

    def legal_actions(self, game: int, player: int) -> list[int]:
        """Player ``player``'s legal action ids in game ``game``, in id order."""
        i = self._game(game)
        if player not in (0, 1):
            raise InvalidParamsError(f"the card game has players 0 and 1, not {player!r}")
        return [int(a) for a in self._ids[i, player, : self._count[i, player]]]

    def chance_outcomes(self, game: int) -> list[tuple[int, float]]:
        """The deal's outcomes of game ``game``: (card id, probability), in card order;
        empty where the game is not at a chance node."""
        i = self._game(game)
        if self.to_move[i] != TM_CHANCE:
            return []
        undealt = int(self._g[i, F_UNDEALT])
        cards = [c for c in range(52) if undealt >> c & 1]
        return [(c, 1.0 / len(cards)) for c in cards]
