"""The leaf ceiling benchmark: its many-playout leaves are the mean of that many rollouts,
and a short run prints its row (no strength or timing is asserted)."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from koth.agents.ismcts import IsmctsAgent
from koth.agents.mcts import MctsAgent
from koth.agents.search import SearchSettings, rollout, rollout_policy
from koth.core.players import CHANCE, NodeKind
from koth.core.registry import load_game

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "bench_leaf_ceiling.py"


def _module() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))  # as when it runs: it imports bench_agents
    spec = importlib.util.spec_from_file_location("bench_leaf_ceiling", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_many_playout_leaf_is_the_mean_of_that_many_rollouts() -> None:
    bench = _module()
    for name, base in (("cards", IsmctsAgent), ("board", MctsAgent)):
        game = load_game(name, {})
        data = game.new_initial_state().data
        while game.to_move(data).kind is NodeKind.CHANCE:  # a state where someone decides
            data = game.apply(data, CHANCE, game.chance_outcomes(data)[0][0])
        policy = rollout_policy(game, "auto", 0.1)
        agent = bench.averaged(base, 3)(SearchSettings())
        got = agent.leaf_values(game, data, random.Random(5), policy, 30)
        rng = random.Random(5)
        played = [rollout(game, data, rng, policy, 30) for _ in range(3)]
        expected = tuple(sum(p[seat] for p in played) / 3 for seat in range(game.num_players))
        assert got == expected
        assert agent.name.startswith(f"{base.kind}:playouts=3")


def test_a_short_run_prints_the_win_rate_and_both_sides_costs() -> None:
    command = [sys.executable, str(SCRIPT), "cards", "--iters", "4", "--playouts", "2"]
    done = subprocess.run(
        [*command, "--games", "2"], capture_output=True, text=True, timeout=300, check=True
    )
    assert "2 playouts a leaf against 1, 4 iterations: won" in done.stdout
    assert "of 2 (" in done.stdout
    assert "ismcts:playouts=2:iters=4:" in done.stdout and "ismcts:iters=4:" in done.stdout


def test_a_budget_below_one_is_refused_before_playing() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "cards", "--playouts", "0"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2
    assert "--playouts" in done.stderr
