"""Balance statistics: the per-game facts the collectors record, checked against the
games' own rules, and the intervals reports put on them."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from koth.agents.play import play_match
from koth.agents.registry import make_agent
from koth.core.registry import load_game
from koth.sim.board_stats import KIND_ORDER as BOARD_KINDS
from koth.sim.cards_stats import KIND_ORDER as CARD_KINDS
from koth.sim.collect import collect, listing_order
from koth.sim.facts import agent_scores, facts_for, first_mover_wins
from koth.sim.report import kind_order, write_results
from koth.sim.runner import TournamentConfig, prepare, run_tournament
from koth.sim.stats import (
    elo_interval,
    fit_elo,
    mean_interval,
    paired_difference,
    pairwise_scores,
    percentile,
    tally_turn_order,
)


def _played(name: str, params: dict[str, Any], agents: list[str], seed: int) -> Any:
    game = load_game(name, params)
    result = play_match(game, [make_agent(a) for a in agents], seed, max_decisions=4000)
    return game, result, collect(game, result.final_state)


# ------------------------------------------------------------------ board
BOARD_TABLES = [
    ({}, ["heuristic", "random"], 1),
    ({}, ["random", "random"], 2),
    ({"num_players": 3}, ["heuristic", "random", "heuristic"], 3),
    ({"num_players": 4}, ["random", "heuristic", "random", "heuristic"], 4),
    ({"countdown": True}, ["heuristic", "heuristic"], 5),
]


@pytest.mark.parametrize(("params", "agents", "seed"), BOARD_TABLES)
def test_board_facts_agree_with_the_rules(
    params: dict[str, Any], agents: list[str], seed: int
) -> None:
    game, result, stats = _played("board", params, agents, seed)
    final = result.final_state.data
    n = game.num_players
    assert stats["turn_order"] == list(final.order) and sorted(stats["turn_order"]) == list(
        range(n)
    )
    assert stats["rounds"] == final.round
    # B15: one point per turn end with a unit on the center, so the turn ends counted on
    # the center are every player's points
    assert stats["center_turns"] == list(final.points)
    assert stats["center_held_turns"] >= max(stats["center_turns"])
    if result.outcome is not None:  # every turn of the last round up to the final one
        assert stats["turn_ends"] == (final.round - 1) * 2 * n + final.turn + 1
    assert 0 <= stats["center_held_turns"] <= stats["turn_ends"]
    # B6: four dice per player and round; forfeited ones are a part of them
    for forfeited in stats["forfeited_dice"]:
        assert 0 <= forfeited <= 4 * final.round
    # every kill is a death of an enemy unit
    killed = sum(sum(seat.values()) for seat in stats["kills"])
    assert killed <= sum(sum(seat.values()) for seat in stats["units_lost"])
    for kinds in stats["action_kinds"]:
        assert set(kinds) <= set(BOARD_KINDS)
        assert list(kinds) == [k for k in BOARD_KINDS if k in kinds]


# ------------------------------------------------------------------ cards
@pytest.mark.parametrize(
    ("params", "agents", "seed"),
    [
        ({}, ["heuristic", "random"], 1),
        ({"dealer": 1}, ["random", "heuristic"], 2),
        ({"jokers": 2, "tens_equal": True}, ["heuristic", "heuristic"], 3),
        ({}, ["random", "random"], 4),
    ],
)
def test_card_facts_agree_with_the_fight_log(
    params: dict[str, Any], agents: list[str], seed: int
) -> None:
    _, result, stats = _played("cards", params, agents, seed)
    log = result.final_state.data.log
    dealer = params.get("dealer", 0)
    assert stats["turn_order"] == [dealer, 1 - dealer]
    assert stats["fights"] == len(log)
    assert sum(stats["stacks_won"]) + stats["discarded_stacks"] == len(log)
    assert stats["tie_breaks"] >= stats["fights_tied"]
    # C12: whoever takes the apex wins; a discarded apex is a draw
    assert stats["apex_chooser"] is not None
    if result.winners:
        assert [stats["apex_winner"]] == list(result.winners)
    else:
        assert stats["apex_winner"] is None
    # C2: 30 cards lie in the pyramid (29 with two Jokers)
    assert sum(stats["cards_won"]) <= 30
    for kinds in stats["action_kinds"]:
        assert list(kinds) == [k for k in CARD_KINDS if k in kinds]
        # C4.1: twelve reserve-phase decisions each
        assert kinds.get("dealt card: to hand", 0) + kinds.get("dealt card: to reserve", 0) == 12


# ------------------------------------------------------------------ intervals
def test_turn_order_is_read_from_the_games() -> None:
    games = [
        {"seats": ["a", "b"], "winners": [1], "returns": [-1, 1], "stats": {"turn_order": [1, 0]}},
        {"seats": ["b", "a"], "winners": [0], "returns": [1, -1], "stats": {}},
    ]
    first, second = tally_turn_order(games, 2)
    assert (first.wins, second.wins) == (2, 0)
    assert [first_mover_wins(g) for g in games] == [1.0, 1.0]


def test_paired_difference_and_mean_interval_known_values() -> None:
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and math.isclose(high - mean, 1.959963984540054 * math.sqrt(5 / 3 / 4))
    assert all(math.isnan(end) for end in mean_interval([3.0])[1:])  # no interval
    assert mean_interval([0.0, 0.0, 3.0], floor=0.0)[1] == 0.0
    base = {0: 1.0, 1: 0.0, 2: 1.0, 3: None}
    other = {0: 1.0, 1: 1.0, 2: 0.0, 3: 1.0, 4: 1.0}
    difference, low, high, pairs = paired_difference(base, other)
    assert pairs == 3 and math.isclose(difference, 0.0) and low < 0 < high
    assert percentile([1.0, 2.0, 3.0, 4.0, 5.0], 0.25) == 2.0
    assert percentile([1.0, 3.0], 0.5) == 2.0


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=40))
def test_a_mean_lies_inside_its_interval(values: list[float]) -> None:
    mean, low, high = mean_interval(values)
    assert low <= mean + 1e-6 and mean - 1e-6 <= high


@given(st.dictionaries(st.integers(0, 50), st.floats(-100, 100, allow_nan=False), min_size=2))
def test_a_setting_compared_with_itself_differs_by_nothing(values: dict[int, float]) -> None:
    difference, low, high, pairs = paired_difference(values, values)
    assert (difference, low, high, pairs) == (0.0, 0.0, 0.0, len(values))


def test_the_elo_interval_holds_the_fit() -> None:
    games = [
        {"seats": ["a", "b"] if i % 2 else ["b", "a"], "winners": [i % 3 % 2], "returns": [0, 0]}
        for i in range(30)
    ]
    ratings = fit_elo(pairwise_scores(games), ["a", "b"])
    intervals = elo_interval(games, ["a", "b"], resamples=100)
    for agent in ("a", "b"):
        low, high = intervals[agent]
        assert low <= ratings[agent] <= high and low < high
    assert intervals == elo_interval(games, ["a", "b"], resamples=100)  # seeded


def test_agent_scores_count_sole_wins() -> None:
    games = [
        {"index": 0, "seats": ["a", "b"], "winners": [0]},
        {"index": 1, "seats": ["b", "a"], "winners": [0, 1]},
        {"index": 2, "seats": ["b", "c"], "winners": [1]},
    ]
    assert agent_scores(games, "a") == {0: 1.0, 1: 0.0, 2: None}


# ------------------------------------------------------------------ reports
@pytest.mark.parametrize(
    ("game", "agents", "sections", "charts"),
    [
        (
            "cards",
            ("heuristic", "random"),
            ["apex taken by the player who chose it", "| tie-break: single card", "cards won"],
            ["action_kinds.png", "turn_order.png"],
        ),
        (
            "board",
            ("heuristic", "random"),
            ["rounds to win", "share of turn ends with the center held", "forfeited dice"],
            ["action_kinds.png", "kills.png", "rounds.png", "unit_types.png"],
        ),
    ],
)
def test_reports_answer_balance_questions(
    tmp_path: Path, game: str, agents: tuple[str, ...], sections: list[str], charts: list[str]
) -> None:
    config = prepare(TournamentConfig(game, agents, 6, seed=2))
    write_results(run_tournament(config), tmp_path)
    report = (tmp_path / "report.md").read_text()
    assert "## Turn order" in report and "1st to move" in report
    for label in [fact.label for fact in facts_for(game)]:
        assert f"| {label} |" in report
    for text in sections:
        assert text in report
    for png in charts:
        assert (tmp_path / png).stat().st_size > 1000 and f"({png})" in report


def test_reports_list_kinds_in_the_collectors_order() -> None:
    usage = {
        "a": Counter({"end turn": 2, "move fighter": 1}),
        "b": Counter({"zzz": 1, "place the area": 1, "recruit runner": 3}),
    }
    assert kind_order(usage, listing_order("board", "action_kinds")) == [
        "place the area",
        "recruit runner",
        "move fighter",
        "end turn",
        "zzz",
    ]
    assert listing_order("cards", "action_kinds") == CARD_KINDS
    assert listing_order("toy_duel", "action_kinds") == ()
