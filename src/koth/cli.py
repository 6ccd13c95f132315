"""The `koth` command line: one Typer app, one sub-app or command per feature."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from koth import __version__
from koth.agents.registry import make_policy
from koth.analysis.cli import analyze_command
from koth.core.chance import random_policy
from koth.core.errors import RecordError
from koth.core.game import Game
from koth.core.record import GameRecord, replay
from koth.games.board.cli import play_board
from koth.games.cards.cli import play_cards
from koth.games.quiz.cli import quiz_app
from koth.games.terminal import RANDOM, Opponent, PlayServices
from koth.server.cli import serve_command
from koth.sim.cli import simulate_command

app = typer.Typer(
    help="King of the Hill: three games, one platform.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
play_app = typer.Typer(help="Play a game in the terminal.", no_args_is_help=True)
app.add_typer(play_app, name="play")
play_app.command("cards")(play_cards)
play_app.command("board")(play_board)
app.command("simulate")(simulate_command)
app.add_typer(quiz_app, name="quiz")
app.command("serve")(serve_command)
app.command("analyze")(analyze_command)

console = Console()
errors = Console(stderr=True)

#: exit code for input that breaks the rules or is malformed
EXIT_BAD_INPUT = 2


def _version(value: bool) -> None:
    if value:
        from koth.build import build_kind

        console.print(f"koth {__version__} ({build_kind()})")
        raise typer.Exit()


def make_opponent(spec: str, game: Game[Any, Any, Any], seat: int, seed: int | None) -> Opponent:
    """The computer seat ``spec`` (an agent spec such as ``ismcts:seconds=1``), for the
    play commands. Raises InvalidParamsError naming the agent when the spec is unknown
    or malformed."""
    if spec == RANDOM:
        return random_policy
    return make_policy(spec, game, seat, seed)


@app.callback()
def main_options(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """King of the Hill: rules engines, terminal and web play, agents and quiz hosting."""
    # the play commands sit below the agents: this layer hands them their opponents
    ctx.obj = PlayServices(make_opponent)


@app.command("replay")
def replay_command(
    record_file: Annotated[Path, typer.Argument(metavar="RECORD.json", help="A game record.")],
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Validate a game record, replay it and print the final state.

    An illegal move is reported with its index and the rule it breaks (exit code 2).
    """
    try:
        record = GameRecord.load(record_file)
        state = replay(record)
    except RecordError as exc:
        if as_json:
            payload: dict[str, Any] = {"ok": False, "error": str(exc), "index": exc.index}
            payload["rule"] = exc.rule
            console.print_json(json.dumps(payload))
        else:
            errors.print(f"[bold red]error:[/] {exc}", highlight=False)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    outcome = state.outcome()
    if as_json:
        console.print_json(
            json.dumps(
                {
                    "ok": True,
                    "game": state.game.name,
                    "params": state.game.params.to_json(),
                    "moves": state.num_moves,
                    "terminal": state.is_terminal(),
                    "outcome": outcome.to_json() if outcome else None,
                    "returns": list(state.returns()),
                    "state": state.game.state_to_json(state.data),
                }
            )
        )
        return
    console.print(
        f"[bold]{state.game.name}[/] ({state.game.describe_params()}): "
        f"{state.num_moves} moves replayed",
        highlight=False,
    )
    # A record holds every secret already, so the replay shows the table as a spectator
    # would see it at the end, plus the outcome.
    console.print(state.render(None), highlight=False)
    console.print(str(outcome) if outcome else "the game is not finished", highlight=False)


def main() -> None:
    app()
