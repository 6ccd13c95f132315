"""The win-chance chart of an analysis (matplotlib, written to a PNG, SVG or PDF file)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from koth.analysis.engine import GameAnalysis, Mark
from koth.core.players import seat_name

#: a colour per seat (colour-blind safe), and one per marked kind of move
SEAT_COLOURS: Final = ("#0072b2", "#d55e00", "#009e73", "#cc79a7")
MARK_STYLE: Final = {Mark.BLUNDER: ("#c00000", "X", 90), Mark.MISTAKE: ("#e69f00", "o", 45)}


def write_chart(analysis: GameAnalysis, path: Path) -> None:
    """Each analysed seat's estimated win chance at its decisions over the game's moves,
    blunders and mistakes marked, the final result at the last move."""
    import matplotlib

    matplotlib.use("Agg")  # a file only: no display on servers or over ssh
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8.0, 3.8))
    for seat in analysis.seats:
        colour = SEAT_COLOURS[seat.seat % len(SEAT_COLOURS)]
        xs = [d.move for d in seat.decisions] + [analysis.moves]
        ys = [100 * d.win_chance for d in seat.decisions] + [100 * seat.result]
        ax.plot(
            xs, ys, color=colour, marker=".", drawstyle="steps-post", label=seat_name(seat.seat)
        )
        for mark, (colour_of_mark, marker, size) in MARK_STYLE.items():
            hits = [d for d in seat.decisions if d.mark is mark]
            ax.scatter(
                [d.move for d in hits],
                [100 * d.win_chance for d in hits],
                color=colour_of_mark,
                marker=marker,
                s=size,
                zorder=3,
                label=f"{mark.label} ({mark.value})"
                if hits and seat is analysis.seats[0]
                else None,
            )
    ax.set_ylim(-2, 102)
    # from the first decision analysed (chance and forced moves before it show nothing)
    first = min((d.move for seat in analysis.seats for d in seat.decisions), default=0)
    start = max(0, first - 1)
    ax.set_xlim(start, max(start + 1, analysis.moves))
    ax.axhline(50, color="#999999", linewidth=0.8, linestyle=":")
    ax.set_xlabel("move of the game")
    ax.set_ylabel("estimated win chance (%)")
    ax.set_title(f"{analysis.game}: win chance by {analysis.agent}")
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
