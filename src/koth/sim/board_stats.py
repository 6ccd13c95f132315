"""Board-game statistics for tournament reports: points over time and unit types used.

These answer a designer's balance questions (how fast do points come, which units
carry the game). They run on the driver's side, after the game, from its history.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from koth.core.game import Game
from koth.core.players import CHANCE
from koth.core.state import GameState
from koth.sim.collect import register_collector

UNIT_WORDS = ("runner", "fighter", "blocker")


def unit_of(notation: str) -> str | None:
    """The unit type an action recruits or moves (``recruit fighter``, ``move runner
    1.2>2.2``); an assault is made by fighters; other actions use none."""
    words = notation.split()
    if len(words) >= 2 and words[0] in ("recruit", "move") and words[1] in UNIT_WORDS:
        return words[1]
    if words and words[0] in ("attack", "ally"):
        return "fighter"
    return None


def board_stats(game: Game[Any, Any, Any], state: GameState[Any, Any]) -> dict[str, Any]:
    """``points_over_time``: everybody's points at the start of each round and at the
    end; ``unit_types``: per seat, how many actions recruited or moved each type."""
    units: list[Counter[str]] = [Counter() for _ in range(game.num_players)]
    timeline: list[list[int]] = []
    data = game.initial()
    last_round = None
    for move in state.history:
        for player, action in move.actions:
            if player != CHANCE:
                unit = unit_of(game.action_to_str(action))
                if unit is not None:
                    units[player][unit] += 1
        if move.simultaneous:
            data = game.apply_joint(data, dict(move.actions))
        else:
            ((player, action),) = move.actions
            data = game.apply(data, player, action)
        if data.round != last_round:  # the view is costly: read it once a round
            timeline.append(list(game.view(data, None)["points"]))
            last_round = data.round
    final = list(game.view(state.data, None)["points"])
    if not timeline or timeline[-1] != final:
        timeline.append(final)
    return {"points_over_time": timeline, "unit_types": [dict(sorted(c.items())) for c in units]}


register_collector("board", board_stats)
