"""Per-game statistics, computed from a finished game's history (its record).

Every game gets the generic ones: how often each seat used each action kind (the
first word of the action's notation). A game can register more
(``register_collector``), replacing the generic action kinds with its own grouping; the
card game's live in ``koth.sim.cards_stats`` and the board game's in
``koth.sim.board_stats``, loaded on first use. ``replay`` walks a finished game's
record step by step, which is how those collectors see what each action did.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from koth.core.game import Game
from koth.core.players import CHANCE
from koth.core.state import GameState

Collector = Callable[[Game[Any, Any, Any], GameState[Any, Any]], dict[str, Any]]

_BUILTIN: dict[str, str] = {"board": "koth.sim.board_stats", "cards": "koth.sim.cards_stats"}
_COLLECTORS: dict[str, Collector] = {}
_ORDERS: dict[str, Mapping[str, Sequence[str]]] = {}


def register_collector(
    game_name: str, collector: Collector, orders: Mapping[str, Sequence[str]] | None = None
) -> None:
    """Make ``collector`` add the statistics of ``game_name``'s games; ``orders`` gives,
    per statistic of counts (``action_kinds``...), the order reports list its keys in."""
    _COLLECTORS[game_name] = collector
    _ORDERS[game_name] = dict(orders or {})


def _load_builtin(game_name: str) -> None:
    if game_name not in _COLLECTORS and game_name in _BUILTIN:
        importlib.import_module(_BUILTIN[game_name])


def listing_order(game_name: str, key: str) -> Sequence[str]:
    """The order reports list the keys of the statistic ``key`` in (empty: none set)."""
    _load_builtin(game_name)
    return _ORDERS.get(game_name, {}).get(key, ())


def replay(
    game: Game[Any, Any, Any], state: GameState[Any, Any]
) -> Iterator[tuple[Any, tuple[tuple[int, Any], ...], Any]]:
    """Every step of a game's record: (rules state before, (player, action) pairs,
    rules state after); chance steps included (their player is ``CHANCE``)."""
    data = game.initial()
    for move in state.history:
        if move.simultaneous:
            after = game.apply_joint(data, dict(move.actions))
        else:
            ((player, action),) = move.actions
            after = game.apply(data, player, action)
        yield data, move.actions, after
        data = after


def in_order(counts: Counter[str], order: Sequence[str]) -> dict[str, int]:
    """``counts`` as a dict listed in ``order``, anything else after."""
    listed = {key: counts[key] for key in order if counts[key]}
    return listed | {key: n for key, n in sorted(counts.items()) if key not in listed}


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
    _load_builtin(game.name)
    extra = _COLLECTORS.get(game.name)
    if extra is not None:
        stats.update(extra(game, state))
    return stats
