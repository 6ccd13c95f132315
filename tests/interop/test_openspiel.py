"""The OpenSpiel adapter: registration, game types, OpenSpiel's own checks, the no-op,
the turn-based form, serialization and observations."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from functools import partial

import numpy as np
import pyspiel
import pytest

from koth.core.errors import GameOverError, IllegalActionError, InvalidParamsError
from koth.core.registry import load_game
from koth.interop.openspiel import (
    NOOP_NAME,
    KothOpenSpielState,
    openspiel_game,
    register_openspiel_game,
)
from koth.interop.spec import InteropSpec
from tests.core.toy_game import SecretDuel
from tests.interop.helpers import TOY_SPEC, register_toys

register_toys()

Dyn = pyspiel.GameType.Dynamics
Info = pyspiel.GameType.Information


def play_to(state: KothOpenSpielState, moves: list[int]) -> KothOpenSpielState:
    for move in moves:
        state.apply_action(move)
    return state


# ---------------------------------------------------------------- registration
@pytest.mark.parametrize(
    ("name", "dynamics", "information", "players"),
    [
        ("koth_toy_duel", Dyn.SIMULTANEOUS, Info.IMPERFECT_INFORMATION, 2),
        ("koth_toy_duel_turn_based", Dyn.SEQUENTIAL, Info.IMPERFECT_INFORMATION, 2),
        ("koth_cards", Dyn.SIMULTANEOUS, Info.IMPERFECT_INFORMATION, 2),
        ("koth_cards_turn_based", Dyn.SEQUENTIAL, Info.IMPERFECT_INFORMATION, 2),
        ("koth_board", Dyn.SEQUENTIAL, Info.PERFECT_INFORMATION, 2),
        ("koth_board(num_players=3)", Dyn.SEQUENTIAL, Info.PERFECT_INFORMATION, 3),
        ("koth_board(one_excluded=True)", Dyn.SIMULTANEOUS, Info.IMPERFECT_INFORMATION, 2),
    ],
)
def test_game_types(name: str, dynamics: object, information: object, players: int) -> None:
    game = pyspiel.load_game(name)
    game_type = game.get_type()
    assert game_type.dynamics == dynamics
    assert game_type.information == information
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game_type.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game_type.provides_information_state_string
    assert game_type.provides_observation_tensor
    assert game.num_players() == players
    assert game.utility_sum() == 0.0
    koth_game = game.koth_game
    noop = 1 if dynamics == Dyn.SIMULTANEOUS else 0
    assert game.num_distinct_actions() == koth_game.num_distinct_actions() + noop
    assert game.max_chance_outcomes() == koth_game.num_distinct_actions()


def test_registry_and_utilities() -> None:
    names = set(pyspiel.registered_names())
    assert {"koth_cards", "koth_cards_turn_based", "koth_board", "koth_toy_duel"} <= names
    cards = pyspiel.load_game("koth_cards")
    assert (cards.min_utility(), cards.max_utility()) == (-1.0, 1.0)
    board4 = pyspiel.load_game("koth_board", {"num_players": 4})
    assert board4.min_utility() == pytest.approx(-1 / 3)
    # B17: at most 200 rounds of 8 turns of at most 13 decisions, plus the setup
    assert board4.max_game_length() == 4 + 1 + 200 * 8 * 13
    # registering again is harmless; the turn-based form exists only with simultaneous nodes
    assert register_openspiel_game(SecretDuel, TOY_SPEC) == [
        "koth_toy_duel",
        "koth_toy_duel_turn_based",
    ]
    assert str(openspiel_game(SecretDuel(max_card=6))) == "koth_toy_duel(max_card=6)"


def test_unknown_parameters_are_refused() -> None:
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("koth_cards(no_such_option=1)")
    with pytest.raises(InvalidParamsError):
        pyspiel.load_game("koth_cards", {"jokers": 7})


# ---------------------------------------------------------------- OpenSpiel's checks
@pytest.mark.parametrize(
    ("name", "sims"),
    [
        ("koth_toy_duel", 30),
        ("koth_toy_duel_turn_based", 30),
        ("koth_toy_one_sided", 20),
        ("koth_cards", 3),
        ("koth_cards_turn_based", 3),
        ("koth_board", 1),
        # the secret-exclusion variant, in short games (B17 round limit)
        ("koth_board_turn_based(one_excluded=True,round_limit=12)", 1),
        ("koth_board(one_excluded=True,round_limit=12,num_players=3)", 1),
    ],
)
def test_random_sim_test_with_serialization(name: str, sims: int) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=sims, serialize=True, verbose=False)


def test_convert_to_turn_based_works_on_the_faithful_form() -> None:
    game = pyspiel.convert_to_turn_based(pyspiel.load_game("koth_toy_duel"))
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


# ---------------------------------------------------------------- simultaneous nodes
def test_non_acting_player_submits_the_noop() -> None:
    game = pyspiel.load_game("koth_toy_one_sided")
    noop = game.koth_game.num_distinct_actions()
    state = play_to(game.new_initial_state(), [0, 1, 4])  # deal 1, deal 2, stake 1
    assert state.is_simultaneous_node()
    assert state.legal_actions(0) == [noop]
    assert state.action_to_string(0, noop) == NOOP_NAME
    stay, fold = state.legal_actions(1)
    with pytest.raises(IllegalActionError, match="does not act"):
        state.apply_actions([stay, fold])
    state.apply_actions([noop, fold])
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]  # player 0 stays, player 1 folds


def test_turn_based_form_hides_a_submission_from_the_others() -> None:
    game = pyspiel.load_game("koth_toy_duel_turn_based")
    state = play_to(game.new_initial_state(), [0, 3, 4])  # cards 1 and 4, stake 1
    stay, fold = 6, 7
    before = [state.information_state_string(p) for p in (0, 1)]
    tensor_before = state.information_state_tensor(1)
    assert state.current_player() == 0
    state.apply_action(fold)
    assert state.current_player() == 1
    assert state.information_state_string(1) == before[1]
    assert state.information_state_tensor(1) == tensor_before
    assert state.information_state_string(0) == before[0] + " submitted:fold"
    assert state.submitted(0) == fold and state.submitted(1) is None
    assert state.legal_actions() == [stay, fold]
    state.apply_action(stay)
    assert state.is_terminal()
    assert state.returns() == [-1.0, 1.0]


# ---------------------------------------------------------------- transitions
def test_illegal_actions_are_refused_with_typed_errors() -> None:
    game = pyspiel.load_game("koth_toy_duel_turn_based")
    state = game.new_initial_state()
    with pytest.raises(IllegalActionError, match="not legal for chance"):
        state.apply_action(5)
    state = play_to(state, [0, 1])
    with pytest.raises(IllegalActionError, match="player 0"):
        state.apply_action(6)  # a choice before the stake
    state = play_to(state, [4, 6, 6])
    assert state.is_terminal()
    with pytest.raises(GameOverError):
        state.apply_action(0)


def test_clone_is_independent_and_history_is_openspiel_s() -> None:
    game = pyspiel.load_game("koth_cards")
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(10):
        state.apply_action(rng.choice(state.legal_actions()))
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(copy.history()) == len(state.history()) + 1
    assert str(copy) != str(state)
    assert state.koth_data == state.clone().koth_data


def test_serialization_and_pickling_keep_pending_submissions() -> None:
    game = pyspiel.load_game("koth_toy_duel_turn_based(max_card=6)")
    state = play_to(game.new_initial_state(), [5, 2, 7, 9])  # cards 6, 3; stake 2; p0 folds
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == "koth_toy_duel_turn_based(max_card=6)"
    for copy in (state2, pickle.loads(pickle.dumps(state))):
        assert str(copy) == str(state)
        assert copy.history() == state.history()
        assert copy.current_player() == 1
        assert copy.information_state_string(0) == state.information_state_string(0)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


# ---------------------------------------------------------------- observations
def test_observations_come_from_the_view() -> None:
    game = pyspiel.load_game("koth_cards")
    koth_game = load_game("cards")
    state = game.new_initial_state()
    rng = random.Random(5)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    for player in (0, 1):
        expected = koth_game.information_state_string(state.koth_data, player)
        assert state.information_state_string(player) == expected
        assert state.observation_string(player) == expected
        tensor = np.array(state.observation_tensor(player))
        assert tensor.shape == tuple(game.observation_tensor_shape())
        assert tensor.any()
    assert state.observation_tensor(0) != state.observation_tensor(1)  # different hands


def test_public_observer_is_the_spectator_and_all_players_is_refused() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("koth_toy_duel")
    koth_game = game.koth_game
    state = play_to(game.new_initial_state(), [0, 2])
    public = make_observation(
        game,
        pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE),
    )
    assert public.string_from(state, 0) == koth_game.information_state_string(state.koth_data, None)
    assert public.string_from(state, 0) == public.string_from(state, 1)
    with pytest.raises(InvalidParamsError, match="hidden-information"):
        make_observation(
            game,
            pyspiel.IIGObservationType(
                perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
            ),
        )


def test_a_spec_must_be_consistent() -> None:
    with pytest.raises(InvalidParamsError):
        InteropSpec(max_decisions=0, max_chance_nodes=0, min_utility=0.0, max_utility=1.0)
    with pytest.raises(InvalidParamsError):
        InteropSpec(max_decisions=1, max_chance_nodes=0, min_utility=2.0, max_utility=1.0)


def test_games_end_within_the_declared_bounds() -> None:
    """max_game_length / max_chance_nodes are upper bounds in random play."""
    rng = random.Random(11)
    for name, games in (("koth_cards", 20), ("koth_toy_one_sided", 20)):
        game = pyspiel.load_game(name)
        spec = game.adapter.spec
        for _ in range(games):
            state = game.new_initial_state()
            chance = decisions = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    chance += 1
                    state.apply_action(rng.choice(state.legal_actions()))
                else:
                    decisions += 1
                    if state.is_simultaneous_node():
                        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(2)])
                    else:
                        state.apply_action(rng.choice(state.legal_actions()))
            assert chance <= spec.max_chance_nodes
            assert decisions <= spec.max_decisions


# ---------------------------------------------------------------- action ids
def test_equal_action_values_built_afresh_convert_to_the_same_ids() -> None:
    """The adapter's identity memo must not depend on an engine reusing its values:
    equal actions built anew (as a parser or an agent would) get the same ids."""
    game = load_game("board")
    adapter = openspiel_game(game).adapter
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal() and state.num_moves < 400:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        actions = list(state.legal_actions())
        fresh = [game.parse_action(str(action)) for action in actions]
        expected = [game.action_id(action) for action in actions]
        assert adapter.ids_of(actions) == expected
        assert adapter.ids_of(fresh) == expected
        assert adapter.ids_of(actions) == expected  # after the fresh ones entered the memo
        state.apply_action(rng.choice(actions))


def answer(query: Callable[[], list[int]]) -> list[int] | str:
    """The query's answer, or "refused" where it raises pyspiel's error."""
    try:
        return query()
    except pyspiel.SpielError:
        return "refused"


@pytest.mark.parametrize(
    "name",
    [
        "koth_toy_duel",
        "koth_cards",
        "koth_cards_turn_based",
        "koth_board",
        "koth_board(num_players=3)",
        "koth_board(one_excluded=True,round_limit=6)",
    ],
)
def test_the_python_answers_equal_pyspiels_own(name: str) -> None:
    """The queries the state answers in Python (to spare a Python caller the crossings
    into C++) answer what pyspiel's C++ path answers, at every node of random games,
    for every player and chance."""
    game = pyspiel.load_game(name)
    rng = random.Random(5)
    players = [pyspiel.PlayerId.CHANCE, *range(game.num_players())]
    for _ in range(3):
        state = game.new_initial_state()
        while True:
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            assert state.is_simultaneous_node() == pyspiel.State.is_simultaneous_node(state)
            assert state.is_player_node() == pyspiel.State.is_player_node(state)
            assert state.legal_actions() == pyspiel.State.legal_actions(state)
            if state.is_terminal():
                break
            for player in players:
                mine = answer(partial(state.legal_actions, player))
                theirs = answer(partial(pyspiel.State.legal_actions, state, player))
                assert mine == theirs, player
            # the chance outcomes, only at a chance node (after the lists asked above)
            outcomes = state.chance_outcomes()
            if state.is_chance_node():
                assert [action for action, _ in outcomes] == state.legal_actions()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            else:
                assert outcomes == []
            if state.is_simultaneous_node():
                state.apply_actions(
                    [rng.choice(state.legal_actions(p)) for p in range(game.num_players())]
                )
            else:
                state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    "name",
    [
        "koth_cards",
        "koth_cards_turn_based",
        "koth_board",
        "koth_board(num_players=3)",
        "koth_board(num_players=4,round_limit=8)",
        "koth_board(one_excluded=True,round_limit=6)",
    ],
)
def test_the_ids_handed_out_are_the_games_ids_of_its_lists(name: str) -> None:
    """Legal actions and chance outcomes are handed out as the ids the rules list (the
    compiled build's turns and deals tell their ids without an action object each):
    at every node of random games they are ``Game.action_id`` of the actions the koth
    game lists, in its order, with its probabilities."""
    game = pyspiel.load_game(name)
    koth = game.koth_game
    rng = random.Random(8)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            data = state.koth_data
            if state.is_chance_node():
                expected = [(koth.action_id(a), p) for a, p in koth.chance_outcomes(data)]
                assert state.chance_outcomes() == expected
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            # every acting player at a simultaneous node, else the one to move (in the
            # turn-based form, the next to submit)
            simultaneous = state.is_simultaneous_node()
            for player in koth.to_move(data).players if simultaneous else [state.current_player()]:
                listed = koth.legal_actions(data, player)
                assert state.legal_actions(player) == [koth.action_id(a) for a in listed]
            if state.is_simultaneous_node():
                state.apply_actions(
                    [rng.choice(state.legal_actions(p)) for p in range(game.num_players())]
                )
            else:
                state.apply_action(rng.choice(state.legal_actions()))
