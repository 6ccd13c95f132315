"""OpenSpiel's bots as koth agents, to play them against koth's own agents.

``OpenSpielBotAgent`` follows the agent protocol of ``koth.agents`` (``name``,
``reset(game, player, seed)``, ``act(view, legal_actions, context)``) without importing
it (the layers beside one another stay independent). At each decision it builds an
OpenSpiel state from a *sample* of the player's information set (``context.info_set``),
never from the true state, and asks the bot for an action there:

* ``ismcts(...)``: OpenSpiel's ISMCTSBot, which resamples that state again through
  ``resample_from_infostate`` at every simulation (a resample of a consistent sample is
  a consistent sample);
* ``mcts(...)``: OpenSpiel's MCTSBot, which searches the one sampled world (exact for a
  perfect-information game, whose sample is the true state; a single determinization
  otherwise).

Games with simultaneous nodes are searched in their turn-based form; at such a node the
submissions of the players before this one are drawn at random among their legal
actions (they are hidden, and ISMCTS redraws them anyway).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts as os_ismcts  # type: ignore[import-untyped]
from open_spiel.python.algorithms import mcts as os_mcts

from koth.core.errors import InvalidParamsError
from koth.core.game import Game
from koth.core.players import NodeKind, PlayerId
from koth.interop.openspiel import openspiel_game
from koth.interop.openspiel_state import KothOpenSpielGame
from koth.interop.spec import find_spec, has_simultaneous_nodes

#: builds a bot for (OpenSpiel game, seat, seed)
BotFactory = Callable[[Any, PlayerId, int], Any]


def ismcts(simulations: int = 200, uct_c: float = 2.0, rollouts: int = 1) -> BotFactory:
    """OpenSpiel's ISMCTSBot with random rollouts and ``simulations`` per move."""
    _check_budget(simulations, rollouts)

    def make(game: Any, player: PlayerId, seed: int) -> Any:
        rng = np.random.RandomState(seed % 2**32)
        evaluator = os_mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rng)
        return os_ismcts.ISMCTSBot(
            game, evaluator, uct_c=uct_c, max_simulations=simulations, random_state=rng
        )

    return make


def mcts(simulations: int = 200, uct_c: float = 2.0, rollouts: int = 1) -> BotFactory:
    """OpenSpiel's MCTSBot with random rollouts and ``simulations`` per move."""
    _check_budget(simulations, rollouts)

    def make(game: Any, player: PlayerId, seed: int) -> Any:
        rng = np.random.RandomState(seed % 2**32)
        evaluator = os_mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rng)
        return os_mcts.MCTSBot(game, uct_c, simulations, evaluator, random_state=rng)

    return make


def _check_budget(simulations: int, rollouts: int) -> None:
    if simulations < 1 or rollouts < 1:
        raise InvalidParamsError("an OpenSpiel search bot needs >= 1 simulation and rollout")


class OpenSpielBotAgent:
    """An OpenSpiel bot in a koth seat (see the module docstring)."""

    def __init__(self, name: str, make_bot: BotFactory) -> None:
        self._name = name
        self._make_bot = make_bot
        self._game: KothOpenSpielGame | None = None
        self._koth_game: Game[Any, Any, Any] | None = None
        self._bot: Any = None
        self._rng = random.Random(0)

    @property
    def name(self) -> str:
        return self._name

    def reset(self, game: Game[Any, Any, Any], player: PlayerId, seed: int) -> None:
        spec = find_spec(game)
        turn_based = spec is not None and has_simultaneous_nodes(game, spec)
        self._koth_game = game
        self._game = openspiel_game(game, turn_based=turn_based)
        self._bot = self._make_bot(self._game, player, seed)
        self._rng = random.Random(seed)

    def act(
        self, observation_view: Mapping[str, Any], legal_actions: Sequence[Any], context: Any
    ) -> Any:
        if self._game is None or self._koth_game is None:
            raise InvalidParamsError(f"{self._name}: reset() must come before act()")
        info_set = context.info_set
        player: PlayerId = info_set.player
        if len(legal_actions) == 1:
            return legal_actions[0]
        data = info_set.sample_data(self._rng)
        node_kind = self._koth_game.to_move(data).kind
        pending: list[tuple[PlayerId, int]] = []
        if node_kind is NodeKind.SIMULTANEOUS:
            for other in self._koth_game.to_move(data).players:
                if other == player:
                    break
                choices = self._koth_game.legal_actions(data, other)
                pending.append((other, self._koth_game.action_id(self._rng.choice(choices))))
        state = self._game.state_from_koth(data, pending)
        action_id = int(self._bot.step(state))
        return self._koth_game.action_from_id(action_id)

    def __repr__(self) -> str:
        return f"<OpenSpielBotAgent {self._name}>"


__all__ = ["BotFactory", "OpenSpielBotAgent", "ismcts", "mcts"]
