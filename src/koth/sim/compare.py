"""Variants side by side: one tournament per setting of some game parameters, the same
seeds in each, and one report with every figure per variant and the differences.

``results.json`` of a comparison holds every variant's games; ``report.md`` compares
them (each figure per variant with its 95% interval, and each variant's difference from
the first, paired over the games both played with the same seed), and each variant's
full single report lies in a folder of its own. Both are rebuilt from the JSON alone.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from koth.sim import charts
from koth.sim.facts import Fact, agent_scores, facts_for
from koth.sim.report import (
    estimate_text,
    fact_estimate,
    ordinal,
    run_settings,
    tally_estimates,
    write_report,
)
from koth.sim.runner import Tournament
from koth.sim.stats import (
    false_discovery_adjusted,
    paired_difference,
    paired_p_value,
    tally_agents,
    tally_turn_order,
)

COMPARE_FORMAT = "koth-sim-compare/1"
#: the false discovery rate the compared differences are held to
ALPHA = 0.05

Setting = dict[str, Any]


def cross_settings(axes: Mapping[str, Sequence[Any]]) -> list[Setting]:
    """Every combination of the values of each parameter, the first parameter's values
    varying slowest: ``{"a": [1, 2], "b": [x, y]}`` -> a=1 b=x, a=1 b=y, a=2 b=x...."""
    names = list(axes)
    return [dict(zip(names, values, strict=True)) for values in itertools.product(*axes.values())]


def setting_label(setting: Mapping[str, Any]) -> str:
    """``jokers=2 tens_equal=true``: the parameters as JSON values."""
    return " ".join(f"{name}={json.dumps(value)}" for name, value in setting.items())


def folder_name(label: str) -> str:
    """A variant's folder: its label with anything but letters, digits, ``=._-`` as
    ``_``."""
    return re.sub(r"[^A-Za-z0-9=._-]+", "_", label).strip("_") or "variant"


def comparison_document(
    tournaments: Mapping[str, Tournament], settings: Mapping[str, Setting]
) -> dict[str, Any]:
    first = next(iter(tournaments.values()))
    return {
        "format": COMPARE_FORMAT,
        **run_settings(first),
        "compared": sorted({name for setting in settings.values() for name in setting}),
        "variants": [
            {
                "label": label,
                "setting": settings[label],
                "params": dict(tournament.config.params),
                "games_finished": len(tournament.games),
                "games": tournament.games,
            }
            for label, tournament in tournaments.items()
        ],
    }


def write_comparison(
    tournaments: Mapping[str, Tournament], settings: Mapping[str, Setting], out: Path
) -> dict[str, Any]:
    out.mkdir(parents=True, exist_ok=True)
    document = comparison_document(tournaments, settings)
    (out / "results.json").write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    write_comparison_report(document, out)
    return document


def variant_document(document: Mapping[str, Any], variant: Mapping[str, Any]) -> dict[str, Any]:
    """One variant's part of a comparison as a single tournament's results document."""
    single = {k: v for k, v in document.items() if k not in ("variants", "compared", "format")}
    return {**single, "params": variant["params"], "games": variant["games"]}


# ------------------------------------------------------------------ the report
def _figures(game_name: str, agents: Sequence[str]) -> list[Fact]:
    """Every compared figure: the generic and game facts, then each agent's win rate."""
    wins = [
        Fact(f"{agent} wins", "share", _agent_reader(agent))  # sole wins, per game
        for agent in agents
    ]
    return [*facts_for(game_name), *wins]


def _agent_reader(agent: str) -> Callable[[Mapping[str, Any]], float | None]:
    def read(game: Mapping[str, Any]) -> float | None:
        return agent_scores([game], agent)[int(game["index"])]

    return read


def _difference_text(
    fact: Fact, base: Sequence[Any], other: Sequence[Any], adjusted: float | None
) -> str:
    """The paired difference with its interval; ``**`` when its false-discovery
    adjusted p-value is below 0.05."""
    difference, low, high, pairs = paired_difference(fact.values(base), fact.values(other))
    if not pairs:
        return "-"
    scale, unit = (100.0, " pp") if fact.percent else (1.0, "")
    shown = f"{scale * difference:+.2f}{unit}"
    if math.isnan(low):
        return shown
    marker = " **" if adjusted is not None and adjusted < ALPHA else ""
    return f"{shown} ({scale * low:+.2f} to {scale * high:+.2f}){marker}"


def adjusted_p_values(
    figures: Sequence[Fact], base: Sequence[Any], others: Sequence[Sequence[Any]]
) -> dict[tuple[int, int], float]:
    """The Benjamini-Hochberg adjusted p-value of every difference of the table (figure
    k, variant j), adjusted together: the differences are many tests at once."""
    tested: list[tuple[int, int]] = []
    p_values: list[float] = []
    for k, fact in enumerate(figures):
        for j, games in enumerate(others):
            p = paired_p_value(fact.values(base), fact.values(games))
            if p is not None:
                tested.append((k, j))
                p_values.append(p)
    return dict(zip(tested, false_discovery_adjusted(p_values), strict=True))


