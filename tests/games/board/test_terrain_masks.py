"""B14: after a terrain swap the rules derive the new layout's terrain masks from the
old layout's (at the next listing: a rule's apply writes no cache); they must be the
masks a fresh computation gives."""

from __future__ import annotations

import random

import pytest

from koth.core.chance import sample_outcome
from koth.core.players import NodeKind
from koth.games.board import BoardGame
from koth.games.board.actions import Swap
from koth.games.board.legal import swapped_tiles
from koth.games.board.rules import Rules


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_b14_masks_remembered_after_a_swap_are_the_computed_ones(num_players: int) -> None:
    game = BoardGame(num_players=num_players)
    fresh = Rules(game.params)
    rng = random.Random(num_players)
    swaps = 0
    for _ in range(6):
        state = game.initial()
        while game.outcome(state) is None:
            to_move = game.to_move(state)
            if to_move.kind is NodeKind.CHANCE:
                state = game.apply(state, -1, sample_outcome(game.chance_outcomes(state), rng))
                continue
            if to_move.kind is NodeKind.SIMULTANEOUS:
                joint = {p: rng.choice(game.legal_actions(state, p)) for p in to_move.players}
                state = game.apply_joint(state, joint)
                continue
            player = to_move.players[0]
            legal = game.legal_actions(state, player)
            swap_offers = [a for a in legal if isinstance(a, Swap)]
            # swaps more often than uniform play would pick them
            action = rng.choice(swap_offers if swap_offers and rng.random() < 0.5 else legal)
            state = game.apply(state, player, action)
            if isinstance(action, Swap) and game.outcome(state) is None:
                swaps += 1
                before = game.rules._last_terrain[0]
                assert before is not None and swapped_tiles(before, state.terrain) >= 0
                remembered = game.rules.terrain_masks(state.terrain)  # derived from before
                assert remembered == fresh.terrain_masks(tuple(state.terrain)), action
    assert swaps > 100
