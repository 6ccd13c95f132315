"""A hint is the agent's move from the seat's information only, with the search's
estimate as its reason."""

from __future__ import annotations

import random

from koth.analysis.hint import Suggestion, suggest
from koth.core.state import GameState
from tests.analysis.test_engine import _attack_states, cards_blunder

SPEC = "ismcts:iters=150"


def test_a_hint_depends_on_the_seats_view_only_and_is_legal() -> None:
    record, _ = cards_blunder()
    state = _attack_states(record)[0]
    game = state.game
    # the opponent's cards and the face-down pyramid redrawn: the same view for seat 0
    other = GameState(game, game.resample_hidden(state.data, 0, random.Random(3)))
    assert game.view(other.data, 0) == game.view(state.data, 0)
    found = suggest(state, 0, SPEC, 7)
    assert suggest(other, 0, SPEC, 7) == found
    assert found.action in {game.action_to_str(a) for a in state.legal_actions(0)}
    assert found.win_chance is not None and 0 <= found.win_chance <= 1
    assert found.visits >= 10 and found.iterations == 150
    if found.runner_up is not None:
        assert found.runner_up.action != found.action and found.runner_up.visits >= 10


def test_an_agent_that_does_not_search_gives_its_move_without_a_reason() -> None:
    record, _ = cards_blunder()
    state = _attack_states(record)[0]
    found = suggest(state, 0, "heuristic", 1)
    assert found == Suggestion(found.action) and found.win_chance is None
