"""``results.json`` and ``report.md`` (with PNG charts) for a tournament.

The report is rebuilt from the JSON entries alone (``write_report`` takes the loaded
file's content), so it can be regenerated after the fact.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from koth.build import build_kind
from koth.sim.runner import Tournament
from koth.sim.stats import Tally, fit_elo, pairwise_scores, tally_agents, tally_seats

RESULTS_FORMAT = "koth-sim/1"


def results_document(tournament: Tournament) -> dict[str, Any]:
    config = tournament.config
    return {
        "format": RESULTS_FORMAT,
        "game": config.game,
        "params": dict(config.params),
        "agents": list(config.labels),
        "specs": list(config.agents),
        "seed": config.seed,
        "workers": config.workers,
        "backend": config.backend,
        # the driver's build; local workers inherit it (docs/performance.md)
        "build": build_kind(),
        "max_decisions": config.max_decisions,
        "games_requested": config.games,
        "games_finished": len(tournament.games),
        "interrupted": tournament.interrupted,
        "seconds": round(tournament.seconds, 3),
        "games": tournament.games,
    }


def write_results(tournament: Tournament, out: Path) -> dict[str, Any]:
    out.mkdir(parents=True, exist_ok=True)
    document = results_document(tournament)
    (out / "results.json").write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    write_report(document, out)
    return document


# ------------------------------------------------------------------ charts
def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # files only: no display in workers, CI or over ssh
    import matplotlib.pyplot as plt

    return plt


def _bar_with_intervals(
    path: Path, title: str, names: Sequence[str], tallies: Sequence[Tally], ylabel: str
) -> None:
    plt = _pyplot()
    rates = [t.win_rate for t in tallies]
    low = [max(0.0, r - t.interval()[0]) for r, t in zip(rates, tallies, strict=True)]
    high = [max(0.0, t.interval()[1] - r) for r, t in zip(rates, tallies, strict=True)]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.3 * len(names) + 2), 3.6))
    ax.bar(range(len(names)), rates, yerr=[low, high], capsize=6, color="#4c72b0")
    ax.set_xticks(range(len(names)), names, rotation=15, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _histogram(path: Path, lengths: Sequence[int]) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    ax.hist(lengths, bins=min(30, max(1, len(set(lengths)))), color="#55a868")
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _elo_chart(path: Path, ratings: Mapping[str, float]) -> None:
    plt = _pyplot()
    names = list(ratings)
    fig, ax = plt.subplots(figsize=(max(4.0, 1.3 * len(names) + 2), 3.6))
    ax.bar(range(len(names)), [ratings[n] for n in names], color="#c44e52")
    ax.axhline(1500, color="grey", linewidth=0.8)
    ax.set_xticks(range(len(names)), names, rotation=15, ha="right")
    ax.set_ylabel("Elo (mean 1500)")
    ax.set_title("Elo ratings fitted to the results")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _points_chart(path: Path, series: Mapping[str, list[float]]) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 3.8))
    for name, values in series.items():
        ax.plot(range(len(values)), values, label=name)
    ax.set_xlabel("round")
    ax.set_ylabel("mean points")
    ax.set_title("Points over time (mean over games)")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _usage_chart(path: Path, title: str, usage: Mapping[str, Counter[str]]) -> None:
    plt = _pyplot()
    kinds = sorted({k for counts in usage.values() for k in counts})
    names = list(usage)
    width = 0.8 / max(1, len(names))
    fig, ax = plt.subplots(figsize=(max(5.0, 0.9 * len(kinds) + 2), 3.8))
    for i, name in enumerate(names):
        total = sum(usage[name].values()) or 1
        shares = [usage[name][k] / total for k in kinds]
        ax.bar([x + i * width for x in range(len(kinds))], shares, width, label=name)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(kinds))], kinds, rotation=20)
    ax.set_ylabel("share of the agent's actions")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# ------------------------------------------------------------------ tables
def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def _usage_by_agent(games: Sequence[Mapping[str, Any]], key: str) -> dict[str, Counter[str]]:
    usage: dict[str, Counter[str]] = {}
    for game in games:
        per_seat = game.get("stats", {}).get(key)
        if not per_seat:
            continue
        for seat, counts in enumerate(per_seat):
            usage.setdefault(game["seats"][seat], Counter()).update(counts)
    return usage


def _points_by_agent(games: Sequence[Mapping[str, Any]]) -> dict[str, list[float]]:
    """Mean points per round for each agent; a finished game keeps its final score."""
    runs: dict[str, list[list[float]]] = {}
    for game in games:
        timeline = game.get("stats", {}).get("points_over_time")
        if not timeline:
            continue
        for seat, agent in enumerate(game["seats"]):
            runs.setdefault(agent, []).append([float(points[seat]) for points in timeline])
    means: dict[str, list[float]] = {}
    for agent, series in runs.items():
        length = max(len(s) for s in series)
        padded = [s + [s[-1]] * (length - len(s)) for s in series]
        means[agent] = [statistics.fmean(col) for col in zip(*padded, strict=True)]
    return means


def _usage_table(usage: Mapping[str, Counter[str]]) -> list[str]:
    kinds = sorted({k for counts in usage.values() for k in counts})
    lines = ["| agent | " + " | ".join(kinds) + " |", "|---" * (len(kinds) + 1) + "|"]
    for name, counts in usage.items():
        total = sum(counts.values()) or 1
        cells = [f"{counts[k]} ({_percent(counts[k] / total)})" for k in kinds]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def write_report(document: Mapping[str, Any], out: Path) -> Path:
    """``report.md`` and its PNG charts in ``out``, from a results document."""
    games: list[Mapping[str, Any]] = document["games"]
    agents: list[str] = document["agents"]
    out.mkdir(parents=True, exist_ok=True)
    lines = [
        f"# Tournament: {document['game']}",
        "",
        f"Agents: {', '.join(f'`{a}`' for a in agents)}. Parameters: "
        f"`{json.dumps(document['params'], sort_keys=True)}`. Seed {document['seed']}, "
        f"{document['workers']} worker(s) ({document.get('backend', 'processes')}, koth "
        f"{document.get('build', 'pure Python')}), "
        f"{document['seconds']} s.",
        "",
        f"Games finished: **{len(games)}** of {document['games_requested']}"
        + (
            " (interrupted: the games finished so far are kept)."
            if document["interrupted"]
            else "."
        ),
        "",
    ]
    if not games:
        lines.append("No game finished, so there is nothing to report.")
        path = out / "report.md"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    by_agent = tally_agents(games, agents)
    ratings = fit_elo(pairwise_scores(games), agents) if len(agents) > 1 else {}
    seats = tally_seats(games, len(agents))
    lengths = [int(g["decisions"]) for g in games]
    truncated = sum(1 for g in games if g["truncated"])

    _bar_with_intervals(
        out / "win_rate.png",
        "Win rate per agent (95% Wilson CI)",
        agents,
        [by_agent[a] for a in agents],
        "win rate",
    )
    seat_names = [f"seat {i}" for i in range(len(seats))]
    _bar_with_intervals(
        out / "seat_win_rate.png",
        "Win rate by seat (95% Wilson CI)",
        seat_names,
        seats,
        "win rate",
    )
    _histogram(out / "game_length.png", lengths)
    lines += [
        "## Agents",
        "",
        "A win is being the only winner; no winner (or several) counts as a draw.",
        "",
        "| agent | games | wins | draws | losses | win rate | 95% CI | mean return | Elo |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for a in agents:
        t = by_agent[a]
        low, high = t.interval()
        elo = f"{ratings[a]:.0f}" if a in ratings else "-"
        lines.append(
            f"| `{a}` | {t.games} | {t.wins} | {t.draws} | {t.losses} | {_percent(t.win_rate)} "
            f"| {_percent(low)} - {_percent(high)} | {t.mean_return:+.3f} | {elo} |"
        )
    lines += ["", "![win rate per agent](win_rate.png)", ""]
    if ratings:
        _elo_chart(out / "elo.png", ratings)
        lines += [
            "Elo: Bradley-Terry maximum likelihood over every pair of seats in every game "
            "(one virtual draw per pair of agents as a prior), mean 1500.",
            "",
            "![Elo ratings](elo.png)",
            "",
        ]
    lines += [
        "## Seats",
        "",
        "| seat | games | wins | draws | win rate | 95% CI |",
        "|---|---|---|---|---|---|",
    ]
    for name, t in zip(seat_names, seats, strict=True):
        low, high = t.interval()
        lines.append(
            f"| {name} | {t.games} | {t.wins} | {t.draws} | {_percent(t.win_rate)} "
            f"| {_percent(low)} - {_percent(high)} |"
        )
    lines += ["", "![win rate by seat](seat_win_rate.png)", ""]
    terminations = Counter(str(g["termination"]) for g in games)
    lines += [
        "## Game length",
        "",
        f"Decisions per game: mean {statistics.fmean(lengths):.1f}, median "
        f"{statistics.median(lengths):g}, min {min(lengths)}, max {max(lengths)}; "
        f"{truncated} game(s) stopped at the decision limit. Endings: "
        + ", ".join(f"{k} {v}" for k, v in sorted(terminations.items()))
        + ".",
        "",
        "![game length](game_length.png)",
        "",
    ]
    kinds = _usage_by_agent(games, "action_kinds")
    if kinds:
        _usage_chart(out / "action_kinds.png", "Action kinds used", kinds)
        lines += [
            "## Action kinds",
            "",
            *_usage_table(kinds),
            "",
            "![action kinds](action_kinds.png)",
            "",
        ]
    units = _usage_by_agent(games, "unit_types")
    if units:
        _usage_chart(out / "unit_types.png", "Unit types used (recruited or moved)", units)
        lines += [
            "## Unit types",
            "",
            *_usage_table(units),
            "",
            "![unit types](unit_types.png)",
            "",
        ]
    points = _points_by_agent(games)
    if points:
        _points_chart(out / "points.png", points)
        lines += ["## Points over time", "", "![points over time](points.png)", ""]
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
