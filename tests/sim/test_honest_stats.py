"""Statistics that do not overstate: the first mover read from the game, an Elo interval
that stays open after a sweep, many differences tested together, two copies of one agent
told apart from a real difference."""

from __future__ import annotations

import random
from typing import Any

from koth.agents.play import play_match
from koth.agents.registry import make_agent
from koth.core.players import CHANCE
from koth.core.record import GameRecord
from koth.core.registry import load_game
from koth.sim.charts import _wrapped
from koth.sim.collect import collect
from koth.sim.compare import adjusted_p_values
from koth.sim.facts import Fact, first_mover_wins
from koth.sim.report import first_mover_note
from koth.sim.stats import (
    elo_interval,
    first_movers,
    fit_elo,
    paired_p_value,
    pairwise_scores,
    tally_turn_order,
)


def _sweep(games: int) -> list[dict[str, Any]]:
    """``strong`` wins every game, the seats alternating as a tournament rotates them."""
    return [
        {
            "index": i,
            "seats": ["strong", "weak"] if i % 2 == 0 else ["weak", "strong"],
            "winners": [i % 2],
            "returns": [1, -1] if i % 2 == 0 else [-1, 1],
        }
        for i in range(games)
    ]


def test_a_sweep_keeps_an_open_elo_interval() -> None:
    games = _sweep(12)
    agents = ["strong", "weak"]
    ratings = fit_elo(pairwise_scores(games), agents)
    intervals = elo_interval(games, agents, seed=4)
    for agent in agents:
        low, high = intervals[agent]
        assert low <= ratings[agent] <= high
        assert high - low > 50, f"{agent}'s interval collapsed: {low:.0f} - {high:.0f}"
    assert intervals["strong"][0] > intervals["weak"][1]  # still clearly apart
    assert intervals == elo_interval(games, agents, seed=4)  # seeded


def test_the_first_mover_is_the_seat_that_made_the_first_decision() -> None:
    for seed in (1, 2, 3):
        game = load_game("board", {})
        agents = [make_agent("random"), make_agent("random")]
        result = play_match(game, agents, seed, max_decisions=4000)
        stats = collect(game, result.final_state)
        record = GameRecord.from_state(result.final_state)
        first = next(m.player for m in record.moves if m.player not in (None, CHANCE))
        assert stats["first_mover"] == first


def _unbalanced() -> list[dict[str, Any]]:
    """Twelve board games as in a real report: the turn order is dealt by chance, so
    ``mcts`` moved first in ten, and it won all twelve."""
    games = []
    for i in range(12):
        seats = ["mcts", "random"] if i % 2 == 0 else ["random", "mcts"]
        mcts = seats.index("mcts")
        first = mcts if i < 10 else 1 - mcts
        games.append(
            {
                "index": i,
                "seats": seats,
                "winners": [mcts],
                "returns": [1, -1] if mcts == 0 else [-1, 1],
                # the order dealt lists seat 0 first; who moved first is recorded apart
                "stats": {"turn_order": [0, 1], "first_mover": first},
            }
        )
    return games


def test_an_unbalanced_first_mover_is_read_from_the_game_and_called_confounded() -> None:
    games = _unbalanced()
    first, second = tally_turn_order(games, 2)
    assert (first.wins, second.wins) == (10, 2)
    assert sum(first_mover_wins(g) for g in games) == 10
    assert first_movers(games) == {"mcts": 10, "random": 2}
    note = first_mover_note(games)
    assert note.startswith("Confounded") and "`mcts` 10, `random` 2 of 12 games" in note


def test_a_balanced_first_mover_measures_the_order() -> None:
    games = _unbalanced()
    for i, game in enumerate(games):  # each agent now moves first in six games
        game["stats"]["first_mover"] = game["seats"].index("mcts" if i % 2 else "random")
    assert first_movers(games) == {"mcts": 6, "random": 6}
    assert "measure the turn order itself" in first_mover_note(games)
    copies = [{**g, "seats": ["heuristic", "heuristic"]} for g in games]
    assert "One agent holds every seat" in first_mover_note(copies)


def _figure(k: int) -> Fact:
    return Fact(f"figure {k}", "share", lambda game: float(game["values"][k]))


def test_two_copies_of_one_agent_are_not_starred_by_many_tests_at_once() -> None:
    """Thirteen figures of two variants that differ by chance alone (the same agent, the
    same coin): one difference looks significant on its own (p about 0.01), none is
    once the thirteen are tested together."""
    rng = random.Random(0)
    figures = [_figure(k) for k in range(13)]
    values = [[[rng.random() < 0.5 for _ in range(40)] for _ in range(13)] for _ in range(2)]
    variants = [
        [{"index": i, "values": [values[v][k][i] for k in range(13)]} for i in range(40)]
        for v in range(2)
    ]
    raw = [paired_p_value(f.values(variants[0]), f.values(variants[1])) for f in figures]
    assert min(p for p in raw if p is not None) < 0.05  # unadjusted: a false alarm
    adjusted = adjusted_p_values(figures, variants[0], [variants[1]])
    assert len(adjusted) == 13 and min(adjusted.values()) >= 0.05


def test_a_real_difference_stays_starred() -> None:
    figures = [_figure(k) for k in range(13)]
    base = [{"index": i, "values": [i % 2 == 0] * 13} for i in range(40)]
    other = [{"index": i, "values": [True] + [i % 2 == 0] * 12} for i in range(40)]
    adjusted = adjusted_p_values(figures, base, [other])
    assert adjusted[(0, 0)] < 0.05
    assert all(adjusted[(k, 0)] == 1.0 for k in range(1, 13))


def test_chart_labels_break_between_words_only() -> None:
    labels = ["ismcts:iters=200", "mcts:iters=60 vs heuristic", "jokers=2 tens_equal=true"]
    for label, shown in zip(labels, _wrapped(labels), strict=True):
        assert shown.split() == label.split()  # every word whole, on some line
