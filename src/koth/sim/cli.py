"""``koth simulate``: a tournament between agents, with a report."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Annotated, Any, NoReturn

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

from koth.build import notice_pure_build
from koth.core.errors import InvalidParamsError, KothError
from koth.games.terminal import SetOpt, fail, json_or_text, parse_settings, require_extra
from koth.sim.compare import cross_settings, setting_label, write_comparison
from koth.sim.ray_backend import RayUnavailableError
from koth.sim.report import write_results
from koth.sim.runner import (
    GameSummary,
    Tournament,
    TournamentConfig,
    prepare,
    run_comparison,
    run_tournament,
)

console = Console()


def parse_params(pairs: list[str] | None) -> dict[str, Any]:
    """``["num_players=3", "countdown=true"]`` -> a dict, as ``koth play --set`` reads
    them."""
    return parse_settings(pairs or [])


def parse_compare(options: list[str] | None, params: dict[str, Any]) -> dict[str, list[Any]]:
    """``["jokers=2,3", "tens_equal=false,true"]`` -> each parameter's values in order
    (read as ``--param`` reads them); a parameter named twice, or also set by
    ``--param``, is refused."""
    axes: dict[str, list[Any]] = {}
    for option in options or []:
        name, sep, values = option.partition("=")
        name = name.strip()
        texts = [v.strip() for v in values.split(",") if v.strip()]
        if not sep or not name or not texts:
            raise InvalidParamsError(f"--compare {option!r} is not NAME=VALUE1,VALUE2,...")
        if name in axes or name in params:
            where = "--compare" if name in axes else "--set"
            raise InvalidParamsError(f"--compare {name} is already set by {where}")
        parsed = [json_or_text(text) for text in texts]
        if len({json.dumps(v) for v in parsed}) < len(parsed):
            raise InvalidParamsError(f"--compare {name} names a value twice: {values}")
        axes[name] = parsed
    return axes


def simulate_command(
    game: Annotated[str, typer.Argument(help="Registered game name: cards, board...")],
    agents: Annotated[
        str,
        typer.Option(
            "--agents",
            metavar="SPEC,SPEC,...",
            help="Agent specs, one per seat, comma-separated: random, heuristic, "
            "mcts:iters=500, ismcts:seconds=1 (docs/agents.md).",
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
    set_options: SetOpt = None,
    param: Annotated[list[str] | None, typer.Option("--param", hidden=True)] = None,
    compare: Annotated[
        list[str] | None,
        typer.Option(
            "--compare",
            metavar="NAME=V1,V2",
            help="Compare variants: NAME=VALUE1,VALUE2,... plays the same seeds under each "
            "value of game parameter NAME and reports the differences; repeated, the "
            "settings are crossed.",
        ),
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
            metavar="MODULE",
            help="Import this module first (to register more games); the current "
            "folder is searched too.",
        ),
    ] = None,
) -> None:
    """Play a tournament between agents and write results.json and report.md.

    Seats rotate so that every agent plays every seat equally often. Ctrl-C (or
    SIGTERM) stops the tournament, stops its workers and writes the games finished so
    far.
    """
    _preflight()
    notice_pure_build()
    if modules and "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # like `python -m`: modules of the current folder
    base = TournamentConfig(
        game=game,
        agents=tuple(s.strip() for s in agents.split(",") if s.strip()),
        games=games,
        seed=seed,
        workers=workers,
        params=parse_params([*(param or []), *(set_options or [])]),
        max_decisions=max_decisions,
        imports=tuple(modules or ()),
        backend=backend,
        ray_address=ray_address,
    )
    try:
        settings = {
            setting_label(s): s for s in cross_settings(parse_compare(compare, dict(base.params)))
        }
        variants = {
            label: prepare(replace(base, params={**base.params, **setting}))
            for label, setting in settings.items()
        }
    except (KothError, ImportError) as exc:
        _fail(exc)
    folder = out if out is not None else Path("simulations") / game
    if settings == {"": {}}:
        tournament = _play_with_progress(
            lambda hook: {"": run_tournament(variants[""], hook)}, variants
        )[""]
        with console.status("writing the report (charts, Elo intervals)"):
            write_results(tournament, folder)
        _summarise([tournament], folder)
    else:
        tournaments = _play_with_progress(lambda hook: run_comparison(variants, hook), variants)
        with console.status("writing the comparison and each variant's report"):
            write_comparison(tournaments, settings, folder)
        _summarise(list(tournaments.values()), folder)


def _preflight() -> None:
    """What the report needs, checked before any game is played."""
    require_extra("koth simulate", "sim", ("numpy", "matplotlib", "scipy"))


def _fail(exc: Exception) -> NoReturn:
    raise fail(str(exc)) from None


def _play_with_progress(
    play: Callable[[Callable[[GameSummary], None]], dict[str, Tournament]],
    variants: dict[str, TournamentConfig],
) -> dict[str, Tournament]:
    """Run ``play`` under a progress bar per variant (one for a single tournament), each
    showing its agents' sole wins so far."""
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
    tasks = {}
    wins: dict[str, dict[str, int]] = {}
    for label, config in variants.items():
        tasks[label] = progress.add_task(label or config.game, total=config.games, wins="")
        wins[label] = dict.fromkeys(config.labels, 0)

    def advance(summary: GameSummary) -> None:
        label = summary.get("variant", "")
        if len(summary["winner_agents"]) == 1:
            wins[label][summary["winner_agents"][0]] += 1
        # one word per agent, so a wrapped tally never parts a name from its count
        shown = "  ".join(f"{name}={count}" for name, count in wins[label].items())
        progress.update(tasks[label], advance=1, wins=f"wins: {shown}")

    with progress, _terminate_as_interrupt():
        try:
            return play(advance)
        except RayUnavailableError as exc:
            progress.stop()
            _fail(exc)


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM stops the tournament as Ctrl-C does: the workers are stopped (none is
    left behind) and the games finished so far are kept."""

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread (an embedding app): leave SIGTERM alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _summarise(tournaments: list[Tournament], folder: Path) -> None:
    finished = sum(len(t.games) for t in tournaments)
    if any(t.interrupted for t in tournaments):
        console.print(
            f"[yellow]interrupted:[/] kept {finished} finished game(s)",
            highlight=False,
        )
    console.print(
        f"{finished} games in {tournaments[0].seconds:.1f} s: "
        f"{folder / 'results.json'}, {folder / 'report.md'}",
        highlight=False,
    )
