"""``ActionList``: legal actions that a game lists lazily, building an item when it is read.

``Game.legal_actions`` returns any sequence of actions. Most games return a list. A game
whose decisions offer many actions of which a random playout reads one may return an
``ActionList`` instead: it knows its length without building its items, builds the item
that is read, and tells ``GameState`` whether an action is one of its very objects
(``holds``) without building the others. Everything else a sequence offers (iteration,
``in``, slices, comparison with a list) goes through the whole list, built once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Generic, TypeVar, cast

from mypy_extensions import mypyc_attr

A = TypeVar("A")


# a game package that is not compiled may subclass it in the compiled build too
@mypyc_attr(allow_interpreted_subclasses=True)
class ActionList(Generic[A]):
    """A sorted list of legal actions whose items are built when read.

    Subclasses give ``__len__``, ``item`` (the action at an index in ``range(len)``),
    ``build`` (every action, in order) and may give a faster ``holds``. Compared with
    ``==``, an ``ActionList`` equals any list or tuple of the same actions.

    It is a ``collections.abc.Sequence`` by registration, not by inheritance: compiled,
    a class that inherits the ABC is an ordinary Python class, whose every call here
    goes through attribute lookups; registered, it is a native class. A game hands one
    out with ``as_sequence``, typed as the ``Sequence`` it is.
    """

    def __init__(self) -> None:
        self._built: list[A] | None = None

    # ----------------------------------------------------------- for subclasses
    def __len__(self) -> int:
        raise NotImplementedError

    def item(self, index: int) -> A:
        """The action at ``index`` (0 <= index < len(self))."""
        raise NotImplementedError

    def build(self) -> list[A]:
        """Every action, in order."""
        return [self.item(k) for k in range(len(self))]

    def holds(self, action: object) -> bool:
        """Whether ``action`` is one of the very objects this list offers (identity,
        not equality: what ``GameState`` checks before it compares by value)."""
        return any(candidate is action for candidate in self.listed())

    def ids(self) -> list[int] | None:
        """The action ids (``Game.action_id``) of every action, in order, when the list
        can tell them without building the actions; None when it cannot (the default).
        The interop adapters hand out whole lists of ids: a subclass that knows them
        (from the masks it keeps) spares them an action object and a lookup each."""
        return None

    # ------------------------------------------------------------- a sequence
    def listed(self) -> list[A]:
        """Every action as a list (built at the first call, then kept)."""
        built = self._built
        if built is None:
            built = self._built = self.build()
        return built

    def __getitem__(self, index: int | slice) -> Any:
        """The action at ``index`` (negative from the end), or a list for a slice."""
        if isinstance(index, slice):
            return self.listed()[index]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(f"action index {index} out of range ({size} legal actions)")
        return self.item(index)

    def __iter__(self) -> Iterator[A]:
        return iter(self.listed())

    def __reversed__(self) -> Iterator[A]:
        return reversed(self.listed())

    def __contains__(self, action: object) -> bool:
        return action in self.listed()

    def index(self, action: Any, start: int = 0, stop: int | None = None) -> int:
        listed = self.listed()
        return listed.index(action, start, len(listed) if stop is None else stop)

    def count(self, action: Any) -> int:
        return self.listed().count(action)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionList):
            return self.listed() == other.listed()
        if isinstance(other, list | tuple):
            return self.listed() == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        raise TypeError(f"unhashable type: '{type(self).__name__}' (compared by its items)")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.listed()!r})"


Sequence.register(ActionList)


def as_sequence(actions: ActionList[A]) -> Sequence[A]:
    """``actions`` typed as the ``Sequence`` it is (registered, which the type checker
    does not follow)."""
    return cast(Sequence[A], actions)
