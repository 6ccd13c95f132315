"""The framework checks and helpers of koth.core, on the minimal test game."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import replace
from typing import Any

import pytest

from koth.core.chance import random_game, resolve_chance, sample_outcome
from koth.core.conformance import ConformanceError, check_playout
from koth.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidParamsError,
    NotYourTurnError,
    RecordError,
)
from koth.core.players import CHANCE, SIMULTANEOUS, TERMINAL, NodeKind
from koth.core.record import GameRecord, replay, state_from_json, state_to_json
from koth.core.registry import game_names, load_game
from koth.core.state import GameState, HistoryEntry
from tests.core.toy_game import Choice, Deal, DuelState, SecretDuel, Stake


def dealt(cards: tuple[int, int] = (3, 1)) -> GameState[Any, Any]:
    state = SecretDuel().new_initial_state()
    for card in cards:
        state.apply_action(Deal(card))
    return state


def test_params_are_validated_with_a_readable_error() -> None:
    assert SecretDuel().params.max_card == 4
    with pytest.raises(InvalidParamsError, match="max_card"):
        SecretDuel(max_card=1)
    with pytest.raises(InvalidParamsError, match="colour"):
        SecretDuel({"colour": "red"})


def test_registry_loads_games_by_name_and_rejects_unknown_names() -> None:
    assert "toy_duel" in game_names()
    assert load_game("toy_duel", {"max_card": 5}).params.max_card == 5
    with pytest.raises(InvalidParamsError, match="unknown game 'chess'"):
        load_game("chess")


def test_node_kinds_follow_openspiel_player_ids() -> None:
    state = SecretDuel().new_initial_state()
    assert state.current_player() == CHANCE and state.is_chance_node()
    assert [p for _, p in state.chance_outcomes()] == [0.25] * 4
    state.apply_action("deal 2")
    state.apply_action(Deal(4))
    assert state.current_player() == 0
    state.apply_action("stake 2", player=0)
    assert state.current_player() == SIMULTANEOUS and state.acting_players() == (0, 1)
    state.apply_actions({0: "stay", 1: Choice(True)})
    assert state.current_player() == TERMINAL and state.is_terminal()
    assert state.returns() == (-2.0, 2.0)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 1 and not outcome.is_draw


def test_rejections_are_typed_and_change_nothing() -> None:
    state = dealt()
    before = (state.data, state.num_moves)
    with pytest.raises(NotYourTurnError, match="player 1 tried stake 1 but player 0 to move"):
        state.apply_action("stake 1", player=1)
    with pytest.raises(InvalidActionError, match="'stake nine' is not a toy_duel action"):
        state.apply_action("stake nine")
    with pytest.raises(IllegalActionError, match="illegal action 'deal 2' by player 0"):
        state.apply_action(Deal(2))
    with pytest.raises(InvalidActionError):
        state.apply_action(object())
    assert (state.data, state.num_moves) == before


@pytest.mark.parametrize("listed_first", [False, True])
def test_checks_are_the_same_whether_or_not_the_legal_actions_were_listed(
    listed_first: bool,
) -> None:
    # the legal actions of the player to move are remembered once listed, and the
    # legality check reads them from there: the answers must not depend on it
    state = dealt()
    if listed_first:
        assert state.legal_actions() is state.legal_actions(0)
        assert list(state.legal_actions(1)) == []
    before = (state.data, state.num_moves)
    with pytest.raises(IllegalActionError, match="illegal action 'deal 2' by player 0"):
        state.apply_action(Deal(2))
    with pytest.raises(NotYourTurnError, match="player 1 tried stake 1"):
        state.apply_action(Stake(1), player=1)
    assert (state.data, state.num_moves) == before
    copy = state.clone()
    assert copy.apply_action(Stake(1)) == Stake(1)  # an equal value, not the offered one
    assert state.apply_action(state.legal_actions()[0]) is state.history[-1].actions[0][1]
    assert copy.data == state.data


def test_a_chance_node_accepts_its_outcomes_and_nothing_else() -> None:
    state = SecretDuel().new_initial_state()
    offered = state.chance_outcomes()[0][0]
    with pytest.raises(IllegalActionError, match="by chance"):
        state.apply_action(Stake(1))
    with pytest.raises(NotYourTurnError):
        state.apply_action(offered, player=0)
    assert state.num_moves == 0
    assert state.apply_action(offered) is offered
    assert state.apply_action(Deal(offered.card % 4 + 1)) == Deal(offered.card % 4 + 1)


def test_simultaneous_node_needs_every_acting_player_and_no_one_else() -> None:
    state = dealt()
    state.apply_action(Stake(1))
    with pytest.raises(NotYourTurnError, match="apply_actions"):
        state.apply_action("stay", player=0)
    with pytest.raises(IllegalActionError, match=r"players \[1\] have not submitted"):
        state.apply_actions({0: "stay"})
    with pytest.raises(NotYourTurnError, match=r"players \[2\] are not to move"):
        state.apply_actions({0: "stay", 1: "stay", 2: "stay"})
    assert state.check_action("fold", 1) == Choice(False)
    with pytest.raises(IllegalActionError):
        state.check_action("stake 1", 1)
    state.apply_actions({0: "fold", 1: "stay"})
    with pytest.raises(GameOverError):
        state.apply_actions({0: "fold", 1: "stay"})
    with pytest.raises(GameOverError):
        state.apply_action("stay")


def test_clone_is_independent() -> None:
    state = dealt()
    copy = state.clone()
    copy.apply_action(Stake(2))
    assert state.data.stake is None and copy.data.stake == 2
    assert state.num_moves == 2 and len(copy.history) == 3


def test_history_lists_chance_single_and_joint_moves_in_order() -> None:
    state = dealt((3, 1))
    state.apply_action(Stake(1))
    state.apply_actions({0: "stay", 1: "fold"})
    history = state.history
    assert state.num_moves == len(history) == 4
    assert state.movers == (CHANCE, CHANCE, 0, SIMULTANEOUS)
    assert [move.simultaneous for move in history] == [False, False, False, True]
    assert history[2] == HistoryEntry(((0, Stake(1)),))
    assert history[3] == HistoryEntry(((0, Choice(True)), (1, Choice(False))), simultaneous=True)
    rebuilt = GameState(state.game, state.data, history)
    assert rebuilt.history == history and rebuilt.movers == state.movers
    copy = state.clone()
    assert copy.history == history and copy.movers == state.movers
    for start in range(len(history) + 1):
        assert state.history_since(start) == history[start:]


def test_view_hides_the_opponents_card_until_the_showdown() -> None:
    state = dealt((3, 1))
    assert state.view(0)["cards"] == [3, None]
    assert state.view(1)["cards"] == [None, 1]
    assert state.view(None)["cards"] == [None, None]
    state.apply_action(Stake(1))
    state.apply_actions({0: "stay", 1: "stay"})
    assert state.view(None)["cards"] == [3, 1]


def test_seeded_sampler_reproduces_whole_games() -> None:
    first = random_game(SecretDuel(), seed=7)
    second = random_game(SecretDuel(), seed=7)
    assert first == second and first.history == second.history
    draws = {random_game(SecretDuel(), seed=s).data.cards for s in range(40)}
    assert len(draws) > 5
    state = SecretDuel().new_initial_state()
    resolve_chance(state, random.Random(1))
    assert state.current_player() == 0
    with pytest.raises(ValueError):
        sample_outcome([], random.Random(0))


def test_record_round_trips_and_replays_to_the_identical_state(tmp_path: Any) -> None:
    state = random_game(SecretDuel(max_card=6), seed=3)
    path = tmp_path / "game.json"
    GameRecord.from_state(state, seed=3).save(path)
    record = GameRecord.load(path)
    assert record.params == {"max_card": 6} and record.meta == {"seed": 3}
    replayed = replay(record)
    assert replayed == state and replayed.history == state.history


def test_replay_names_the_index_and_rule_of_a_bad_move() -> None:
    record = GameRecord.from_state(random_game(SecretDuel(), seed=1))
    record.moves[2] = record.moves[2].model_copy(update={"action": "stake 7"})
    with pytest.raises(RecordError, match="move 2") as info:
        replay(record)
    assert info.value.index == 2
    record.moves[2] = record.moves[2].model_copy(update={"player": 1, "action": "stake 1"})
    with pytest.raises(RecordError, match="move 2: player 1 tried stake 1") as info:
        replay(record)
    with pytest.raises(RecordError, match="not a valid koth record"):
        GameRecord.from_json_text('{"game": "toy_duel", "moves": [{"player": 0}]}')
    with pytest.raises(RecordError, match="not a valid koth record"):
        GameRecord.from_json_text("{oops")


def test_full_state_json_round_trips() -> None:
    state = dealt()
    restored = state_from_json(state_to_json(state))
    assert restored == state and restored.history == state.history
    restored.apply_action(Stake(1))
    assert state.data.stake is None


# ---- the conformance suite must catch broken games (a suite that cannot fail is no test)


class LeakyDuel(SecretDuel):
    name = "toy_duel_leaky"

    def view(self, state: DuelState, player: int | None) -> dict[str, Any]:
        seen = super().view(state, player)
        seen["cards"] = list(state.cards)
        return seen


class UnsortedDuel(SecretDuel):
    name = "toy_duel_unsorted"

    def legal_actions(self, state: DuelState, player: int) -> list[Any]:
        return list(reversed(super().legal_actions(state, player)))


class PeekingDuel(SecretDuel):
    """Offers the high stake only when the opponent's card is low: a leak through the
    legal actions rather than the view."""

    name = "toy_duel_peeking"

    def legal_actions(self, state: DuelState, player: int) -> list[Any]:
        legal = list(super().legal_actions(state, player))
        if self.to_move(state).kind is NodeKind.PLAYER and state.cards[1] > 2:
            return legal[:1]
        return legal


class BrokenRoundTripDuel(SecretDuel):
    name = "toy_duel_roundtrip"

    def state_from_json(self, data: Any) -> DuelState:
        return replace(super().state_from_json(data), stake=None)


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (LeakyDuel, "depends on what it may not know"),
        (UnsortedDuel, "not sorted"),
        (PeekingDuel, "legal actions of 0 depend on what it may not know"),
        (BrokenRoundTripDuel, "round-trip"),
    ],
)
def test_conformance_catches_broken_games(broken: type[SecretDuel], message: str) -> None:
    with pytest.raises((ConformanceError, AssertionError, TypeError), match=message):
        check_playout(broken(), seed=0)


@pytest.mark.parametrize("name", sorted(game_names()))
def test_a_game_pickles_and_copies_as_its_class_and_parameters(name: str) -> None:
    game = load_game(name)
    for rebuilt in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert rebuilt == game and type(rebuilt) is type(game) and rebuilt is not game
        state = rebuilt.new_initial_state()
        assert state.to_move() == game.new_initial_state().to_move()
