"""``learned``: a value network trained by self-play (``koth train``), evaluated with numpy.

The network reads a player's features (``features``: the game's view encoder over
``view(state, player)`` and the player's seat, never the state) and answers that
player's expected return. The agent plays it two ways:

- ``learned`` (``search=1``, the default): the game's tree search (``mcts`` for a game
  without hidden information, ``ismcts`` for one with it) whose new leaves are scored by
  the network for every seat instead of by a rollout, after ``steps`` rollout steps
  (``DEFAULT_STEPS``: 20 on the board, none on the cards). Every seat's input of a leaf
  is built at once (``koth.agents.features``). Budget and search options as for
  ``mcts`` (``iters``, ``seconds``, ``c``, ...).
- ``learned:search=0``: the network alone, one move ahead: each candidate action (the
  ``width``, default 2, best by the game's action ranking where it has one: on the board
  the network's picks from further down lost to the heuristic) is applied to the same
  ``dets`` sampled states (the other players' simultaneous choices drawn by the rollout
  policy), and the action whose results the network values most is played.

The weights are a small ``.npz`` (``NumpyValueNet``): the package ships one per game in
``koth/agents/models`` (their model card is docs/agents.md), and ``model=PATH`` plays
another (a file written by ``koth train``). Playing needs numpy only, never the
training stack.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from koth.agents.base import DecisionContext, InformationSet
from koth.agents.features import (
    SeatEncoder,
    shared_view_seat_encoder,
    view_seat_encoder,
    views_are_shared,
)
from koth.agents.features_cards import cards_seat_encoder
from koth.agents.heuristics import Evaluator, action_ranking, evaluator
from koth.agents.ismcts import IsmctsAgent
from koth.agents.mcts import MctsAgent, SearchAgent
from koth.agents.search import (
    Arms,
    Decision,
    RolloutPolicy,
    SearchSettings,
    play_steps,
    rollout,
    rollout_policy,
)
from koth.core.encoding import HashedViewEncoder
from koth.core.errors import InvalidParamsError, KothError
from koth.core.game import Game
from koth.core.players import NodeKind, PlayerId

FloatArray = npt.NDArray[np.float32]

#: seats and player counts the features name (the board seats up to four)
MAX_SEATS = 4
#: the learned search's rollout steps before the network scores a leaf, per game (0:
#: the network scores the leaf itself); measured in docs/notes/agents.md
DEFAULT_STEPS: dict[str, int] = {"board": 20}
#: hashed-encoding buckets per game (the board's view has a few hundred leaves)
ENCODER_SIZES: dict[str, int] = {"board": 1024}
DEFAULT_ENCODER_SIZE = 512


def encoder_for(game_name: str) -> HashedViewEncoder:
    """The view encoder whose output the game's networks read."""
    return HashedViewEncoder(size=ENCODER_SIZES.get(game_name, DEFAULT_ENCODER_SIZE))


def feature_size(encoder: HashedViewEncoder) -> int:
    return encoder.size + 2 * MAX_SEATS


def input_size(game: Game[Any, Any, Any]) -> int:
    """The length of the game's network input: the features, then (for a game with a
    view evaluator, the board) the evaluator's estimates, the seat's own first."""
    extra = MAX_SEATS if evaluator(game) is not None else 0
    return feature_size(encoder_for(game.name)) + extra


def features(
    encoder: HashedViewEncoder,
    view: Mapping[str, Any],
    seat: PlayerId,
    num_players: int,
    out: FloatArray,
) -> None:
    """Write ``seat``'s features into ``out``: its view encoded, its seat and the number
    of players (one-hot). Only the view is read: the features of two states the player
    cannot tell apart are equal."""
    size = encoder.size
    encoder.encode(dict(view), out[:size])
    out[size:] = 0.0
    out[size + seat] = 1.0
    out[size + MAX_SEATS + num_players - 1] = 1.0


def has_hidden_information(game: Game[Any, Any, Any]) -> bool:
    """Whether players lack information: the game's facts say so where they know it
    (the board implements ``resample_hidden`` for its hidden variant only), else the
    class implements ``resample_hidden``."""
    facts = game.facts()
    if facts is not None and facts.hidden_information is not None:
        return facts.hidden_information
    return type(game).resample_hidden is not Game.resample_hidden


def seat_encoder(
    game: Game[Any, Any, Any], encoder: HashedViewEncoder, hidden: bool
) -> SeatEncoder:
    """The fastest way to encode every seat's view of ``game`` (``koth.agents.features``)."""
    if game.name == "cards" and encoder.numeric_scale == 1.0:  # Leaves adds numbers as they are
        return cards_seat_encoder(encoder)
    if views_are_shared(game, hidden):
        return shared_view_seat_encoder(encoder)
    return view_seat_encoder(encoder)


