"""What the games' terminal-play commands share: reading a line, computer opponents."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from koth.core.chance import random_policy
from koth.core.game import Game
from koth.core.state import GameState

#: a computer seat: ``(state, player, rng) -> action``
Opponent = Callable[[GameState[Any, Any], int, random.Random], Any]

RANDOM = "random"


class EndOfInput(Exception):
    """The player's input ended (EOF) before the game did."""


def read_line(prompt: str) -> str:
    """One line typed by the player; EndOfInput when the input has ended."""
    try:
        return input(prompt)
    except EOFError:
        raise EndOfInput from None


def make_opponent(spec: str, game: Game[Any, Any, Any], seat: int, seed: int | None) -> Opponent:
    """The computer seat ``spec`` (an agent spec such as ``ismcts:seconds=1``).

    Raises InvalidParamsError naming the agent when the spec is unknown or malformed.
    """
    if spec == RANDOM:
        return random_policy
    # Imported here: koth.agents builds on the games, so the games may not import it first.
    from koth.agents.registry import make_policy

    return make_policy(spec, game, seat, seed)
