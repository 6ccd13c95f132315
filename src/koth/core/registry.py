"""The games koth knows by name."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from koth.core.errors import InvalidParamsError
from koth.core.game import Game

#: built-in games, imported on first use so that loading one game never costs the others
BUILTIN_GAMES: dict[str, str] = {
    "cards": "koth.games.cards",
    "board": "koth.games.board",
}

_REGISTERED: dict[str, type[Game[Any, Any, Any]]] = {}


def register_game(game_type: type[Game[Any, Any, Any]]) -> type[Game[Any, Any, Any]]:
    """Make ``game_type`` loadable by its ``name`` (usable as a class decorator)."""
    _REGISTERED[game_type.name] = game_type
    return game_type


def game_names() -> list[str]:
    return sorted(set(_REGISTERED) | set(BUILTIN_GAMES))


def game_type(name: str) -> type[Game[Any, Any, Any]]:
    if name not in _REGISTERED and name in BUILTIN_GAMES:
        importlib.import_module(BUILTIN_GAMES[name])
    try:
        return _REGISTERED[name]
    except KeyError:
        raise InvalidParamsError(
            f"unknown game {name!r}; known games: {', '.join(game_names())}"
        ) from None


def load_game(name: str, params: Mapping[str, Any] | None = None) -> Game[Any, Any, Any]:
    """The game ``name`` with validated ``params`` (InvalidParamsError otherwise)."""
    return game_type(name)(params)
