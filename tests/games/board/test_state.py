"""BoardState behaves as an immutable value in both builds: refused assignment, equality
and hashing by value, pickling, and the two ``evolve`` functions agree."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from koth.core.chance import random_game
from koth.core.errors import IllegalActionError
from koth.core.state import GameState
from koth.games.board import BoardGame
from koth.games.board.actions import Action
from koth.games.board.serialize import state_to_json
from koth.games.board.state import (
    FIELD_NAMES,
    BoardState,
    Phase,
    evolve,
    evolve_compiled,
    occupancy_masks,
    position_text,
)
from tests.games.board.helpers import loc, make_state, play
from tests.games.native_state import (
    assert_field_is_frozen,
    assert_no_attribute_can_be_added,
    field_lists,
)


def some_states() -> list[BoardState]:
    game = BoardGame()
    return [random_game(game, seed, max_moves=moves).data for seed, moves in ((1, 0), (2, 300))]


@pytest.mark.parametrize("name", ["phase", "units", "winners"])
def test_a_field_cannot_be_assigned_or_deleted(name: str) -> None:
    assert_field_is_frozen(some_states()[1], name)


def test_no_new_attribute_can_be_added() -> None:
    assert_no_attribute_can_be_added(some_states()[0])


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


def test_repr_is_the_position_text() -> None:
    game = BoardGame(num_players=2)
    state = make_state(
        game, units={(0, "2.1"): "R1F2", (0, "A1"): "B1", (1, "C"): "R1"}, dice={0: (3, 5, 6)}
    )
    assert repr(state) == (
        "BoardState('TURN round 4 turn 0 slots 0 | LLLNNDD/LLLNNDD/LLLNNDD/LLLNNDD | "
        "P0 A1@1.0 2.1:R1F2 A1:B1 hand R1F3B1 dice 356 points 0 | "
        "P1 A2@1.2 C:R1 hand R1F5B2 dice - points 0 | countdown 50')"
    )


def test_b16_2_an_illegal_action_names_the_position_but_no_excluded_type() -> None:
    game = BoardGame(num_players=2, one_excluded=True)
    state = make_state(game, units={(0, "2.1"): "F1"}, dice={0: (3,)}, excluded=(2, 0))
    assert "excluded B" in position_text(state) and "excluded" not in position_text(state, False)
    with pytest.raises(IllegalActionError) as refused:
        GameState(game, state).apply_action("move fighter 2.1>2.3")
    message = str(refused.value)
    assert "position TURN round 4 turn 0" in message and "P0 A1@1.0 2.1:F1" in message
    assert "excluded" not in message


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


@pytest.mark.parametrize("num_players", [2, 4])
def test_every_action_pickles_and_copies_in_both_builds(num_players: int) -> None:
    """A compiled frozen dataclass refuses pickle's slot-by-slot restore: each action
    class rebuilds itself from its fields (``__reduce__``), for worker processes."""
    game = BoardGame(num_players=num_players)
    for action_id in range(game.num_distinct_actions()):
        action = game.action_from_id(action_id)
        for copied in (pickle.loads(pickle.dumps(action)), copy.deepcopy(action)):
            assert copied == action and type(copied) is type(action)


def test_every_list_of_the_fields_is_field_names_in_order() -> None:
    """The field list is written in several places for speed (``__init__``, ``fields``,
    ``evolve``, the class annotations, the JSON): each one is read from the source and
    compared with FIELD_NAMES, so a field added to one and missed in another fails
    here rather than by luck."""
    expected = list(FIELD_NAMES)
    for where, names in field_lists("games/board/state.py", "BoardState").items():
        assert names == expected, where
    json_keys = list(state_to_json(some_states()[1]))
    assert json_keys == [name for name in expected if name != "occupied"]  # derived


@pytest.mark.parametrize("name", FIELD_NAMES)
def test_evolve_changes_each_field_alone(name: str) -> None:
    state, donor = some_states()
    for change in (evolve, evolve_compiled):
        changed = change(state, **{name: getattr(donor, name)})
        for other in FIELD_NAMES:
            source = donor if other == name else state
            assert getattr(changed, other) == getattr(source, other), (change, other)
