"""The differential test's loop, shared by both batched engines: a batch played beside
one ``GameState`` per game, step by step, with the engine's own checks after each."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from koth.core.state import GameState
from koth.vector.base import BatchBase

#: game ``i``'s comparison: the batch, ``i``, its ``GameState`` and the ids played so far
#: (-1 for a joint move)
Check = Callable[[Any, int, GameState[Any, Any], list[int]], None]


def play_alongside(
    batch: BatchBase,
    states: Sequence[GameState[Any, Any]],
    seed: int,
    action_from_id: Callable[[int], Any],
    check: Check,
) -> int:
    """Play every game of ``batch`` (reset with ``seed``, ``autoreset=False``) to its end
    beside ``states``, the batch's random actions played in both; the even games' chance
    outcomes chosen here, the odd games' drawn inside the batch. After every step,
    ``check`` compares each game, and its termination and rewards must equal the
    engine's. Returns the steps made."""
    b: Any = batch  # the engines' own API (random_actions, chance_outcomes, ...)
    n = batch.num_players
    histories: list[list[int]] = [[] for _ in states]
    rng = random.Random(seed)
    steps = 0
    for i, state in enumerate(states):
        check(b, i, state, histories[i])
    while not all(s.is_terminal() for s in states):
        actions = b.random_actions()
        chance = np.array(
            [
                rng.choice(b.chance_outcomes(i))[0] if i % 2 == 0 and s.is_chance_node() else -1
                for i, s in enumerate(states)
            ]
        )
        b.step(actions, chance)
        for i, state in enumerate(states):
            if state.is_terminal():
                assert not b.terminated[i] and not b.rewards[i].any()
                continue
            if state.is_chance_node():
                outcome = int(b.chance_taken[i])
                assert chance[i] in (-1, outcome)
                state.apply_action(action_from_id(outcome))
                histories[i].append(outcome)
            elif state.is_simultaneous_node():
                state.apply_actions({p: action_from_id(int(actions[i, p])) for p in range(n)})
                histories[i].append(-1)
            else:
                player = state.current_player()
                state.apply_action(action_from_id(int(actions[i, player])), player)
                histories[i].append(int(actions[i, player]))
            steps += 1
            check(b, i, state, histories[i])
            assert bool(b.terminated[i]) == state.is_terminal()
            expected = np.array(state.returns() if state.is_terminal() else [0.0] * n)
            assert b.rewards[i].tolist() == expected.astype(np.float32).tolist()
    return steps
