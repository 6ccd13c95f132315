"""The turn's lazy action list (``TurnActions``, the compiled build's) against the plain
list of the same turn, on states of every variant reached by seeded random play: the
same actions at every index, the same object at each read, ``holds`` true exactly for
the objects it offers, and ``ids`` the ids of the plain list's actions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from koth.core.offered import ActionList
from koth.core.state import GameState
from koth.games.board import BoardGame, BoardState
from koth.games.board.actions import Ally, Attack, Move, Swap, TurnRing
from koth.games.board.offers import MOVES, SWAPS, TurnActions, popcount
from koth.games.board.state import Phase
from tests.games.board.test_oracle import VARIANTS, decision_states

STATES_PER_VARIANT = 300


def both_lists(game: BoardGame, state: BoardState) -> tuple[TurnActions, list[Any]]:
    player = state.active()
    lazy = game.rules.list_turn_actions(state, player, lazy=True)
    plain = game.rules.list_turn_actions(state, player, lazy=False)
    assert isinstance(lazy, TurnActions) and isinstance(plain, list)
    return lazy, plain


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=[name for name, _ in VARIANTS])
def test_lazy_turn_list_is_the_plain_list(name: str, options: dict[str, Any]) -> None:
    game = BoardGame(**options)
    turns = 0
    for state in decision_states(game, sum(map(ord, name)) + 1, STATES_PER_VARIANT):
        if state.phase is not Phase.TURN:
            continue
        turns += 1
        lazy, plain = both_lists(game, state)
        assert len(lazy) == len(plain)
        assert [lazy[k] for k in range(len(plain))] == plain
        assert lazy.build() == plain and lazy == plain and plain == lazy
        # an item read is the very object the built list holds, and held
        built = lazy.listed()
        assert all(lazy[k] is built[k] for k in range(len(built)))
        assert all(lazy[-k] is built[-k] for k in range(1, len(built) + 1))
        assert all(lazy.holds(action) for action in built)
        # the oracle of ``ids`` (from the masks, without an action object each): the
        # ids Game.action_id gives the plain list's actions, in order, a new list each
        ids = lazy.ids()
        assert ids == [game.action_id(action) for action in plain], repr(state)
        assert lazy.ids() == ids and lazy.ids() is not ids
    assert turns > STATES_PER_VARIANT // 2


def test_turn_ids_of_assaults_and_alliance_offers() -> None:
    """``ids`` numbers the assaults and alliance offers (the middle's actions before the
    turning) too: turns that offer them, met in seeded random three-player games."""
    game = BoardGame(num_players=3)
    assaults = offers = 0
    for state in decision_states(game, 17, 6000):
        if state.phase is not Phase.TURN:
            continue
        lazy, plain = both_lists(game, state)
        if any(isinstance(action, Attack | Ally) for action in plain):
            assert lazy.ids() == [game.action_id(action) for action in plain], repr(state)
            assaults += any(isinstance(action, Attack) for action in plain)
            offers += any(isinstance(action, Ally) for action in plain)
        if assaults >= 20 and offers >= 20:
            return
    pytest.fail(f"only {assaults} turns with assaults and {offers} with offers met")


def test_the_plain_list_tells_no_ids() -> None:
    """Only a list that knows its ids answers ``ids``; an ``ActionList`` that does not
    answers None (the adapters then number its actions themselves)."""

    class Listed(ActionList[int]):
        def __len__(self) -> int:
            return 2

        def item(self, index: int) -> int:
            return index

    assert Listed().ids() is None


def test_holds_only_the_very_objects_offered() -> None:
    """Equal but other objects, and actions of no segment, are not held: GameState then
    compares by value or refuses them."""
    game = BoardGame(num_players=3)
    rng = random.Random(5)
    seen_moves = seen_swaps = 0
    for state in decision_states(game, 11, 400):
        if state.phase is not Phase.TURN:
            continue
        lazy, _ = both_lists(game, state)
        offered = {id(a) for a in lazy.listed()}
        for action in lazy.listed():
            if isinstance(action, Move):
                seen_moves += 1
                copy = Move(action.unit, action.src, action.dst, action.pay)
                assert copy == action and not lazy.holds(copy)
            if isinstance(action, Swap):
                seen_swaps += 1
                assert not lazy.holds(Swap(action.a, action.b))
        for action in rng.sample(MOVES, 50) + list(SWAPS) + [TurnRing(1, True)]:
            assert lazy.holds(action) == (id(action) in offered)
        assert not lazy.holds(Move(0, 0, -1, 0)) and not lazy.holds(Move(0, 0, 99, 0))
        assert not lazy.holds("move runner 1.0>1.1")
    assert seen_moves and seen_swaps


def test_lazy_list_is_a_sequence_of_the_actions() -> None:
    game = BoardGame(num_players=2)
    state = next(s for s in decision_states(game, 3, 200) if s.phase is Phase.TURN and s.round > 2)
    lazy, plain = both_lists(game, state)
    assert isinstance(lazy, ActionList)
    assert list(lazy) == plain and list(reversed(lazy)) == plain[::-1]
    assert lazy[1:4] == plain[1:4] and lazy[::-2] == plain[::-2]
    assert plain[-1] in lazy and "no such action" not in lazy
    assert lazy.index(plain[-1]) == len(plain) - 1 and lazy.count(plain[0]) == 1
    assert lazy != plain[:-1] and lazy != "not a list"
    with pytest.raises(IndexError, match=rf"action index {len(plain)} out of range"):
        lazy[len(plain)]
    with pytest.raises(IndexError):
        lazy[-len(plain) - 1]
    with pytest.raises(TypeError, match="unhashable"):
        hash(lazy)
    assert repr(lazy).startswith("TurnActions([")


def test_gamestate_checks_actions_against_a_lazy_list() -> None:
    """The very object read is accepted without building the list; an equal copy and
    its notation are accepted by value; an action not offered is refused with its rule."""
    game = BoardGame(num_players=2)
    rng = random.Random(2)
    for accepted_as in ("object", "copy", "text"):
        state = GameState(game, game.initial())
        while not (state.to_move().players and state.data.phase is Phase.TURN):
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        legal = game.rules.list_turn_actions(state.data, state.data.active(), lazy=True)
        chosen = next(a for a in legal if isinstance(a, Move | Swap | TurnRing))
        given: Any = {
            "object": chosen,
            "copy": type(chosen)(*chosen.__reduce__()[1]),
            "text": str(chosen),
        }[accepted_as]
        assert state.apply_action(given) == chosen


def test_popcount_counts_bits() -> None:
    for mask in (0, 1, 0b1011, (1 << 48) | 1, (1 << 64) - 1, 0x123456789ABCDEF):
        assert popcount(mask) == bin(mask).count("1")
