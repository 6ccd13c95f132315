"""Tournament statistics: Wilson intervals, Elo ratings, tallies per agent and seat.

Everything here works on the JSON game entries of ``results.json`` (see
``koth.sim.runner.GameSummary``), so a report can be rebuilt from the file alone.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

#: the normal quantile of a two-sided 95% interval
Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (0..1 both ends).

    Unlike the normal approximation it stays inside [0, 1] and is sensible at 0 or n
    successes, which tournaments between unequal agents produce all the time.
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def pairwise_scores(
    games: Sequence[Mapping[str, Any]],
) -> dict[tuple[str, str], tuple[float, int]]:
    """For each ordered pair of agents (a, b): (points a scored against b, games).

    A game of n seats counts as one encounter per pair of seats held by different
    agents: a winner beats each non-winner (1 point), two winners or two non-winners
    draw (1/2 each).
    """
    table: dict[tuple[str, str], list[float]] = {}
    for game in games:
        seats: list[str] = game["seats"]
        winners = set(game["winners"])
        for i, j in combinations(range(len(seats)), 2):
            a, b = seats[i], seats[j]
            if a == b:
                continue
            tied = (i in winners) == (j in winners)
            score = 0.5 if tied else float(i in winners)
            for key, points in (((a, b), score), ((b, a), 1 - score)):
                entry = table.setdefault(key, [0.0, 0.0])
                entry[0] += points
                entry[1] += 1
    return {key: (points, int(n)) for key, (points, n) in table.items()}


def fit_elo(
    scores: Mapping[tuple[str, str], tuple[float, int]],
    agents: Sequence[str],
    *,
    prior_draws: float = 1.0,
    mean: float = 1500.0,
    iterations: int = 10_000,
    tolerance: float = 1e-12,
) -> dict[str, float]:
    """Elo ratings that best explain ``scores`` (Bradley-Terry maximum likelihood).

    The MM algorithm of Hunter (2004) fits strengths g so that a beats b with
    probability g_a / (g_a + g_b); Elo is 400 log10 g, shifted to average ``mean``.
    Draws count half a win each way. ``prior_draws`` virtual draws between every pair
    keep an agent that won (or lost) every game at a finite rating; with 0 the fit is
    the plain maximum-likelihood one (an unbeaten agent then diverges).
    """
    names = list(dict.fromkeys(agents))
    points: dict[tuple[str, str], float] = {}
    played: dict[tuple[str, str], float] = {}
    for a, b in combinations(names, 2):
        pa, n = scores.get((a, b), (0.0, 0))
        pb = scores.get((b, a), (0.0, 0))[0]
        points[(a, b)] = pa + prior_draws / 2
        points[(b, a)] = pb + prior_draws / 2
        played[(a, b)] = played[(b, a)] = n + prior_draws
    strength = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        updated: dict[str, float] = {}
        for a in names:
            won = sum(points[(a, b)] for b in names if b != a)
            weight = sum(
                played[(a, b)] / (strength[a] + strength[b])
                for b in names
                if b != a and played[(a, b)] > 0
            )
            updated[a] = won / weight if weight > 0 else strength[a]
        # the scale is free: fix the geometric mean at 1 (guarding against a zero score)
        logs = [math.log(max(v, 1e-300)) for v in updated.values()]
        shift = math.exp(sum(logs) / len(logs))
        updated = {a: max(v, 1e-300) / shift for a, v in updated.items()}
        change = max(abs(math.log(updated[a]) - math.log(strength[a])) for a in names)
        strength = updated
        if change < tolerance:
            break
    return {a: mean + 400 * math.log10(strength[a]) for a in names}


@dataclass
class Tally:
    """Wins, draws and losses of one agent or one seat."""

    games: int = 0
    wins: int = 0
    shared: int = 0
    losses: int = 0
    returns: list[float] = field(default_factory=list)

    @property
    def draws(self) -> int:
        return self.games - self.wins - self.losses

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_return(self) -> float:
        return sum(self.returns) / len(self.returns) if self.returns else 0.0


def _score(tally: Tally, seat: int, game: Mapping[str, Any]) -> None:
    winners = game["winners"]
    tally.games += 1
    tally.returns.append(float(game["returns"][seat]))
    if winners == [seat]:
        tally.wins += 1
    elif seat in winners:
        tally.shared += 1  # a shared win or a draw among leaders: not a (sole) win
    elif winners:
        tally.losses += 1


def tally_agents(games: Sequence[Mapping[str, Any]], agents: Sequence[str]) -> dict[str, Tally]:
    """Per agent: a win is being the sole winner; no winner or several is a draw."""
    tallies = {a: Tally() for a in agents}
    for game in games:
        for seat, agent in enumerate(game["seats"]):
            _score(tallies.setdefault(agent, Tally()), seat, game)
    return tallies


def tally_seats(games: Sequence[Mapping[str, Any]], num_seats: int) -> list[Tally]:
    tallies = [Tally() for _ in range(num_seats)]
    for game in games:
        for seat in range(len(game["seats"])):
            _score(tallies[seat], seat, game)
    return tallies


def moving_order(game: Mapping[str, Any]) -> list[int]:
    """A game's seats in the order they moved, starting with the seat that made the
    game's first decision.

    ``stats.turn_order`` lists the seats in turn order (the board deals it with the
    starting areas; the card game's dealer chooses first); ``stats.first_mover``, where
    the game records it, is the seat that actually moved first, and the order is turned
    to start there. A game with neither is taken to move in seat order.
    """
    stats = game.get("stats") or {}
    order = [int(s) for s in stats.get("turn_order") or range(len(game["seats"]))]
    first = stats.get("first_mover")
    if first is not None and int(first) in order:
        start = order.index(int(first))
        order = order[start:] + order[:start]
    return order


def tally_turn_order(games: Sequence[Mapping[str, Any]], num_seats: int) -> list[Tally]:
    """Per position in the moving order (first to move, second...): the seat that held
    it (see ``moving_order``)."""
    tallies = [Tally() for _ in range(num_seats)]
    for game in games:
        for position, seat in enumerate(moving_order(game)):
            _score(tallies[position], seat, game)
    return tallies


def first_movers(games: Sequence[Mapping[str, Any]]) -> Counter[str]:
    """How many games each agent moved first in."""
    return Counter(str(game["seats"][moving_order(game)[0]]) for game in games)


def elo_interval(
    games: Sequence[Mapping[str, Any]],
    agents: Sequence[str],
    *,
    resamples: int = 200,
    seed: int = 0,
) -> dict[str, tuple[float, float]]:
    """A 95% bootstrap interval of each agent's Elo: the games are drawn again with
    replacement ``resamples`` times and refitted; the 2.5th and 97.5th percentiles.

    The games are drawn from the games played plus two pseudo-games per pair of agents,
    one won by each (a prior, as in the "plus two" intervals of a proportion): without
    it a sweep (one agent won every game) is drawn again as the same sweep every time
    and its interval collapses to one point.

    Games with the same seating and winners score the same, so a resample is drawn as
    how many games of each such kind it holds (one multinomial draw): the cost does
    not grow with the number of games.
    """
    if not games:
        return {a: (math.nan, math.nan) for a in agents}
    import numpy

    kinds = Counter((tuple(g["seats"]), tuple(sorted(g["winners"]))) for g in games)
    names = list(dict.fromkeys(agents))
    for a, b in combinations(names, 2):
        kinds[((a, b), (0,))] += 1  # the prior: a beats b once, b beats a once
        kinds[((a, b), (1,))] += 1
    outcomes = [
        pairwise_scores([{"seats": list(seats), "winners": list(winners)}])
        for seats, winners in kinds
    ]
    population = sum(kinds.values())
    shares = [count / population for count in kinds.values()]
    rng = numpy.random.default_rng(seed)
    samples: dict[str, list[float]] = {a: [] for a in agents}
    for _ in range(resamples):
        drawn: dict[tuple[str, str], tuple[float, int]] = {}
        for scores, count in zip(outcomes, rng.multinomial(len(games), shares), strict=True):
            for pair, (points, played) in scores.items():
                total = drawn.get(pair, (0.0, 0))
                drawn[pair] = (total[0] + points * int(count), total[1] + played * int(count))
        for agent, rating in fit_elo(drawn, agents, tolerance=1e-9).items():
            samples[agent].append(rating)
    return {a: (percentile(v, 0.025), percentile(v, 0.975)) for a, v in samples.items()}


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, interpolating between neighbours."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def mean_interval(
    values: Sequence[float], z: float = Z95, *, floor: float = -math.inf
) -> tuple[float, float, float]:
    """(mean, low, high): the normal 95% interval of a mean; NaN ends below two values.
    ``floor`` is the least value the data can take: the interval does not go below it
    (counts of a skewed distribution would otherwise reach negative numbers)."""
    if not values:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / len(values)
    if len(values) < 2:
        return (mean, math.nan, math.nan)
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    half = z * math.sqrt(variance / len(values))
    return (mean, max(floor, mean - half), mean + half)


def paired_difference(
    base: Mapping[int, float | None], other: Mapping[int, float | None]
) -> tuple[float, float, float, int]:
    """(mean difference other - base, 95% low, high, pairs) over the games both settings
    played with the same seed (matched by game index) where both have a value."""
    differences = [
        float(value) - float(base_value)
        for index, base_value in base.items()
        if base_value is not None and (value := other.get(index)) is not None
    ]
    mean, low, high = mean_interval(differences)
    return (mean, low, high, len(differences))


def paired_p_value(
    base: Mapping[int, float | None], other: Mapping[int, float | None]
) -> float | None:
    """The two-sided p-value of a zero mean paired difference (the normal test that
    matches ``paired_difference``'s interval); None below two pairs."""
    differences = [
        float(value) - float(base_value)
        for index, base_value in base.items()
        if base_value is not None and (value := other.get(index)) is not None
    ]
    if len(differences) < 2:
        return None
    mean = sum(differences) / len(differences)
    variance = sum((d - mean) ** 2 for d in differences) / (len(differences) - 1)
    if variance == 0:
        return 1.0 if mean == 0 else 0.0
    return math.erfc(abs(mean) / math.sqrt(variance / len(differences)) / math.sqrt(2))


def false_discovery_adjusted(p_values: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (scipy's ``false_discovery_control``): a
    difference whose adjusted value is below 0.05 is kept at a 5% false discovery rate
    over all the differences tested together."""
    if not p_values:
        return []
    from scipy.stats import false_discovery_control

    return [float(q) for q in false_discovery_control(list(p_values), method="bh")]
