"""Regret matching at simultaneous nodes (``sim=rm``): a mixed strategy that converges
to the equilibrium, where decoupled UCT settles on one action."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from koth.agents import DecisionContext, InformationSet, make_agent
from koth.agents.mcts import SearchAgent
from koth.agents.play import play_match
from koth.agents.search import Arms, RegretArms, ReturnScale, SearchSettings
from koth.core.errors import InvalidParamsError
from koth.core.game import Game
from koth.core.outcome import Outcome
from koth.core.params import GameParams
from koth.core.players import TO_MOVE_TERMINAL, PlayerId, ToMove
from koth.core.registry import load_game
from koth.core.state import GameState

#: player 0's payoff by (its action, player 1's); the game is zero-sum. Both players'
#: equilibrium strategy plays "a" with probability 3/7.
PAYOFF = {("a", "a"): 1.0, ("a", "b"): -1.0, ("b", "a"): -1.0, ("b", "b"): 0.5}
EQUILIBRIUM_A = 3 / 7


Choices = tuple[str, ...]


class BiasedPennies(Game[Choices, str, GameParams]):
    """One simultaneous decision with a mixed equilibrium, nothing else."""

    name = "biased_pennies"
    params_type = GameParams

    @property
    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        return 2

    def initial(self) -> Choices:
        return ()

    def to_move(self, state: Choices) -> ToMove:
        return TO_MOVE_TERMINAL if state else ToMove.simultaneous((0, 1))

    def chance_outcomes(self, state: Choices) -> Sequence[tuple[str, float]]:
        return ()

    def legal_actions(self, state: Choices, player: PlayerId) -> Sequence[str]:
        return [] if state else ["a", "b"]

    def apply(self, state: Choices, player: PlayerId, action: str) -> Choices:
        raise ValueError("only joint actions")

    def apply_joint(self, state: Choices, actions: Mapping[PlayerId, str]) -> Choices:
        return (actions[0], actions[1])

    def returns(self, state: Choices) -> tuple[float, ...]:
        value = PAYOFF[state[0], state[1]] if state else 0.0
        return (value, -value)

    def outcome(self, state: Choices) -> Outcome | None:
        return None

    def view(self, state: Choices, player: PlayerId | None) -> dict[str, Any]:
        return {"choices": list(state)}

    def parse_action(self, text: str) -> str:
        return text

    def action_id(self, action: str) -> int:
        return "ab".index(action)

    def action_from_id(self, action_id: int) -> str:
        return "ab"[action_id]

    def state_to_json(self, state: Choices) -> Any:
        return list(state)

    def state_from_json(self, data: Any) -> Choices:
        return tuple(data)


def _root_after_search(spec: str, seed: int) -> tuple[Arms, str]:
    agent = make_agent(spec)
    state = GameState(BiasedPennies(), ())
    agent.reset(state.game, 0, seed)
    info = InformationSet.of(state, 0)
    action = agent.act(info.view, info.legal_actions, DecisionContext(info, 0, True))
    assert isinstance(agent, SearchAgent) and agent.last_root is not None
    return agent.last_root, action


@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
def test_regret_matching_converges_to_the_mixed_equilibrium(kind: str) -> None:
    for seed in range(3):
        root, _ = _root_after_search(f"{kind}:iters=20000:sim=rm", seed)
        assert isinstance(root, RegretArms)
        # uniform play (0.5) or a pure strategy would be far outside this
        assert root.average_strategy()["a"] == pytest.approx(EQUILIBRIUM_A, abs=0.035)


def test_decoupled_uct_settles_on_one_action_where_regret_matching_mixes() -> None:
    duct = Counter(_root_after_search("mcts:iters=300", seed)[1] for seed in range(20))
    rm = Counter(_root_after_search("mcts:iters=300:sim=rm", seed)[1] for seed in range(20))
    assert duct.most_common(1)[0][1] >= 16  # nearly always the same pure action
    assert set(rm) == {"a", "b"}  # drawn from the average strategy


def test_the_regret_update_weights_the_played_action_by_its_probability() -> None:
    arms = RegretArms(gamma=0.5)
    scale = ReturnScale()
    scale.observe((0.0, 1.0))
    rng = random.Random(0)
    action = arms.select(["a", "b"], rng, 1.4, scale)
    other = "b" if action == "a" else "a"
    arms.update(action, 1.0)  # played with probability 0.5 (no regret yet: uniform)
    assert arms.regrets[action] == pytest.approx(1.0 / 0.5 - 1.0)
    assert arms.regrets[other] == pytest.approx(-1.0)
    assert arms.strategy(["a", "b"]) == [1.0, 0.0] if action == "a" else [0.0, 1.0]
    assert arms.lead() == 0  # never stops a search early


def test_sim_and_gamma_options_parse_and_bad_values_are_refused() -> None:
    settings = SearchSettings.from_options({"sim": "rm", "gamma": "0.2"})
    assert (settings.simultaneous, settings.gamma) == ("rm", 0.2)
    assert SearchSettings.from_options({}).simultaneous == "duct"
    with pytest.raises(InvalidParamsError, match="sim must be duct or rm"):
        SearchSettings.from_options({"sim": "exp3"})
    with pytest.raises(InvalidParamsError, match="gamma must be in"):
        SearchSettings.from_options({"sim": "rm", "gamma": "0"})


def test_regret_matching_agents_play_whole_card_games() -> None:
    cards = load_game("cards")
    for spec in ("ismcts:iters=4:sim=rm", "mcts:iters=4:sim=rm"):
        first = play_match(cards, [make_agent(spec), make_agent("random")], 3)
        again = play_match(cards, [make_agent(spec), make_agent("random")], 3)
        assert first.final_state.is_terminal()
        assert first.record().moves == again.record().moves
