"""Random playouts straight through a game's rules, shared by the engine benchmarks.

``GameState`` adds the framework checks (legality, parsing, history) on every step;
this loop calls the rules alone (``legal_actions`` + ``apply``/``apply_joint``, chance
sampled from ``chance_outcomes``), what search agents and RL adapters call.
"""

from __future__ import annotations

import random
from typing import Any

from koth.core.chance import sample_outcome
from koth.core.game import Game
from koth.core.players import CHANCE, SIMULTANEOUS, NodeKind

#: one step of a game: the rules state before it, who acted (CHANCE, SIMULTANEOUS for
#: a joint action, else the player) and the action (a dict for a joint action)
Step = tuple[Any, int, Any]


def engine_playout(game: Game[Any, Any, Any], seed: int, record: list[Step] | None = None) -> int:
    """One seeded random game through the pure rules; returns its number of steps and
    appends each step to ``record`` when one is given."""
    rng = random.Random(seed)
    state = game.initial()
    steps = 0
    while True:
        to_move = game.to_move(state)
        kind = to_move.kind
        if kind is NodeKind.TERMINAL:
            return steps
        if kind is NodeKind.CHANCE:
            player, action = CHANCE, sample_outcome(game.chance_outcomes(state), rng)
            after = game.apply(state, player, action)
        elif kind is NodeKind.SIMULTANEOUS:
            player = SIMULTANEOUS
            action = {p: rng.choice(game.legal_actions(state, p)) for p in to_move.players}
            after = game.apply_joint(state, action)
        else:
            player = to_move.players[0]
            action = rng.choice(game.legal_actions(state, player))
            after = game.apply(state, player, action)
        if record is not None:
            record.append((state, player, action))
        state = after
        steps += 1
