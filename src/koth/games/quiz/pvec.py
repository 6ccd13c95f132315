"""A small persistent vector (a 32-way trie with path copying).

It holds the per-team inputs of the open question so that every event can return a
new immutable state in O(log32 n) instead of copying a per-team table (O(n)).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")

_BITS = 5
_WIDTH = 1 << _BITS
_MASK = _WIDTH - 1


@dataclass(frozen=True, slots=True)
class PVec(Generic[T]):
    """A fixed-size immutable vector; ``set`` returns a new vector sharing structure."""

    size: int
    shift: int
    root: tuple[Any, ...]

    @staticmethod
    def filled(size: int, value: T) -> PVec[T]:
        node: tuple[Any, ...] = (value,) * _WIDTH
        shift = 0
        capacity = _WIDTH
        while capacity < size:
            node = (node,) * _WIDTH
            shift += _BITS
            capacity <<= _BITS
        return PVec(size, shift, node)

    def get(self, index: int) -> T:
        if not 0 <= index < self.size:
            raise IndexError(index)
        node = self.root
        shift = self.shift
        while shift > 0:
            node = node[(index >> shift) & _MASK]
            shift -= _BITS
        value: T = node[index & _MASK]
        return value

    def set(self, index: int, value: T) -> PVec[T]:
        if not 0 <= index < self.size:
            raise IndexError(index)
        return PVec(self.size, self.shift, _set(self.root, self.shift, index, value))

    def to_list(self) -> list[T]:
        out: list[Any] = list(self.root)
        shift = self.shift
        while shift > 0:
            out = [item for node in out for item in node]
            shift -= _BITS
        return out[: self.size]


def _set(node: tuple[Any, ...], shift: int, index: int, value: object) -> tuple[Any, ...]:
    slot = (index >> shift) & _MASK
    items = list(node)
    items[slot] = value if shift == 0 else _set(node[slot], shift - _BITS, index, value)
    return tuple(items)
