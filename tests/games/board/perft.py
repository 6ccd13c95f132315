"""Positions with their exact counts of legal actions, like chess's perft table.

``positions.json`` holds positions reached by seeded random play in every variant of
``test_oracle.VARIANTS``: the options, the actions that lead there from the initial
state (action ids; a list of ids, one per seat, for the simultaneous exclusion), and
the node counts of the game tree below, one and two plies deep. Chance outcomes count
as branches like decisions. The counts were taken once, from an engine the oracle
agreed with on every position; a change to the rules that changes them must say why.

Regenerate (only when a rule changes on purpose): ``python -m tests.games.board.perft``.
"""

from __future__ import annotations

import json
import random
from itertools import product
from pathlib import Path
from typing import Any

from koth.core.chance import sample_outcome
from koth.core.players import NodeKind
from koth.games.board import BoardGame, BoardState

TABLE = Path(__file__).with_name("positions.json")
#: positions taken per variant, at these decision-state numbers of one seeded game stream
SAMPLE_AT = (40, 150, 400, 900)

Step = int | list[int]


def reach(game: BoardGame, history: list[Step]) -> BoardState:
    """The state after ``history`` (ids as ``positions.json`` writes them)."""
    state = game.initial()
    for step in history:
        if isinstance(step, list):
            joint = {p: game.action_from_id(a) for p, a in enumerate(step)}
            state = game.apply_joint(state, joint)
            continue
        to_move = game.to_move(state)
        player = to_move.players[0] if to_move.kind is NodeKind.PLAYER else -1
        state = game.apply(state, player, game.action_from_id(step))
    return state


def children(game: BoardGame, state: BoardState) -> list[BoardState]:
    """One state per branch: each chance outcome, each legal action, each joint action."""
    to_move = game.to_move(state)
    if to_move.kind is NodeKind.TERMINAL:
        return []
    if to_move.kind is NodeKind.CHANCE:
        return [game.apply(state, -1, a) for a, _ in game.chance_outcomes(state)]
    if to_move.kind is NodeKind.SIMULTANEOUS:
        choices = [game.legal_actions(state, p) for p in to_move.players]
        return [
            game.apply_joint(state, dict(zip(to_move.players, joint, strict=True)))
            for joint in product(*choices)
        ]
    player = to_move.players[0]
    return [game.apply(state, player, a) for a in game.legal_actions(state, player)]


def perft(game: BoardGame, state: BoardState, depth: int) -> int:
    """The number of nodes ``depth`` plies below ``state`` (terminal ones end early)."""
    if depth == 0:
        return 1
    below = children(game, state)
    if not below:
        return 1
    return sum(perft(game, child, depth - 1) for child in below)


def sampled_positions(options: dict[str, Any], seed: int) -> list[list[Step]]:
    """The histories of the ``SAMPLE_AT`` decision states of seeded random play."""
    game = BoardGame(**options)
    rng = random.Random(seed)
    found: list[list[Step]] = []
    met = 0
    while len(found) < len(SAMPLE_AT):
        state = game.initial()
        history: list[Step] = []
        while game.outcome(state) is None and len(found) < len(SAMPLE_AT):
            to_move = game.to_move(state)
            if to_move.kind is NodeKind.CHANCE:
                action = sample_outcome(game.chance_outcomes(state), rng)
                history.append(game.action_id(action))
                state = game.apply(state, -1, action)
                continue
            if to_move.kind is NodeKind.SIMULTANEOUS:
                joint = {p: rng.choice(game.legal_actions(state, p)) for p in to_move.players}
                history.append([game.action_id(joint[p]) for p in to_move.players])
                state = game.apply_joint(state, joint)
                continue
            met += 1
            if met in SAMPLE_AT:
                found.append(list(history))
            player = to_move.players[0]
            action = rng.choice(game.legal_actions(state, player))
            history.append(game.action_id(action))
            state = game.apply(state, player, action)
    return found


def generate() -> list[dict[str, Any]]:
    from tests.games.board.test_oracle import VARIANTS

    table = []
    for name, options in VARIANTS:
        game = BoardGame(**options)
        for history in sampled_positions(options, sum(map(ord, name)) + 1):
            state = reach(game, history)
            table.append(
                {
                    "variant": name,
                    "options": options,
                    "history": history,
                    "perft1": perft(game, state, 1),
                    "perft2": perft(game, state, 2),
                }
            )
    return table


if __name__ == "__main__":
    rows = generate()
    TABLE.write_text(
        "[\n" + ",\n".join(json.dumps(row, separators=(",", ":")) for row in rows) + "\n]\n"
    )
    print(f"wrote {len(rows)} positions to {TABLE.name}")
