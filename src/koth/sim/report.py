"""``results.json`` and ``report.md`` (with PNG charts) for a tournament.

The report is rebuilt from the JSON entries alone (``write_report`` takes the loaded
file's content), so it can be regenerated after the fact.
"""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from koth.build import build_kind
from koth.sim import charts
from koth.sim.collect import listing_order
from koth.sim.facts import Fact, facts_for
from koth.sim.runner import Tournament
from koth.sim.stats import (
    Tally,
    elo_interval,
    first_movers,
    fit_elo,
    mean_interval,
    pairwise_scores,
    tally_agents,
    tally_seats,
    tally_turn_order,
    wilson_interval,
)

RESULTS_FORMAT = "koth-sim/1"


def run_settings(tournament: Tournament) -> dict[str, Any]:
    """What a results document says about how its games were run."""
    config = tournament.config
    return {
        "game": config.game,
        "agents": list(config.labels),
        "specs": list(config.agents),
        "seed": config.seed,
        "workers": config.workers,
        "backend": config.backend,
        # the driver's build; local workers inherit it (docs/performance.md)
        "build": build_kind(),
        "max_decisions": config.max_decisions,
        "games_requested": config.games,
        "interrupted": tournament.interrupted,
        "seconds": round(tournament.seconds, 3),
    }


def results_document(tournament: Tournament) -> dict[str, Any]:
    return {
        "format": RESULTS_FORMAT,
        **run_settings(tournament),
        "params": dict(tournament.config.params),
        "games_finished": len(tournament.games),
        "games": tournament.games,
    }


def write_results(tournament: Tournament, out: Path) -> dict[str, Any]:
    out.mkdir(parents=True, exist_ok=True)
    document = results_document(tournament)
    (out / "results.json").write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    write_report(document, out)
    return document


