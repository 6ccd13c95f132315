"""Properties over thousands of seeded random games: conservation, termination,
refusal of illegal actions, exact replay and views that leak nothing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koth.core.chance import random_game, sample_outcome
from koth.core.errors import IllegalActionError
from koth.core.players import NodeKind
from koth.core.record import GameRecord, replay
from koth.games.cards import CardsGame, CardsState
from koth.games.cards.observe import resample_hidden

MAX_STEPS = 52 + 12 + 15 * 30  # deal, reserve, 15 fights with generous tie-breaks


def engine_game(game: CardsGame, seed: int) -> tuple[CardsState, int]:
    """A random game through the pure rules, checking the invariants at every step."""
    rng = random.Random(seed)
    state = game.initial()
    steps = 0
    while True:
        problems = game.invariant_violations(state)
        assert not problems, (seed, steps, problems)
        to_move = game.to_move(state)
        if to_move.kind is NodeKind.TERMINAL:
            return state, steps
        assert steps < MAX_STEPS, f"seed {seed}: no end after {steps} steps"
        if to_move.kind is NodeKind.CHANCE:
            state = game.apply(state, -1, sample_outcome(game.chance_outcomes(state), rng))
        elif to_move.kind is NodeKind.SIMULTANEOUS:
            joint = {p: rng.choice(game.legal_actions(state, p)) for p in to_move.players}
            state = game.apply_joint(state, joint)
        else:
            player = to_move.players[0]
            state = game.apply(state, player, rng.choice(game.legal_actions(state, player)))
        steps += 1


@pytest.mark.parametrize("params", [{}, {"jokers": 2, "tens_equal": True, "dealer": 1}])
def test_thousands_of_games_conserve_all_cards_and_end(params: dict[str, object]) -> None:
    game = CardsGame(params)
    results = {1.0: 0, -1.0: 0, 0.0: 0}
    for seed in range(1000):
        state, _ = engine_game(game, seed)
        returns = game.returns(state)
        assert sum(returns) == 0
        results[returns[0]] += 1
    assert all(results.values()), results  # wins, losses and draws all happen


def test_illegal_actions_are_never_accepted() -> None:
    game = CardsGame()
    for seed in range(150):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            movers = [-1] if state.is_chance_node() else list(state.acting_players())
            for player in movers:
                legal = set(state.legal_action_ids(player))
                illegal = rng.choice(
                    [i for i in range(game.num_distinct_actions()) if i not in legal]
                )
                before = state.data
                with pytest.raises(IllegalActionError):
                    state.check_action(game.action_from_id(illegal), player)
                assert state.data is before
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            elif state.is_simultaneous_node():
                state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in movers})
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def test_saved_records_replay_to_the_identical_final_state() -> None:
    game = CardsGame()
    for seed in range(200):
        state = random_game(game, seed)
        text = GameRecord.from_state(state, seed=seed).to_json_text()
        replayed = replay(GameRecord.from_json_text(text))
        assert replayed == state and replayed.history == state.history


@given(
    seed=st.integers(0, 2**32 - 1), cut=st.floats(0.0, 1.0), viewer=st.sampled_from([0, 1, None])
)
@settings(max_examples=150, deadline=None)
def test_a_view_is_identical_across_states_differing_only_in_hidden_cards(
    seed: int, cut: float, viewer: int | None
) -> None:
    game = CardsGame()
    full = random_game(game, seed)
    stop = int(cut * len(full.history))
    state = game.new_initial_state()
    for move in full.history[:stop]:
        state.apply_move(move)
    rng = random.Random(seed)
    for _ in range(3):
        other = resample_hidden(state.data, viewer, rng)
        assert game.view(other, viewer) == state.view(viewer)
        assert not game.invariant_violations(other)
        if viewer is not None and viewer in state.acting_players():
            assert list(game.legal_actions(other, viewer)) == list(state.legal_actions(viewer))