@dataclass(frozen=True)
class NumpyValueNet:
    """A multilayer perceptron: ReLU hidden layers, one linear output (the return over
    ``scale``). ``meta`` says what it was trained on (game, recipe, seed, games)."""

    weights: tuple[FloatArray, ...]
    biases: tuple[FloatArray, ...]
    scale: float
    meta: Mapping[str, Any]

    @property
    def input_size(self) -> int:
        return int(self.weights[0].shape[0])

    def __call__(self, x: FloatArray) -> FloatArray:
        """The values (in return units) of the rows of ``x``."""
        h = x
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        out: FloatArray = h[:, 0] * np.float32(self.scale)
        return out

    def save(self, path: Path) -> None:
        arrays: dict[str, Any] = {f"w{i}": w for i, w in enumerate(self.weights)}
        arrays |= {f"b{i}": b for i, b in enumerate(self.biases)}
        arrays["scale"] = np.array(self.scale, dtype=np.float32)
        arrays["meta"] = np.array(json.dumps(dict(self.meta), sort_keys=True))
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            np.savez_compressed(f, **arrays)

    @classmethod
    def load(cls, path: Path | Any) -> NumpyValueNet:
        """The network in ``path`` (KothError naming the file if it is not one)."""
        try:
            with path.open("rb") as f, np.load(f, allow_pickle=False) as data:
                layers = sum(1 for k in data.files if k.startswith("w"))
                weights = tuple(data[f"w{i}"].astype(np.float32) for i in range(layers))
                biases = tuple(data[f"b{i}"].astype(np.float32) for i in range(layers))
                scale = float(data["scale"])
                meta = json.loads(str(data["meta"]))
        except (OSError, KeyError, ValueError) as exc:
            raise KothError(f"{path} is not a learned model: {exc}") from None
        return cls(weights, biases, scale, meta)


def shipped_model(game_name: str) -> Any:
    """The packaged model file of ``game_name`` (a Traversable)."""
    return resources.files("koth.agents") / "models" / f"{game_name}.npz"


_LOADED: dict[str, NumpyValueNet] = {}


def load_model(game: Game[Any, Any, Any], path: str | None = None) -> NumpyValueNet:
    """The network for ``game``: ``path``, else the one shipped for it (loaded once)."""
    key = path or f"shipped:{game.name}"
    net = _LOADED.get(key)
    if net is not None:
        return net
    source: Any = Path(path) if path else shipped_model(game.name)
    if not source.is_file():
        if path:
            raise InvalidParamsError(f"no learned model at {path}")
        raise InvalidParamsError(
            f"no learned model ships for {game.name}; train one with "
            f"`koth train {game.name} --out MODEL.npz` and pass learned:model=MODEL.npz"
        )
    net = NumpyValueNet.load(source)
    trained_for = net.meta.get("game")
    if trained_for != game.name:
        raise InvalidParamsError(f"the model {key} was trained for {trained_for}, not {game.name}")
    if net.input_size != input_size(game):
        raise InvalidParamsError(f"the model {key} does not read {game.name}'s features")
    _LOADED[key] = net
    return net


class ValueReader:
    """One game's network input and network: the values of views, seat by seat."""

    def __init__(self, game: Game[Any, Any, Any], net: NumpyValueNet) -> None:
        self.game = game
        self.net = net
        self.encoder = encoder_for(game.name)
        self.size = input_size(game)
        self.evaluate: Evaluator | None = evaluator(game)
        hidden = has_hidden_information(game)
        #: every seat's encoded view of a state at once (``koth.agents.features``)
        self.encode_seats = seat_encoder(game, self.encoder, hidden)
        self.shared_view = views_are_shared(game, hidden)

    def rows(self, count: int) -> FloatArray:
        return np.zeros((count, self.size), dtype=np.float32)

    def write(self, view: Mapping[str, Any], seat: PlayerId, out: FloatArray) -> None:
        """``seat``'s input into ``out``: its ``features``, then the game evaluator's
        estimates from the same view, turned so that the seat's own comes first (the
        points lead that a hashed view only holds as two seats' numbers)."""
        n = self.game.num_players
        features(self.encoder, view, seat, n, out)
        if self.evaluate is not None:
            base = feature_size(self.encoder)
            estimates = self.evaluate(self.game, view)
            for k in range(n):
                out[base + k] = estimates[(seat + k) % n]

    def state_rows(self, data: Any) -> FloatArray:
        """Every seat's input from a (sampled) state, row by seat: the same as ``write``
        of each seat's view, built without a view per seat where the game allows
        (``koth.agents.features``)."""
        game = self.game
        n = game.num_players
        x = self.rows(n)
        self.encode_seats(game, data, x)
        size = self.encoder.size
        for seat in range(n):
            x[seat, size + seat] = 1.0
            x[seat, size + MAX_SEATS + n - 1] = 1.0
        if self.evaluate is not None:
            base = feature_size(self.encoder)
            shared = self.evaluate(game, game.view(data, 0)) if self.shared_view else None
            for seat in range(n):
                estimates = (
                    shared if shared is not None else self.evaluate(game, game.view(data, seat))
                )
                for k in range(n):
                    x[seat, base + k] = estimates[(seat + k) % n]
        return x

    def state_values(self, data: Any) -> tuple[float, ...]:
        """Every seat's value of a (sampled) state, each from that seat's view."""
        return tuple(float(v) for v in self.net(self.state_rows(data)))


