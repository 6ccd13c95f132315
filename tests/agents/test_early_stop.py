"""Early stop: a search ends once its most visited root action cannot be overtaken, and
then decides exactly as the whole budget would."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from koth.agents import DecisionContext, InformationSet, make_agent
from koth.agents.mcts import SearchAgent
from koth.agents.search import Arms, Budget, SearchClock, SearchSettings
from koth.core.chance import play_game
from koth.core.errors import InvalidParamsError
from koth.core.registry import load_game
from koth.core.state import GameState


def _decision_states(game_name: str, count: int) -> list[GameState[Any, Any]]:
    """Seeded random positions where the player to move has a real choice."""
    game = load_game(game_name)
    states: list[GameState[Any, Any]] = []
    seed = 0
    while len(states) < count:
        seed += 1
        rng = random.Random(seed)
        state = play_game(game.new_initial_state(), rng, max_moves=rng.randrange(5, 120))
        while state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        if not state.is_terminal() and len(state.legal_actions(state.acting_players()[0])) > 1:
            states.append(state)
    return states


def _decide(spec: str, state: GameState[Any, Any], seed: int) -> tuple[Any, int]:
    agent = make_agent(spec)
    player = state.acting_players()[0]
    agent.reset(state.game, player, seed)
    info = InformationSet.of(state, player)
    context = DecisionContext(info, state.num_moves, state.is_simultaneous_node())
    action = agent.act(info.view, info.legal_actions, context)
    assert isinstance(agent, SearchAgent)
    return action, agent.last_iterations


@pytest.mark.parametrize(
    ("game_name", "spec"),
    [("cards", "ismcts:iters=300"), ("board", "mcts:iters=200:max_rollout=10")],
)
def test_early_stop_decides_as_the_whole_budget_would(game_name: str, spec: str) -> None:
    stopped_early = 0
    for index, state in enumerate(_decision_states(game_name, 8)):
        early, used = _decide(spec, state, index)
        full, used_full = _decide(spec + ":early=0", state, index)
        assert early == full, f"position {index}: early stop chose {early}, full budget {full}"
        assert used <= used_full
        stopped_early += used < used_full
    assert stopped_early, "no search stopped early: the test would not notice a regression"


def test_mixed_simultaneous_choices_never_stop_early() -> None:
    states = [s for s in _decision_states("cards", 30) if s.is_simultaneous_node()]
    assert states
    for index, state in enumerate(states[:4]):
        _, used = _decide("ismcts:iters=200:final=mix", state, index)
        assert used == 200


def test_lead_is_the_gap_between_the_two_most_visited_actions() -> None:
    arms = Arms()
    assert arms.lead() == 0
    for action, visits in (("a", 5), ("b", 9), ("c", 2)):
        for _ in range(visits):
            arms.update(action, 1.0)
    assert arms.lead() == 4
    arms.update("a", 0.0)
    arms.update("a", 0.0)
    assert arms.lead() == 2


def test_an_iteration_budget_leaves_exactly_the_iterations_not_run() -> None:
    clock = SearchClock(Budget(100, None))
    assert clock.remaining(30) == 70
    arms = Arms()
    for _ in range(71):
        arms.update("a", 1.0)
    assert clock.decided(30, arms)  # 71 ahead of every other action, 70 left
    arms.update("b", 1.0)
    assert not clock.decided(30, arms)


def test_a_time_budget_estimates_the_iterations_left_from_the_rate_so_far() -> None:
    clock = SearchClock(Budget(None, 60.0))
    time.sleep(0.01)
    assert clock.remaining(10) > 10  # about 6000 s of budget left at ~1000/s
    spent = SearchClock(Budget(None, 0.001))
    time.sleep(0.005)
    assert spent.remaining(10) == 0
    assert spent.done(10)


def test_the_early_option_parses_and_refuses_other_values() -> None:
    assert SearchSettings.from_options({}).early_stop is True
    assert SearchSettings.from_options({"early": "0"}).early_stop is False
    with pytest.raises(InvalidParamsError, match="early must be 1 or 0"):
        SearchSettings.from_options({"early": "yes"})
