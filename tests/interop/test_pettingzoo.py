"""The PettingZoo AEC environments: PettingZoo's own API and seed tests, action masks,
simultaneous nodes played in turn, seeded chance and terminal rewards."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from koth.core.errors import IllegalActionError, InvalidActionError, InvalidParamsError
from koth.core.registry import load_game
from koth.interop.encoding import HashedViewEncoder, encode_view
from koth.interop.pettingzoo import KothAECEnv, env, raw_env
from tests.core.toy_game import SecretDuel

ENVS: dict[str, Callable[[], Any]] = {
    "toy": lambda: env(SecretDuel()),
    "cards": lambda: env("cards"),
    "board": lambda: env("board"),
    "board-3-secret": lambda: env("board", num_players=3, one_excluded=True, round_limit=10),
}


@pytest.mark.parametrize("name", list(ENVS))
def test_pettingzoo_api_test(name: str) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns about every dict observation (ours carry action masks)
        warnings.simplefilter("ignore", UserWarning)
        api_test(ENVS[name](), num_cycles=100)


@pytest.mark.parametrize("name", list(ENVS))
def test_pettingzoo_seed_test(name: str) -> None:
    seed_test(ENVS[name], num_cycles=60)


def play_random(environment: KothAECEnv, seed: int) -> dict[str, float]:
    """A whole game with random legal actions; returns the summed rewards."""
    environment.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += float(reward)
        if terminated or truncated:
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(int(rng.choice(list(legal))))
    return totals


def test_rewards_are_the_koth_returns_and_every_agent_finishes() -> None:
    environment = raw_env("cards")
    totals = play_random(environment, seed=4)
    assert environment.agents == []
    returns = environment.koth_state.returns()
    assert totals == {"player_0": returns[0], "player_1": returns[1]}
    assert environment.koth_state.is_terminal()


def test_chance_is_seeded_by_reset() -> None:
    environment = raw_env("cards")
    first = []
    for seed in (1, 1, 2):
        environment.reset(seed=seed)
        first.append(environment.observe("player_0")["observation"].copy())
    assert np.array_equal(first[0], first[1])
    assert not np.array_equal(first[0], first[2])  # another deal
    environment.reset(seed=1)
    environment.reset()  # no seed: the stream goes on, another deal
    assert not np.array_equal(environment.observe("player_0")["observation"], first[0])


def test_simultaneous_choices_are_collected_in_turn_and_stay_hidden() -> None:
    environment = raw_env(SecretDuel())
    environment.reset(seed=0)
    assert environment.agent_selection == "player_0"
    environment.step(4)  # stake 1
    assert environment.koth_state.is_simultaneous_node()
    seen_by_1 = environment.observe("player_1")["observation"].copy()
    environment.step(7)  # player 0 folds
    assert environment.agent_selection == "player_1"
    assert environment.koth_state.is_simultaneous_node()  # not applied yet
    assert np.array_equal(environment.observe("player_1")["observation"], seen_by_1)
    assert not environment.observe("player_0")["action_mask"].any()  # not its turn
    assert environment.observe("player_1")["action_mask"].tolist() == [0] * 6 + [1, 1]
    environment.step(6)  # player 1 stays: the joint action applies
    assert environment.koth_state.is_terminal()
    assert environment.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert all(environment.terminations.values())


def test_observations_encode_the_view_only() -> None:
    environment = raw_env("cards")
    environment.reset(seed=9)
    state = environment.koth_state
    for player in (0, 1):
        expected = encode_view(environment.encoder, state.view(player))
        observed = environment.observe(f"player_{player}")["observation"]
        assert np.array_equal(observed, expected)
        assert observed.dtype == np.float32 and observed.shape == (512,)


def test_illegal_and_missing_actions_are_refused() -> None:
    environment = raw_env(SecretDuel())
    environment.reset(seed=0)
    with pytest.raises(IllegalActionError, match="not legal"):
        environment.step(6)  # a choice before the stake
    with pytest.raises(InvalidActionError):
        environment.step(None)
    with pytest.raises(InvalidParamsError):
        raw_env(SecretDuel(), max_card=3)


def test_render_shows_the_spectator_view() -> None:
    environment = raw_env(SecretDuel(), render_mode="ansi")
    environment.reset(seed=0)
    text = environment.render()
    assert isinstance(text, str)
    assert text == SecretDuel().render(environment.koth_state.data, None)


def test_hashed_encoder_is_stable_and_distinguishes_views() -> None:
    encoder = HashedViewEncoder(size=64)
    a = encode_view(encoder, {"cards": [1, None], "stake": 2})
    b = encode_view(encoder, {"cards": [1, None], "stake": 2})
    c = encode_view(encoder, {"cards": [2, None], "stake": 2})
    d = encode_view(encoder, {"cards": [1, None, None], "stake": 2})
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
    assert not np.array_equal(a, d)  # lengths count
    with pytest.raises(InvalidParamsError):
        HashedViewEncoder(size=4)


def test_board_env_for_four_players() -> None:
    environment = raw_env(load_game("board", {"num_players": 4, "round_limit": 2}))
    totals = play_random(environment, seed=3)
    assert len(totals) == 4
    assert sum(totals.values()) == pytest.approx(0.0)


@pytest.mark.parametrize("name", ["toy", "cards", "board-3-secret"])
def test_the_agent_to_act_finds_its_mask_in_its_info(name: str) -> None:
    """The info's mask is the observation's, only the agent to act has one, and a loop
    that reads only masks (``last(observe=False)``) plays whole games."""
    environment = ENVS[name]()
    environment.reset(seed=2)
    rng = random.Random(2)
    for agent in environment.agent_iter():
        observation, _, terminated, truncated, info = environment.last(observe=False)
        assert observation is None
        if terminated or truncated:
            assert "action_mask" not in info
            environment.step(None)
            continue
        for other in environment.agents:
            if other != agent:
                assert "action_mask" not in environment.infos[other]
        mask = info["action_mask"]
        assert np.array_equal(mask, environment.observe(agent)["action_mask"])
        # the ids the rules list (the compiled build's turns tell theirs directly)
        state = environment.koth_state
        legal = state.legal_actions(int(agent.removeprefix("player_")))
        assert np.flatnonzero(mask).tolist() == [state.game.action_id(a) for a in legal]
        environment.step(int(rng.choice(list(np.flatnonzero(mask)))))
    assert environment.agents == []


def test_an_observation_asked_twice_is_encoded_once_and_handed_out_as_a_copy() -> None:
    environment = raw_env("cards")
    environment.reset(seed=3)
    calls = []
    encode = environment.encoder.encode
    environment.encoder.encode = lambda view, out: calls.append(1) or encode(view, out)  # type: ignore[method-assign]
    first = environment.observe("player_0")["observation"]
    first[:] = -1.0  # the caller's copy
    second = environment.observe("player_0")["observation"]
    assert len(calls) == 1
    assert np.array_equal(second, encode_view(environment.encoder, environment.koth_state.view(0)))
    agent = environment.agent_selection
    mask = environment.infos[agent]["action_mask"]
    environment.step(int(np.flatnonzero(mask)[0]))
    environment.observe("player_0")
    assert len(calls) == 2  # a move: encoded again
