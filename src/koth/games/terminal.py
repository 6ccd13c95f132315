"""What the games' terminal-play commands share: reading a line, computer opponents."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rich.console import Console

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


class Handover:
    """Several people at one terminal: before a different person's decision, clear the
    screen and wait until they sit down, so nobody reads another player's secrets (on
    screen or in the scrollback) or sees what they typed."""

    def __init__(self, console: Console, enabled: bool) -> None:
        self.console = console
        self.enabled = enabled
        self.facing: int | None = None

    def face(self, player: int) -> None:
        if self.enabled and self.facing != player:
            self.console.clear()
            self.console.print(
                f"[bold]Pass the terminal to player {player}, then press Enter.[/bold]"
            )
            read_line("")
            self.console.clear()
        self.facing = player
