"""The agent protocol, the information boundary and every agent on the toy game."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import tests.agents.toy_heuristic  # noqa: F401  (registers the toy game's heuristic)
from koth.agents import Agent, DecisionContext, InformationSet, make_agent, make_policy
from koth.agents.mcts import SearchAgent
from koth.agents.play import play_match
from koth.agents.registry import parse_spec
from koth.agents.search import Budget, SearchSettings
from koth.core.errors import IllegalActionError, InvalidParamsError
from koth.core.game import Game
from koth.core.state import GameState
from tests.core.toy_game import DuelState, SecretDuel, Stake

SPECS = ["random", "heuristic", "mcts:iters=150", "ismcts:iters=150", "ismcts:iters=60:final=mix"]


def duel_state(cards: tuple[int, int], stake: int | None = None) -> GameState[Any, Any]:
    game = SecretDuel()
    return GameState(game, DuelState(cards=cards, stake=stake))


def decide(spec: str, state: GameState[Any, Any], player: int, seed: int) -> tuple[Any, Any]:
    """A fresh agent's action in ``state`` and, for search agents, its root statistics."""
    agent = make_agent(spec)
    agent.reset(state.game, player, seed)
    info = InformationSet.of(state, player)
    context = DecisionContext(info, state.num_moves, state.is_simultaneous_node())
    action = agent.act(info.view, info.legal_actions, context)
    stats = agent.last_root.summary() if isinstance(agent, SearchAgent) and agent.last_root else {}
    return action, stats


# ------------------------------------------------------------------ protocol
@pytest.mark.parametrize("spec", SPECS)
def test_every_agent_satisfies_the_protocol(spec: str) -> None:
    agent = make_agent(spec)
    assert isinstance(agent, Agent)
    assert agent.name.split(":")[0] == spec.split(":")[0]


def test_specs_parse_and_bad_specs_are_refused() -> None:
    assert parse_spec("mcts:iters=20:c=0.5") == ("mcts", {"iters": "20", "c": "0.5"})
    assert SearchSettings.from_options({"seconds": "0.5"}).budget == Budget(None, 0.5)
    for bad in ["alphazero", "mcts:iters", "mcts:depth=3", "random:iters=3", "mcts:iters=0"]:
        with pytest.raises(InvalidParamsError):
            make_agent(bad)
    with pytest.raises(InvalidParamsError, match="no heuristic"):
        make_agent("heuristic").reset(_NoHeuristicDuel(), 0, 0)


class _NoHeuristicDuel(SecretDuel):
    name = "toy_duel_without_heuristic"


# ------------------------------------------------------- information boundary
def test_an_information_set_exposes_no_true_state() -> None:
    state = duel_state((3, 1))
    info = InformationSet.of(state, 0)
    public = {name for name in dir(info) if not name.startswith("_")}
    assert public == {"game", "player", "view", "legal_actions", "key", "sample_data"} | {
        "sample_state",
        "of",
    }
    assert info.view == {"cards": [3, None], "dealt": 2, "stake": None, "choices": None}
    sampled = info.sample_state(random.Random(1))
    assert sampled.history == ()  # the true history holds the deal
    # samples redraw the opponent's card over everything the player cannot rule out
    seen = Counter(info.sample_data(random.Random(i)).cards[1] for i in range(300))
    assert set(seen) == {1, 2, 4} and min(seen.values()) > 60
    assert all(info.sample_data(random.Random(i)).cards[0] == 3 for i in range(20))


class _CountingDuel(SecretDuel):
    """The toy game, counting how often a view and an information-state key are built."""

    name = "toy_duel_counting"

    def __init__(self) -> None:
        super().__init__()
        self.views = 0
        self.keys = 0

    def view(self, state: DuelState, player: int | None) -> dict[str, Any]:
        self.views += 1
        return super().view(state, player)

    def information_state_string(
        self, state: DuelState, player: int | None, view: Mapping[str, Any] | None = None
    ) -> str:
        self.keys += 1
        return super().information_state_string(state, player, view)


def test_the_view_and_key_are_built_only_when_an_agent_reads_them_and_then_once() -> None:
    game = _CountingDuel()
    info = InformationSet.of(GameState(game, DuelState(cards=(3, 1), stake=None)), 0)
    assert (game.views, game.keys) == (0, 0)
    assert "not built" in repr(info.view)
    assert info.view["cards"] == [3, None] and len(info.view) == 4 and "stake" in info.view
    assert dict(info.view) == {"cards": [3, None], "dealt": 2, "stake": None, "choices": None}
    assert (game.views, game.keys) == (1, 0)  # built once, read many times
    assert info.key == info.key
    assert game.keys == 1
    assert game.views == 1  # the key is made from the view already built, not a new one
    fresh = InformationSet.of(GameState(game, DuelState(cards=(3, 1), stake=None)), 0)
    assert fresh.key == info.key  # made without a view read first: the same string


