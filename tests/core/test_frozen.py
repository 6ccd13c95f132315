"""FrozenFields: the games' immutable states behave like frozen dataclasses."""

from __future__ import annotations

import copy
import inspect
import pickle
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

from koth.core.frozen import FrozenFields, refuse_deletion, set_field_once
from koth.games.board.state import BoardState
from koth.games.cards.state import CardsState, FightLog

STATE_CLASSES = (BoardState, CardsState, FightLog)
SOURCES = Path(__file__).resolve().parents[2] / "src"


class Pair(FrozenFields):
    __slots__ = ("left", "right")
    FIELD_NAMES = ("left", "right")

    def __init__(self, left: int, right: tuple[int, ...]) -> None:
        self.left = left
        self.right = right

    def __setattr__(self, name: str, value: object) -> None:
        set_field_once(self, name, value)

    def __delattr__(self, name: str) -> None:
        refuse_deletion(self, name)

    def fields(self) -> tuple[object, ...]:
        return (self.left, self.right)


class OtherPair(Pair):
    __slots__ = ()


def test_equal_and_hashed_by_value_and_only_to_its_own_type() -> None:
    pair = Pair(1, (2, 3))
    assert pair == Pair(1, (2, 3)) and hash(pair) == hash(Pair(1, (2, 3)))
    assert pair != Pair(1, (2,)) and pair != (1, (2, 3))
    assert pair != OtherPair(1, (2, 3))  # a frozen dataclass compares its own class only
    assert len({pair, Pair(1, (2, 3)), Pair(0, ())}) == 2


def test_a_field_is_set_once_and_never_deleted_and_nothing_else_is_added() -> None:
    pair = Pair(1, (2,))
    with pytest.raises(FrozenInstanceError, match="'left' of a Pair"):
        pair.left = 5
    with pytest.raises(FrozenInstanceError, match="delete field 'right' of a Pair"):
        del pair.right
    with pytest.raises(FrozenInstanceError, match="'extra' of a Pair"):
        pair.extra = 1  # type: ignore[attr-defined]
    assert pair.fields() == (1, (2,))


def test_pickling_and_copying_rebuild_through_init() -> None:
    pair = Pair(4, (5, 6))
    for copied in (pickle.loads(pickle.dumps(pair)), copy.copy(pair), copy.deepcopy(pair)):
        assert copied == pair and type(copied) is Pair


def test_the_base_has_no_setattr_that_would_slow_every_compiled_store() -> None:
    """mypyc compiles each store into a class whose __setattr__ it knows, its own or a
    base's, as a call of that method: the base must have none, and each state class
    writes its own after __init__."""
    assert "__setattr__" not in vars(FrozenFields)
    assert "__delattr__" not in vars(FrozenFields)
    for cls in STATE_CLASSES:
        assert issubclass(cls, FrozenFields)
        module = inspect.getmodule(cls)
        assert module is not None
        # the checkout's source, also when the compiled module was imported
        source_path = SOURCES.joinpath(*module.__name__.split(".")).with_suffix(".py")
        source = source_path.read_text(encoding="utf-8")
        body = source[source.index(f"class {cls.__name__}(FrozenFields):") :]
        assert body.index("def __init__") < body.index("def __setattr__"), cls.__name__
