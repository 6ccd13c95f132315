"""Every seat's learned features of a state at once (``koth.agents.features``): the
same numbers as each seat's view hashed (that they stay blind to what a seat cannot
know is checked with the view's own features in ``test_learned.py``)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from koth.agents.features import views_are_shared
from koth.agents.learned import ValueReader, has_hidden_information, load_model
from koth.core.chance import sample_outcome
from koth.core.registry import load_game
from tests.agents.test_learned import VARIANTS, _apply, _ids


def _by_views(reader: ValueReader, data: Any) -> np.ndarray[Any, Any]:
    """The oracle: each seat's input written from its own view."""
    x = reader.rows(reader.game.num_players)
    for seat in range(reader.game.num_players):
        reader.write(reader.game.view(data, seat), seat, x[seat])
    return x


@pytest.mark.parametrize("case", VARIANTS, ids=_ids)
def test_every_seats_features_at_once_equal_each_seats_view_hashed(
    case: tuple[str, dict[str, Any]],
) -> None:
    """At every decision, chance node and end of seeded random games (one reader for
    all, so that the remembered parts are met again), in every variant."""
    name, params = case
    game = load_game(name, params)
    reader = ValueReader(game, load_model(game))
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while True:
            assert np.array_equal(reader.state_rows(state.data), _by_views(reader, state.data))
            checked += 1
            if state.is_terminal() or checked > 400 * (seed + 1):
                break
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
                continue
            chosen = {p: rng.choice(list(state.legal_actions(p))) for p in state.acting_players()}
            _apply(state, chosen)
    assert checked > 50


@pytest.mark.parametrize("case", VARIANTS, ids=_ids)
def test_shared_views_are_the_same_for_every_seat(case: tuple[str, dict[str, Any]]) -> None:
    """Where one view stands for every seat's, every seat's view is indeed the same."""
    name, params = case
    game = load_game(name, params)
    if not views_are_shared(game, has_hidden_information(game)):
        return
    rng = random.Random(2)
    state = game.new_initial_state()
    for _ in range(300):
        if state.is_terminal():
            break
        views = [game.view(state.data, seat) for seat in range(game.num_players)]
        assert all(v == views[0] for v in views)
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            continue
        chosen = {p: rng.choice(list(state.legal_actions(p))) for p in state.acting_players()}
        _apply(state, chosen)
