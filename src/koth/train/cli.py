"""``koth train cards|board``: self-play training of the learned agent, with a report."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from koth.core.errors import KothError
from koth.games.terminal import SetOpt, fail, parse_settings, require_extra

console = Console()

TRAINABLE = ("cards", "board")


def train_command(
    game: Annotated[str, typer.Argument(help="The game to train for: cards or board.")],
    games: Annotated[
        int,
        typer.Option("--games", min=1, help="Self-play games in all (a resumed run counts on)."),
    ] = 2000,
    hours: Annotated[
        float | None,
        typer.Option("--hours", min=0.0, help="Stop after this many hours of training."),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="Processes playing self-play games.")
    ] = 1,
    backend: Annotated[
        str,
        typer.Option("--backend", help="Where games run: processes (--workers) or ray."),
    ] = "processes",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole run.")] = 1,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="The model file to write (default: GAME.npz here)."),
    ] = None,
    per_round: Annotated[
        int, typer.Option("--per-round", min=1, help="Self-play games between updates.")
    ] = 32,
    eval_games: Annotated[
        int,
        typer.Option("--eval-games", min=1, help="Games per fixed opponent at each evaluation."),
    ] = 20,
    heuristic_share: Annotated[
        float,
        typer.Option(
            "--heuristic-share",
            min=0.0,
            max=1.0,
            help="Share of self-play seats played by the game's heuristic (the rest: the network).",
        ),
    ] = 0.5,
    init: Annotated[
        Path | None,
        typer.Option(
            "--init",
            help="Start the network from this model file (koth train's, same game and shape).",
        ),
    ] = None,
    steps: Annotated[
        int, typer.Option("--steps", min=1, help="Adam steps on the buffer after each round.")
    ] = 64,
    learning_rate: Annotated[
        float, typer.Option("--lr", min=0.0, help="Adam's learning rate.")
    ] = 1e-3,
    buffer: Annotated[
        int, typer.Option("--buffer", min=1, help="Rows the replay buffer keeps (the newest).")
    ] = 40_000,
    sample_rate: Annotated[
        float,
        typer.Option(
            "--sample-rate",
            min=0.0,
            max=1.0,
            help="Share of a game's positions recorded as training rows.",
        ),
    ] = 0.25,
    settings: SetOpt = None,
) -> None:
    """Train the learned agent's network by self-play. Writes MODEL (numpy weights that
    `learned:model=MODEL` plays), MODEL's checkpoint (run the same command again to
    resume after Ctrl-C or a crash) and a report: JSON, loss and score charts."""
    if game not in TRAINABLE:
        raise fail(f"koth train knows {', '.join(TRAINABLE)}, not {game!r}")
    if backend not in ("processes", "ray"):
        raise fail(f"--backend must be processes or ray, not {backend!r}")
    require_extra("koth train", "train", ("torch", "matplotlib"))
    from koth.train.report import write_report
    from koth.train.trainer import (
        TrainConfig,
        fresh_state,
        load_checkpoint,
        save_checkpoint,
        train_round,
    )
    from koth.train.workers import make_player

    model = out or Path(f"{game}.npz")
    model.parent.mkdir(parents=True, exist_ok=True)
    checkpoint = model.with_name(model.name + ".checkpoint")
    params = parse_settings(settings or [])
    config = TrainConfig(
        game,
        seed,
        games,
        params,
        games_per_round=per_round,
        eval_games=eval_games,
        heuristic_share=heuristic_share,
        sample_rate=sample_rate,
        learning_rate=learning_rate,
        steps=steps,
        buffer=buffer,
        init=str(init) if init is not None else None,
    )
    try:
        state = load_checkpoint(config, checkpoint) if checkpoint.exists() else fresh_state(config)
        player, closer = make_player(backend, workers)
    except KothError as exc:
        raise fail(str(exc)) from None
    if state.games:
        console.print(f"resuming from {checkpoint}: {state.games} games played", highlight=False)
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(bar_width=24),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[status]}"),
        console=console,
    )
    started = time.monotonic()
    interrupted = False
    try:
        with progress:
            task = progress.add_task(
                f"{game} self-play", total=games, completed=state.games, status=""
            )
            while state.games < games:
                if hours is not None and time.monotonic() - started >= hours * 3600:
                    break
                for advanced in train_round(state, player):
                    progress.advance(task, advanced)
                save_checkpoint(state, checkpoint)
                last = state.history[-1]
                shown = " ".join(f"{o}={s:.2f}" for o, s in _latest_scores(state).items())
                progress.update(task, status=f"loss {last.loss:.3f} {shown}")
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if closer is not None:
            closer.close()
    if state.history:
        from koth.train.trainer import export

        export(state).save(model)
        paths = write_report(state, model)
        console.print(
            f"{state.games} games, {state.rounds} rounds: {model}; report "
            + ", ".join(str(p) for p in paths),
            highlight=False,
        )
    if interrupted:
        console.print(
            f"[yellow]interrupted:[/] the same command resumes from {checkpoint}", highlight=False
        )
        raise typer.Exit(130)


def _latest_scores(state: object) -> dict[str, float]:
    for record in reversed(getattr(state, "history", [])):
        if record.scores:
            return dict(record.scores)
    return {}
