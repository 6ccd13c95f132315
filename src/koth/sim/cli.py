"""``koth simulate``: a tournament between agents, with a report."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Column

from koth.core.errors import KothError
from koth.sim.ray_backend import RayUnavailableError
from koth.sim.report import write_results
from koth.sim.runner import GameSummary, TournamentConfig, prepare, run_tournament

console = Console()
errors = Console(stderr=True)

EXIT_BAD_INPUT = 2


def parse_params(pairs: list[str] | None) -> dict[str, Any]:
    """``["num_players=3", "countdown=true"]`` -> a dict; values read as JSON when they
    parse (numbers, true/false), else kept as text."""
    params: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"{pair!r} is not key=value", param_hint="--param")
        try:
            params[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            params[key.strip()] = value
    return params


def simulate_command(
    game: Annotated[str, typer.Argument(help="Registered game name: cards, board...")],
    agents: Annotated[
        str,
        typer.Option(
            "--agents",
            help="Comma-separated agent specs, one per seat: random, heuristic, "
            "mcts:iters=500, ismcts:seconds=1:rollout=heuristic ...",
        ),
    ],
    games: Annotated[int, typer.Option("--games", min=1, help="Games to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Master seed of the tournament.")] = 0,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="Parallel worker processes.")
    ] = 1,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Output folder (default: simulations/GAME)."),
    ] = None,
    param: Annotated[
        list[str] | None,
        typer.Option("--param", help="Game parameter key=value (repeatable)."),
    ] = None,
    max_decisions: Annotated[
        int,
        typer.Option("--max-decisions", min=1, help="Stop a game as a draw after this many."),
    ] = 20_000,
    backend: Annotated[
        str,
        typer.Option(
            "--backend",
            help="Where games run: processes (a local pool of --workers) or ray (a local "
            "Ray instance with --workers CPUs, or the cluster at --ray-address).",
        ),
    ] = "processes",
    ray_address: Annotated[
        str | None,
        typer.Option("--ray-address", help="Ray cluster to run on (auto, ray://host:10001, ...)."),
    ] = None,
    modules: Annotated[
        list[str] | None,
        typer.Option(
            "--import",
            help="Import this module first (to register more games); the current "
            "folder is searched too.",
        ),
    ] = None,
) -> None:
    """Play a tournament between agents and write results.json and report.md.

    Seats rotate so that every agent plays every seat equally often. Ctrl-C stops the
    tournament and writes the games finished so far.
    """
    specs = tuple(s.strip() for s in agents.split(",") if s.strip())
    if modules and "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # like `python -m`: modules of the current folder
    try:
        config = prepare(
            TournamentConfig(
                game=game,
                agents=specs,
                games=games,
                seed=seed,
                workers=workers,
                params=parse_params(param),
                max_decisions=max_decisions,
                imports=tuple(modules or ()),
                backend=backend,
                ray_address=ray_address,
            )
        )
    except (KothError, ImportError) as exc:
        errors.print(f"[bold red]error:[/] {exc}", highlight=False)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    folder = out if out is not None else Path("simulations") / game
    wins: dict[str, int] = dict.fromkeys(config.labels, 0)
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(bar_width=20),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        # the tally grows with the agents: it wraps rather than squeezing the bar
        TextColumn("{task.fields[wins]}", table_column=Column(overflow="fold")),
        console=console,
    )

    with progress:
        task = progress.add_task(f"{game}", total=config.games, wins="")

        def advance(summary: GameSummary) -> None:
            for name in summary["winner_agents"]:
                if len(summary["winner_agents"]) == 1:
                    wins[name] += 1
            # one word per agent, so a wrapped tally never parts a name from its count
            shown = "  ".join(f"{name}={count}" for name, count in wins.items())
            progress.update(task, advance=1, wins=f"wins: {shown}")

        try:
            tournament = run_tournament(config, advance)
        except RayUnavailableError as exc:
            errors.print(f"[bold red]error:[/] {exc}", highlight=False)
            raise typer.Exit(EXIT_BAD_INPUT) from None
    write_results(tournament, folder)
    if tournament.interrupted:
        console.print(
            f"[yellow]interrupted:[/] kept {len(tournament.games)} finished game(s)",
            highlight=False,
        )
    console.print(
        f"{len(tournament.games)} games in {tournament.seconds:.1f} s: "
        f"{folder / 'results.json'}, {folder / 'report.md'}",
        highlight=False,
    )
