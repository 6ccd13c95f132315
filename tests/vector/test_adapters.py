"""The batched card game's Gymnasium and PettingZoo adapters: their libraries' own
checkers, the vector conventions, and a small learning loop over the vector env."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode
from pettingzoo.test import parallel_api_test

from koth.core.errors import IllegalActionError, InvalidParamsError
from koth.vector.board_gym import BoardVectorEnv
from koth.vector.board_parallel import BoardParallelBatch
from koth.vector.cards_layout import NUM_ACTIONS, O_PHASE, OBS_SIZE
from koth.vector.gym import CardsEnv, CardsVectorEnv
from koth.vector.parallel import CardsParallelBatch, CardsParallelEnv


def masked_choice(rng: np.random.Generator, masks: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A uniformly random allowed action per row of ``masks``."""
    scores = np.where(masks, rng.random(masks.shape), -1.0)
    return scores.argmax(axis=1)


def stepped(env: Any, actions: Any) -> Callable[[], object]:
    """A call of ``env.step(actions)`` after a reset."""

    def call() -> object:
        env.reset(seed=1)
        return env.step(actions)

    return call


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: CardsEnv(on_illegal="ignore"), "on_illegal"),
        (lambda: CardsVectorEnv(2, seat=2), r"seat 0\.\.1, not 2"),
        (lambda: BoardVectorEnv(2, seat=2), r"seat 0\.\.1, not 2"),
        (lambda: BoardVectorEnv(2, {"num_players": 3}, seat=True), r"seat 0\.\.2, not True"),
        (lambda: CardsVectorEnv(2).reset(seed=[1, 2]), "one seed"),
        (lambda: BoardVectorEnv(2).reset(seed=[1, 2]), "one seed"),
        (lambda: stepped(CardsVectorEnv(3), np.zeros(2))(), "one action per game"),
        (lambda: stepped(BoardVectorEnv(3), np.zeros((3, 2)))(), "one action per game"),
        (lambda: stepped(CardsParallelBatch(5), {"player_2": np.zeros(5)})(), "player_2"),
        (
            lambda: stepped(BoardParallelBatch(4, {"num_players": 3}), {"player_3": np.zeros(4)})(),
            "player_3",
        ),
    ],
    ids=[
        "cards env: on_illegal",
        "cards vector env: seat",
        "board vector env: seat",
        "board vector env: a bool seat",
        "cards vector env: a seed per game",
        "board vector env: a seed per game",
        "cards vector env: actions' shape",
        "board vector env: actions' shape",
        "cards parallel batch: unknown agent",
        "board parallel batch: unknown agent",
    ],
)
def test_the_adapters_refuse_what_they_cannot_take(call: Callable[[], object], match: str) -> None:
    with pytest.raises(InvalidParamsError, match=match):
        call()


def test_the_single_game_env_passes_gymnasiums_checker() -> None:
    check_env(CardsEnv(on_illegal="lose"), skip_render_check=True)


def test_an_illegal_action_is_refused_or_lost_as_asked() -> None:
    env = CardsEnv()
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    with pytest.raises(IllegalActionError, match="may not take action"):
        env.step(np.int64(illegal))
    losing = CardsEnv(on_illegal="lose")
    losing.reset(seed=1)
    assert losing.step(np.int64(illegal))[1:3] == (-1.0, True)


def test_the_vector_env_keeps_gymnasiums_vector_conventions() -> None:
    env = CardsVectorEnv(6, seat=1)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=4)
    assert obs.shape == (6, OBS_SIZE) and obs.dtype == np.uint8
    assert env.observation_space.contains(obs)
    assert info["action_mask"].shape == (6, NUM_ACTIONS)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        assert info["action_mask"].any(axis=1).all()  # every game waits for the learner
        obs, rewards, terminated, truncated, info = env.step(
            masked_choice(rng, info["action_mask"])
        )
        assert env.observation_space.contains(obs)
        assert rewards.shape == terminated.shape == truncated.shape == (6,)
        assert not truncated.any()
        assert (rewards[~terminated] == 0).all()
        if terminated.any():
            finished += int(terminated.sum())
            assert (info["_final_obs"] == terminated).all()
            assert (info["final_obs"][terminated, O_PHASE] == 6).all()
    assert finished >= 6


def test_the_single_game_parallel_env_passes_pettingzoos_checker() -> None:
    parallel_api_test(CardsParallelEnv({"jokers": 2}), num_cycles=300)


def test_the_parallel_batch_gives_each_agent_its_own_observation_and_mask() -> None:
    env = CardsParallelBatch(5)
    observations, _ = env.reset(seed=2)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(300):
        actions = {
            agent: masked_choice(rng, observations[agent]["action_mask"]) for agent in env.agents
        }
        observations, rewards, terminations, _, infos = env.step(actions)
        for agent in env.agents:
            assert observations[agent]["observation"].shape == (5, OBS_SIZE)
        done = terminations["player_0"]
        assert (rewards["player_0"] + rewards["player_1"] == 0).all()
        if done.any():
            ended += int(done.sum())
            assert (infos["player_1"]["final_observation"][done, O_PHASE] == 6).all()
    assert ended >= 5


def test_reinforce_runs_on_the_vector_env_and_its_loss_stays_finite() -> None:
    """A linear softmax policy over the legal actions, trained by REINFORCE (the
    smoke test: it runs and its numbers stay finite; its strength is not measured)."""
    envs = 16
    env = CardsVectorEnv(envs)
    rng = np.random.default_rng(3)
    weights = np.zeros((OBS_SIZE + 1, NUM_ACTIONS))
    gradients = np.zeros((envs, OBS_SIZE + 1, NUM_ACTIONS))
    log_probs = np.zeros(envs)
    obs, info = env.reset(seed=5)
    updates, losses = 0, []
    while updates < 200:
        features = np.hstack([obs / 55.0, np.ones((envs, 1))])
        logits = np.where(info["action_mask"], features @ weights, -np.inf)
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        actions = np.array([rng.choice(NUM_ACTIONS, p=p) for p in probs])
        chosen = np.zeros_like(probs)
        chosen[np.arange(envs), actions] = 1.0
        gradients += features[:, :, None] * (chosen - probs)[:, None, :]
        log_probs += np.log(probs[np.arange(envs), actions])
        obs, rewards, terminated, _, info = env.step(actions)
        for i in np.flatnonzero(terminated):
            weights += 0.01 * rewards[i] * gradients[i]
            losses.append(-rewards[i] * log_probs[i])
            gradients[i] = 0.0
            log_probs[i] = 0.0
            updates += 1
    assert np.isfinite(losses).all() and np.isfinite(weights).all()
    assert np.abs(weights).sum() > 0
