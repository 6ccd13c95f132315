"""BoardState behaves as an immutable value in both builds: refused assignment, equality
and hashing by value, pickling, and the two ``evolve`` functions agree."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import FrozenInstanceError

import pytest

from koth.core.chance import random_game
from koth.games.board import BoardGame
from koth.games.board.actions import Action
from koth.games.board.state import (
    FIELD_NAMES,
    BoardState,
    Phase,
    evolve,
    evolve_compiled,
    occupancy_masks,
)
from tests.games.board.helpers import loc, make_state, play


def some_states() -> list[BoardState]:
    game = BoardGame()
    return [random_game(game, seed, max_moves=moves).data for seed, moves in ((1, 0), (2, 300))]


@pytest.mark.parametrize("name", ["phase", "units", "winners"])
def test_a_field_cannot_be_assigned_or_deleted(name: str) -> None:
    state = some_states()[1]
    before = getattr(state, name)
    with pytest.raises(FrozenInstanceError, match=name):
        setattr(state, name, before)
    with pytest.raises(FrozenInstanceError, match=name):
        delattr(state, name)
    assert getattr(state, name) == before


def test_no_new_attribute_can_be_added() -> None:
    with pytest.raises((FrozenInstanceError, AttributeError)):
        some_states()[0].colour = "red"


def test_states_are_equal_and_hash_alike_by_value() -> None:
    first, second = some_states()
    rebuilt = BoardState(*(getattr(second, name) for name in FIELD_NAMES))
    assert rebuilt == second and rebuilt is not second and hash(rebuilt) == hash(second)
    assert first != second and second != second.fields()
    assert len({first, second, rebuilt}) == 2


def test_pickling_and_copying_give_equal_states() -> None:
    for state in some_states():
        assert pickle.loads(pickle.dumps(state)) == state
        assert copy.deepcopy(state) == state and copy.copy(state) == state


def test_repr_names_every_field() -> None:
    text = repr(some_states()[0])
    assert text.startswith("BoardState(phase=")
    assert all(f"{name}=" in text for name in FIELD_NAMES)


def test_both_evolve_functions_change_exactly_the_fields_named() -> None:
    rng = random.Random(7)
    for state in some_states():
        for _ in range(20):
            donor = some_states()[rng.randrange(2)]
            names = rng.sample(FIELD_NAMES, rng.randint(0, 4))
            changes = {name: getattr(donor, name) for name in names}
            expected = BoardState(
                *(changes.get(name, getattr(state, name)) for name in FIELD_NAMES)
            )
            assert evolve(state, **changes) == expected
            assert evolve_compiled(state, **changes) == expected
        assert evolve(state) == state and evolve(state) is not state
        assert evolve(state, offer=None).offer is None


def test_evolve_refuses_a_field_the_state_does_not_have() -> None:
    state = some_states()[0]
    with pytest.raises(TypeError):
        evolve(state, colour="red")
    with pytest.raises(TypeError):
        evolve_compiled(state, colour="red")  # type: ignore[call-arg]
    assert evolve(state, phase=Phase.OVER).phase is Phase.OVER and state.phase is Phase.TERRAIN


def test_occupancy_masks_are_derived_from_the_unit_counts() -> None:
    game = BoardGame(num_players=2)
    state = make_state(game, units={(0, "2.1"): "R1F2", (0, "A1"): "B1", (1, "C"): "R1"})
    assert state.occupied == occupancy_masks(state.units)
    assert state.occupied == (1 << loc("2.1"), 1 << loc("2.1"), 1 << loc("A1"), 1 << loc("C"), 0, 0)
    given = BoardState(*(getattr(state, name) for name in FIELD_NAMES[:-1]))
    assert given.occupied == state.occupied  # computed when a state is built without them


@pytest.mark.parametrize(
    ("turn", "before", "after"), [("right", "3.6", "3.0"), ("left", "3.0", "3.6")]
)
def test_occupancy_masks_wrap_around_when_a_ring_turns(turn: str, before: str, after: str) -> None:
    game = BoardGame(num_players=2)
    state = make_state(game, units={(0, before): "R1", (1, "3.3"): "R1"}, dice={0: (5,)})
    turned = play(game, state, f"turn ring3 {turn}")
    assert turned.occupied[0] == 1 << loc(after)
    assert turned.occupied[3] == 1 << loc("3.4" if turn == "right" else "3.2")


def test_the_game_answers_hot_calls_with_its_rules_unless_a_subclass_overrides_them() -> None:
    game = BoardGame()
    assert game.legal_actions == game.rules.legal_actions
    assert game.apply == game.rules.apply

    class Logged(BoardGame):
        calls = 0

        def legal_actions(self, state: BoardState, player: int) -> list[Action]:
            Logged.calls += 1
            return list(super().legal_actions(state, player))

    logged = Logged()
    random_game(logged, 1, max_moves=200)
    assert Logged.calls > 0 and logged.apply == logged.rules.apply


def test_the_game_pickles_in_both_builds() -> None:
    """The compiled build's rules object cannot be pickled field by field; the game is
    rebuilt from its parameters instead (``Game.__reduce__``)."""
    game = BoardGame(num_players=3, countdown=True)
    rebuilt = pickle.loads(pickle.dumps(game))
    assert rebuilt == game and rebuilt.rules is not game.rules
    assert random_game(rebuilt, 4, max_moves=300) == random_game(game, 4, max_moves=300)
