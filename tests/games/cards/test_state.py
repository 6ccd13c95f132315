"""CardsState behaves as an immutable value in both builds: refused assignment, equality
and hashing by value, pickling, the JSON round trip, and the compiled and interpreted
constructors agree."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import FrozenInstanceError

import pytest

from koth.core.chance import random_game
from koth.games.cards import CardsGame
from koth.games.cards.actions import CardsAction
from koth.games.cards.serialize import state_from_json, state_to_json
from koth.games.cards.state import (
    FIELD_NAMES,
    FIGHT_FIELDS,
    CardsState,
    FightLog,
    Phase,
    evolve,
    evolve_compiled,
    new_fight_log,
    new_fight_log_compiled,
    new_state,
    new_state_compiled,
)
from tests.games.native_state import (
    assert_field_is_frozen,
    assert_no_attribute_can_be_added,
    field_lists,
)


def some_states() -> list[CardsState]:
    """The start, a state in the middle of the fights, and a finished game."""
    game = CardsGame()
    return [
        random_game(game, seed, max_moves=moves).data
        for seed, moves in ((1, 0), (2, 80), (3, None))
    ]


@pytest.mark.parametrize("name", ["phase", "hands", "log", "buried"])
def test_a_field_cannot_be_assigned_or_deleted(name: str) -> None:
    assert_field_is_frozen(some_states()[1], name)


def test_no_new_attribute_can_be_added() -> None:
    assert_no_attribute_can_be_added(some_states()[0])


def test_states_are_equal_and_hash_alike_by_value() -> None:
    first, second, last = some_states()
    rebuilt = CardsState(*(getattr(second, name) for name in FIELD_NAMES))
    assert rebuilt == second and rebuilt is not second and hash(rebuilt) == hash(second)
    assert first != second and second != last and second != second.fields()
    assert len({first, second, rebuilt, last}) == 3
    assert last.phase is Phase.OVER


def test_the_defaults_are_those_of_a_game_before_its_deal() -> None:
    state = some_states()[0]
    given = CardsState(*(getattr(state, name) for name in FIELD_NAMES[:7]))
    assert given == state
    assert (given.dealt, given.stack, given.rounds, given.log, given.buried) == (0, -1, (), (), 0)


def test_pickling_copying_and_json_give_equal_states() -> None:
    for state in some_states():
        assert pickle.loads(pickle.dumps(state)) == state
        assert copy.deepcopy(state) == state and copy.copy(state) == state
        assert state_from_json(state_to_json(state)) == state


def test_repr_names_every_field_like_a_dataclass() -> None:
    text = repr(some_states()[0])
    assert text.startswith("CardsState(phase=<Phase.DEAL: 0>, hands=(")
    assert [part.split("=")[0] for part in text[len("CardsState(") :].split(", ") if "=" in part][
        -1
    ] == "buried"
    for name in FIELD_NAMES:
        assert f"{name}=" in text


def test_both_evolve_functions_change_exactly_the_fields_named() -> None:
    rng = random.Random(7)
    states = some_states()
    for state in states:
        for _ in range(20):
            donor = states[rng.randrange(len(states))]
            names = rng.sample(FIELD_NAMES, rng.randint(0, 4))
            changes = {name: getattr(donor, name) for name in names}
            expected = CardsState(
                *(changes.get(name, getattr(state, name)) for name in FIELD_NAMES)
            )
            assert evolve(state, **changes) == expected
            assert evolve_compiled(state, **changes) == expected
        assert evolve(state) == state and evolve(state) is not state


def test_both_new_state_functions_build_the_state_of_their_fields() -> None:
    for state in some_states():
        values = {name: getattr(state, name) for name in FIELD_NAMES}
        for build in (new_state, new_state_compiled):
            assert build(**values) == state
            assert build(*values.values()) == state


def test_evolve_refuses_a_field_the_state_does_not_have() -> None:
    state = some_states()[0]
    with pytest.raises(TypeError):
        evolve(state, colour="red")
    with pytest.raises(TypeError):
        evolve_compiled(state, colour="red")  # type: ignore[call-arg]
    assert evolve(state, phase=Phase.OVER).phase is Phase.OVER and state.phase is Phase.DEAL


@pytest.mark.parametrize("name", FIELD_NAMES)
def test_evolve_changes_each_field_alone(name: str) -> None:
    state, donor, _ = some_states()
    for change in (evolve, evolve_compiled):
        changed = change(state, **{name: getattr(donor, name)})
        for other in FIELD_NAMES:
            source = donor if other == name else state
            assert getattr(changed, other) == getattr(source, other), (change, other)


def test_the_game_answers_hot_calls_with_its_step_object_unless_a_subclass_overrides_them() -> None:
    game = CardsGame()
    for name in ("to_move", "chance_outcomes", "legal_actions", "apply", "apply_joint"):
        assert getattr(game, name) == getattr(game.rules, name)

    class Logged(CardsGame):
        calls = 0

        def legal_actions(self, state: CardsState, player: int) -> list[CardsAction]:
            Logged.calls += 1
            return list(super().legal_actions(state, player))

    logged = Logged()
    assert random_game(logged, 1).returns() == random_game(game, 1).returns()
    assert Logged.calls > 0 and logged.apply == logged.rules.apply


def test_the_game_pickles_and_plays_alike_after() -> None:
    game = CardsGame(dealer=1, jokers=3)
    rebuilt = pickle.loads(pickle.dumps(game))
    assert rebuilt == game and rebuilt.rules is not game.rules
    assert random_game(rebuilt, 4).data == random_game(game, 4).data


def test_every_list_of_the_fields_is_field_names_in_order() -> None:
    """The field list is written in several places for speed (``__init__``, ``fields``,
    ``new_state``, ``evolve``, the class annotations, the JSON): each one is read from
    the source and compared with FIELD_NAMES, so a field added to one and missed in
    another fails here rather than by luck."""
    expected = list(FIELD_NAMES)
    for where, names in field_lists("games/cards/state.py", "CardsState").items():
        assert names == expected, where
    json_keys = set(state_to_json(some_states()[1]))
    assert json_keys == set(expected)


def test_every_action_pickles_to_an_equal_action() -> None:
    from koth.games.cards import actions as act

    for action_id in range(act.NUM_ACTIONS):
        action = act.action_from_id(action_id)
        rebuilt = pickle.loads(pickle.dumps(action))
        assert rebuilt == action and hash(rebuilt) == hash(action) and str(rebuilt) == str(action)


def test_fight_logs_are_immutable_values() -> None:
    log = some_states()[2].log
    assert log and all(isinstance(entry, FightLog) for entry in log)
    entry = log[-1]
    with pytest.raises(FrozenInstanceError, match="winner"):
        entry.winner = 0  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError, match="winner"):
        del entry.winner  # type: ignore[misc]
    with pytest.raises((FrozenInstanceError, AttributeError)):
        entry.colour = "red"  # type: ignore[attr-defined]
    values = {name: getattr(entry, name) for name in FIGHT_FIELDS}
    for build in (FightLog, new_fight_log, new_fight_log_compiled):
        rebuilt = build(**values)
        assert rebuilt == entry and hash(rebuilt) == hash(entry) and rebuilt is not entry
    assert pickle.loads(pickle.dumps(entry)) == entry and copy.deepcopy(entry) == entry
    assert entry != log[0] or len(log) == 1
    assert repr(entry).startswith(f"FightLog(chooser={entry.chooser}, stack={entry.stack}, ")
