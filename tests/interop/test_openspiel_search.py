"""resample_from_infostate leaks nothing, and OpenSpiel's bots play koth games.

The leak test is statistical and generic. ``s`` is the true state and ``s2`` another
state the player cannot tell from it (itself a resample). If resampling uses only what
the player knows, resamples of ``s`` and of ``s2`` follow one distribution, so they
agree with ``s`` on as many state fields on average. A resampler that keeps any of the
true hidden values (cards, deck order, an opponent's pending choice: the kind of leak
OpenSpiel PR #1613 fixed elsewhere) makes the resamples of ``s`` agree with ``s`` more.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from koth.games.cards.state import FIELD_NAMES
from koth.interop.openspiel import KothOpenSpielState
from tests.interop.helpers import agreement, mean, register_toys, standard_error

register_toys()

Resampler = Callable[[KothOpenSpielState, int, int], Any]


def openspiel_resample(state: KothOpenSpielState, player: int, seed: int) -> Any:
    return state.resample_from_infostate(player, random.Random(seed).random).koth_data


def leak_gap(state: KothOpenSpielState, player: int, resample: Resampler, n: int = 120) -> float:
    """How many more state fields resamples of the true state share with it than
    resamples of an indistinguishable state do, in standard errors."""
    game = state.get_game().koth_game
    truth = state.koth_data
    other = state.resample_from_infostate(player, random.Random(-1).random)
    assert other.koth_data != truth, "pick a state where something is hidden"
    from_truth = [agreement(game, resample(state, player, k), truth) for k in range(n)]
    from_other = [agreement(game, resample(other, player, k + n), truth) for k in range(n)]
    spread = (standard_error(from_truth) ** 2 + standard_error(from_other) ** 2) ** 0.5
    return (mean(from_truth) - mean(from_other)) / max(spread, 1e-9)


def advance(state: KothOpenSpielState, seed: int, steps: int) -> KothOpenSpielState:
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def cards_positions() -> list[tuple[str, KothOpenSpielState]]:
    """Turn-based card-game states: mid-deal, mid-reserve (a pending submission),
    and mid-fight."""
    game = pyspiel.load_game("koth_cards_turn_based")
    mid_deal = advance(game.new_initial_state(), 1, 30)
    assert mid_deal.is_chance_node()
    reserve = advance(game.new_initial_state(), 2, 52 + 7)
    assert reserve.current_player() == 1 and reserve.submitted(0) is not None
    fight = advance(game.new_initial_state(), 3, 52 + 24 + 20)
    assert not fight.is_terminal()
    return [("mid-deal", mid_deal), ("reserve", reserve), ("fight", fight)]


# ---------------------------------------------------------------- resampling
@pytest.mark.parametrize("position", range(3))
def test_cards_resampling_keeps_the_information_state(position: int) -> None:
    label, state = cards_positions()[position]
    for player in (0, 1):
        key = state.information_state_string(player)
        hidden_variants = set()
        for seed in range(25):
            sample = state.resample_from_infostate(player, random.Random(seed).random)
            assert sample.information_state_string(player) == key, label
            assert sample.current_player() == state.current_player()
            assert sample.legal_actions() == state.legal_actions() or (
                sample.current_player() != player
            )
            assert sample.history() == []  # the true history would reveal the deal
            hidden_variants.add(str(sample))
        assert len(hidden_variants) > 20, f"{label}: hidden parts are not redrawn"


@pytest.mark.parametrize("position", range(3))
def test_cards_resampling_leaks_nothing(position: int) -> None:
    label, state = cards_positions()[position]
    player = state.current_player() if state.current_player() >= 0 else 0
    assert leak_gap(state, player, openspiel_resample) < 4.0, label


def test_the_leak_test_catches_a_leaky_resampler() -> None:
    """A resampler that keeps the cards of one pyramid stack of its input is caught."""
    _, state = cards_positions()[2]
    player = state.current_player()

    def leaky(s: KothOpenSpielState, p: int, seed: int) -> Any:
        sample = openspiel_resample(s, p, seed)
        truth = s.koth_data  # what a leaky resampler peeks at
        stacks = list(sample.stacks)
        hidden = [i for i, cards in enumerate(truth.stacks) if len(cards) > 1]
        stacks[hidden[0]] = truth.stacks[hidden[0]]
        return type(sample)(**{**_fields(sample), "stacks": tuple(stacks)})

    assert leak_gap(state, player, leaky) > 6.0


def _fields(data: Any) -> dict[str, Any]:
    return dict(zip(FIELD_NAMES, data.fields(), strict=True))


def test_resampled_deals_do_not_replay_the_true_deck() -> None:
    """Mid-deal, the cards still to come differ from the true ones: a resample does
    not keep the true order or set of the undealt cards (the PR #1613 leak)."""
    _, state = cards_positions()[0]
    true_outcomes = state.chance_outcomes()
    same_set = 0
    true_next = []
    resampled_next = []
    for seed in range(60):
        sample = state.resample_from_infostate(0, random.Random(seed).random)
        if sample.chance_outcomes() == true_outcomes:
            same_set += 1
        # the same chance draws continue the deal in the true and the resampled world
        draws = random.Random(1000 + seed)
        truth_copy = state.clone()
        for _ in range(6):
            truth_copy.apply_action(draws.choice(truth_copy.legal_actions()))
        draws = random.Random(1000 + seed)
        for _ in range(6):
            sample.apply_action(draws.choice(sample.legal_actions()))
        true_next.append(truth_copy.history()[-6:])
        resampled_next.append(sample.history())
    assert same_set <= 3
    assert sum(a == b for a, b in zip(true_next, resampled_next, strict=True)) <= 3


def test_toy_resampling_redraws_the_opponents_pending_choice() -> None:
    game = pyspiel.load_game("koth_toy_duel_turn_based")
    state = game.new_initial_state()
    for action in (0, 3, 4, 7):  # cards 1 and 4, stake 1, player 0 folds
        state.apply_action(action)
    seen_for_1 = {
        state.resample_from_infostate(1, random.Random(k).random).submitted(0) for k in range(40)
    }
    assert seen_for_1 == {6, 7}  # player 1 does not know that player 0 folded
    for k in range(20):
        sample = state.resample_from_infostate(0, random.Random(k).random)
        assert sample.submitted(0) == 7  # player 0 knows its own choice
        assert sample.koth_data.cards[0] == 1
    cards_for_1 = {
        state.resample_from_infostate(1, random.Random(k).random).koth_data.cards[0]
        for k in range(40)
    }
    assert cards_for_1 == {1, 2, 3}  # anything but player 1's own card
    assert leak_gap(state, 1, openspiel_resample, n=200) < 4.0


# ---------------------------------------------------------------- OpenSpiel's bots
def play(game: pyspiel.Game, bots: list[Any], seed: int) -> list[float]:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    returns: list[float] = state.returns()
    return returns


def test_ismcts_beats_random_play_at_the_toy_duel() -> None:
    game = pyspiel.load_game("koth_toy_duel_turn_based")
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=rng)
    searcher = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=60, random_state=rng)
    uniform = pyspiel.make_uniform_random_bot(1, 11)
    total = sum(play(game, [searcher, uniform], seed)[0] for seed in range(30))
    assert total > 0  # it folds bad cards and stays with good ones


def test_ismcts_plays_the_card_game_to_the_end() -> None:
    game = pyspiel.load_game("koth_cards_turn_based")
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng),
        pyspiel.make_uniform_random_bot(1, 5),
    ]
    returns = play(game, bots, seed=1)
    assert sum(returns) == 0.0 and set(returns) <= {-1.0, 0.0, 1.0}


def test_mcts_plays_the_board_game_to_the_end() -> None:
    game = pyspiel.load_game("koth_board(round_limit=3)")
    rng = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(game, 2.0, 6, evaluator, random_state=rng),
        mcts.MCTSBot(game, 2.0, 6, evaluator, random_state=rng),
    ]
    returns = play(game, bots, seed=2)
    assert sum(returns) == pytest.approx(0.0)
