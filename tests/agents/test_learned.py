"""The learned agent: features from the view only, the shipped models in every variant,
and its options checked before any game."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from koth.agents.base import InformationSet
from koth.agents.learned import (
    NumpyValueNet,
    ValueReader,
    encoder_for,
    feature_size,
    input_size,
    load_model,
)
from koth.agents.play import play_match
from koth.agents.registry import check_spec, make_agent, make_policy
from koth.core.chance import sample_outcome
from koth.core.errors import InvalidParamsError, KothError
from koth.core.game import Game
from koth.core.registry import load_game
from koth.core.state import GameState

CARDS_VARIANTS: list[dict[str, Any]] = [
    {},
    {"jokers": 2},
    {"tens_equal": True},
    {"dealer": 1},
    {"reveal_discarded_stacks": True},
]
BOARD_VARIANTS: list[dict[str, Any]] = [
    {},
    {"num_players": 3, "one_excluded": True, "round_limit": 15},
    {"num_players": 4, "teamplay": True, "round_limit": 15},
    {"num_players": 2, "countdown": True},
]
VARIANTS = [("cards", p) for p in CARDS_VARIANTS] + [("board", p) for p in BOARD_VARIANTS]


def _ids(case: tuple[str, dict[str, Any]]) -> str:
    name, params = case
    return name + ("[" + ",".join(f"{k}={v}" for k, v in params.items()) + "]" if params else "")


def _encode(game: Game[Any, Any, Any], data: Any, seat: int) -> np.ndarray[Any, Any]:
    """The network input of ``seat`` (the features and any evaluator estimates)."""
    out = np.zeros(input_size(game), dtype=np.float32)
    ValueReader(game, load_model(game)).write(game.view(data, seat), seat, out)
    return out


def _apply(state: GameState[Any, Any], chosen: dict[int, Any]) -> None:
    """Play the acting players' ``chosen`` actions (together at a simultaneous node)."""
    if state.is_simultaneous_node():
        state.apply_actions(chosen)
    else:
        ((player, action),) = chosen.items()
        state.apply_action(action, player)


@pytest.mark.parametrize("case", VARIANTS, ids=_ids)
def test_features_are_the_same_for_states_the_player_cannot_tell_apart(
    case: tuple[str, dict[str, Any]],
) -> None:
    """The conformance check of the features: a state redrawn by ``resample_hidden``
    (everything the seat cannot know drawn again) gives that seat the same features,
    from its view and from the state (every seat at once, as the search's leaves)."""
    name, params = case
    game = load_game(name, params)
    reader = ValueReader(game, load_model(game))
    rng = random.Random(5)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 40:
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            continue
        rows = reader.state_rows(state.data)
        for seat in range(game.num_players):
            mine = _encode(game, state.data, seat)
            for _ in range(2):
                other = game.resample_hidden(state.data, seat, rng)
                assert np.array_equal(mine, _encode(game, other, seat))
                assert np.array_equal(rows[seat], reader.state_rows(other)[seat])
        seats = [_encode(game, state.data, s) for s in range(game.num_players)]
        assert not np.array_equal(seats[0], seats[1])  # each seat is told which it is
        chosen = {p: rng.choice(list(state.legal_actions(p))) for p in state.acting_players()}
        _apply(state, chosen)
        checked += 1
    assert checked


@pytest.mark.parametrize("case", VARIANTS, ids=_ids)
@pytest.mark.parametrize("spec", ["learned:search=0", "learned:iters=6"])
def test_the_shipped_model_plays_legal_moves_in_every_variant(
    case: tuple[str, dict[str, Any]], spec: str
) -> None:
    name, params = case
    game = load_game(name, params)
    agents = [make_agent(spec)] + [make_agent("random") for _ in range(game.num_players - 1)]
    result = play_match(game, agents, seed=3, max_decisions=40)  # play_match checks legality
    assert result.decisions > 0
    again = play_match(game, [make_agent(spec), *agents[1:]], seed=3, max_decisions=40)
    assert again.record().moves == result.record().moves  # an iteration budget reproduces


@pytest.mark.parametrize("name", ["cards", "board"])
def test_the_shipped_model_is_small_and_says_what_it_was_trained_on(name: str) -> None:
    game = load_game(name)
    net = load_model(game)
    assert net.meta["game"] == name
    assert {"recipe", "seed", "games", "hours"} <= set(net.meta)
    assert net.input_size == input_size(game)
    path = Path(__file__).parents[2] / "src" / "koth" / "agents" / "models" / f"{name}.npz"
    assert path.stat().st_size < 1_000_000


