"""The base of the rules' immutable state classes (``BoardState``, ``CardsState``,
``FightLog``).

They are plain classes rather than frozen dataclasses because the compiled build makes
them native classes (docs/performance.md): a native ``__init__`` stores each field
straight into the instance, where a compiled frozen dataclass's goes through
``object.__setattr__`` field by field. This base gives them a frozen dataclass's
behaviour from one ``fields()`` method: equality and hashing by value, and pickling
through ``__init__``; with ``set_field_once`` and ``refuse_deletion``, no field assigned
twice or deleted and no other attribute added.
Compiled with them, so that the native state classes may inherit from it.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import ClassVar, NoReturn

from mypy_extensions import mypyc_attr


# a game written in Python alone may build its state on it too
@mypyc_attr(allow_interpreted_subclasses=True)
class FrozenFields:
    """Immutable fields, compared and hashed by value like a frozen dataclass.

    A subclass declares ``__slots__`` and ``FIELD_NAMES`` (its fields in the order its
    ``__init__`` takes them), sets each field once in ``__init__`` and returns them all,
    in that order, from ``fields()``. It refuses later assignments with its own
    ``__setattr__`` and ``__delattr__``, written after ``__init__`` and calling
    ``set_field_once`` and ``refuse_deletion``: mypyc compiles every store into a class
    whose ``__setattr__`` it knows, its own or a base's, as a call of that method (some
    3 us per state built instead of 50 ns), and it knows a class's own only from where
    the method is written on. So this base has none.
    """

    __slots__ = ()

    FIELD_NAMES: ClassVar[tuple[str, ...]] = ()

    def fields(self) -> tuple[object, ...]:
        """Every field's value, in declaration order."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, FrozenFields):
            return NotImplemented
        return self is other or self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __reduce__(self) -> tuple[type[FrozenFields], tuple[object, ...]]:
        # pickling (worker processes, Ray) and copying rebuild through __init__
        return (type(self), self.fields())


def set_field_once(state: FrozenFields, name: str, value: object) -> None:
    """A ``FrozenFields``' ``__setattr__``: interpreted, ``__init__``'s stores come here
    too, and each field may be set once."""
    if hasattr(state, name) or name not in type(state).FIELD_NAMES:
        raise FrozenInstanceError(f"cannot assign to field {name!r} of a {type(state).__name__}")
    object.__setattr__(state, name, value)


def refuse_deletion(state: FrozenFields, name: str) -> NoReturn:
    """A ``FrozenFields``' ``__delattr__``."""
    raise FrozenInstanceError(f"cannot delete field {name!r} of a {type(state).__name__}")
