"""Per-game statistics, computed from a finished game's history (its record).

Every game gets the generic ones: how often each seat used each action kind (the
first word of the action's notation). A game can register more
(``register_collector``); the board game's (points over time, unit types) live in
``koth.sim.board_stats`` and are loaded on first use.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable
from typing import Any

from koth.core.game import Game
from koth.core.players import CHANCE
from koth.core.state import GameState

Collector = Callable[[Game[Any, Any, Any], GameState[Any, Any]], dict[str, Any]]

_BUILTIN: dict[str, str] = {"board": "koth.sim.board_stats"}
_COLLECTORS: dict[str, Collector] = {}


def register_collector(game_name: str, collector: Collector) -> None:
    _COLLECTORS[game_name] = collector


def action_kind(text: str) -> str:
    """The kind of an action from its notation: its first word (``recruit``...)."""
    word = text.strip().split(maxsplit=1)
    return word[0].lower() if word else "?"


def action_kinds(game: Game[Any, Any, Any], state: GameState[Any, Any]) -> list[dict[str, int]]:
    """Per seat, how many actions of each kind it took."""
    counts: list[Counter[str]] = [Counter() for _ in range(game.num_players)]
    for move in state.history:
        for player, action in move.actions:
            if player != CHANCE:
                counts[player][action_kind(game.action_to_str(action))] += 1
    return [dict(sorted(c.items())) for c in counts]


def collect(game: Game[Any, Any, Any], state: GameState[Any, Any]) -> dict[str, Any]:
    """Every statistic of one finished (or truncated) game, as JSON data."""
    stats: dict[str, Any] = {"action_kinds": action_kinds(game, state)}
    if game.name not in _COLLECTORS and game.name in _BUILTIN:
        importlib.import_module(_BUILTIN[game.name])
    extra = _COLLECTORS.get(game.name)
    if extra is not None:
        stats.update(extra(game, state))
    return stats
