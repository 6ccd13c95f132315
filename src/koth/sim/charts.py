"""The PNG charts of tournament reports (matplotlib, drawn to files only).

Every chart is sized for the page it is printed on (about 700 px wide at 100 dpi):
labels sit horizontally, long category lists run down the side of horizontal bars
rather than along a wide axis, and counts get whole-number ticks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

#: one colour per series (agents or variants), the matplotlib "tab10" order
COLOURS = (
    "#4c72b0",
    "#dd8452",
    "#55a868",
    "#c44e52",
    "#8172b3",
    "#937860",
    "#da8bc3",
    "#8c8c8c",
    "#ccb974",
    "#64b5cd",
)
DPI = 100
WIDTH = 7.0

#: (value, low, high) of one bar; NaN ends draw no error bar
Estimate = tuple[float, float, float]


def pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # files only: no display in workers, CI or over ssh
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path, *, top: float = 1.0, bottom: float = 0.0) -> None:
    """Write the figure; ``top`` and ``bottom`` (0..1) keep the space above the charts
    for a figure title and below them for a figure legend."""
    fig.tight_layout(rect=(0, bottom, 1, top))
    fig.savefig(path, dpi=DPI)
    pyplot().close(fig)


def _errors(estimates: Sequence[Estimate]) -> list[list[float]]:
    """Matplotlib's asymmetric error bars; a missing end draws none."""
    below = [0.0 if math.isnan(lo) else max(0.0, v - lo) for v, lo, _ in estimates]
    above = [0.0 if math.isnan(hi) else max(0.0, hi - v) for v, _, hi in estimates]
    return [below, above]


def grouped_bars(
    path: Path,
    title: str,
    groups: Sequence[str],
    series: Mapping[str, Sequence[Estimate]],
    ylabel: str,
    *,
    share: bool = False,
    reference: float | None = None,
) -> None:
    """Vertical bars, one group per name in ``groups`` and one bar per series in each,
    with their intervals; ``share`` fixes the axis at 0..1, ``reference`` draws a line."""
    plt = pyplot()
    count = max(1, len(series))
    width = 0.8 / count
    fig, ax = plt.subplots(figsize=(min(WIDTH, max(4.5, 1.1 * len(groups) * count + 2)), 3.6))
    for k, (name, estimates) in enumerate(series.items()):
        xs = [x - 0.4 + width * (k + 0.5) for x in range(len(groups))]
        values = [0.0 if math.isnan(v) else v for v, _, _ in estimates]
        ax.bar(
            xs,
            values,
            width,
            yerr=_errors(estimates),
            capsize=4,
            color=COLOURS[k % len(COLOURS)],
            label=name if len(series) > 1 else None,
        )
    ax.set_xticks(range(len(groups)), _wrapped(groups))
    if share:
        ax.set_ylim(0, 1)
        ax.yaxis.set_major_formatter(_percent_formatter())
    if reference is not None:
        ax.axhline(reference, color="grey", linewidth=0.8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    if len(series) > 1:
        ax.legend(fontsize=8)
    _save(fig, path)


def dots(
    path: Path,
    title: str,
    estimates: Mapping[str, Estimate],
    xlabel: str,
    *,
    reference: float | None = None,
) -> None:
    """One row per name: a dot at its value and a line over its interval (for values,
    such as Elo, that a bar from zero would misrepresent)."""
    plt = pyplot()
    names = list(estimates)
    fig, ax = plt.subplots(figsize=(6.0, max(1.8, 0.45 * len(names) + 1.1)))
    values = [estimates[n] for n in names]
    ax.errorbar(
        [v for v, _, _ in values],
        range(len(names)),
        xerr=_errors(values),
        fmt="o",
        capsize=5,
        color=COLOURS[0],
    )
    ax.set_yticks(range(len(names)), names)
    ax.set_ylim(-0.6, len(names) - 0.4)
    ax.invert_yaxis()
    if reference is not None:
        ax.axvline(reference, color="grey", linewidth=0.8)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    _save(fig, path)


def horizontal_bars(
    path: Path,
    title: str,
    categories: Sequence[str],
    series: Mapping[str, Sequence[float]],
    xlabel: str,
) -> None:
    """Horizontal bars, one row per category (read top down) and one bar per series:
    long category lists stay readable."""
    plt = pyplot()
    count = max(1, len(series))
    height = 0.8 / count
    fig, ax = plt.subplots(figsize=(WIDTH, max(2.5, 0.22 * len(categories) * count + 1.4)))
    for k, (name, values) in enumerate(series.items()):
        ys = [y - 0.4 + height * (k + 0.5) for y in range(len(categories))]
        ax.barh(ys, values, height, color=COLOURS[k % len(COLOURS)], label=name)
    ax.set_yticks(range(len(categories)), categories, fontsize=9)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    # under the chart, where no bar can be: long bars reach the right edge
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=8, loc="lower center", ncol=min(4, count))
    _save(fig, path, bottom=0.4 / fig.get_figheight())