def test_seat_values_come_from_each_seats_own_view() -> None:
    game = load_game("cards")
    reader = ValueReader(game, load_model(game))
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(sample_outcome(state.chance_outcomes(), rng))
    values = reader.state_values(state.data)
    assert len(values) == 2
    for seat in range(2):
        row = _encode(game, state.data, seat)[None, :]
        assert values[seat] == pytest.approx(float(reader.net(row)[0]), rel=1e-5)


def test_the_terminal_opponent_plays_learned() -> None:
    game = load_game("cards")
    policy = make_policy("learned:search=0", game, 1, seed=4)
    state = game.new_initial_state()
    rng = random.Random(4)
    moves = 0
    while not state.is_terminal() and moves < 30:
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            continue
        chosen = {
            p: policy(state, p, rng) if p == 1 else rng.choice(list(state.legal_actions(p)))
            for p in state.acting_players()
        }
        _apply(state, chosen)
        moves += 1
    assert moves


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("learned:search=2", "search must be 1 or 0"),
        ("learned:search=0:iters=5", "takes no search options"),
        ("learned:dets=0", "dets >= 1"),
        ("learned:width=x", "bad learned option"),
        ("learned:iters=0", "iterations must be at least 1"),
        ("learned:model=/nonexistent/model.npz", "no learned model at"),
        ("learned:steps=-1", "steps >= 0"),
        ("learned:search=0:steps=4", "takes no search options"),
        ("learned:mix=1.5", "0 <= mix <= 1"),
        ("learned:search=0:mix=0.5", "takes no search options"),
    ],
)
def test_bad_options_are_refused_before_play(spec: str, words: str) -> None:
    with pytest.raises(InvalidParamsError, match=words):
        check_spec(spec, load_game("cards"))


def test_a_game_without_a_shipped_model_is_named() -> None:
    from tests.core.toy_game import SecretDuel

    with pytest.raises(InvalidParamsError, match="no learned model ships for toy_duel"):
        check_spec("learned", SecretDuel())


def test_a_model_of_another_game_is_refused(tmp_path: Path) -> None:
    cards = load_model(load_game("cards"))
    path = tmp_path / "cards.npz"
    cards.save(path)
    with pytest.raises(InvalidParamsError, match="trained for cards, not board"):
        check_spec(f"learned:model={path}", load_game("board"))
    (tmp_path / "junk.npz").write_bytes(b"not a model")
    with pytest.raises(KothError, match="is not a learned model"):
        check_spec(f"learned:model={tmp_path / 'junk.npz'}", load_game("cards"))


