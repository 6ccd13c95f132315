"""Rule-based policies and position evaluators, one module per game.

A heuristic policy decides from the same information an agent has: its player's view
and legal actions (plus a seeded ``random.Random`` for ties). An evaluator scores a
non-terminal position from the spectator's view, for search rollouts that stop early.
The built-in games' modules are imported on first use; other games (tests, plug-ins)
register theirs with :func:`register_heuristic`.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from koth.core.errors import InvalidParamsError
from koth.core.game import Game
from koth.core.players import PlayerId

HeuristicPolicy = Callable[
    [Game[Any, Any, Any], PlayerId, Mapping[str, Any], Sequence[Any], random.Random], Any
]
"""``(game, player, view, legal_actions, rng) -> action``."""

Evaluator = Callable[[Game[Any, Any, Any], Mapping[str, Any]], tuple[float, ...]]
"""``(game, spectator_view) -> estimated returns``, on the scale of ``game.returns``."""

_BUILTIN: dict[str, str] = {
    "cards": "koth.agents.heuristics.cards",
    "board": "koth.agents.heuristics.board",
}
_POLICIES: dict[str, HeuristicPolicy] = {}
_EVALUATORS: dict[str, Evaluator] = {}


def register_heuristic(
    game_name: str, policy: HeuristicPolicy, evaluator: Evaluator | None = None
) -> None:
    """Make ``policy`` (and ``evaluator``) the heuristic of the game ``game_name``."""
    _POLICIES[game_name] = policy
    if evaluator is not None:
        _EVALUATORS[game_name] = evaluator


def _load_builtin(game_name: str) -> None:
    if game_name not in _POLICIES and game_name in _BUILTIN:
        importlib.import_module(_BUILTIN[game_name])


def heuristic_policy(game: Game[Any, Any, Any]) -> HeuristicPolicy:
    """The rule-based policy of ``game``; InvalidParamsError when it has none."""
    _load_builtin(game.name)
    try:
        return _POLICIES[game.name]
    except KeyError:
        known = ", ".join(sorted(set(_POLICIES) | set(_BUILTIN)))
        raise InvalidParamsError(
            f"no heuristic policy for the game {game.name!r}; games with one: {known}"
        ) from None


def has_heuristic(game: Game[Any, Any, Any]) -> bool:
    _load_builtin(game.name)
    return game.name in _POLICIES


def evaluator(game: Game[Any, Any, Any]) -> Evaluator | None:
    """The position evaluator of ``game``, or None (unfinished rollouts then score 0)."""
    _load_builtin(game.name)
    return _EVALUATORS.get(game.name)