def histogram(path: Path, title: str, series: Mapping[str, Sequence[int]], xlabel: str) -> None:
    """Counts of whole numbers (game lengths, rounds): bins on whole numbers, integer
    ticks; several series are drawn as outlines over each other."""
    plt = pyplot()
    from matplotlib.ticker import MaxNLocator

    values = [v for vs in series.values() for v in vs]
    low, high = min(values), max(values)
    step = max(1, math.ceil((high - low + 1) / 30))
    edges = [low - 0.5 + step * k for k in range(math.ceil((high - low + 1) / step) + 1)]
    fig, ax = plt.subplots(figsize=(6.0, 3.6))
    for k, (name, data) in enumerate(series.items()):
        colour = COLOURS[k % len(COLOURS)]
        if len(series) == 1:
            ax.hist(data, bins=edges, color=colour)
        else:
            ax.hist(data, bins=edges, histtype="step", linewidth=1.6, color=colour, label=name)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title)
    if len(series) > 1:
        ax.legend(fontsize=8)
    _save(fig, path)


def boxes(path: Path, title: str, series: Mapping[str, Sequence[float]], ylabel: str) -> None:
    """One box per series (median, quartiles, whiskers at 1.5 IQR, outliers as dots):
    distributions side by side, which overlaid histograms would hide."""
    plt = pyplot()
    names = list(series)
    fig, ax = plt.subplots(figsize=(min(WIDTH, max(5.0, 1.2 * len(names) + 2.5)), 3.6))
    parts = ax.boxplot([list(series[n]) for n in names], showmeans=True)
    ax.set_xticks(range(1, len(names) + 1), _wrapped(names))
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    # what the marks of a box mean, in the chart itself
    handles = [parts["boxes"][0], parts["medians"][0], parts["means"][0]]
    labels = ["middle half of the games", "median", "mean"]
    if any(len(f.get_xdata()) for f in parts["fliers"]):
        handles.append(next(f for f in parts["fliers"] if len(f.get_xdata())))
        labels.append("beyond 1.5 box lengths")
    ax.legend(handles, labels, fontsize=7, loc="best")
    _save(fig, path)


def lines(path: Path, title: str, series: Mapping[str, Sequence[float]], ylabel: str) -> None:
    """One line per series over rounds (points over time)."""
    plt = pyplot()
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(6.0, 3.8))
    for k, (name, values) in enumerate(series.items()):
        ax.plot(range(len(values)), values, label=name, color=COLOURS[k % len(COLOURS)])
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("round")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    _save(fig, path)


def small_multiples(
    path: Path,
    title: str,
    panels: Mapping[str, Mapping[str, Estimate]],
    *,
    shares: Sequence[str] = (),
) -> None:
    """One small bar chart per panel (a figure such as "rounds to win"), one bar per
    series (variant) in each, with intervals; ``shares`` name the panels in 0..1."""
    plt = pyplot()
    columns = 2
    rows = max(1, math.ceil(len(panels) / columns))
    fig, axes = plt.subplots(rows, columns, figsize=(WIDTH, 2.2 * rows + 0.6), squeeze=False)
    for ax, (panel, estimates) in zip(axes.flat, panels.items(), strict=False):
        names = list(estimates)
        values = [estimates[n] for n in names]
        heights = [0.0 if math.isnan(v) else v for v, _, _ in values]
        ax.bar(
            range(len(names)),
            heights,
            yerr=_errors(values),
            capsize=4,
            color=[COLOURS[k % len(COLOURS)] for k in range(len(names))],
        )
        ax.set_xticks(range(len(names)), [str(k + 1) for k in range(len(names))], fontsize=8)
        ax.set_title(panel, fontsize=9)
        ax.tick_params(axis="y", labelsize=8)
        if panel in shares:
            ax.set_ylim(0, 1)
            ax.yaxis.set_major_formatter(_percent_formatter())
        ax.grid(axis="y", alpha=0.3)
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    fig.suptitle(title, fontsize=11)
    # the bars are numbered; the legend names each number's series
    names = list(next(iter(panels.values()), {}))
    if names:
        from matplotlib.patches import Patch

        handles = [Patch(color=COLOURS[k % len(COLOURS)]) for k in range(len(names))]
        fig.legend(
            handles,
            [f"{k + 1}: {name}" for k, name in enumerate(names)],
            fontsize=8,
            loc="lower center",
            ncol=min(3, len(names)),
        )
    _save(fig, path, top=1 - 0.35 / (2.2 * rows + 0.6), bottom=0.5 / (2.2 * rows + 0.6))


def _percent_formatter() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(xmax=1.0, decimals=0)


def _wrapped(labels: Sequence[str], width: int = 14) -> list[str]:
    """Long labels broken over lines at spaces, so they need not be slanted; a word
    (``ismcts:iters=200``, ``jokers=2``) is never broken, however long."""
    import textwrap

    return [
        "\n".join(textwrap.wrap(label, width, break_long_words=False, break_on_hyphens=False))
        or label
        for label in labels
    ]
