"""The engine's legal actions against the plain reference generator (``oracle.py``) on
thousands of states reached by seeded random play, in every variant and player count.
A disagreement names the seed, the step, the state and the actions only one side has."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koth.core.chance import sample_outcome
from koth.core.players import NodeKind
from koth.games.board import BoardGame, BoardState
from koth.games.board.actions import Action
from tests.games.board import oracle

#: (name, options): every variant and player count, and the movement options that
#: change the search (ranges, what stops runners and blockers)
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("2 players", {"num_players": 2}),
    ("3 players", {"num_players": 3}),
    ("4 players", {"num_players": 4}),
    ("countdown, 3 players", {"num_players": 3, "countdown": True, "countdown_start": 12}),
    ("one excluded, 2 players", {"num_players": 2, "one_excluded": True}),
    ("one excluded, 4 players", {"num_players": 4, "one_excluded": True}),
    ("teamplay", {"num_players": 4, "teamplay": True}),
    ("scoring on own turns", {"num_players": 3, "score_own_turns_only": True}),
    (
        "long ranges, 3 players",
        {"num_players": 3, "fighter_range": 3, "blocker_range": 3, "runner_range": 4},
    ),
    (
        "middle ranges, 4 players",
        {"num_players": 4, "fighter_range": 2, "blocker_range": 2, "runner_range": 2},
    ),
    ("short runners", {"num_players": 2, "runner_range": 1, "runner_first_round": 1}),
    ("runners pass own units", {"num_players": 3, "runners_blocked_by_own": False}),
    (
        "runners pass own units, long ranges",
        {"num_players": 4, "runners_blocked_by_own": False, "fighter_range": 2, "runner_range": 4},
    ),
    ("blockers avoid blockers", {"num_players": 3, "blockers_avoid_blockers": True}),
    (
        "earlier readings, 4 players",
        {"num_players": 4, "runners_blocked_by_own": False, "blockers_avoid_blockers": True},
    ),
    ("shared blockers, long ranges", {"num_players": 4, "blocker_range": 3, "runner_range": 4}),
]
#: decision states checked per variant (under a second each)
STATES_PER_VARIANT = 1500


def decision_states(game: BoardGame, seed: int, wanted: int) -> Iterator[BoardState]:
    """The decision states (turns, answers, placements) of seeded random games, games
    after games, until ``wanted`` were met. Random players move uniformly among the
    legal actions, which keeps the board busy with fights and alliances."""
    rng = random.Random(seed)
    met = 0
    while True:
        state = game.initial()
        while game.outcome(state) is None:
            to_move = game.to_move(state)
            if to_move.kind is NodeKind.CHANCE:
                action = sample_outcome(game.chance_outcomes(state), rng)
                state = game.apply(state, -1, action)
                continue
            if to_move.kind is NodeKind.SIMULTANEOUS:
                joint = {p: rng.choice(game.legal_actions(state, p)) for p in to_move.players}
                state = game.apply_joint(state, joint)
                continue
            yield state
            met += 1
            if met >= wanted:
                return
            player = to_move.players[0]
            state = game.apply(state, player, rng.choice(game.legal_actions(state, player)))


def disagreement(game: BoardGame, state: BoardState) -> str | None:
    """None when the engine and the oracle list the same actions for every seat (and the
    engine lists each once, in id order); otherwise what differs."""
    n = game.num_players
    for player in range(n):
        engine = list(game.legal_actions(state, player))
        reference = oracle.legal_actions(game.params, state, player)
        ids = [game.action_id(a) for a in engine]
        if ids != sorted(set(ids)):
            return f"seat {player}: engine's list is not in strictly increasing id order"
        missing = set(reference) - set(engine)
        extra = set(engine) - set(reference)
        if missing or extra:
            return (
                f"seat {player}: only the oracle has {sorted(map(str, missing))}; "
                f"only the engine has {sorted(map(str, extra))}"
            )
    return None


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=[name for name, _ in VARIANTS])
def test_engine_lists_what_the_oracle_lists(name: str, options: dict[str, Any]) -> None:
    game = BoardGame(**options)
    seed = sum(map(ord, name))
    checked = 0
    for checked, state in enumerate(decision_states(game, seed, STATES_PER_VARIANT), 1):
        problem = disagreement(game, state)
        assert problem is None, f"{name}, seed {seed}, state {checked}: {problem}\n{state!r}"
    assert checked == STATES_PER_VARIANT


def test_the_oracle_is_not_the_engine() -> None:
    """The diff can fail: a state where the oracle and the engine are told apart by a
    rule the oracle would break if it were wrong (a runner passing an enemy fighter)."""
    from tests.games.board.helpers import make_state

    game = BoardGame(num_players=2)
    state = make_state(game, units={(0, "1.0"): "R1", (1, "1.1"): "F1"}, dice={0: (3,)})
    listed: list[Action] = oracle.legal_actions(game.params, state, 0)
    texts = {str(a) for a in listed}
    assert "move runner 1.0>1.2" not in texts  # B10: 1.1 holds an enemy fighter
    assert "move runner 1.0>2.0" in texts
    assert disagreement(game, state) is None


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32 - 1),
    depth=st.integers(0, 600),
)
def test_property_engine_equals_oracle_on_random_reachable_states(
    variant: tuple[str, dict[str, Any]], seed: int, depth: int
) -> None:
    """Any seed, any variant, any depth of random play: the engine lists exactly what
    the oracle lists."""
    name, options = variant
    game = BoardGame(**options)
    *_, state = decision_states(game, seed, depth + 1)
    problem = disagreement(game, state)
    assert problem is None, f"{name}, seed {seed}, state {depth + 1}: {problem}\n{state!r}"
