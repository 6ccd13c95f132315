"""The batched card game against the reference engine, step by step.

Every variant of the rules plays seeded games in a ``CardsBatch`` and, beside it, in
koth's checked ``GameState``, with the same actions and deals: at every step the node,
each player's legal actions (list and mask), the deal's outcomes, both observations
(against ``cards_obs.encode`` of the player's view) and, at the end, the returns must
be equal. Then the secrecy check: changing what a player cannot see in the batch's own
arrays never changes that player's observation.
"""

from __future__ import annotations

import itertools
import os
import random
from typing import Any

import numpy as np
import pytest

from koth.core.errors import GameOverError, IllegalActionError, InvalidParamsError
from koth.core.state import GameState
from koth.games.cards.actions import action_from_id, action_id
from koth.games.cards.game import CardsGame
from koth.games.cards.state import CardsState
from koth.vector import cards_layout as L
from koth.vector import cards_view as kernels
from koth.vector.cards import CardsBatch
from koth.vector.cards_obs import encode
from tests.vector.alongside import play_alongside as alongside

VARIANTS = [
    {"jokers": j, "tens_equal": t, "dealer": d, "reveal_discarded_stacks": r}
    for j, t, d, r in itertools.product((2, 3), (False, True), (0, 1), (False, True))
]
#: games per variant: a few hundred in all in CI; set KOTH_VECTOR_GAMES for a longer run
GAMES = int(os.environ.get("KOTH_VECTOR_GAMES", "12"))


def node_code(state: GameState[CardsState, Any]) -> int:
    if state.is_terminal():
        return L.TM_OVER
    if state.is_chance_node():
        return L.TM_CHANCE
    if state.is_simultaneous_node():
        return L.TM_BOTH
    return L.TM_PLAYER0 + state.current_player()


def check_same(batch: CardsBatch, i: int, state: GameState[CardsState, Any]) -> None:
    game = state.game
    where = f"game {i}, step {state.num_moves}, phase {batch.phase(i)}"
    assert batch.to_move[i] == node_code(state), where
    for p in (0, 1):
        expected = sorted(action_id(a) for a in game.legal_actions(state.data, p))
        assert batch.legal_actions(i, p) == expected, where
        assert np.flatnonzero(batch.legal_mask[i, p]).tolist() == expected, where
        assert np.array_equal(batch.observations[i, p], encode(state.view(p), p)), (where, p)
    outcomes = [(action_id(a), pr) for a, pr in state.chance_outcomes()]
    assert batch.chance_outcomes(i) == outcomes, where


def play_alongside(params: dict[str, Any], games: int, seed: int) -> int:
    """Play ``games`` games to their end in a batch and in GameState; the steps made."""
    batch = CardsBatch(games, params, autoreset=False)
    batch.reset(seed)
    states = [CardsGame(params).new_initial_state() for _ in range(games)]
    return alongside(batch, states, seed, action_from_id, lambda b, i, s, _: check_same(b, i, s))


@pytest.mark.parametrize("params", VARIANTS, ids=lambda p: "-".join(map(str, p.values())))
def test_batch_equals_gamestate_in_every_variant(params: dict[str, Any]) -> None:
    assert play_alongside(params, GAMES, seed=len(str(params))) > 100 * GAMES


def hidden_from(
    g: np.ndarray[Any, Any], stacks: np.ndarray[Any, Any], i: int, me: int
) -> list[tuple[str, int]]:
    """The places of the cards ``me`` cannot see in game ``i``, as (zone, card)."""
    opp = 1 - me
    row = g[i]
    phase = row[L.F_PHASE]
    known = row[L.F_WON_TOPS + opp] & ~row[L.F_DISCARDS]
    places: list[tuple[str, int]] = []
    if phase != 1:  # during the reserve rounds the split itself is secret: keep it
        for zone, field in (("hand", L.F_HAND + opp), ("reserve", L.F_RESERVE + opp)):
            mask = int(row[field]) & L.ALL_NORMAL & ~int(known)
            places += [(zone, c) for c in range(52) if mask >> c & 1]
    places += [("undealt", c) for c in range(52) if int(row[L.F_UNDEALT]) >> c & 1]
    if phase != 6:
        places += [("buried", c) for c in range(52) if int(row[L.F_BURIED]) >> c & 1]
    for s in range(1, 15):
        size = int(row[L.F_SLEN + s])
        shown = size == int(L.STACK_SIZES[s])
        places += [(f"stack {s} {k}", int(stacks[i, s, k])) for k in range(size - shown)]
    return places


def swap(
    g: np.ndarray[Any, Any],
    stacks: np.ndarray[Any, Any],
    i: int,
    a: tuple[str, int],
    b: tuple[str, int],
    me: int,
) -> None:
    """Exchange two hidden cards between their places in game ``i``'s arrays."""
    for (zone, card), other in ((a, b[1]), (b, a[1])):
        if zone.startswith("stack"):
            _, s, k = zone.split()
            stacks[i, int(s), int(k)] = other
            continue
        field = {
            "hand": L.F_HAND + 1 - me,
            "reserve": L.F_RESERVE + 1 - me,
            "undealt": L.F_UNDEALT,
            "buried": L.F_BURIED,
        }[zone]
        g[i, field] = (int(g[i, field]) & ~(1 << card)) | 1 << other
        if zone == "buried":
            g[i, L.F_DISCARDS] = (int(g[i, L.F_DISCARDS]) & ~(1 << card)) | 1 << other


