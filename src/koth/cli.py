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
from koth.core.players import seat_name
from koth.core.record import GameRecord, replay
from koth.games.board.cli import play_board
from koth.games.cards.cli import play_cards
from koth.games.quiz.cli import quiz_app
from koth.games.terminal import (
    EXIT_BAD_INPUT,
    RANDOM,
    KothCommand,
    Opponent,
    PlayServices,
    fail,
)
from koth.server.cli import serve_command
from koth.sim.cli import simulate_command
from koth.train.cli import train_command

app = typer.Typer(
    help="King of the Hill: three games, one platform.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
play_app = typer.Typer(help="Play a game in the terminal.", no_args_is_help=True)
app.add_typer(play_app, name="play")
play_app.command("cards", cls=KothCommand)(play_cards)
play_app.command("board", cls=KothCommand)(play_board)
app.command("simulate", cls=KothCommand)(simulate_command)
app.add_typer(quiz_app, name="quiz")
app.command("serve", cls=KothCommand)(serve_command)
app.command("analyze", cls=KothCommand)(analyze_command)
app.command("train", cls=KothCommand)(train_command)

console = Console()
errors = Console(stderr=True)


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


@app.command("replay", cls=KothCommand)
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
        message = _quiz_hint(record_file) or str(exc)
        if as_json:
            payload: dict[str, Any] = {"ok": False, "error": message, "index": exc.index}
            payload["rule"] = exc.rule
            console.print_json(json.dumps(payload))
            raise typer.Exit(EXIT_BAD_INPUT) from None
        raise fail(message) from None
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
    # A record holds every secret already: the table as a spectator sees it, which at
    # the end of a game is everything
    console.print(state.render(None), highlight=False)
    if outcome is None:
        console.print("the game is not finished", highlight=False)
    else:
        winners = " and ".join(seat_name(p) for p in sorted(outcome.winners)) or "nobody"
        how = outcome.termination.value.replace("_", " ")
        verdict = "draw" if outcome.is_draw else f"{winners} won"
        console.print(f"game over ({how}): {verdict}", highlight=False)


def _quiz_hint(path: Path) -> str:
    """A hint when the file that is no record looks like a quiz protocol."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    if isinstance(doc, dict) and ("teams" in doc or "parts" in doc) and "moves" not in doc:
        return f"{path} is a quiz protocol, not a game record: score it with `koth quiz score`"
    return ""


def main() -> None:
    app()