def test_a_random_match_never_builds_a_view() -> None:
    game = _CountingDuel()
    result = play_match(game, [make_agent("random"), make_agent("random")], seed=3)
    assert result.decisions > 0 and game.views == 0 and game.keys == 0


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("stake", [None, 2])
def test_decisions_do_not_depend_on_hidden_information(spec: str, stake: int | None) -> None:
    """Same view and seed, different secret: identical decisions and search statistics."""
    for player, own_card in ((0, 2), (1, 3)):
        decisions = set()
        for other_card in (c for c in range(1, 5) if c != own_card):
            cards = (own_card, other_card) if player == 0 else (other_card, own_card)
            if stake is None and player == 1:
                continue  # player 1 does not act at the stake decision
            state = duel_state(cards, stake)
            action, stats = decide(spec, state, player, seed=7)
            decisions.add((action, tuple(sorted(stats.items()))))
        assert len(decisions) <= 1, decisions


def test_the_invariance_check_catches_a_leaking_sampler() -> None:
    """The test above can fail: a search fed the true state decides by the secret."""
    actions = set()
    for other in (1, 3):
        state = duel_state((2, other))
        honest = InformationSet.of(state, 0)

        def leak(rng: random.Random, data: DuelState = state.data) -> DuelState:
            return data  # the true state, whatever the draw

        leaky = InformationSet(
            state.game,
            0,
            lambda h=honest: h.view,
            honest.legal_actions,
            lambda _view, h=honest: h.key,
            leak,
        )
        agent = make_agent("ismcts:iters=150")
        agent.reset(state.game, 0, 7)
        actions.add(agent.act(leaky.view, leaky.legal_actions, DecisionContext(leaky, 0, False)))
    assert actions == {Stake(1), Stake(2)}  # the secret decides how much is at stake


# ------------------------------------------------------- legal, reproducible
@pytest.mark.parametrize("spec", SPECS)
def test_agents_play_legal_reproducible_games(spec: str) -> None:
    game = SecretDuel()
    for seed in range(4):
        first = play_match(game, [make_agent(spec), make_agent("random")], seed)
        again = play_match(game, [make_agent(spec), make_agent("random")], seed)
        assert first.final_state.is_terminal()
        assert first.record().moves == again.record().moves
        swapped = play_match(game, [make_agent("random"), make_agent(spec)], seed)
        assert swapped.final_state.is_terminal()


def test_the_driver_refuses_an_illegal_choice_and_a_wrong_table() -> None:
    class Stubborn:
        name = "stubborn"

        def reset(self, game: Game[Any, Any, Any], player: int, seed: int) -> None:
            pass

        def act(
            self, view: Mapping[str, Any], legal: Sequence[Any], context: DecisionContext[Any, Any]
        ) -> Any:
            return Stake(3)

    with pytest.raises(IllegalActionError, match="stubborn"):
        play_match(SecretDuel(), [Stubborn(), make_agent("random")], 0)
    with pytest.raises(InvalidParamsError):
        play_match(SecretDuel(), [make_agent("random")], 0)


@pytest.mark.parametrize("spec", ["mcts:iters=100", "ismcts:iters=100"])
def test_search_beats_random_on_the_toy_game(spec: str) -> None:
    game = SecretDuel()
    total = 0.0
    games = 60
    for seed in range(games):
        seat = seed % 2
        agents = [make_agent("random"), make_agent("random")]
        agents[seat] = make_agent(spec)
        total += play_match(game, agents, seed).returns[seat]
    # random against random averages 0; playing the duel well earns about +0.9 a game
    assert total / games > 0.4


def test_search_stakes_high_on_the_best_card_and_low_on_the_worst() -> None:
    for spec in ["mcts:iters=200:early=0", "ismcts:iters=200:early=0"]:
        for cards, best in (((4, 1), Stake(2)), ((1, 3), Stake(1))):
            agent = make_agent(spec)
            state = duel_state(cards)
            agent.reset(state.game, 0, 3)
            info = InformationSet.of(state, 0)
            assert agent.act(info.view, info.legal_actions, DecisionContext(info, 0, False)) == best
            assert isinstance(agent, SearchAgent) and agent.last_iterations == 200


def test_a_time_budget_stops_the_search() -> None:
    agent = make_agent("ismcts:seconds=0.05")
    state = duel_state((2, 3), 1)
    agent.reset(state.game, 1, 0)
    info = InformationSet.of(state, 1)
    agent.act(info.view, info.legal_actions, DecisionContext(info, 1, True))
    assert isinstance(agent, SearchAgent) and agent.last_iterations >= 1


# ------------------------------------------------------------- make_policy
def test_make_policy_drives_an_agent_through_the_information_set() -> None:
    game = SecretDuel()
    for spec in SPECS:
        outputs = []
        for _ in range(2):
            policy = make_policy(spec, game, 1, seed=11)
            state = duel_state((3, 2), 1)
            outputs.append(policy(state, 1, random.Random(0)))
            assert outputs[-1] in state.legal_actions(1)
        assert outputs[0] == outputs[1]
    with pytest.raises(InvalidParamsError):
        make_policy("nobody", game, 0)
