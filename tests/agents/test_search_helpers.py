"""The search agents' fast helpers agree with the view-based heuristics and keys."""

from __future__ import annotations

import random
from typing import Any

import pytest

from koth.agents import make_agent
from koth.agents.heuristics import (
    action_ranking,
    evaluator,
    heuristic_policy,
    observer_key,
    state_evaluator,
    state_rollout,
)
from koth.agents.play import play_match
from koth.core.game import Game
from koth.core.players import NodeKind
from koth.core.registry import load_game


def _states(game: Game[Any, Any, Any], seeds: range, limit: int = 400) -> list[Any]:
    """Every state of a few seeded heuristic-vs-random games (chance sampled)."""
    states = []
    for seed in seeds:
        rng = random.Random(seed)
        policy = heuristic_policy(game)
        data = game.initial()
        for _ in range(limit):
            to_move = game.to_move(data)
            if to_move.kind is NodeKind.TERMINAL:
                break
            if to_move.kind is NodeKind.CHANCE:
                outcomes = game.chance_outcomes(data)
                data = game.apply(data, -1, outcomes[rng.randrange(len(outcomes))][0])
                continue
            states.append(data)
            joint = {}
            for p in to_move.players:
                legal = game.legal_actions(data, p)
                joint[p] = (
                    policy(game, p, game.view(data, p), legal, rng)
                    if rng.random() < 0.7
                    else legal[rng.randrange(len(legal))]
                )
            if to_move.kind is NodeKind.PLAYER:
                ((p, a),) = joint.items()
                data = game.apply(data, p, a)
            else:
                data = game.apply_joint(data, joint)
    return states


@pytest.mark.parametrize("name", ["cards", "board"])
def test_fast_rollout_policies_play_like_the_heuristics(name: str) -> None:
    game = load_game(name)
    slow, fast = heuristic_policy(game), state_rollout(game)
    assert fast is not None
    checked = 0
    for data in _states(game, range(3)):
        for p in game.to_move(data).players:
            legal = game.legal_actions(data, p)
            expected = slow(game, p, game.view(data, p), legal, random.Random(checked))
            assert fast(game, data, p, random.Random(checked)) == expected
            checked += 1
    assert checked > 100


def test_the_card_observer_key_is_a_function_of_the_view() -> None:
    game = load_game("cards")
    key = observer_key(game)
    assert key is not None
    keys: dict[Any, str] = {}
    for index, data in enumerate(_states(game, range(2))):
        for p in (0, 1):
            view = game.information_state_string(data, p)
            other = game.resample_hidden(data, p, random.Random(index))
            assert key(game, other, p) == key(game, data, p)
            keys.setdefault(key(game, data, p), view)
            assert keys[key(game, data, p)] == view  # different views, different keys


def test_the_board_ranking_and_evaluator() -> None:
    game = load_game("board")
    rank, evaluate = action_ranking(game), state_evaluator(game)
    assert rank is not None and evaluate is not None and evaluator(game) is not None
    for data in _states(game, range(1), limit=150)[::10]:
        for p in game.to_move(data).players:
            ranked = rank(game, data, p)
            assert sorted(map(str, ranked)) == sorted(map(str, game.legal_actions(data, p)))
        values = evaluate(game, data)
        assert len(values) == 2 and abs(sum(values)) < 1e-9
        assert all(-1 <= v <= 1 for v in values)


def test_search_options_for_rollouts_and_widening() -> None:
    game = load_game("board")
    for spec in ["mcts:iters=5:widen=0", "mcts:iters=5:rollout=random:eps=0", "mcts:iters=5"]:
        result = play_match(game, [make_agent(spec), make_agent("random")], 1, max_decisions=40)
        assert result.decisions == 40
