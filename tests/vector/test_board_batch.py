"""The batched board game against the reference engine, step by step.

Every variant of the rules, with two, three and four players, plays seeded games in a
``BoardBatch`` and, beside it, in koth's checked ``GameState``, with the same actions
and chance outcomes: at every step the node, each player's legal actions (list and
mask), the chance outcomes, every observation (against ``board_obs.encode`` of the
player's view) and, at the end, the returns must be equal. A difference names the
game, the step, the history and both legal sets. Then the secrecy check: changing
what a player cannot see (the others' excluded types, B16.2) in the batch's own
arrays never changes that player's observation.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from koth.core.errors import GameOverError, IllegalActionError, InvalidParamsError
from koth.core.state import GameState
from koth.games.board.actions import action_from_id, action_id
from koth.games.board.game import BoardGame
from koth.games.board.state import BoardState
from koth.vector import board_kernels as kernels
from koth.vector import board_layout as L
from koth.vector.board import BoardBatch
from koth.vector.board_obs import encode
from tests.vector.alongside import play_alongside as alongside

#: (players, options): the default game at every table size and every option
VARIANTS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {}),
    (4, {}),
    (2, {"one_excluded": True, "target_points": 12}),
    (3, {"one_excluded": True, "target_points": 12}),
    (2, {"countdown": True, "countdown_start": 12}),
    (3, {"countdown": True, "countdown_start": 12, "score_own_turns_only": True}),
    (4, {"teamplay": True, "target_points": 15}),
    (4, {"teamplay": True, "countdown": True, "countdown_start": 10, "one_excluded": True}),
    (
        2,
        {
            "runners_blocked_by_own": False,
            "blockers_avoid_blockers": True,
            "score_own_turns_only": True,
            "target_points": 12,
        },
    ),
    (
        3,
        {
            "runners_blocked_by_own": False,
            "blockers_avoid_blockers": True,
            "target_points": 12,
        },
    ),
    (
        2,
        {
            "runner_range": 4,
            "fighter_range": 3,
            "blocker_range": 3,
            "runner_first_round": 1,
            "target_points": 15,
        },
    ),
    (4, {"runner_range": 1, "fighter_range": 2, "blocker_range": 2, "target_points": 10}),
    (2, {"round_limit": 4}),
    (3, {"round_limit": 3, "target_points": 4}),
]
#: games per variant: set KOTH_VECTOR_GAMES for a longer run
GAMES = int(os.environ.get("KOTH_VECTOR_GAMES", "2"))


def variant_id(variant: tuple[int, dict[str, Any]]) -> str:
    n, options = variant
    return f"{n}p-" + "-".join(f"{k}={v}" for k, v in options.items())


def node_code(state: GameState[BoardState, Any]) -> int:
    if state.is_terminal():
        return L.TM_OVER
    if state.is_chance_node():
        return L.TM_CHANCE
    if state.is_simultaneous_node():
        return L.TM_ALL
    return L.TM_PLAYER0 + state.current_player()


def check_same(
    batch: BoardBatch, i: int, state: GameState[BoardState, Any], history: list[int]
) -> None:
    game = state.game
    n = batch.num_players
    where = f"game {i}, step {state.num_moves}, phase {batch.phase(i)}, history {history}"
    assert batch.to_move[i] == node_code(state), where
    for p in range(n):
        expected = sorted(action_id(a, n) for a in game.legal_actions(state.data, p))
        got = batch.legal_actions(i, p)
        assert got == expected, (
            f"{where}: player {p} legal ids differ;\n batch only {sorted(set(got) - set(expected))}"
            f"\n engine only {sorted(set(expected) - set(got))}\n batch {got}\n engine {expected}"
        )
        if expected:
            assert np.flatnonzero(batch.legal_mask[i]).tolist() == expected, where
        wanted = encode(state.view(p), p, n)
        got_obs = batch.observations[i, p]
        differ = np.flatnonzero(got_obs != wanted).tolist()
        assert not differ, (where, p, differ, got_obs[differ], wanted[differ])
    if not state.is_chance_node() and not state.is_terminal():
        assert not batch.legal_mask[i].any() or node_code(state) != L.TM_CHANCE
    outcomes = [(action_id(a, n), pr) for a, pr in state.chance_outcomes()]
    assert batch.chance_outcomes(i) == outcomes, where


def play_alongside(n: int, options: dict[str, Any], games: int, seed: int) -> int:
    """Play ``games`` games to their end in a batch and in GameState; the steps made."""
    params = {"num_players": n, **options}
    batch = BoardBatch(games, params, autoreset=False)
    batch.reset(seed)
    game = BoardGame(params)
    states = [game.new_initial_state() for _ in range(games)]
    return alongside(batch, states, seed, lambda a: action_from_id(a, n), check_same)


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_batch_equals_gamestate_in_every_variant(variant: tuple[int, dict[str, Any]]) -> None:
    n, options = variant
    assert play_alongside(n, options, GAMES, seed=len(variant_id(variant))) > 50 * GAMES


def test_changing_another_players_excluded_type_never_changes_my_observation() -> None:
    for n in (2, 3, 4):
        batch = BoardBatch(6, {"num_players": n, "one_excluded": True}, auto_chance=True)
        batch.reset(4)
        checked = 0
        for _ in range(150):
            batch.step(batch.random_actions())
            for i in range(batch.num_games):
                if batch._g[i, L.F_PHASE] == L.OVER:
                    continue
                for me in range(n):
                    for q in range(n):
                        if q == me or batch._g[i, L.F_EXCLUDED + q] < 0:
                            continue
                        g = batch._g.copy()
                        g[i, L.F_EXCLUDED + q] = (g[i, L.F_EXCLUDED + q] + 1) % 3
                        row = np.zeros(L.OBS_SIZE, dtype=np.int32)
                        kernels.observe(g, batch._params, i, me, batch.to_move[i], row)
                        assert np.array_equal(row, batch.observations[i, me])
                        checked += 1
        assert checked > 500


def test_a_seed_replays_each_game_whatever_the_batch_size() -> None:
    small, large = BoardBatch(3), BoardBatch(7)
    small.reset(11)
    large.reset(11)
    for _ in range(200):
        small.step(small.random_actions())
        large.step(large.random_actions())
        assert np.array_equal(small.observations, large.observations[:3])


def test_auto_chance_leaves_only_decisions_and_autoreset_restarts_a_finished_game() -> None:
    batch = BoardBatch(8, {"num_players": 3, "target_points": 3}, auto_chance=True)
    batch.reset(5)
    ended = 0
    for _ in range(1500):
        assert not (batch.to_move == L.TM_CHANCE).any()
        assert not (batch.to_move == L.TM_OVER).any()
        batch.step(batch.random_actions())
        for i in np.flatnonzero(batch.terminated):
            ended += 1
            assert batch.final_observations[i, 0, L.O_PHASE] == L.OVER
            assert batch.observations[i, 0, L.O_PHASE] == L.PLACE  # the next game's setup
            assert abs(float(batch.rewards[i].sum())) < 1e-6
    assert ended > 8


def test_an_illegal_action_is_refused_by_name_and_changes_nothing() -> None:
    batch = BoardBatch(2, auto_chance=True)
    batch.reset(1)
    before = batch.observations.copy()
    actions = batch.random_actions()
    mover = int(batch.to_move[1]) - L.TM_PLAYER0
    actions[1, mover] = L.END_BASE + 9
    with pytest.raises(IllegalActionError, match=rf"game 1: player {mover} may not take action"):
        batch.step(actions)
    assert np.array_equal(batch.observations, before)
    with pytest.raises(IllegalActionError, match=r"shape \(2, 2\)"):
        batch.step(np.zeros((3, 2)))


def test_a_supplied_chance_outcome_must_be_one_of_the_nodes() -> None:
    batch = BoardBatch(1)
    batch.reset(1)
    with pytest.raises(IllegalActionError, match=r"not an outcome of its chance node"):
        batch.step(np.full((1, 2), -1), np.array([3]))  # a die, while the terrain is drawn


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: BoardBatch(0), "at least one game"),
        (lambda: BoardBatch(2, {"num_players": 5}), "num_players"),
        (lambda: BoardBatch(2).reset(-1), "non-negative"),
        (lambda: BoardBatch(2).step(np.zeros((2, 2))), "reset"),
        (lambda: BoardBatch(2).legal_actions(2, 0), r"outside 0\.\.1"),
        (lambda: BoardBatch(2).legal_actions(0, 2), r"players 0\.\.1"),
        (
            lambda: BoardBatch(2, {"countdown": True, "countdown_start": 2**31}),
            "countdown in 32 bits",
        ),
    ],
)
def test_bad_input_is_named(make: Any, message: str) -> None:
    with pytest.raises((InvalidParamsError, GameOverError), match=message):
        make()
