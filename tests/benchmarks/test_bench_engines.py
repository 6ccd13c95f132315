"""The engine speed benchmarks run and print their figures (no timing is asserted)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from koth.games.board import BoardGame

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from playouts import engine_playout  # noqa: E402


def _run(script: str, *args: str) -> str:
    command = [sys.executable, str(ROOT / "benchmarks" / script), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=True).stdout


def test_the_board_benchmark_prints_both_loops_the_breakdown_and_a_profile() -> None:
    out = _run("bench_board.py", "--games", "2", "--players", "2", "--breakdown", "--profile", "3")
    assert "engine" in out and "GameState" in out and "steps/s" in out
    for part in ("list a decision's legal actions", "apply a decision", "apply a chance"):
        assert part in out
    assert "tottime" in out  # the cProfile table


def test_the_cards_benchmark_prints_both_loops() -> None:
    out = _run("bench_cards.py", "--games", "3", "--seconds", "0")
    assert "engine" in out and "GameState" in out


def test_the_engine_loop_records_every_step_and_replays_to_the_same_end() -> None:
    game = BoardGame()
    steps: list[tuple[object, int, object]] = []
    count = engine_playout(game, 4, steps)
    assert count == len(steps) > 0
    state = steps[-1][0]
    _, player, action = steps[-1]
    assert game.to_move(game.apply(state, player, action)).kind.name == "TERMINAL"
    assert engine_playout(game, 4) == count  # seeded: the same game again


def test_the_gamestate_comparison_plays_both_versions_of_every_game() -> None:
    has_history = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True)
    if has_history.returncode != 0:
        pytest.skip("the checkout has no git history to compare with")
    out = _run("compare_gamestate.py", "--against", "HEAD", "--seconds", "0.05", "--rounds", "1")
    for game in ("toy_duel", "cards", "board"):
        assert f"{game}, HEAD" in out and f"{game}, this checkout" in out
    assert "python_liars_poker" in out and "steps/s" in out


def test_the_gamestate_comparison_names_a_revision_it_cannot_read() -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "compare_gamestate.py")]
    done = subprocess.run(
        [*command, "--against", "no-such-revision"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode != 0 and "no-such-revision" in done.stderr


def test_the_search_games_benchmark_prints_cpu_time_and_every_game_s_returns() -> None:
    out = _run("bench_search_games.py", "cards", "ismcts:iters=5", "--seeds", "0,1")
    assert "s CPU" in out and out.count("1.0") >= 2  # two games, each won by someone


def _recorded_length(step: Any) -> int:
    length = 0
    while step.following is not None:
        assert step.to_move.kind.name != "TERMINAL"
        length += 1
        step = step.following
    assert step.to_move.kind.name == "TERMINAL"
    return length


def test_replayed_rules_walk_the_recorded_games_whatever_the_loop_chooses() -> None:
    from bench_interop_speed import ReplayedRules, gamestate_playout, record_playout

    game = BoardGame()
    recorded = record_playout(game, random.Random(3))
    assert _recorded_length(recorded) > 100
    replayed: Any = ReplayedRules(game, games=2, seed=3)
    lengths = [_recorded_length(record) for record in replayed.records]
    assert lengths[0] == _recorded_length(recorded)  # seeded: the same first game
    # another seed picks other actions, yet each game walks its recording to the end,
    # and the games are replayed in turn
    assert gamestate_playout(replayed, random.Random(99)) == lengths[0]
    assert gamestate_playout(replayed, random.Random(98)) == lengths[1]
    assert gamestate_playout(replayed, random.Random(97)) == lengths[0]


def test_the_interop_benchmark_prints_the_rules_budget_of_each_replayed_engine() -> None:
    out = _run("bench_interop_speed.py", "--seconds", "0.1", "--rounds", "1")
    assert "rules replayed" in out and "python_liars_poker" in out
    # the card and the board game, each reading masks only and reading observations
    assert out.count("PettingZoo AEC") == 4
    for game in ("koth cards", "koth board"):
        assert f"{game}: the rules cost" in out
