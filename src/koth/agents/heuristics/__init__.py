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
from collections.abc import Callable, Hashable, Mapping, Sequence
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


StateRollout = Callable[[Game[Any, Any, Any], Any, PlayerId, random.Random], Any]
"""``(game, sampled_state_data, player, rng) -> action``: a fast rollout policy that
reads a *sampled* rules state directly (search agents only, never the true state)."""

ObserverKey = Callable[[Game[Any, Any, Any], Any, PlayerId], Hashable]
"""``(game, sampled_state_data, observer) -> key``: a cheap key equal whenever the
observer's views are equal (a stand-in for ``information_state_string``)."""

StateEvaluator = Callable[[Game[Any, Any, Any], Any], tuple[float, ...]]
"""``(game, sampled_state_data) -> estimated returns`` from public facts of the state."""

Playout = Callable[
    [Game[Any, Any, Any], Any, random.Random, float, int], "tuple[float, ...] | None"
]
"""``(game, sampled_state_data, rng, epsilon, max_steps) -> returns or None``: the whole
rollout of the fast policy (a random legal action instead with probability
``epsilon``) in one call, with exactly the actions and random draws of playing it step
by step; None where it does not apply, and the rollout then goes step by step."""

Ranking = Callable[[Game[Any, Any, Any], Any, PlayerId], list[Any]]
"""``(game, sampled_state_data, player) -> legal actions, most promising first``."""

_ROLLOUTS: dict[str, StateRollout] = {}
_RANKINGS: dict[str, Ranking] = {}
_KEYS: dict[str, ObserverKey] = {}
_STATE_EVALUATORS: dict[str, StateEvaluator] = {}
_PLAYOUTS: dict[str, Playout] = {}


def register_rollout(
    game_name: str,
    policy: StateRollout | None = None,
    observer_key: ObserverKey | None = None,
    state_evaluator: StateEvaluator | None = None,
    ranking: Ranking | None = None,
    playout: Playout | None = None,
) -> None:
    """Search helpers of ``game_name``: a fast heuristic rollout policy, a cheap
    observer key, a state evaluator, an action ranking and the policy's whole playout
    in one call (each optional)."""
    if playout is not None:
        _PLAYOUTS[game_name] = playout
    if ranking is not None:
        _RANKINGS[game_name] = ranking
    if policy is not None:
        _ROLLOUTS[game_name] = policy
    if observer_key is not None:
        _KEYS[game_name] = observer_key
    if state_evaluator is not None:
        _STATE_EVALUATORS[game_name] = state_evaluator


def state_rollout(game: Game[Any, Any, Any]) -> StateRollout | None:
    _load_builtin(game.name)
    return _ROLLOUTS.get(game.name)


def state_playout(game: Game[Any, Any, Any]) -> Playout | None:
    _load_builtin(game.name)
    return _PLAYOUTS.get(game.name)


def observer_key(game: Game[Any, Any, Any]) -> ObserverKey | None:
    _load_builtin(game.name)
    return _KEYS.get(game.name)


def state_evaluator(game: Game[Any, Any, Any]) -> StateEvaluator | None:
    _load_builtin(game.name)
    return _STATE_EVALUATORS.get(game.name)


def action_ranking(game: Game[Any, Any, Any]) -> Ranking | None:
    _load_builtin(game.name)
    return _RANKINGS.get(game.name)
