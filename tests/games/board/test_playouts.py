"""Many plain seeded random games: conservation, stacking and terrain hold, every game
ends, no illegal action is accepted, records replay identically."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koth.core.chance import sample_outcome
from koth.core.errors import IllegalActionError
from koth.core.record import GameRecord, replay
from koth.games.board import BoardGame


def game_for(seed: int) -> BoardGame:
    rng = random.Random(seed)
    players = rng.choice((2, 3, 4))
    params: dict[str, Any] = {
        "num_players": players,
        "countdown": rng.random() < 0.3,
        "one_excluded": rng.random() < 0.3,
        "teamplay": players == 4 and rng.random() < 0.4,
        "runners_blocked_by_own": rng.random() < 0.8,
        "score_own_turns_only": rng.random() < 0.2,
        "fighter_range": rng.choice((1, 1, 2)),
        "blocker_range": rng.choice((1, 1, 2)),
        "target_points": rng.choice((3, 6, 10)),
        "countdown_start": rng.choice((3, 8)),
        "round_limit": rng.choice((8, 20, 40)),
        "blockers_avoid_blockers": rng.random() < 0.2,
    }
    return BoardGame(**params)


def playout(seed: int, check_every: int = 7) -> None:
    game = game_for(seed)
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    limit = (game.params.round_limit + 1) * 40 * game.num_players
    while not state.is_terminal():
        assert steps < limit, f"seed {seed}: no end after {steps} steps"
        if steps % check_every == 0:
            assert game.invariant_violations(state.data) == [], f"seed {seed} step {steps}"
            if not state.is_chance_node() and not state.is_simultaneous_node():
                # one id that is not legal must be refused and change nothing
                legal_ids = set(state.legal_action_ids())
                probe = rng.randrange(game.num_distinct_actions())
                if probe not in legal_ids:
                    before = state.data
                    with pytest.raises(IllegalActionError):
                        state.apply_action(game.action_from_id(probe))
                    assert state.data == before
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        elif state.is_simultaneous_node():
            state.apply_actions(
                {p: rng.choice(state.legal_actions(p)) for p in state.acting_players()}
            )
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert game.invariant_violations(state.data) == []
    outcome = state.outcome()
    assert outcome is not None and abs(sum(state.returns())) < 1e-9
    if seed % 10 == 0:
        replayed = replay(
            GameRecord.from_json_text(GameRecord.from_state(state, seed=seed).to_json_text())
        )
        assert replayed == state and replayed.history == state.history


@given(seed=st.integers(0, 10**9))
@settings(max_examples=150, deadline=None)
def test_random_games_keep_every_invariant(seed: int) -> None:
    playout(seed)


@pytest.mark.slow
def test_thousands_of_random_games_keep_every_invariant() -> None:
    for seed in range(3000):
        playout(seed, check_every=11)


def test_default_game_terminates_within_the_round_limit() -> None:
    game = BoardGame(num_players=2)
    from koth.core.chance import random_game

    for seed in range(3):
        state = random_game(game, seed)
        assert state.is_terminal() and state.data.round <= game.params.round_limit
