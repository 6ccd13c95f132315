"""Every agent on the real games, with tiny budgets: legal, reproducible, blind to secrets."""

from __future__ import annotations

import random
from typing import Any

import pytest

from koth.agents import DecisionContext, InformationSet, make_agent, make_policy
from koth.agents.heuristics import evaluator
from koth.agents.mcts import SearchAgent
from koth.agents.play import play_match
from koth.core.chance import play_game
from koth.core.game import Game
from koth.core.registry import load_game
from koth.core.state import GameState

CARD_SPECS = ["random", "heuristic", "mcts:iters=3", "ismcts:iters=3"]
BOARD_SPECS = [
    "random",
    "heuristic",
    "mcts:iters=3:max_rollout=20",
    "ismcts:iters=2:max_rollout=10",
]


@pytest.fixture(scope="module")
def cards() -> Game[Any, Any, Any]:
    return load_game("cards")


@pytest.fixture(scope="module")
def board() -> Game[Any, Any, Any]:
    return load_game("board")


@pytest.mark.parametrize("spec", CARD_SPECS)
def test_card_agents_play_legal_reproducible_games(cards: Game[Any, Any, Any], spec: str) -> None:
    first = play_match(cards, [make_agent(spec), make_agent("random")], 5)
    again = play_match(cards, [make_agent(spec), make_agent("random")], 5)
    assert first.final_state.is_terminal() and first.outcome is not None
    assert first.record().moves == again.record().moves


@pytest.mark.parametrize("spec", BOARD_SPECS)
def test_board_agents_play_legal_reproducible_games(board: Game[Any, Any, Any], spec: str) -> None:
    opponent = "heuristic" if spec == "random" else "random"
    first = play_match(board, [make_agent(opponent), make_agent(spec)], 2, max_decisions=150)
    again = play_match(board, [make_agent(opponent), make_agent(spec)], 2, max_decisions=150)
    assert first.decisions > 10
    assert first.record().moves == again.record().moves


def _mid_game(game: Game[Any, Any, Any], seed: int, decisions: int) -> GameState[Any, Any]:
    state = play_game(game.new_initial_state(), random.Random(seed), max_moves=decisions)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(random.Random(seed)))
    return state


@pytest.mark.parametrize("spec", ["heuristic", "ismcts:iters=25", "mcts:iters=25"])
def test_card_decisions_ignore_the_opponents_secret_cards(
    cards: Game[Any, Any, Any], spec: str
) -> None:
    checked = 0
    for seed, depth in ((1, 60), (2, 75), (3, 90), (4, 50)):
        state = _mid_game(cards, seed, depth)
        if state.is_terminal():
            continue
        for player in state.acting_players():
            # another true state that ``player`` cannot tell apart from this one
            other = GameState(cards, cards.resample_hidden(state.data, player, random.Random(9)))
            assert other.data != state.data and other.view(player) == state.view(player)
            choices = set()
            for true_state in (state, other):
                agent = make_agent(spec)
                agent.reset(cards, player, 4)
                info = InformationSet.of(true_state, player)
                context = DecisionContext(info, 0, true_state.is_simultaneous_node())
                action = agent.act(info.view, info.legal_actions, context)
                root = agent.last_root if isinstance(agent, SearchAgent) else None
                stats = root.summary() if root is not None else None
                choices.add((action, str(stats)))
            assert len(choices) == 1
            checked += 1
    assert checked >= 3


def test_heuristics_beat_random(cards: Game[Any, Any, Any], board: Game[Any, Any, Any]) -> None:
    for game, games, needed in ((cards, 30, 20), (board, 6, 5)):
        wins = 0
        for seed in range(games):
            seat = seed % 2
            agents = [make_agent("random"), make_agent("random")]
            agents[seat] = make_agent("heuristic")
            result = play_match(game, agents, seed, max_decisions=2000)
            wins += result.winners == (seat,)
        assert wins >= needed, (game.name, wins, games)


def test_the_board_evaluator_scores_the_points_lead(board: Game[Any, Any, Any]) -> None:
    evaluate = evaluator(board)
    assert evaluate is not None
    view = board.view(board.initial(), None)
    assert evaluate(board, {**view, "points": [15, 0]}) == (0.5, -0.5)


@pytest.mark.parametrize("name", ["cards", "board"])
def test_make_policy_plays_the_games(name: str) -> None:
    game = load_game(name)
    spec = "ismcts:iters=2:max_rollout=10" if name == "cards" else "mcts:iters=2:max_rollout=10"
    policy = make_policy(spec, game, 1, seed=3)
    state = _mid_game(game, 0, 30)
    for _ in range(10):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(random.Random(1)))
        elif state.is_simultaneous_node():
            state.apply_actions(
                {p: policy(state, p, random.Random(0)) for p in state.acting_players()}
            )
        else:
            state.apply_action(policy(state, state.current_player(), random.Random(0)))
