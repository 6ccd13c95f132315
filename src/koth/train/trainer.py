"""Self-play training of the learned agent's value network (PyTorch, the ``train`` extra).

The recipe, for every game: rounds of ``games_per_round`` self-play games
(``koth.train.selfplay``) fill a replay buffer of (features, return) rows; after each
round the network takes ``steps`` Adam steps of mean squared error on minibatches of the
buffer (Monte Carlo value targets: the return each seat got, the TD-Gammon idea without
bootstrapping). Every ``eval_every`` rounds the network alone plays seat-rotated games
against fixed opponents; the losses and scores make the training report.

A checkpoint (network, optimiser, buffer, history, round) is written after every round;
a run started again with the same settings resumes from it. Everything a round draws
derives from the seed and the round's number, and games are gathered in order whatever
process plays them, so a resumed run ends where an uninterrupted one does.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from koth.agents.base import derive_seed
from koth.agents.heuristics import has_heuristic
from koth.agents.learned import NumpyValueNet, input_size
from koth.core.errors import InvalidParamsError
from koth.core.registry import load_game
from koth.train.selfplay import GameSamples, SelfPlaySettings, evaluate, play_self


@dataclass(frozen=True)
class TrainConfig:
    game: str
    seed: int = 1
    games: int = 2000
    params: dict[str, Any] = field(default_factory=dict)
    games_per_round: int = 32
    hidden: tuple[int, ...] = (64, 64)
    learning_rate: float = 1e-3
    batch: int = 256
    steps: int = 64
    buffer: int = 40_000
    epsilon: float = 0.1
    heuristic_share: float = 0.5
    sample_rate: float = 0.25
    eval_every: int = 5
    eval_games: int = 20
    #: a model file (``koth train``'s output) whose weights the network starts from
    init: str | None = None

    def same_run(self, other: TrainConfig) -> bool:
        """Whether ``other`` continues this run (only the length may differ)."""
        return {**asdict(self), "games": 0} == {**asdict(other), "games": 0}


@dataclass
class RoundRecord:
    round: int
    games: int
    loss: float
    seconds: float
    scores: dict[str, float] = field(default_factory=dict)


@dataclass
class TrainState:
    config: TrainConfig
    net: torch.nn.Sequential
    optimiser: torch.optim.Adam
    x: np.ndarray[Any, Any]
    y: np.ndarray[Any, Any]
    rounds: int = 0
    games: int = 0
    seconds: float = 0.0
    history: list[RoundRecord] = field(default_factory=list)


def scale_of(game_name: str, params: dict[str, Any]) -> float:
    facts = load_game(game_name, params).facts()
    if facts is None:
        return 1.0
    return max(abs(facts.min_utility), abs(facts.max_utility)) or 1.0


def build_net(config: TrainConfig) -> torch.nn.Sequential:
    torch.manual_seed(derive_seed(config.seed, "init") % 2**63)
    size = input_size(load_game(config.game, config.params))
    layers: list[torch.nn.Module] = []
    for width in config.hidden:
        layers += [torch.nn.Linear(size, width), torch.nn.ReLU()]
        size = width
    layers.append(torch.nn.Linear(size, 1))
    return torch.nn.Sequential(*layers)


def start_from(net: torch.nn.Sequential, config: TrainConfig) -> None:
    """Copy the weights of the model file ``config.init`` into ``net`` (InvalidParamsError
    if it is of another game, input or shape)."""
    path = Path(str(config.init))
    if not path.is_file():
        raise InvalidParamsError(f"no model to start from at {path}")
    model = NumpyValueNet.load(path)
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    shapes = [tuple(m.weight.shape[::-1]) for m in linears]
    if model.meta.get("game") != config.game or [w.shape for w in model.weights] != shapes:
        raise InvalidParamsError(
            f"the model {path} ({model.meta.get('game')}, layers "
            f"{[w.shape for w in model.weights]}) is not a {config.game} network of layers "
            f"{shapes}"
        )
    if model.scale != scale_of(config.game, config.params):
        raise InvalidParamsError(f"the model {path} scales returns otherwise ({model.scale})")
    with torch.no_grad():
        for layer, w, b in zip(linears, model.weights, model.biases, strict=True):
            layer.weight.copy_(torch.from_numpy(w.T.copy()))
            layer.bias.copy_(torch.from_numpy(b.copy()))


def fresh_state(config: TrainConfig) -> TrainState:
    if config.games < 1 or config.games_per_round < 1:
        raise InvalidParamsError("training needs at least one game and one game a round")
    game = load_game(config.game, config.params)  # a bad game or variant fails now
    net = build_net(config)
    if config.init is not None:
        start_from(net, config)
    optimiser = torch.optim.Adam(net.parameters(), lr=config.learning_rate)
    size = input_size(game)
    empty_x = np.zeros((0, size), dtype=np.float16)
    return TrainState(config, net, optimiser, empty_x, np.zeros(0, dtype=np.float32))


def export(state: TrainState) -> NumpyValueNet:
    """The network as numpy arrays, with what it was trained on."""
    linears = [m for m in state.net if isinstance(m, torch.nn.Linear)]
    config = state.config
    meta = {
        "game": config.game,
        "params": config.params,
        "recipe": "value network, Monte Carlo self-play targets (koth.train)",
        "seed": config.seed,
        "games": state.games,
        "rounds": state.rounds,
        "hours": round(state.seconds / 3600, 3),
        "hidden": list(config.hidden),
    }
    if config.init is not None:
        meta["init"] = Path(config.init).name
    return NumpyValueNet(
        tuple(m.weight.detach().numpy().T.copy() for m in linears),
        tuple(m.bias.detach().numpy().copy() for m in linears),
        scale_of(config.game, config.params),
        meta,
    )


def save_checkpoint(state: TrainState, path: Path) -> None:
    data = {
        "config": asdict(state.config),
        "net": state.net.state_dict(),
        "optimiser": state.optimiser.state_dict(),
        "x": state.x,
        "y": state.y,
        "rounds": state.rounds,
        "games": state.games,
        "seconds": state.seconds,
        "history": [asdict(r) for r in state.history],
    }
    part = path.with_name(path.name + ".part")
    torch.save(data, part)
    os.replace(part, path)  # a crash mid-write leaves the last checkpoint whole


def load_checkpoint(config: TrainConfig, path: Path) -> TrainState:
    data = torch.load(path, weights_only=False)
    saved = data["config"]
    saved["hidden"] = tuple(saved["hidden"])
    if not config.same_run(TrainConfig(**saved)):
        raise InvalidParamsError(
            f"the checkpoint {path} is of another run (game, seed or settings differ); "
            "pass another --out or delete it"
        )
    state = fresh_state(config)
    state.net.load_state_dict(data["net"])
    state.optimiser.load_state_dict(data["optimiser"])
    state.x, state.y = data["x"], data["y"]
    state.rounds, state.games, state.seconds = data["rounds"], data["games"], data["seconds"]
    state.history = [RoundRecord(**r) for r in data["history"]]
    return state


GamePlayer = Callable[[SelfPlaySettings, NumpyValueNet, list[int]], Iterator[GameSamples]]


def play_here(
    settings: SelfPlaySettings, net: NumpyValueNet, seeds: list[int]
) -> Iterator[GameSamples]:
    for seed in seeds:
        yield play_self(settings, net, seed)


def train_round(state: TrainState, play: GamePlayer = play_here) -> Iterator[int]:
    """Play one round and learn from it; yields after each game (for progress bars)."""
    config = state.config
    started = time.perf_counter()
    count = min(config.games_per_round, config.games - state.games)
    seeds = [derive_seed(config.seed, "game", state.games + i) for i in range(count)]
    settings = SelfPlaySettings(
        config.game, config.params, config.epsilon, config.heuristic_share, config.sample_rate
    )
    net = export(state)
    xs, ys = [state.x], [state.y]
    for samples in play(settings, net, seeds):
        xs.append(samples.x)
        ys.append(samples.y)
        yield 1
    state.x = np.concatenate(xs)[-config.buffer :]
    state.y = np.concatenate(ys)[-config.buffer :]
    loss = learn(state, derive_seed(config.seed, "learn", state.rounds))
    state.rounds += 1
    state.games += count
    record = RoundRecord(state.rounds, state.games, loss, 0.0)
    if state.rounds % config.eval_every == 0 or state.games >= config.games:
        record.scores = scores(state, export(state))
    state.seconds += time.perf_counter() - started
    record.seconds = round(state.seconds, 1)
    state.history.append(record)


def learn(state: TrainState, seed: int) -> float:
    """``steps`` Adam steps on minibatches of the buffer; the mean loss."""
    config = state.config
    if len(state.y) == 0:
        return 0.0
    torch.set_num_threads(1)
    generator = torch.Generator().manual_seed(seed % 2**63)
    y = torch.from_numpy(state.y)
    total = 0.0
    for _ in range(config.steps):
        pick = torch.randint(len(y), (min(config.batch, len(y)),), generator=generator)
        # only the minibatch widened to float32: the buffer may hold millions of rows
        x = torch.from_numpy(state.x[pick.numpy()].astype(np.float32))
        state.optimiser.zero_grad()
        loss = torch.nn.functional.mse_loss(state.net(x)[:, 0], y[pick])
        loss.backward()  # type: ignore[no-untyped-call]
        state.optimiser.step()
        total += float(loss.detach())
    return total / config.steps


def scores(state: TrainState, net: NumpyValueNet) -> dict[str, float]:
    """The network alone's score against the fixed opponents."""
    config = state.config
    game = load_game(config.game, config.params)
    opponents = ["random", "heuristic"] if has_heuristic(game) else ["random"]
    seed = derive_seed(config.seed, "evaluate", state.rounds)
    return {o: evaluate(game, net, o, config.eval_games, seed) for o in opponents}
