"""fast_constructors builds instances equal to the dataclass's own."""

from __future__ import annotations

import dataclasses

import pytest

from koth.core.fastdata import fast_constructors


@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()


new_point, evolve_point = fast_constructors(Point)


def test_new_equals_the_constructor_and_stays_frozen() -> None:
    made = new_point(1, 2, ("a",))
    assert made == Point(1, 2, ("a",)) and type(made) is Point
    assert hash(made) == hash(Point(1, 2, ("a",)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.x = 5  # type: ignore[misc]


def test_evolve_equals_replace_and_leaves_the_original() -> None:
    original = Point(1, 2, ("a",))
    assert evolve_point(original, y=7) == dataclasses.replace(original, y=7)
    assert evolve_point(original) == original and original.y == 2
    with pytest.raises(TypeError):
        evolve_point(original, z=1)
