"""Seeded sampling of chance outcomes, so whole games replay from one seed.

The rules never draw random numbers; whoever drives a game (CLI, server, simulator)
samples each chance node's explicit outcomes here, with a ``random.Random`` it owns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

if TYPE_CHECKING:
    # for annotations only: the state samples its chance nodes with this module
    from koth.core.state import GameState

A = TypeVar("A", bound=Hashable)


def sample_outcome(outcomes: Sequence[tuple[A, float]], rng: random.Random) -> A:
    """One outcome drawn with its probability."""
    if not outcomes:
        raise ValueError("no chance outcomes to sample from")
    threshold = rng.random()
    cumulative = 0.0
    for action, probability in outcomes:
        cumulative += probability
        if threshold < cumulative:
            return action
    return outcomes[-1][0]  # rounding left a sliver above the last cumulative sum


def resolve_chance(state: GameState[Any, A], rng: random.Random) -> None:
    """Apply sampled chance outcomes until a player (or nobody) must act."""
    while state.is_chance_node():
        state.apply_action(sample_outcome(state.chance_outcomes(), rng))


Policy: TypeAlias = Callable[["GameState[Any, Any]", int, random.Random], Any]


def random_policy(state: GameState[Any, Any], player: int, rng: random.Random) -> Any:
    """A uniformly random legal action of ``player``."""
    return rng.choice(state.legal_actions(player))


def play_game(
    state: GameState[Any, Any],
    rng: random.Random,
    policy: Policy = random_policy,
    max_moves: int | None = None,
) -> GameState[Any, Any]:
    """Play ``state`` on to the end (or ``max_moves`` more moves) with ``policy`` for
    every player and seeded chance; returns the same, advanced state."""
    moves = 0
    while not state.is_terminal() and (max_moves is None or moves < max_moves):
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        elif state.is_simultaneous_node():
            state.apply_actions({p: policy(state, p, rng) for p in state.acting_players()})
        else:
            state.apply_action(policy(state, state.current_player(), rng))
        moves += 1
    return state


def random_game(game: Any, seed: int, max_moves: int | None = None) -> GameState[Any, Any]:
    """A whole game of uniformly random play, reproducible from ``seed``."""
    return play_game(game.new_initial_state(), random.Random(seed), max_moves=max_moves)
