"""``HistoryEntry``, one move of a game's history.

A module of its own so that ``koth.core.state`` can be compiled in the compiled build
(docs/performance.md) while the entries stay ordinary frozen dataclasses, built without
their checked ``__init__`` through their slot descriptors.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

from koth.core.players import PlayerId

A = TypeVar("A", bound=Hashable)


@dataclass(frozen=True, slots=True)
class HistoryEntry(Generic[A]):
    """One entry of a game's history: a single action, or the joint action of a
    simultaneous node (several (player, action) pairs, sorted by player)."""

    actions: tuple[tuple[PlayerId, A], ...]
    simultaneous: bool = False


_new_object = object.__new__
_set_move_actions = HistoryEntry.__dict__["actions"].__set__
_set_move_simultaneous = HistoryEntry.__dict__["simultaneous"].__set__


def single_move(player: PlayerId, action: A) -> HistoryEntry[A]:
    """``HistoryEntry(((player, action),))``, built without the frozen dataclass's
    checked ``__init__``."""
    move: HistoryEntry[A] = _new_object(HistoryEntry)
    _set_move_actions(move, ((player, action),))
    _set_move_simultaneous(move, False)
    return move


def joint_move(actions: tuple[tuple[PlayerId, A], ...]) -> HistoryEntry[A]:
    """``HistoryEntry(actions, simultaneous=True)``, built the same way."""
    move: HistoryEntry[A] = _new_object(HistoryEntry)
    _set_move_actions(move, actions)
    _set_move_simultaneous(move, True)
    return move
