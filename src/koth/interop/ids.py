"""Action values to integer ids and back, memoised for the adapters' hot paths.

Every step through an adapter converts a whole legal-action list to ids (OpenSpiel's
``legal_actions``, PettingZoo's action mask) and one chosen id back to its action. A
list that knows its ids (an ``ActionList`` whose ``ids`` answers: the compiled board's
turns, the compiled card deal's outcomes) hands them out without an action object each.
Otherwise ids are stable and actions immutable, so each conversion is computed once per
game; the koth engines also reuse their action values, so most conversions are one
int-keyed lookup by identity, or, for action classes that hash in C (the compiled card
game's), one lookup by value, which costs less than taking ``id()`` first.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from types import FunctionType
from typing import Any

from koth.core.game import Game
from koth.core.offered import ActionList

#: action values a memo keeps alive for its identity table (a few MB at most)
KEPT_LIMIT = 50_000
_FIRST = itemgetter(0)


class ActionIds:
    """The action <-> id conversions of one game, memoised."""

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game
        self._ids: dict[Any, int] = {}
        #: id -> action value, for the ids converted so far (read it, never write)
        self.actions: dict[int, Any] = {}
        #: id(action) -> action id, for the action values kept alive in ``_kept`` (the
        #: engines reuse their action values, so most conversions are one int-keyed
        #: lookup; several equal values of one action may each have an entry)
        self._ids_by_identity: dict[int, int] = {}
        self._kept: list[Any] = []
        # the lookups of every conversion, bound once
        self._by_value = self._ids.__getitem__
        self._by_identity = self._ids_by_identity.__getitem__
        #: whether every action class seen so far hashes in C (a compiled class): then
        #: a lookup by value costs less than ``id()`` and a lookup by identity
        self._by_value_first = True

    def ids_of(self, actions: Sequence[Any]) -> list[int]:
        """The ids of ``actions``, in their order (a new list)."""
        if isinstance(actions, ActionList):
            known = actions.ids()
            if known is not None:
                return known
        if self._by_value_first:
            try:
                return list(map(self._by_value, actions))
            except KeyError:
                return [self._id_of(action) for action in actions]
        # Only a value kept alive in _kept enters the identity memo, so no other object
        # can have its id() while the entry exists: a hit is that very value.
        try:
            return list(map(self._by_identity, map(id, actions)))
        except KeyError:
            pass
        try:  # values built anew (the board's assaults): equal ones were seen before
            return list(map(self._by_value, actions))
        except KeyError:
            return [self._id_of(action) for action in actions]

    def outcome_ids(self, outcomes: Sequence[tuple[Any, float]]) -> list[int]:
        """The ids of the actions of ``outcomes``, (action, probability) pairs (a new
        list)."""
        if isinstance(outcomes, ActionList):
            known = outcomes.ids()
            if known is not None:
                return known
            outcomes = outcomes.listed()
        if self._by_value_first:
            try:
                return list(map(self._by_value, map(_FIRST, outcomes)))
            except KeyError:
                pass
        return self.ids_of(list(map(_FIRST, outcomes)))

    def _id_of(self, action: Any) -> int:
        action_id = self._ids_by_identity.get(id(action))
        if action_id is not None:
            return action_id
        action_id = self._ids.get(action)
        if action_id is None:
            action_id = self._ids[action] = self.game.action_id(action)
            self.actions[action_id] = action
            if isinstance(type(action).__hash__, FunctionType):  # hashed in Python
                self._by_value_first = False
        if len(self._kept) < KEPT_LIMIT:
            # an engine that builds its action values afresh at every call would fill
            # this up: past the limit, such values take the hashing path above
            self._kept.append(action)
            self._ids_by_identity[id(action)] = action_id
        return action_id

    def action_of(self, action_id: int) -> Any:
        """The action value of ``action_id`` (the game's ``action_from_id``, memoised)."""
        action = self.actions.get(action_id)
        if action is None:
            action = self.actions[action_id] = self.game.action_from_id(action_id)
        return action
