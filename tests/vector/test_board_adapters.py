"""The batched board game's adapters: PettingZoo's own checker, the parallel batch's
conventions and the Gymnasium vector env's."""

from __future__ import annotations

import numpy as np
from gymnasium.vector import AutoresetMode
from pettingzoo.test import parallel_api_test

from koth.vector.board_gym import BoardVectorEnv
from koth.vector.board_layout import O_MOVER, O_PHASE, OBS_SIZE, OVER
from koth.vector.board_parallel import BoardParallelBatch, BoardParallelEnv


def test_the_single_game_parallel_env_passes_pettingzoos_checker() -> None:
    parallel_api_test(BoardParallelEnv({"num_players": 3}), num_cycles=300)


def test_the_parallel_batch_gives_each_agent_its_own_observation_and_the_movers_mask() -> None:
    env = BoardParallelBatch(4, {"num_players": 3, "target_points": 3})
    observations, _ = env.reset(seed=2)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(1200):
        actions = {}
        movers = np.zeros(4, dtype=np.int64)
        for agent in env.agents:
            mask = observations[agent]["action_mask"]
            movers += mask.any(axis=1)
            scores = np.where(mask, rng.random(mask.shape), -1.0)
            actions[agent] = scores.argmax(axis=1)
        assert (movers == 1).all()  # one player moves at a time in this variant
        observations, rewards, terminations, _, infos = env.step(actions)
        for agent in env.agents:
            assert observations[agent]["observation"].shape == (4, OBS_SIZE)
        done = terminations["player_0"]
        total = rewards["player_0"] + rewards["player_1"] + rewards["player_2"]
        assert (np.abs(total) < 1e-6).all()
        if done.any():
            ended += int(done.sum())
            assert (infos["player_2"]["final_observation"][done, O_PHASE] == OVER).all()
    assert ended >= 4


def test_the_vector_env_waits_for_the_learner_and_keeps_gymnasiums_conventions() -> None:
    env = BoardVectorEnv(3, {"num_players": 3, "target_points": 3}, seat=2)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=4)
    assert obs.shape == (3, OBS_SIZE) and obs.dtype == np.int32
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(600):
        mask = info["action_mask"]
        assert mask.any(axis=1).all()  # every game waits for the learner
        scores = np.where(mask, rng.random(mask.shape), -1.0)
        obs, rewards, terminated, truncated, info = env.step(scores.argmax(axis=1))
        assert (obs[:, O_MOVER] == 0).all()  # the learner is seat 0 of its own view
        assert not truncated.any() and (rewards[~terminated] == 0).all()
        if terminated.any():
            finished += int(terminated.sum())
            assert (info["final_obs"][terminated, O_PHASE] == OVER).all()
    assert finished >= 3
