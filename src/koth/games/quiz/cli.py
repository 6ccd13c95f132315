"""``koth quiz``: offline scoring of a quiz game protocol, and checking question packs."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from koth.core.errors import KothError
from koth.games.quiz.explain import explain
from koth.games.quiz.pack import (
    AUDIO_MAX_BYTES,
    PICTURE_MAX_BYTES,
    VIDEO_MAX_BYTES,
    FileLimits,
    PackError,
    check_media,
    check_picture,
    pack_form,
    parse_pack,
)
from koth.games.quiz.protocol import (
    PartResult,
    ProtocolResult,
    load_protocol,
    result_json,
    score_protocol,
)
from koth.games.quiz.render import pack_table, situation_table, tie_lines
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
    protocols: list[Path] = typer.Argument(
        ..., metavar="PROTOCOL...", help="Protocols of played games (JSON), one or more."
    ),
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
    """Score each PROTOCOL and print the game situation after its last question.

    Every protocol is read and scored before anything is printed: one that is wrong
    stops the command with its error (exit status 2). With several protocols, --json
    prints a list of their situations in the order given.
    """
    scored = []
    for protocol in protocols:
        try:
            result = score_protocol(load_protocol(protocol))
            data = result_json(result, after, part_name)
            chosen = result.part(part_name)
        except KothError as exc:
            message = str(exc)
            named = len(protocols) == 1 or str(protocol) in message
            raise fail(message if named else f"{protocol}: {message}") from None
        if show_explain and as_json:
            data["explain"] = {
                p.name: explain(p.state, after if p is chosen else None) for p in result.parts
            }
        scored.append((protocol, result, data, chosen))
    if as_json:
        documents = [data for _, _, data, _ in scored]
        shown = documents[0] if len(documents) == 1 else documents
        typer.echo(json.dumps(shown, indent=2, ensure_ascii=False))
        return
    console = Console(width=width)
    for protocol, result, _, chosen in scored:
        if len(scored) > 1:
            console.rule(str(protocol), style="bold")
        _print_situation(console, result, chosen, after, part_name, show_explain)
    console.print(SPUR_LEGEND, markup=False, highlight=False)


def _print_situation(
    console: Console,
    result: ProtocolResult,
    chosen: PartResult,
    after: int | None,
    part_name: str | None,
    show_explain: bool,
) -> None:
    # a part named with --part is shown alone; otherwise every part, in order
    for part in [chosen] if part_name is not None else result.parts:
        shown = part is chosen
        if show_explain:
            if len(result.parts) > 1:
                console.print(f"[bold]{part.name}[/bold]")
            for line in explain(part.state, after if shown else None):
                console.print(_hanging(line))
        s = situation(part.state, after if shown else None)
        title = part.name if len(result.parts) > 1 else None
        console.print(situation_table(s, title))
        for line in tie_lines(s):
            console.print(line, markup=False, highlight=False)


def _hanging(line: str) -> Table | Text:
    """``line`` wrapped under its own first word: a team's line stays indented."""
    indent = len(line) - len(line.lstrip())
    if not indent:
        return Text(line)
    grid = Table.grid()
    grid.add_column(width=indent)
    grid.add_column(overflow="fold")
    grid.add_row("", Text(line.lstrip()))
    return grid


def _pack_file(pack_file: Path, name: str) -> bytes | None:
    """The bytes of file ``name`` next to the pack (None: there is none)."""
    path = pack_file.parent / name
    return path.read_bytes() if path.is_file() else None


pack_app = typer.Typer(help="Question packs (CSV, JSON or YAML).", no_args_is_help=True)
quiz_app.add_typer(pack_app, name="pack")


@pack_app.command("check", cls=KothCommand)
def pack_check(
    file: Path = typer.Argument(..., help="A pack file (.csv, .json, .yaml or .yml)."),
    picture_bytes: int = typer.Option(
        PICTURE_MAX_BYTES,
        "--picture-bytes",
        help="The largest picture accepted (bytes); the default is the server's "
        "(its quiz_picture_bytes setting): give that setting's value if the server's differs.",
    ),
    audio_bytes: int = typer.Option(
        AUDIO_MAX_BYTES,
        "--audio-bytes",
        help="The largest sound accepted (bytes); the default is the server's "
        "(its quiz_audio_bytes setting).",
    ),
    video_bytes: int = typer.Option(
        VIDEO_MAX_BYTES,
        "--video-bytes",
        help="The largest video accepted (bytes); the default is the server's "
        "(its quiz_video_bytes setting).",
    ),
    width: int | None = typer.Option(
        None, "--width", min=40, help="Columns to draw for (default: the terminal's, 80 piped)."
    ),
) -> None:
    """Check a question pack and print its questions; each error is one line naming the
    line and the field (exit status 2)."""
    try:
        pack = parse_pack(file.read_text(encoding="utf-8"), pack_form(file.name))
    except PackError as exc:
        for problem in exc.problems:
            # a problem of the file as a whole names it already
            shown = problem if problem.startswith(f"{file.name}:") else f"{file.name}: {problem}"
            typer.echo(shown, err=True)
        raise typer.Exit(2) from None
    except (OSError, UnicodeDecodeError) as exc:
        typer.echo(f"{file.name}: cannot be read as UTF-8 text ({exc})", err=True)
        raise typer.Exit(2) from None
    limits = FileLimits(picture=picture_bytes, audio=audio_bytes, video=video_bytes)
    problems = []
    for name in pack.pictures():
        found = check_picture(name, _pack_file(file, name), limits.picture)
        if found.problem is not None:
            problems.append(found.problem)
    for name in pack.media():
        found = check_media(name, _pack_file(file, name), limits)
        if found.problem is not None:
            problems.append(found.problem)
    console = Console(width=width)
    console.print(pack_table(pack))
    for problem in problems:
        typer.echo(f"{file.name}: {problem}", err=True)
    if problems:
        raise typer.Exit(2)