def test_changing_another_players_secret_never_changes_my_observation() -> None:
    rng = random.Random(7)
    for params in VARIANTS[::5]:
        batch = CardsBatch(8, params)
        batch.reset(3)
        checked = 0
        for _ in range(220):
            batch.step(batch.random_actions())
            for i in range(batch.num_games):
                for me in (0, 1):
                    places = hidden_from(batch._g, batch._stacks, i, me)
                    zones = {zone for zone, _ in places}
                    if len(zones) < 2:
                        continue
                    a = rng.choice(places)
                    b = rng.choice([p for p in places if p[0] != a[0]])
                    g, stacks = batch._g.copy(), batch._stacks.copy()
                    swap(g, stacks, i, a, b, me)
                    obs = np.zeros_like(batch.observations)
                    kernels.observe(g, stacks, batch._params, i, me, obs)
                    assert np.array_equal(obs[i, me], batch.observations[i, me]), (params, a, b)
                    checked += 1
        assert checked > 1000


def test_a_seed_replays_each_game_whatever_the_batch_size() -> None:
    small, large = CardsBatch(3), CardsBatch(9)
    small.reset(11)
    large.reset(11)
    for _ in range(150):
        small.step(small.random_actions())
        large.step(large.random_actions())
        assert np.array_equal(small.observations, large.observations[:3])


def test_one_worker_per_core_steps_every_game_as_one_worker_does() -> None:
    serial, split = CardsBatch(600, parallel=False), CardsBatch(600, parallel=True)
    serial.reset(4)
    split.reset(4)
    for _ in range(160):
        actions = serial.random_actions()
        assert np.array_equal(actions, split.random_actions())
        serial.step(actions)
        split.step(actions)
        assert np.array_equal(serial.observations, split.observations)
        assert np.array_equal(serial.legal_mask, split.legal_mask)
        assert np.array_equal(serial.rewards, split.rewards)


def test_auto_chance_leaves_only_decisions_and_autoreset_restarts_a_finished_game() -> None:
    batch = CardsBatch(16, auto_chance=True)
    batch.reset(5)
    ended = 0
    for _ in range(400):
        assert not (batch.to_move == L.TM_CHANCE).any()
        assert not (batch.to_move == L.TM_OVER).any()
        batch.step(batch.random_actions())
        for i in np.flatnonzero(batch.terminated):
            ended += 1
            assert batch.final_observations[i, 0, L.O_PHASE] == 6
            assert batch.observations[i, 0, L.O_PHASE] == 1  # the next game's reserve
            assert sorted(batch.rewards[i].tolist()) in ([-1.0, 1.0], [0.0, 0.0])
    assert ended > 16


def test_an_illegal_action_is_refused_by_name_and_changes_nothing() -> None:
    batch = CardsBatch(2, auto_chance=True)
    batch.reset(1)
    before = batch.observations.copy()
    actions = batch.random_actions()
    actions[1, 0] = 0  # a deal, in the reserve phase
    with pytest.raises(IllegalActionError, match=r"game 1: player 0 may not take action 0"):
        batch.step(actions)
    assert np.array_equal(batch.observations, before)
    with pytest.raises(IllegalActionError, match=r"shape \(2, 2\)"):
        batch.step(np.zeros((3, 2)))


def test_a_supplied_deal_must_be_undealt() -> None:
    batch = CardsBatch(1)
    batch.reset(1)
    batch.step(np.full((1, 2), -1), np.array([5]))
    with pytest.raises(IllegalActionError, match=r"card 5 cannot be dealt"):
        batch.step(np.full((1, 2), -1), np.array([5]))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: CardsBatch(0), "at least one game"),
        (lambda: CardsBatch(2, {"jokers": 4}), "jokers"),
        (lambda: CardsBatch(2).reset(-1), "non-negative"),
        (lambda: CardsBatch(2).step(np.zeros((2, 2))), "reset"),
        (lambda: CardsBatch(2).legal_actions(2, 0), r"outside 0\.\.1"),
        (lambda: started(CardsBatch(2)).step(np.zeros((2, 2)), chance=[1]), r"shape \(2,\)"),
        (lambda: started(CardsBatch(2)).step(np.zeros((2, 2)), active=[1]), r"one flag per"),
        (lambda: CardsBatch(2).is_over(True), "integer"),
    ],
)
def test_bad_input_is_named(make: Any, message: str) -> None:
    with pytest.raises((InvalidParamsError, GameOverError, IllegalActionError), match=message):
        make()


def started(batch: CardsBatch) -> CardsBatch:
    batch.reset(0)
    return batch


def test_memory_counts_every_array_of_the_batch() -> None:
    batch = CardsBatch(10)
    assert batch.memory_bytes() >= batch.observations.nbytes * 2 + batch.legal_mask.nbytes
    assert CardsBatch(20).memory_bytes() > batch.memory_bytes()
