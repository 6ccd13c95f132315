"""The input checks both batched engines share (the number of games, a game's index)."""

from __future__ import annotations

import numpy as np

from koth.core.errors import InvalidParamsError


def batch_size(num_games: int) -> int:
    """``num_games`` as a batch's size: a whole number of at least one game."""
    if isinstance(num_games, bool) or not isinstance(num_games, int) or num_games < 1:
        raise InvalidParamsError(f"a batch holds at least one game, not {num_games!r}")
    return num_games


def game_index(game: int, num_games: int) -> int:
    """``game`` as an index into a batch of ``num_games`` games."""
    if isinstance(game, bool) or not isinstance(game, int | np.integer):
        raise InvalidParamsError(f"a game index is an integer, not {game!r}")
    if not 0 <= game < num_games:
        raise InvalidParamsError(f"game {game} is outside 0..{num_games - 1}")
    return int(game)
