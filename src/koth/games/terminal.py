"""What the games' terminal-play commands share: one style of options (seats, agents,
game options, seed, record, width), one error box, one set of exit codes, seat names as
the web shows them, reading a line, and saving a record without losing it."""

from __future__ import annotations

import importlib
import json
import os
import random
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

# Typer carries its own copy of Click: only its ClickException gets Typer's error box
from typer._click.exceptions import ClickException
from typer.core import TyperCommand, TyperOption

from koth.core.chance import random_policy
from koth.core.errors import IllegalActionError, InvalidParamsError, KothError
from koth.core.game import Game
from koth.core.players import seat_name
from koth.core.record import GameRecord
from koth.core.state import GameState

#: a computer seat: ``(state, player, rng) -> action``
Opponent = Callable[[GameState[Any, Any], int, random.Random], Any]

RANDOM = "random"
HUMAN = "human"

#: exit codes of every ``koth`` command: the game was played to its end (or the command
#: did its work); the input ended (Ctrl-D) before the game did, the record so far kept;
#: bad input (an option, a file, a record), nothing changed
EXIT_OK = 0
EXIT_ABANDONED = 1
EXIT_BAD_INPUT = 2


class BadInput(ClickException):
    """A command's input is wrong: shown in the same error box as Typer's own errors
    (whose text Rich does not read as markup), exit code 2."""

    exit_code = EXIT_BAD_INPUT


class _Flag(TyperOption):
    """An on/off option: its help shows no ``<bool>`` type, the flag says it all."""

    def display_type_rich(self, ctx: typer.Context) -> str | None:  # type: ignore[override]
        return None


class KothCommand(TyperCommand):
    """Every ``koth`` command: help reflowed to the terminal, no ``<bool>`` on flags."""

    def format_help(self, ctx: typer.Context, formatter: Any) -> None:  # type: ignore[override]
        if self.help:
            # a docstring's line breaks are where the source wrapped, not the reader's
            # screen: paragraphs are reflowed to the terminal, never cut mid-sentence
            paragraphs = self.help.strip().split("\n\n")
            self.help = "\n\n".join(" ".join(p.split()) for p in paragraphs)
        for param in self.get_params(ctx):
            if isinstance(param, TyperOption) and param.is_flag:
                param.__class__ = _Flag
        super().format_help(ctx, formatter)


def fail(message: str) -> BadInput:
    """The error to raise for ``message`` (one line naming what is wrong)."""
    return BadInput(message)


def require_extra(command: str, extra: str, modules: Iterable[str]) -> None:
    """Refuse ``command`` before it does any work when a module of the optional
    ``extra`` is not installed, naming the modules and the command that installs them."""
    missing = []
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(module)
    if missing:
        raise fail(
            f"{command} needs the '{extra}' extra ({', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not installed): run "
            f"pip install '.[{extra}]' in the koth checkout (make install installs every "
            "extra)"
        )


def refusal(text: str, exc: KothError, debug: bool) -> str:
    """What a player is told when the move ``text`` is refused: why and the rule, in
    seat names (the engine's message, with the whole position, under ``--debug``)."""
    if debug:
        return str(exc)
    if isinstance(exc, IllegalActionError):
        return f"{text!r} is not allowed now: {exc.reason}"
    return str(exc)


class EndOfInput(Exception):
    """The player's input ended (EOF) before the game did."""


def read_line(prompt: str) -> str:
    """One line typed by the player; EndOfInput when the input has ended."""
    try:
        return input(prompt)
    except EOFError:
        raise EndOfInput from None


def say(console: Console, text: str, style: str = "") -> None:
    """Print ``text`` as it is: notation such as ``[by move]`` is not Rich markup."""
    console.print(escape(text), style=style, highlight=False)


# --- one style of options for every game -------------------------------------------

SeatOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--seat",
        metavar="SPEC",
        help="Who sits in seat 1, 2, ... in order: 'human' or an agent spec (random, "
        "heuristic, mcts:iters=300, ismcts:seconds=1). Repeat it once per seat; seats "
        "left out are filled by --vs, then by random. Default: you in seat 1.",
    ),
]
VsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--vs",
        metavar="SPEC",
        help="The computer in the next free seat: an agent spec such as heuristic or "
        "ismcts:seconds=1 ('human' for a person at this terminal). Repeatable.",
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="KEY=VALUE",
        help="A game option as KEY=VALUE, such as jokers=2 for cards or round_limit=20 for "
        "board; repeat --set for more. An unknown key is refused with the game's options.",
    ),
]
DebugOpt = Annotated[
    bool,
    typer.Option(
        "--debug",
        help="Show refused moves as the engine words them, with the whole position.",
    ),
]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Seed of the chance and the computer.")]
RecordOpt = Annotated[
    Path | None,
    typer.Option(
        "--record",
        metavar="FILE.json",
        help="Save the game record here (checked before the game starts).",
    ),
]
WidthOpt = Annotated[
    int | None,
    typer.Option(
        "--width",
        min=40,
        help="Draw for this many columns (default: the terminal's width, 80 when piped).",
    ),
]


def json_or_text(value: str) -> Any:
    """A value read as JSON when it parses (numbers, true/false), else kept as text."""
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        return value


def parse_settings(items: Iterable[str], option: str = "--set") -> dict[str, Any]:
    """``["round_limit=20", "countdown=true"]`` -> a dict; values read as JSON when
    they parse. Raises BadInput naming the item that is not ``key=value``."""
    params: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise fail(f"{option} {item!r}: write KEY=VALUE, a game option and its value")
        params[key.strip()] = json_or_text(value)
    return params


def seat_specs(players: int, seats: Iterable[str], vs: Iterable[str]) -> list[str]:
    """Who plays each seat: ``--seat`` in order (default: a human in seat 1), then
    ``--vs`` for the next free seats, then random computers. Raises BadInput when more
    seats are named than the game has."""
    specs = [s.strip() for s in seats] or [HUMAN]
    specs += [s.strip() for s in vs]
    if len(specs) > players:
        raise fail(
            f"--seat/--vs name {len(specs)} seats, but the game has {players}: "
            + ", ".join(f"{seat_name(p)} {spec}" for p, spec in enumerate(specs))
        )
    return specs + [RANDOM] * (players - len(specs))


def check_record_path(path: Path | None) -> None:
    """Refuse a record path that cannot be written, before the game starts."""
    if path is None:
        return
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise fail(f"--record {path}: is a folder; name a file such as {path / 'game.json'}")
    if not folder.is_dir():
        raise fail(f"--record {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise fail(f"--record {path}: cannot write there (permission denied)")


def save_record(console: Console, record: GameRecord, path: Path, what: str) -> None:
    """Write ``record`` to ``path`` at once (never half a file); when that fails after
    all, keep it in the temporary folder and say where, exit code 2."""
    try:
        record.save(path)
    except OSError as exc:
        fd, spare = tempfile.mkstemp(prefix=f"koth-{record.game}-", suffix=".json")
        os.close(fd)
        record.save(spare)
        raise fail(
            f"--record {path}: {exc.strerror or exc}; the record is kept in {spare}"
        ) from None
    say(console, f"{what} saved to {path}")


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


def make_agents(
    ctx: typer.Context, game: Game[Any, Any, Any], specs: list[str], seed: int | None
) -> dict[int, Opponent]:
    """The computer seats of ``specs``; BadInput naming the seat of a bad spec."""
    factory = play_services(ctx).make_opponent
    agents: dict[int, Opponent] = {}
    for seat, spec in enumerate(specs):
        if spec == HUMAN:
            continue
        try:
            agents[seat] = factory(spec, game, seat, seed)
        except InvalidParamsError as exc:
            raise fail(f"{seat_name(seat)} ({spec!r}): {exc}") from None
    return agents


def console_for(width: int | None) -> Console:
    """The play console: ``width`` columns when forced, else the terminal's (80 piped)."""
    return Console(highlight=False, width=width)


def ending_line(winners: frozenset[int], humans: set[int], you: str, they: str) -> str:
    """The end in words for whoever watches: ``You won: you took the apex`` when one
    person plays, ``Seat 2 won: took the apex`` otherwise. ``you`` and ``they`` finish
    the sentence (``took the apex`` for both, or ``with 30 points``)."""
    names = " and ".join(seat_name(p) for p in sorted(winners))
    won = f"{names} won{' ' if they.startswith('with ') else ': '}{they}"
    if len(humans) == 1:
        (me,) = humans
        if me in winners:
            return f"You won: you {you}" if len(winners) == 1 else f"You won with {names}"
        return f"You lost: {won}"
    return won


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
                f"[bold]Pass the terminal to {seat_name(player)}, then press Enter.[/bold]"
            )
            read_line("")
            self.console.clear()
        self.facing = player
