"""OpenSpiel's bots in koth seats, against koth's own agents (koth.agents.play_match)."""

from __future__ import annotations

from typing import Any

import pytest

from koth.agents import make_agent
from koth.agents.play import play_match
from koth.core.errors import InvalidParamsError
from koth.core.registry import load_game
from koth.interop.openspiel_agents import OpenSpielBotAgent, ismcts, mcts
from tests.core.toy_game import SecretDuel
from tests.interop.helpers import register_toys

register_toys()


class SpyBot:
    """Records the states a bot is shown and plays the first legal action."""

    def __init__(self, seen: list[Any]) -> None:
        self.seen = seen

    def step(self, state: Any) -> int:
        self.seen.append(state)
        return int(state.legal_actions()[0])


def test_the_bot_sees_sampled_worlds_never_the_true_state() -> None:
    seen: list[Any] = []
    agent = OpenSpielBotAgent("spy", lambda game, player, seed: SpyBot(seen))
    for seed in range(30):
        result = play_match(SecretDuel(), [make_agent("random"), agent], seed)
        assert result.final_state.is_terminal()
    # the spy sits in seat 1 and decides at the simultaneous node, after player 0 in
    # the turn-based form: player 0's card and submission are sampled, not the truth
    assert len(seen) == 30
    assert all(state.current_player() == 1 for state in seen)
    assert len({state.koth_data.cards[0] for state in seen}) > 1
    assert {state.submitted(0) for state in seen} == {6, 7}
    assert all(state.history() == [] for state in seen)


def test_openspiel_ismcts_beats_koth_random_at_the_toy_duel() -> None:
    agents = [OpenSpielBotAgent("os-ismcts", ismcts(simulations=60)), make_agent("random")]
    total = 0.0
    for seed in range(30):
        total += play_match(SecretDuel(), agents, seed).returns[0]
    assert total > 0


def test_openspiel_ismcts_against_koth_ismcts_at_cards() -> None:
    agents = [
        OpenSpielBotAgent("os-ismcts", ismcts(simulations=6)),
        make_agent("ismcts:iters=6"),
    ]
    result = play_match(load_game("cards"), agents, seed=1)
    assert result.final_state.is_terminal()
    assert sum(result.returns) == 0.0


def test_openspiel_mcts_against_koth_mcts_at_the_board_game() -> None:
    game = load_game("board", {"round_limit": 3})
    agents = [OpenSpielBotAgent("os-mcts", mcts(simulations=5)), make_agent("mcts:iters=5")]
    result = play_match(game, agents, seed=2)
    assert result.final_state.is_terminal()
    assert sum(result.returns) == pytest.approx(0.0)


def test_budgets_and_order_are_checked() -> None:
    with pytest.raises(InvalidParamsError):
        ismcts(simulations=0)
    agent = OpenSpielBotAgent("os-mcts", mcts(simulations=3))
    with pytest.raises(InvalidParamsError, match="reset"):
        agent.act({}, [1, 2], None)
    assert agent.name == "os-mcts"
