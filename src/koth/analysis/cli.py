"""``koth analyze``: a search agent's view of every decision of a recorded game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from koth.analysis.engine import (
    DEFAULT_AGENT,
    THRESHOLDS,
    GameAnalysis,
    Mark,
    analyse_record,
    load_analysable,
)
from koth.build import notice_pure_build
from koth.core.errors import KothError
from koth.core.players import seat_name
from koth.games.terminal import fail, require_extra

console = Console()
errors = Console(stderr=True)

MARK_STYLES = {Mark.BLUNDER: "bold red", Mark.MISTAKE: "yellow", Mark.INACCURACY: "cyan"}


def _fail(message: str) -> Exception:
    """The same error box and exit status as every other command."""
    return fail(message)


def print_analysis(analysis: GameAnalysis) -> None:
    for seat in analysis.seats:
        table = Table(title=f"{analysis.game}, {seat_name(seat.seat)} ({analysis.agent})")
        for heading in ("move", "win %", "played", "after %", "preferred", "drop", ""):
            table.add_column(heading, justify="right" if "%" in heading else "left")
        for d in seat.decisions:
            style = MARK_STYLES.get(d.mark)
            after = f"{100 * d.played_chance:.0f}" + ("" if d.played_searched else "*")
            table.add_row(
                str(d.move),
                f"{100 * d.win_chance:.0f}",
                d.played,
                after,
                "" if d.preferred == d.played else d.preferred,
                f"{100 * d.drop:.0f}" if d.drop else "",
                f"{d.mark.value} {d.mark.label}".strip(),
                style=style,
            )
        console.print(table)
        counts = ", ".join(
            f"{mark.value} {sum(d.mark is mark for d in seat.decisions)}" for mark, _ in THRESHOLDS
        )
        console.print(
            f"{seat_name(seat.seat)}: {len(seat.decisions)} decisions, {counts}; "
            f"final result {100 * seat.result:.0f}%",
            highlight=False,
        )
    console.print(
        "win %: the seat's estimated win chance with the preferred move; after %: with the "
        "move played (*: taken from the seat's next decision, the search hardly tried it); "
        "drop of "
        + ", ".join(
            f"{100 * least:.0f}+ points: {mark.value} {mark.label}" for mark, least in THRESHOLDS
        ),
        highlight=False,
        style="dim",
    )


#: the chart formats ``--out`` accepts (matplotlib writes each without more packages)
CHART_FORMATS = (".png", ".svg", ".pdf")


def _preflight(out: Path | None) -> None:
    """``--out``'s folder, format and packages, checked before any decision is analysed."""
    if out is None:
        return
    if out.suffix.lower() not in CHART_FORMATS:
        allowed = ", ".join(CHART_FORMATS)
        raise _fail(f"cannot write the chart to {out}: name a {allowed} file")
    if not out.parent.is_dir():
        raise _fail(f"cannot write the chart to {out}: no folder {out.parent}")
    require_extra("koth analyze --out", "sim", ("matplotlib",))


def analyze_command(
    record_file: Annotated[
        Path, typer.Argument(metavar="RECORD.json", help="A card or board game record.")
    ],
    agent: Annotated[
        str, typer.Option("--agent", help="The search agent and budget, e.g. ismcts:seconds=1.")
    ] = DEFAULT_AGENT,
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat", metavar="N", help="The seat to analyse, 1 to n (default: every seat)."
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Write the win-chance chart to this file (.png, .svg or .pdf).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the searches.")] = 0,
) -> None:
    """Estimate each decision's win chance from the player's own view, name the move the
    agent prefers and mark the moves that lost most (?? blunder, ? mistake, ?! inaccuracy).
    """
    _preflight(out)
    notice_pure_build()
    try:
        record = load_analysable(str(record_file))
        with Progress(
            TextColumn("analysing"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=errors,
            transient=True,
        ) as bar:
            task = bar.add_task("analysing", total=None)
            analysis = analyse_record(
                record,
                seats=None if seat is None else [seat - 1],
                agent=agent,
                seed=seed,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
    except KothError as exc:
        raise _fail(str(exc)) from None
    except KeyboardInterrupt:
        errors.print("interrupted: nothing was analysed to the end", highlight=False)
        raise typer.Exit(130) from None
    print_analysis(analysis)
    if out is not None:
        from koth.analysis.chart import write_chart

        try:
            write_chart(analysis, out)
        except OSError as exc:
            raise _fail(f"cannot write the chart to {out}: {exc.strerror}") from None
        console.print(f"chart written to {out}", highlight=False)
