"""Self-play training: the rows and their targets, a toy game learnt in seconds, and a
resumed run that ends where an uninterrupted one does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from koth.agents.learned import encoder_for, feature_size, features
from koth.core.registry import load_game
from koth.train.selfplay import SelfPlaySettings, play_self
from tests.core.toy_game import DuelState, SecretDuel

torch = pytest.importorskip("torch")

from koth.train.trainer import (  # noqa: E402  (after the skip: the train extra)
    TrainConfig,
    export,
    fresh_state,
    load_checkpoint,
    save_checkpoint,
    train_round,
)


def run(state: Any, rounds: int) -> None:
    for _ in range(rounds):
        for _ in train_round(state):
            pass


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_row_is_one_seats_view_and_that_seats_return(players: int) -> None:
    config = TrainConfig("board", games=1, params={"num_players": players, "round_limit": 6})
    net = export(fresh_state(config))
    settings = SelfPlaySettings("board", config.params, sample_rate=1.0)
    samples = play_self(settings, net, seed=7)
    rows = len(samples.y)
    assert rows and rows % players == 0
    size = encoder_for("board").size
    seats = np.argmax(samples.x[:, size : size + 4], axis=1)
    assert list(seats) == list(range(players)) * (rows // players)
    for seat in range(players):
        assert np.all(samples.y[seats == seat] == np.float32(samples.returns[seat] / net.scale))
    assert np.all(samples.x[:, size + 4 + players - 1] == 1)  # the number of players


def _value(net: Any, card: int, stake: int | None) -> float:
    game = SecretDuel()
    state = DuelState(cards=(card, 1 if card != 1 else 2), stake=stake)
    encoder = encoder_for(game.name)
    x = np.zeros((1, feature_size(encoder)), dtype=np.float32)
    features(encoder, game.view(state, 0), 0, 2, x[0])
    return float(net(x)[0])


def test_a_tiny_run_learns_the_toy_duels_obvious_facts() -> None:
    """Seconds of self-play at the toy duel: the top card is worth more than the lowest,
    and holding it, a stake of 2 is worth more than 1 (the obvious best move)."""
    config = TrainConfig(
        "toy_duel",
        seed=3,
        games=240,
        games_per_round=40,
        steps=150,
        sample_rate=1.0,
        eval_every=99,
        eval_games=2,
    )
    state = fresh_state(config)
    run(state, 6)
    net = export(state)
    assert _value(net, 4, None) > _value(net, 1, None) + 0.5
    assert _value(net, 4, 2) > _value(net, 4, 1) + 0.3
    from koth.agents.base import DecisionContext, InformationSet
    from koth.agents.learned import LearnedSettings, NetworkAgent
    from koth.core.state import GameState

    game = SecretDuel()
    agent = NetworkAgent(LearnedSettings(search=False), net)
    agent.reset(game, 0, 1)
    gs = GameState(game, DuelState(cards=(4, 2)))
    info = InformationSet.of(gs, 0)
    action = agent.act(info.view, info.legal_actions, DecisionContext(info, 0, False))
    assert str(action) == "stake 2"


def test_a_resumed_run_ends_where_an_uninterrupted_one_does(tmp_path: Path) -> None:
    config = TrainConfig(
        "toy_duel", seed=5, games=60, games_per_round=20, steps=20, eval_every=1, eval_games=4
    )
    whole = fresh_state(config)
    run(whole, 3)

    first = fresh_state(config)
    run(first, 1)
    path = tmp_path / "run.checkpoint"
    save_checkpoint(first, path)
    del first  # the process that wrote it is gone
    resumed = load_checkpoint(config, path)
    run(resumed, 2)

    assert resumed.games == whole.games == 60
    for a, b in zip(
        whole.net.state_dict().values(), resumed.net.state_dict().values(), strict=True
    ):
        assert torch.equal(a, b)
    strip = [(r.round, r.games, r.loss, r.scores) for r in whole.history]
    assert strip == [(r.round, r.games, r.loss, r.scores) for r in resumed.history]
    assert np.array_equal(whole.x, resumed.x) and np.array_equal(whole.y, resumed.y)


def test_a_checkpoint_of_another_run_is_refused(tmp_path: Path) -> None:
    from koth.core.errors import InvalidParamsError

    config = TrainConfig("toy_duel", seed=5, games=20, games_per_round=20, steps=2)
    state = fresh_state(config)
    path = tmp_path / "run.checkpoint"
    save_checkpoint(state, path)
    with pytest.raises(InvalidParamsError, match="another run"):
        load_checkpoint(TrainConfig("toy_duel", seed=6, games=20, games_per_round=20), path)
    load_checkpoint(TrainConfig("toy_duel", seed=5, games=80, games_per_round=20, steps=2), path)


def test_load_game_knows_the_toy() -> None:
    assert load_game("toy_duel").num_players == 2


def test_koth_train_writes_model_checkpoint_and_report_and_resumes(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from koth.agents.learned import NumpyValueNet
    from koth.cli import app

    model = tmp_path / "cards.npz"
    base = ["train", "cards", "--per-round", "2", "--eval-games", "1", "--out", str(model)]
    first = CliRunner().invoke(app, [*base, "--games", "2"])
    assert first.exit_code == 0, first.output
    for name in ("cards.npz", "cards.npz.checkpoint", "cards.report.json", "cards.loss.png"):
        assert (tmp_path / name).exists(), name
    assert NumpyValueNet.load(model).meta["games"] == 2
    second = CliRunner().invoke(app, [*base, "--games", "4"])
    assert second.exit_code == 0, second.output
    assert "resuming" in second.output
    assert NumpyValueNet.load(model).meta["games"] == 4


def test_koth_train_passes_its_learning_options_to_the_run(tmp_path: Path) -> None:
    """--steps, --lr, --buffer and --sample-rate reach the run's settings (a typo in
    the plumbing would train with the defaults and say nothing), and the buffer keeps
    no more rows than asked."""
    from typer.testing import CliRunner

    from koth.cli import app

    model = tmp_path / "board.npz"
    args = ["train", "board", "--set", "round_limit=4", "--per-round", "2", "--games", "2"]
    args += ["--eval-games", "1", "--heuristic-share", "1", "--out", str(model)]
    args += ["--steps", "3", "--lr", "0.0005", "--buffer", "7", "--sample-rate", "0.5"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    saved = torch.load(tmp_path / "board.npz.checkpoint", weights_only=False)
    config = saved["config"]
    assert (config["steps"], config["learning_rate"]) == (3, 0.0005)
    assert (config["buffer"], config["sample_rate"]) == (7, 0.5)
    assert len(saved["y"]) == 7 and len(saved["x"]) == 7


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["train", "quiz"], "koth train knows cards, board"),
        (["train", "cards", "--backend", "mpi"], "--backend must be processes or ray"),
        (["train", "board", "--set", "num_players=7"], "num_players"),
    ],
)
def test_bad_training_input_is_named_before_any_game(
    tmp_path: Path, args: list[str], words: str
) -> None:
    from typer.testing import CliRunner

    from koth.cli import app

    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "m.npz")])
    assert result.exit_code != 0
    assert words in result.output
    assert not list(tmp_path.iterdir())


def test_positions_waiting_for_a_draw_are_learnt_too() -> None:
    """The search scores new leaves and the network alone scores afterstates, and on the
    board most of those wait for the dice: the rows hold chance nodes as well as
    decisions (a network never shown the roll phase answers anything there)."""
    from koth.core.encoding import HashedViewEncoder

    config = TrainConfig("board", games=1, params={"round_limit": 4})
    net = export(fresh_state(config))
    settings = SelfPlaySettings("board", config.params, heuristic_share=1.0, sample_rate=1.0)
    samples = play_self(settings, net, seed=3)
    encoder = encoder_for("board")
    assert isinstance(encoder, HashedViewEncoder)
    roll = encoder.bucket("/phase=roll")
    turn = encoder.bucket("/phase=turn")
    assert roll != turn
    phases = samples.x[:, [roll, turn]].astype(np.float32)
    assert np.any(phases[:, 0] >= 1) and np.any(phases[:, 1] >= 1)


def test_a_run_started_from_a_model_starts_from_its_weights(tmp_path: Path) -> None:
    """``--init``: the network before any step is the model file's, and learning moves on
    from there (a resumed run needs the file too: the checkpoint names it)."""
    from koth.agents.learned import NumpyValueNet

    config = TrainConfig("toy_duel", seed=5, games=40, games_per_round=20, steps=20)
    trained = fresh_state(config)
    run(trained, 2)
    path = tmp_path / "start.npz"
    export(trained).save(path)
    start = NumpyValueNet.load(path)

    other = TrainConfig("toy_duel", seed=9, games=20, games_per_round=20, steps=5, init=str(path))
    state = fresh_state(other)
    before = export(state)
    for a, b in zip(before.weights + before.biases, start.weights + start.biases, strict=True):
        assert np.array_equal(a, b)
    assert not np.array_equal(
        export(fresh_state(TrainConfig("toy_duel", seed=9))).weights[0], start.weights[0]
    )
    assert before.meta["init"] == "start.npz"
    run(state, 1)
    moved = export(state)
    assert not np.array_equal(moved.weights[0], start.weights[0])
    saved = tmp_path / "run.checkpoint"
    save_checkpoint(state, saved)
    assert load_checkpoint(other, saved).games == 20


@pytest.mark.parametrize(
    ("game", "hidden", "words"), [("board", (64, 64), "not a toy_duel"), (None, (32,), "layers")]
)
def test_a_model_of_another_game_or_shape_is_refused_as_a_start(
    tmp_path: Path, game: str | None, hidden: tuple[int, ...], words: str
) -> None:
    from koth.core.errors import InvalidParamsError

    source = TrainConfig(game or "toy_duel", games=1)
    path = tmp_path / "start.npz"
    export(fresh_state(source)).save(path)
    config = TrainConfig("toy_duel", hidden=hidden, init=str(path))
    with pytest.raises(InvalidParamsError, match=words):
        fresh_state(config)
    with pytest.raises(InvalidParamsError, match="no model to start from"):
        fresh_state(TrainConfig("toy_duel", init=str(tmp_path / "missing.npz")))


def test_koth_train_passes_its_options_to_the_run(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from koth.agents.learned import NumpyValueNet
    from koth.cli import app

    start = tmp_path / "start.npz"
    export(fresh_state(TrainConfig("cards", seed=4))).save(start)
    model = tmp_path / "cards.npz"
    args = ["train", "cards", "--games", "2", "--per-round", "2", "--eval-games", "1"]
    args += ["--init", str(start), "--sample-rate", "0.5", "--lr", "0.0002", "--steps", "3"]
    args += ["--out", str(model)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert NumpyValueNet.load(model).meta["init"] == "start.npz"
    config = torch.load(tmp_path / "cards.npz.checkpoint", weights_only=False)["config"]
    assert config["init"] == str(start) and config["sample_rate"] == 0.5
    assert config["learning_rate"] == 0.0002 and config["steps"] == 3