def test_saved_models_load_equal(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    net = NumpyValueNet(
        (
            rng.standard_normal((3, 4)).astype(np.float32),
            rng.standard_normal((4, 1)).astype(np.float32),
        ),
        (np.zeros(4, np.float32), np.ones(1, np.float32)),
        2.0,
        {"game": "cards"},
    )
    net.save(tmp_path / "m.npz")
    loaded = NumpyValueNet.load(tmp_path / "m.npz")
    x = rng.standard_normal((5, 3)).astype(np.float32)
    assert np.allclose(net(x), loaded(x))
    expected = (np.maximum(x @ net.weights[0], 0) @ net.weights[1] + 1.0)[:, 0] * 2.0
    assert np.allclose(loaded(x), expected)


def test_the_network_alone_decides_from_sampled_states_only() -> None:
    """Two true states that seat 0 cannot tell apart give the same decision."""
    game = load_game("cards")
    rng = random.Random(9)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(sample_outcome(state.chance_outcomes(), rng))
    other = GameState(game, game.resample_hidden(state.data, 0, rng))
    chosen = []
    for s in (state, other):
        agent = make_agent("learned:search=0")
        agent.reset(game, 0, 1)
        info = InformationSet.of(s, 0)
        from koth.agents.base import DecisionContext

        context = DecisionContext(info, 0, s.is_simultaneous_node())
        chosen.append(agent.act(info.view, info.legal_actions, context))
    assert chosen[0] == chosen[1]


@pytest.mark.parametrize(
    ("name", "params", "hidden"),
    [
        ("cards", {}, True),
        ("board", {}, False),
        ("board", {"num_players": 3, "one_excluded": True}, True),
    ],
)
def test_the_learned_search_is_the_games_own_search(
    name: str, params: dict[str, Any], hidden: bool
) -> None:
    """``mcts`` for the board (which implements ``resample_hidden`` for its hidden
    variant only: its facts say whether players lack information), ``ismcts`` for the
    cards and the board's variant with a hidden excluded area."""
    from koth.agents.learned import LearnedSearch, has_hidden_information

    game = load_game(name, params)
    assert has_hidden_information(game) is hidden
    agent = make_agent("learned:iters=5")
    assert isinstance(agent, LearnedSearch)
    agent.reset(game, 0, 1)
    assert agent._hidden is hidden


@pytest.mark.parametrize("players", [2, 3])
def test_the_board_input_ends_with_the_evaluators_estimates_own_first(players: int) -> None:
    game = load_game("board", {"num_players": players})
    base = feature_size(encoder_for("board"))
    assert input_size(game) == base + 4
    net = NumpyValueNet((np.zeros((base + 4, 1), np.float32),), (np.zeros(1, np.float32),), 1.0, {})
    reader = ValueReader(game, net)
    assert reader.evaluate is not None
    reader.evaluate = lambda game, view: (0.5, -0.25, 0.75)[:players]
    view = game.view(game.new_initial_state().data, 0)
    for seat in range(players):
        x = reader.rows(1)[0]
        reader.write(view, seat, x)
        estimates = [(0.5, -0.25, 0.75)[(seat + k) % players] for k in range(players)]
        assert list(x[base : base + players]) == estimates
        assert not np.any(x[base + players :])
        assert x[encoder_for("board").size + seat] == 1.0
    assert input_size(load_game("cards")) == feature_size(encoder_for("cards"))  # no evaluator


def test_the_network_alone_compares_every_candidate_on_the_same_samples() -> None:
    """``dets`` states (and the others' simultaneous choices) are drawn once a decision
    and every candidate is applied to them: drawn again per candidate, the luck of the
    draws outweighed the differences between the candidates."""
    from koth.agents.learned import LearnedSettings, NetworkAgent

    game = load_game("cards")
    rng = random.Random(3)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions(state.acting_players()[0])) < 3:
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            continue
        chosen = {p: rng.choice(list(state.legal_actions(p))) for p in state.acting_players()}
        _apply(state, chosen)
    player = state.acting_players()[0]
    info = InformationSet.of(state, player)

    class Counting:
        calls = 0

        def sample_data(self, rng: random.Random) -> Any:
            Counting.calls += 1
            return info.sample_data(rng)

    agent = NetworkAgent(LearnedSettings(search=False, dets=3))
    agent.reset(game, player, 1)
    action = agent.greedy(Counting(), info.legal_actions)  # type: ignore[arg-type]
    assert action in info.legal_actions
    assert Counting.calls == 3


def test_the_learned_search_can_play_a_leaf_on_before_the_network_scores_it() -> None:
    """``steps``: that many rollout steps first; at the end of the game the returns,
    with none the network's values of the leaf itself."""
    from koth.agents.learned import DEFAULT_STEPS, LearnedSearch

    game = load_game("cards")
    rng = random.Random(2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(sample_outcome(state.chance_outcomes(), rng))
    values = {}
    for steps in ("0", "100000"):
        agent = make_agent(f"learned:iters=5:steps={steps}")
        assert isinstance(agent, LearnedSearch)
        agent.reset(game, 0, 1)
        policy = agent._policy
        assert policy is not None
        values[steps] = agent.leaf_values(game, state.data, rng, policy, 30)
    reader = ValueReader(game, load_model(game))
    assert values["0"] == pytest.approx(reader.state_values(state.data))
    assert values["100000"] in {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
    for name, default in (("cards", 0), ("board", DEFAULT_STEPS["board"])):
        agent = make_agent("learned:iters=5")
        assert isinstance(agent, LearnedSearch)
        agent.reset(load_game(name), 0, 1)
        assert agent._steps == default


def test_a_mixed_leaf_weighs_one_playout_with_the_network() -> None:
    """``mix``: a leaf's value is (1 - mix) x the network's + mix x one whole playout's
    returns (the same playout a search without the network would play from that leaf)."""
    from koth.agents.learned import LearnedSearch
    from koth.agents.search import default_max_rollout, rollout

    game = load_game("cards")
    rng = random.Random(4)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(sample_outcome(state.chance_outcomes(), rng))
    network = ValueReader(game, load_model(game)).state_values(state.data)
    steps = default_max_rollout(game, None)
    for mix in (0.25, 0.5, 1.0):
        agent = make_agent(f"learned:iters=5:mix={mix}")
        assert isinstance(agent, LearnedSearch)
        agent.reset(game, 0, 1)
        policy = agent._policy
        assert policy is not None
        played = rollout(game, state.data, random.Random(9), policy, steps)
        assert played in {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
        value = agent.leaf_values(game, state.data, random.Random(9), policy, steps)
        expected = [(1 - mix) * v + mix * p for v, p in zip(network, played, strict=True)]
        assert value == pytest.approx(expected)
    assert network != pytest.approx((0.0, 0.0))  # the mix differs from a scaled playout
