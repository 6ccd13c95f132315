"""``koth quiz``: offline scoring of a quiz game protocol."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console

from koth.core.errors import KothError
from koth.games.quiz.explain import explain
from koth.games.quiz.protocol import load_protocol, result_json, score_protocol
from koth.games.quiz.render import situation_table, tie_lines
from koth.games.quiz.situation import situation
from koth.games.terminal import KothCommand, fail

SPUR_LEGEND = (
    "Spur: 'used' = the team has used a spur (Q4); [3, 7] = its spur cells, shown once "
    "the game is over (Q20)."
)

quiz_app = typer.Typer(help="The quiz game King of the Hill (rules 1.2.2).", no_args_is_help=True)


@quiz_app.callback()
def _quiz() -> None:
    """The quiz game King of the Hill (rules 1.2.2)."""


@quiz_app.command("score", cls=KothCommand)
def score(
    protocol: Path = typer.Argument(..., help="The protocol of a played game (JSON)."),
    as_json: bool = typer.Option(False, "--json", help="Print the situation as JSON."),
    after: int | None = typer.Option(
        None, "--after", help="Show the situation after question N (of the --part shown)."
    ),
    part_name: str | None = typer.Option(
        None,
        "--part",
        help="Semifinal protocols: the part --after and --json's top level refer to "
        "(e.g. 'semifinal 1'); default: the last part.",
    ),
    show_explain: bool = typer.Option(
        False, "--explain", help="Print, per question, what happened to each team and why."
    ),
    width: int | None = typer.Option(
        None, "--width", min=40, help="Columns to draw for (default: the terminal's, 80 piped)."
    ),
) -> None:
    """Score PROTOCOL and print the game situation after its last question."""
    try:
        result = score_protocol(load_protocol(protocol))
        data = result_json(result, after, part_name)
        chosen = result.part(part_name)
    except KothError as exc:
        raise fail(str(exc)) from None
    if as_json:
        if show_explain:
            data["explain"] = {
                p.name: explain(p.state, after if p is chosen else None) for p in result.parts
            }
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    console = Console(width=width)
    # a part named with --part is shown alone; otherwise every part, in order
    for part in [chosen] if part_name is not None else result.parts:
        shown = part is chosen
        if show_explain:
            if len(result.parts) > 1:
                console.print(f"[bold]{part.name}[/bold]")
            for line in explain(part.state, after if shown else None):
                console.print(line, markup=False, highlight=False)
        s = situation(part.state, after if shown else None)
        title = part.name if len(result.parts) > 1 else None
        console.print(situation_table(s, title))
        for line in tie_lines(s):
            console.print(line, markup=False, highlight=False)
    console.print(SPUR_LEGEND, markup=False, highlight=False)