# ------------------------------------------------------------------ helpers
def percent(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def number(x: float) -> str:
    """Three or four significant digits: 0.35, 12.40, 104.5, 1647."""
    if math.isnan(x):
        return "-"
    return f"{x:.2f}" if abs(x) < 100 else f"{x:.1f}" if abs(x) < 1000 else f"{x:.0f}"


def estimate_text(estimate: tuple[float, float, float], share: bool) -> str:
    """``12.3 (11.0 - 13.6)``: a value and its 95% interval."""
    show = percent if share else number
    value, low, high = estimate
    if math.isnan(low):
        return show(value)
    return f"{show(value)} ({show(low)} - {show(high)})"


def usage_by_agent(games: Sequence[Mapping[str, Any]], key: str) -> dict[str, Counter[str]]:
    """Per agent: a per-seat counts statistic (``action_kinds``...) summed over games."""
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


def kind_order(usage: Mapping[str, Counter[str]], order: Sequence[str]) -> list[str]:
    """The kinds used, in the order the game's collector lists them (see
    ``koth.sim.collect.listing_order``); kinds it does not list come last, by name."""
    rank = {kind: k for k, kind in enumerate(order)}
    used = {kind for counts in usage.values() for kind in counts}
    return sorted(used, key=lambda kind: (rank.get(kind, len(rank)), kind))


def usage_table(
    usage: Mapping[str, Counter[str]], games_per_agent: Mapping[str, int], kinds: Sequence[str]
) -> list[str]:
    """One row per kind, one column per agent: the count per game and the share of the
    agent's own total."""
    names = list(usage)
    lines = [
        "| kind | " + " | ".join(f"`{n}`" for n in names) + " |",
        "|---" * (len(names) + 1) + "|",
    ]
    for kind in kinds:
        cells = []
        for name in names:
            total = sum(usage[name].values()) or 1
            per_game = usage[name][kind] / max(1, games_per_agent.get(name, 1))
            cells.append(f"{per_game:.2f} ({percent(usage[name][kind] / total)})")
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return lines


def tally_table(names: Sequence[str], tallies: Sequence[Tally], heading: str) -> list[str]:
    lines = [
        f"| {heading} | games | wins | draws | losses | win rate | 95% CI |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, t in zip(names, tallies, strict=True):
        low, high = t.interval()
        lines.append(
            f"| {name} | {t.games} | {t.wins} | {t.draws} | {t.losses} "
            f"| {percent(t.win_rate)} | {percent(low)} - {percent(high)} |"
        )
    return lines


def tally_estimates(tallies: Sequence[Tally]) -> list[charts.Estimate]:
    return [(t.win_rate, *t.interval()) for t in tallies]


def fact_estimate(fact: Fact, games: Sequence[Mapping[str, Any]]) -> tuple[float, float, float]:
    """The fact's mean and 95% interval: Wilson's for a share, normal for a mean."""
    values = [v for v in fact.values(games).values() if v is not None]
    if fact.kind == "share" and values:
        return (sum(values) / len(values), *wilson_interval(sum(values), len(values)))
    return mean_interval(values, floor=min(values, default=math.nan))


#: per-seat numbers the collectors record, shown per agent as a mean per game
SEAT_NUMBERS = {
    "cards_won": "cards won",
    "stacks_won": "stacks won",
    "center_turns": "turn ends on the center",
    "forfeited_dice": "forfeited dice",
}


def seat_numbers_by_agent(
    games: Sequence[Mapping[str, Any]], agents: Sequence[str]
) -> dict[str, dict[str, tuple[float, float, float]]]:
    """Per statistic of ``SEAT_NUMBERS`` that the games have: per agent, its mean per
    game with a 95% interval."""
    table: dict[str, dict[str, tuple[float, float, float]]] = {}
    for key, label in SEAT_NUMBERS.items():
        values: dict[str, list[float]] = {a: [] for a in agents}
        for game in games:
            per_seat = game.get("stats", {}).get(key)
            if per_seat is None:
                continue
            for seat, agent in enumerate(game["seats"]):
                values.setdefault(agent, []).append(float(per_seat[seat]))
        if any(values.values()):
            table[label] = {a: mean_interval(v, floor=0.0) for a, v in values.items()}
    return table


# ------------------------------------------------------------------ sections
def _header(document: Mapping[str, Any]) -> list[str]:
    games = document["games"]
    return [
        f"# Tournament: {document['game']}",
        "",
        f"Agents: {', '.join(f'`{a}`' for a in document['agents'])}. Parameters: "
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


def _agents_section(
    games: Sequence[Mapping[str, Any]], agents: Sequence[str], out: Path, seed: int
) -> list[str]:
    by_agent = tally_agents(games, agents)
    ratings = fit_elo(pairwise_scores(games), agents) if len(agents) > 1 else {}
    intervals = elo_interval(games, agents, seed=seed) if ratings else {}
    charts.grouped_bars(
        out / "win_rate.png",
        "Win rate per agent (95% Wilson CI)",
        [f"{a}" for a in agents],
        {"win rate": tally_estimates([by_agent[a] for a in agents])},
        "win rate",
        share=True,
    )
    lines = [
        "## Agents",
        "",
        "A win is being the only winner; no winner (or several) counts as a draw.",
        "",
        "| agent | games | wins | draws | losses | win rate | 95% CI | mean return "
        "| Elo (95% CI) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for a in agents:
        t = by_agent[a]
        low, high = t.interval()
        elo = "-"
        if a in ratings:
            elo = estimate_text((ratings[a], *intervals[a]), share=False).replace(".00", "")
        lines.append(
            f"| `{a}` | {t.games} | {t.wins} | {t.draws} | {t.losses} | {percent(t.win_rate)} "
            f"| {percent(low)} - {percent(high)} | {t.mean_return:+.3f} | {elo} |"
        )
    lines += ["", "![win rate per agent](win_rate.png)", ""]
    if ratings:
        charts.dots(
            out / "elo.png",
            "Elo ratings (95% bootstrap CI)",
            {a: (ratings[a], *intervals[a]) for a in agents},
            "Elo (mean 1500)",
            reference=1500,
        )
        lines += [
            "Elo: Bradley-Terry maximum likelihood over every pair of seats in every game "
            "(one virtual draw per pair of agents as a prior), mean 1500; the interval is "
            "the 2.5th to 97.5th percentile of the fit over 200 resamples of the games, "
            "drawn from the games played plus one pseudo-game won by each agent of every "
            "pair (a prior that keeps the interval open after a sweep).",
            "",
            "![Elo ratings](elo.png)",
            "",
        ]
    return lines


def _turn_order_section(games: Sequence[Mapping[str, Any]], seats: int, out: Path) -> list[str]:
    by_turn = tally_turn_order(games, seats)
    names = [ordinal(k + 1) + " to move" for k in range(seats)]
    recorded = all(g.get("stats", {}).get("turn_order") for g in games)
    charts.grouped_bars(
        out / "turn_order.png",
        "Win rate by turn order (95% Wilson CI)",
        names,
        {"win rate": tally_estimates(by_turn)},
        "win rate",
        share=True,
        reference=1 / seats,
    )
    lines = [
        "## Turn order",
        "",
        "Whoever made the game's first decision, then the others in the game's own turn "
        "order (the board: the turn order dealt with the starting areas; the card game: "
        "the dealer, who chooses the first stack), whichever seat and agent that is."
        if recorded
        else "This game records no turn order: seats are taken to move in seat order.",
        "",
        first_mover_note(games),
        "",
        *tally_table(names, by_turn, "turn order"),
        "",
        "![win rate by turn order](turn_order.png)",
        "",
        "By seat number (which is not the turn order where the game deals it):",
        "",
        *tally_table([f"seat {k}" for k in range(seats)], tally_seats(games, seats), "seat"),
        "",
    ]
    return lines


def first_mover_note(games: Sequence[Mapping[str, Any]]) -> str:
    """Whether the turn-order figures measure the order itself: only when every agent
    moved first equally often; otherwise they mix the order with the agents' strength."""
    movers = first_movers(games)
    agents = sorted({str(a) for g in games for a in g["seats"]})
    counts = [movers.get(a, 0) for a in agents]
    if len(agents) == 1:
        return "One agent holds every seat, so these figures measure the turn order itself."
    listed = ", ".join(f"`{a}` {movers.get(a, 0)}" for a in agents)
    if len(set(counts)) == 1:
        return (
            f"Every agent moved first equally often ({listed} of {len(games)} games), so "
            "these figures measure the turn order itself."
        )
    return (
        f"Confounded: the agents did not move first equally often ({listed} of "
        f"{len(games)} games), so these figures mix the advantage of moving first with "
        "the strength of the agents that did. Play one agent in every seat to measure the "
        "turn order alone."
    )


ORDINALS = ("1st", "2nd", "3rd", "4th")


def ordinal(n: int) -> str:
    return ORDINALS[n - 1] if n <= len(ORDINALS) else f"{n}th"


def _length_section(games: Sequence[Mapping[str, Any]], out: Path) -> list[str]:
    lengths = [int(g["decisions"]) for g in games]
    truncated = sum(1 for g in games if g["truncated"])
    terminations = Counter(str(g["termination"]) for g in games)
    charts.histogram(out / "game_length.png", "Game length", {"games": lengths}, "decisions")
    lines = [
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
    rounds = [int(g["stats"]["rounds"]) for g in games if "rounds" in g.get("stats", {})]
    if rounds:
        charts.histogram(out / "rounds.png", "Rounds per game", {"games": rounds}, "rounds")
        lines += ["![rounds per game](rounds.png)", ""]
    return lines


def _facts_section(games: Sequence[Mapping[str, Any]], game_name: str) -> list[str]:
    lines = [
        "## Facts per game",
        "",
        "Means over the games where the fact applies, with a 95% interval (Wilson's "
        "for a share of games, else the normal one). " + first_mover_note(games),
        "",
        "| fact | games | mean (95% CI) |",
        "|---|---|---|",
    ]
    for fact in facts_for(game_name):
        counted = sum(1 for v in fact.values(games).values() if v is not None)
        shown = estimate_text(fact_estimate(fact, games), fact.percent)
        lines.append(f"| {fact.label} | {counted} | {shown} |")
    return [*lines, ""]


def _per_agent_section(
    games: Sequence[Mapping[str, Any]], agents: Sequence[str], out: Path, game_name: str
) -> list[str]:
    lines: list[str] = []
    numbers = seat_numbers_by_agent(games, agents)
    if numbers:
        lines += [
            "## Per agent and game",
            "",
            "| agent | " + " | ".join(numbers) + " |",
            "|---" * (len(numbers) + 1) + "|",
        ]
        for a in agents:
            cells = [estimate_text(numbers[label][a], share=False) for label in numbers]
            lines.append(f"| `{a}` | " + " | ".join(cells) + " |")
        lines.append("")
    games_per_agent = {a: t.games for a, t in tally_agents(games, agents).items()}
    for key, title, chart in (
        ("action_kinds", "Actions by kind", "action_kinds.png"),
        ("unit_types", "Unit types used (recruited or moved)", "unit_types.png"),
        ("kills", "Kills by unit type", "kills.png"),
        ("units_lost", "Units lost by type", None),
    ):
        usage = usage_by_agent(games, key)
        if not any(usage.values()):
            continue
        kinds = kind_order(usage, listing_order(game_name, key))
        lines += [f"## {title}", "", "Per game (and share of the agent's total).", ""]
        lines += [*usage_table(usage, games_per_agent, kinds), ""]
        if chart is not None:
            charts.horizontal_bars(
                out / chart,
                title,
                kinds,
                {
                    name: [usage[name][k] / max(1, games_per_agent.get(name, 1)) for k in kinds]
                    for name in usage
                },
                "per game",
            )
            lines += [f"![{title.lower()}]({chart})", ""]
    return lines


def _points_section(games: Sequence[Mapping[str, Any]], out: Path) -> list[str]:
    points = _points_by_agent(games)
    if not points:
        return []
    charts.lines(out / "points.png", "Points over time (mean over games)", points, "mean points")
    return ["## Points over time", "", "![points over time](points.png)", ""]


def write_report(document: Mapping[str, Any], out: Path) -> Path:
    """``report.md`` and its PNG charts in ``out``, from a results document."""
    games: list[Mapping[str, Any]] = document["games"]
    agents: list[str] = document["agents"]
    out.mkdir(parents=True, exist_ok=True)
    lines = _header(document)
    if not games:
        lines.append("No game finished, so there is nothing to report.")
    else:
        lines += _agents_section(games, agents, out, int(document["seed"]))
        lines += _turn_order_section(games, len(games[0]["seats"]), out)
        lines += _length_section(games, out)
        lines += _facts_section(games, str(document["game"]))
        lines += _per_agent_section(games, agents, out, str(document["game"]))
        lines += _points_section(games, out)
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