class LearnedSearch(SearchAgent):
    """``learned`` with search: the game's tree search (``ismcts`` where players lack
    information, else ``mcts``) whose new leaves the network scores for every seat
    (the game's returns at the end)."""

    kind = "learned"

    def __init__(
        self,
        settings: SearchSettings,
        model: str | None = None,
        steps: int | None = None,
        mix: float = 0.0,
    ) -> None:
        super().__init__(settings)
        self.model = model
        #: rollout steps before the network scores a leaf (None: the game's default)
        self.steps = steps
        #: the share of one whole playout's returns in a leaf's value (0: the network's)
        self.mix = mix
        self._steps = 0
        self.reader: ValueReader | None = None
        self._hidden = False

    def reset(self, game: Game[Any, Any, Any], player: PlayerId, seed: int) -> None:
        super().reset(game, player, seed)
        self.reader = ValueReader(game, load_model(game, self.model))
        self._hidden = has_hidden_information(game)
        self._steps = DEFAULT_STEPS.get(game.name, 0) if self.steps is None else self.steps

    def _search(self, info: InformationSet[Any, Any], policy: RolloutPolicy, at: Decision) -> Arms:
        search = IsmctsAgent._search if self._hidden else MctsAgent._search
        return search(cast(Any, self), info, policy, at)  # the same fields: a SearchAgent

    def leaf_values(
        self,
        game: Game[Any, Any, Any],
        data: Any,
        rng: random.Random,
        policy: RolloutPolicy,
        max_rollout: int,
    ) -> tuple[float, ...]:
        if self.reader is None:
            raise KothError("learned: act() called before reset()")
        if self.mix > 0.0:  # one playout from the leaf itself, weighed with the network
            played = rollout(game, data, rng, policy, max_rollout)
            if self.mix >= 1.0:
                return played
            net = self._network_values(self.reader, game, data, rng, policy)
            keep = 1.0 - self.mix
            return tuple(keep * v + self.mix * p for v, p in zip(net, played, strict=True))
        return self._network_values(self.reader, game, data, rng, policy)

    def _network_values(
        self,
        reader: ValueReader,
        game: Game[Any, Any, Any],
        data: Any,
        rng: random.Random,
        policy: RolloutPolicy,
    ) -> tuple[float, ...]:
        """The network's values of ``data`` after ``steps`` rollout steps."""
        data = play_steps(game, data, rng, policy, self._steps)  # a short rollout first
        if game.to_move(data).kind is NodeKind.TERMINAL:
            return game.returns(data)
        return reader.state_values(data)


@dataclass(frozen=True, slots=True)
class LearnedSettings:
    search: bool = True
    model: str | None = None
    #: network alone: sampled states per candidate action (hidden information only)
    dets: int = 2
    #: network alone: candidates kept by the game's action ranking (0: every action)
    width: int = 2
    #: network alone: how often a random legal action is played instead (training)
    epsilon: float = 0.0
    #: search: rollout steps before the network scores a leaf (None: DEFAULT_STEPS)
    steps: int | None = None
    #: search: the share of one whole playout's returns in a leaf's value
    mix: float = 0.0

    @staticmethod
    def split(options: Mapping[str, str]) -> tuple[LearnedSettings, dict[str, str]]:
        """The learned agent's own options, and the rest (the search's)."""
        own = {"search", "model", "dets", "width", "eps", "steps", "mix"}
        mine = {k: v for k, v in options.items() if k in own}
        rest = {k: v for k, v in options.items() if k not in own}
        search = mine.get("search", "1")
        if search not in ("0", "1"):
            raise InvalidParamsError(f"search must be 1 or 0, not {search!r}")
        try:
            settings = LearnedSettings(
                search=search == "1",
                model=mine.get("model"),
                dets=int(mine.get("dets", 2)),
                width=int(mine.get("width", 2)),
                epsilon=float(mine.get("eps", 0.0)),
                steps=int(mine["steps"]) if "steps" in mine else None,
                mix=float(mine.get("mix", 0.0)),
            )
        except ValueError as exc:
            raise InvalidParamsError(f"bad learned option: {exc}") from None
        if settings.dets < 1 or settings.width < 0 or not 0 <= settings.epsilon <= 1:
            raise InvalidParamsError("learned needs dets >= 1, width >= 0 and 0 <= eps <= 1")
        if settings.steps is not None and settings.steps < 0:
            raise InvalidParamsError(f"learned needs steps >= 0, not {settings.steps}")
        if not 0.0 <= settings.mix <= 1.0:
            raise InvalidParamsError(f"learned needs 0 <= mix <= 1, not {settings.mix}")
        searching = set(rest) | ({"steps"} if settings.steps is not None else set())
        searching |= {"mix"} if "mix" in mine else set()
        if not settings.search and searching:
            raise InvalidParamsError(
                f"learned:search=0 takes no search options (got {', '.join(sorted(searching))})"
            )
        return settings, rest


