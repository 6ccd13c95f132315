"""A registered playout (the whole heuristic rollout in one call) plays exactly the
rollout it stands for: the same returns and the same random draws as the policy played
step by step through the rules, from states of every phase of seeded random games."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koth.agents.heuristics import state_playout, state_rollout
from koth.agents.search import PlayoutRollout, _NoisyRollout, heuristic_rollout_policy, rollout
from koth.core.chance import sample_outcome
from koth.core.players import NodeKind
from koth.core.registry import load_game
from koth.games.cards import CardsGame


def states_of_a_random_game(game: Any, seed: int) -> list[Any]:
    rng = random.Random(seed)
    state = game.initial()
    found = []
    while game.to_move(state).kind is not NodeKind.TERMINAL:
        found.append(state)
        to_move = game.to_move(state)
        if to_move.kind is NodeKind.CHANCE:
            state = game.apply(state, -1, sample_outcome(game.chance_outcomes(state), rng))
        elif to_move.kind is NodeKind.PLAYER:
            player = to_move.players[0]
            state = game.apply(state, player, rng.choice(game.legal_actions(state, player)))
        else:
            joint = {p: rng.choice(game.legal_actions(state, p)) for p in to_move.players}
            state = game.apply_joint(state, joint)
    found.append(state)
    return found


def step_by_step(game: Any, epsilon: float) -> Any:
    fast = state_rollout(game)
    assert fast is not None
    return _NoisyRollout(fast, epsilon) if epsilon > 0 else fast


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    epsilon=st.sampled_from([0.0, 0.1, 0.5]),
    options=st.sampled_from([{}, {"tens_equal": True}, {"jokers": 2, "dealer": 1}]),
)
def test_the_cards_playout_is_the_step_by_step_rollout(
    seed: int, epsilon: float, options: dict[str, Any]
) -> None:
    game = CardsGame(**options)
    whole = heuristic_rollout_policy(game, epsilon)
    assert isinstance(whole, PlayoutRollout)
    plain = step_by_step(game, epsilon)
    states = states_of_a_random_game(game, seed)
    picks = random.Random(seed).sample(range(len(states)), min(12, len(states)))
    for k in picks:
        one, two = random.Random(seed + k), random.Random(seed + k)
        expected = rollout(game, states[k], one, plain, 400)
        assert rollout(game, states[k], two, whole, 400) == expected
        assert one.getstate() == two.getstate(), f"state {k}: the random draws differ"


@pytest.mark.parametrize("max_steps", [5, 60])
def test_a_rollout_that_may_be_cut_short_goes_step_by_step(max_steps: int) -> None:
    game = CardsGame()
    playout = state_playout(game)
    assert playout is not None
    choose = next(s for s in states_of_a_random_game(game, 3) if s.phase.name == "CHOOSE")
    assert playout(game, choose, random.Random(1), 0.1, max_steps) is None
    one, two = random.Random(2), random.Random(2)
    whole = heuristic_rollout_policy(game, 0.1)
    plain = step_by_step(game, 0.1)
    assert rollout(game, choose, one, whole, max_steps) == rollout(
        game, choose, two, plain, max_steps
    )


def test_games_without_a_playout_keep_the_step_by_step_policy() -> None:
    game = load_game("board")
    assert state_playout(game) is None
    assert not isinstance(heuristic_rollout_policy(game, 0.1), PlayoutRollout)


def reference_board_rollout_choice(game: Any, state: Any, player: int, rng: random.Random) -> Any:
    """The board's rollout policy as first written: every legal action scored by
    ``state_score`` plus one random draw, the highest first."""
    from koth.agents.heuristics.board import _StateTable, state_score

    legal = game.legal_actions(state, player)
    if len(legal) == 1:
        return legal[0]
    table = _StateTable(state.units, player, game.num_players)
    best, best_score = legal[0], -1e18
    for action in legal:
        score = state_score(action, table) + rng.random()
        if score > best_score:
            best, best_score = action, score
    return best


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_the_board_rollout_policy_chooses_as_the_reference(seed: int, players: int) -> None:
    from koth.agents.heuristics.board import board_rollout_policy

    game = load_game("board", {"num_players": players, "round_limit": 60})
    states = states_of_a_random_game(game, seed)
    for k, state in enumerate(states[:: max(1, len(states) // 150)]):
        to_move = game.to_move(state)
        if to_move.kind is not NodeKind.PLAYER:
            continue
        player = to_move.players[0]
        one, two = random.Random(seed + k), random.Random(seed + k)
        expected = reference_board_rollout_choice(game, state, player, one)
        assert board_rollout_policy(game, state, player, two) == expected
        assert one.getstate() == two.getstate()
