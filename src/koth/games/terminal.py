"""What the games' terminal-play commands share: reading a line, computer opponents."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import typer
from rich.console import Console

from koth.core.chance import random_policy
from koth.core.errors import InvalidParamsError
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


#: how the command layer turns an opponent spec (``random``, ``ismcts:seconds=1``...)
#: into a computer seat: ``(spec, game, seat, seed) -> Opponent``. The agents build on
#: the games, so the games' play commands are handed one (``PlayServices``) instead of
#: importing the agents themselves.
OpponentFactory = Callable[[str, Game[Any, Any, Any], int, "int | None"], Opponent]


def random_opponents(spec: str, game: Game[Any, Any, Any], seat: int, seed: int | None) -> Opponent:
    """The factory the games have by themselves: uniformly random seats only. Raises
    InvalidParamsError naming any other spec."""
    if spec == RANDOM:
        return random_policy
    raise InvalidParamsError(f"unknown opponent {spec!r}: only {RANDOM!r} plays without agents")


@dataclass(frozen=True, slots=True)
class PlayServices:
    """What the command layer hands the play commands, as Typer's ``ctx.obj``."""

    make_opponent: OpponentFactory = random_opponents


def play_services(ctx: typer.Context) -> PlayServices:
    """The services the command layer set up, or the games' own (random seats only)."""
    found = ctx.find_object(PlayServices)
    return found if found is not None else PlayServices()


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