def _header(document: Mapping[str, Any]) -> list[str]:
    variants = document["variants"]
    finished = ", ".join(str(v["games_finished"]) for v in variants)
    return [
        f"# Variants compared: {document['game']}",
        "",
        f"Agents: {', '.join(f'`{a}`' for a in document['agents'])}. Compared: "
        f"{', '.join(f'`{name}`' for name in document['compared'])}. Seed "
        f"{document['seed']}: every variant plays the same seeds with the same seating. "
        f"{document['workers']} worker(s) ({document.get('backend', 'processes')}, koth "
        f"{document.get('build', 'pure Python')}), {document['seconds']} s.",
        "",
        f"Games finished per variant: {finished} of {document['games_requested']}"
        + (
            " (interrupted: the games finished so far are kept)."
            if document["interrupted"]
            else "."
        ),
        "",
        "| # | variant | games | full report |",
        "|---|---|---|---|",
        *(
            f"| {k + 1} | `{v['label']}` | {v['games_finished']} "
            f"| [{folder_name(v['label'])}/report.md]({folder_name(v['label'])}/report.md) |"
            for k, v in enumerate(variants)
        ),
        "",
    ]


def _figures_table(document: Mapping[str, Any], figures: Sequence[Fact]) -> list[str]:
    variants = document["variants"]
    base = variants[0]["games"]
    heads = [f"{k + 1}" for k in range(len(variants))]
    heads += [f"{k + 1} - 1" for k in range(1, len(variants))]
    adjusted = adjusted_p_values(figures, base, [v["games"] for v in variants[1:]])
    lines = [
        "## Figures and differences",
        "",
        "Each variant's figure with its 95% interval (Wilson's for a share of games, else "
        "the normal one), then each variant's difference from variant 1, paired over the "
        "games both played with the same seed (a normal 95% interval of the mean "
        "difference; pp: percentage points).",
        "",
        f"The table tests {len(adjusted)} differences at once, so some would look "
        "significant by chance alone: ** marks a difference that stays significant with "
        "the false discovery rate held at 5% over all of them (Benjamini-Hochberg). The "
        "intervals are each 95% on their own.",
        "",
        "| figure | " + " | ".join(heads) + " |",
        "|---" * (len(heads) + 1) + "|",
    ]
    for k, fact in enumerate(figures):
        cells = [estimate_text(fact_estimate(fact, v["games"]), fact.percent) for v in variants]
        cells += [
            _difference_text(fact, base, v["games"], adjusted.get((k, j)))
            for j, v in enumerate(variants[1:])
        ]
        lines.append(f"| {fact.label} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def _charts(document: Mapping[str, Any], figures: Sequence[Fact], out: Path) -> list[str]:
    variants = document["variants"]
    agents: list[str] = document["agents"]
    names = [f"{k + 1}: {v['label']}" for k, v in enumerate(variants)]
    played = [v for v in variants if v["games"]]
    charts.grouped_bars(
        out / "win_rate.png",
        "Win rate per agent and variant (95% Wilson CI)",
        agents,
        {
            name: tally_estimates([tally_agents(v["games"], agents)[a] for a in agents])
            for name, v in zip(names, variants, strict=True)
            if v["games"]
        },
        "win rate",
        share=True,
    )
    seats = len(played[0]["games"][0]["seats"])
    charts.grouped_bars(
        out / "turn_order.png",
        "Win rate by turn order and variant (95% Wilson CI)",
        [f"{ordinal(k + 1)} to move" for k in range(seats)],
        {
            name: tally_estimates(tally_turn_order(v["games"], seats))
            for name, v in zip(names, variants, strict=True)
            if v["games"]
        },
        "win rate",
        share=True,
        reference=1 / seats,
    )
    charts.boxes(
        out / "game_length.png",
        "Decisions per game by variant",
        {
            name: [int(g["decisions"]) for g in v["games"]]
            for name, v in zip(names, variants, strict=True)
            if v["games"]
        },
        "decisions",
    )
    panels = {
        fact.label: {v["label"]: fact_estimate(fact, v["games"]) for v in variants if v["games"]}
        for fact in figures
        if any(value is not None for v in variants for value in fact.values(v["games"]).values())
    }
    charts.small_multiples(
        out / "facts.png",
        "Facts per game by variant (bars numbered as the variants; 95% CI)",
        panels,
        shares=[fact.label for fact in figures if fact.percent],
    )
    return [
        "## Charts",
        "",
        "![win rate per agent and variant](win_rate.png)",
        "",
        "![win rate by turn order and variant](turn_order.png)",
        "",
        "Game length: the box spans the middle half of the games, the line is the "
        "median, the triangle the mean, whiskers reach 1.5 box lengths beyond it.",
        "",
        "![game length per variant](game_length.png)",
        "",
        "![facts per game by variant](facts.png)",
        "",
    ]


def write_comparison_report(document: Mapping[str, Any], out: Path) -> Path:
    """``report.md`` comparing the variants, its charts, and each variant's own report
    in a folder named after it, from a comparison's results document."""
    out.mkdir(parents=True, exist_ok=True)
    figures = _figures(str(document["game"]), document["agents"])
    lines = _header(document)
    if not any(v["games"] for v in document["variants"]):
        lines.append("No game finished, so there is nothing to compare.")
    else:
        lines += _figures_table(document, figures)
        lines += _charts(document, figures, out)
    for variant in document["variants"]:
        write_report(variant_document(document, variant), out / folder_name(variant["label"]))
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
