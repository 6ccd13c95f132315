"""The training report: the history of a run as JSON and two charts (matplotlib)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from koth.core.registry import load_game
from koth.train.trainer import TrainState


def report_paths(model: Path) -> tuple[Path, Path, Path]:
    """The report's JSON, loss chart and score chart beside ``model``."""
    stem = model.with_suffix("")
    return (
        stem.with_name(stem.name + ".report.json"),
        stem.with_name(stem.name + ".loss.png"),
        stem.with_name(stem.name + ".scores.png"),
    )


def write_report(state: TrainState, model: Path) -> tuple[Path, Path, Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data_path, loss_path, score_path = report_paths(model)
    history = state.history
    data = {
        "config": asdict(state.config),
        "games": state.games,
        "rounds": state.rounds,
        "hours": round(state.seconds / 3600, 3),
        "history": [asdict(r) for r in history],
    }
    data_path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([r.games for r in history], [r.loss for r in history])
    ax.set_xlabel("self-play games")
    ax.set_ylabel("value loss (mean squared error)")
    ax.set_title(f"{state.config.game}: training loss")
    fig.tight_layout()
    fig.savefig(loss_path, dpi=100)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 3.5))
    opponents = sorted({o for r in history for o in r.scores})
    for opponent in opponents:
        points = [(r.games, r.scores[opponent]) for r in history if opponent in r.scores]
        ax.plot([g for g, _ in points], [s for _, s in points], marker="o", label=opponent)
    even = 1 / load_game(state.config.game, state.config.params).num_players
    ax.axhline(even, color="grey", lw=0.5)
    ax.set_ylim(0, 1)
    ax.set_xlabel("self-play games")
    ax.set_ylabel("network alone's score")
    ax.set_title(f"{state.config.game}: against fixed opponents")
    if opponents:
        ax.legend()
    fig.tight_layout()
    fig.savefig(score_path, dpi=100)
    plt.close(fig)
    return data_path, loss_path, score_path