def make_learned(options: Mapping[str, str]) -> NetworkAgent | LearnedSearch:
    """The ``learned`` agent of a spec's options."""
    settings, rest = LearnedSettings.split(options)
    if not settings.search:
        return NetworkAgent(settings)
    if "iters" not in rest and "seconds" not in rest:
        rest = {**rest, "iters": "300"}
    return LearnedSearch(
        SearchSettings.from_options(rest), settings.model, settings.steps, settings.mix
    )


class NetworkAgent:
    """``learned:search=0``: the network alone, one move ahead (the module docstring)."""

    name = "learned:search=0"

    def __init__(self, settings: LearnedSettings, net: NumpyValueNet | None = None) -> None:
        self.settings = settings
        self.net = net  # this network, not a file's (self-play during training)
        self._rng = random.Random(0)
        self._player: PlayerId = 0
        self._game: Game[Any, Any, Any] | None = None
        self._reader: ValueReader | None = None
        self._policy: RolloutPolicy | None = None

    def reset(self, game: Game[Any, Any, Any], player: PlayerId, seed: int) -> None:
        net = self.net or load_model(game, self.settings.model)
        self._rng = random.Random(seed)
        self._player = player
        self._game = game
        self._reader = ValueReader(game, net)
        self._policy = rollout_policy(game, "auto", 0.1)

    def act(
        self,
        observation_view: Mapping[str, Any],
        legal_actions: Sequence[Any],
        context: DecisionContext[Any, Any],
    ) -> Any:
        if len(legal_actions) == 1:
            return legal_actions[0]
        rng = self._rng
        if self.settings.epsilon and rng.random() < self.settings.epsilon:
            return legal_actions[rng.randrange(len(legal_actions))]
        return self.greedy(context.info_set, legal_actions)

    def greedy(self, info: InformationSet[Any, Any], legal_actions: Sequence[Any]) -> Any:
        """The candidate whose results the network values most (ties: the first)."""
        game, reader, policy = self._game, self._reader, self._policy
        if game is None or reader is None or policy is None:
            raise KothError("learned: act() called before reset()")
        rng, me = self._rng, self._player
        candidates: Sequence[Any] = legal_actions
        width = self.settings.width
        ranking = action_ranking(game)
        if ranking is not None and 0 < width < len(legal_actions):
            allowed = set(legal_actions)
            ranked = [a for a in ranking(game, info.sample_data(rng), me) if a in allowed]
            best = set(ranked[:width])
            candidates = [a for a in legal_actions if a in best]
        dets = self.settings.dets if has_hidden_information(game) else 1
        # every candidate meets the same sampled states and the same choices of the
        # others (common random numbers): the comparison is of the candidates, not of
        # the luck of their samples
        samples: list[tuple[Any, dict[PlayerId, Any] | None]] = []
        for _ in range(dets):
            data = info.sample_data(rng)
            to_move = game.to_move(data)
            others = None
            if to_move.kind is NodeKind.SIMULTANEOUS:
                others = {p: policy(game, data, p, rng) for p in to_move.players if p != me}
            samples.append((data, others))
        x = reader.rows(len(candidates) * dets)
        ended = np.full(len(candidates) * dets, np.nan, dtype=np.float32)
        row = 0
        for action in candidates:
            for data, others in samples:
                if others is None:
                    after = game.apply(data, me, action)
                else:
                    after = game.apply_joint(data, {**others, me: action})
                if game.to_move(after).kind is NodeKind.TERMINAL:
                    ended[row] = game.returns(after)[me]
                reader.write(game.view(after, me), me, x[row])
                row += 1
        scored = np.where(np.isnan(ended), reader.net(x), ended)
        values = scored.reshape(len(candidates), dets).mean(axis=1)
        return candidates[int(np.argmax(values))]
