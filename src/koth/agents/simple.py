"""The agents without search: ``random`` and ``heuristic``."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from koth.agents.base import DecisionContext
from koth.agents.heuristics import HeuristicPolicy, heuristic_policy
from koth.core.errors import KothError
from koth.core.game import Game
from koth.core.players import PlayerId


class RandomAgent:
    """A uniformly random legal action, from its own seeded generator."""

    name = "random"

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def reset(self, game: Game[Any, Any, Any], player: PlayerId, seed: int) -> None:
        self._rng = random.Random(seed)

    def act(
        self,
        observation_view: Mapping[str, Any],
        legal_actions: Sequence[Any],
        context: DecisionContext[Any, Any],
    ) -> Any:
        return legal_actions[self._rng.randrange(len(legal_actions))]


class HeuristicAgent:
    """The game's rule-based policy (``koth.agents.heuristics.<game>``)."""

    name = "heuristic"

    def __init__(self) -> None:
        self._rng = random.Random(0)
        self._policy: HeuristicPolicy | None = None
        self._game: Game[Any, Any, Any] | None = None
        self._player: PlayerId = 0

    def reset(self, game: Game[Any, Any, Any], player: PlayerId, seed: int) -> None:
        self._rng = random.Random(seed)
        self._policy = heuristic_policy(game)
        self._game = game
        self._player = player

    def act(
        self,
        observation_view: Mapping[str, Any],
        legal_actions: Sequence[Any],
        context: DecisionContext[Any, Any],
    ) -> Any:
        if self._policy is None or self._game is None:
            raise KothError("heuristic: act() called before reset()")
        if len(legal_actions) == 1:
            return legal_actions[0]
        return self._policy(self._game, self._player, observation_view, legal_actions, self._rng)
