"""Fixed-size numeric encodings of a player's view, for OpenSpiel tensors and RL.

OpenSpiel observation tensors and PettingZoo observations must have one fixed shape,
while ``Game.view`` returns free-form JSON. The generic encoder here hashes every leaf
of the view (its path and value) into a fixed number of buckets, so it works for any
koth game without knowing its rules; a game can register a hand-made encoder instead
(`koth.interop.spec.InteropSpec.encoder`). The learned agent
(`koth.agents.learned`) reads its features through the same encoders.

Only ``view`` is encoded, never the state itself: an encoding can leak nothing that the
view does not show.
"""

from __future__ import annotations

import zlib
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from koth.core.errors import InvalidParamsError

FloatArray = npt.NDArray[np.float32]

#: texts a hashed encoder remembers the bucket of (a few MB at most)
BUCKET_MEMO_LIMIT = 100_000


class ViewEncoder(Protocol):
    """Writes a view into a flat float32 vector of a fixed size."""

    @property
    def size(self) -> int:
        """Length of the vector."""
        ...

    def encode(self, view: dict[str, Any], out: FloatArray) -> None:
        """Overwrite ``out`` (length ``size``) with the encoding of ``view``."""
        ...


def _leaves(value: Any, path: str) -> list[tuple[str, Any]]:
    """Every scalar of a JSON value with its path, e.g. ``("cards/1", 3)``."""
    found: list[tuple[str, Any]] = []
    _collect(value, path, found)
    return found


def _collect(value: Any, path: str, found: list[tuple[str, Any]]) -> None:
    # one call a node, no generators: a chain of nested generators passes every leaf
    # up through each level
    if isinstance(value, dict):
        for key in sorted(value):
            _collect(value[key], f"{path}/{key}", found)
    elif isinstance(value, list | tuple):
        # the length is a feature of its own: "3 cards" is information even when the
        # cards themselves are hidden (None)
        found.append((f"{path}#len", len(value)))
        for index, item in enumerate(value):
            _collect(item, f"{path}/{index}", found)
    else:
        found.append((path, value))


def _bucket(text: str, size: int) -> int:
    # crc32, not hash(): Python salts str hashes per process, and an encoding must be
    # the same in every process (seed tests, saved datasets)
    return zlib.crc32(text.encode("utf-8")) % size


class HashedViewEncoder:
    """The generic encoding: feature hashing of the view's leaves.

    A number at path ``p`` adds its value (squashed by ``numeric_scale``) to bucket
    ``h(p)`` and a 1 to bucket ``h(p + "#set")``; any other leaf (text, bool, None)
    adds 1 to bucket ``h(p + "=" + value)``. Equal views give equal vectors; different
    views can collide in a bucket (rarely, with enough buckets), which costs a
    learner some precision but never leaks anything.
    """

    def __init__(self, size: int = 512, numeric_scale: float = 1.0) -> None:
        if size < 8:
            raise InvalidParamsError(f"a hashed encoding needs at least 8 buckets, not {size}")
        self._size = size
        self._scale = numeric_scale
        #: text -> bucket, for the texts seen so far (a view's paths recur in every
        #: view of its game; the memo stops growing at BUCKET_MEMO_LIMIT texts)
        self._buckets: dict[str, int] = {}

    @property
    def size(self) -> int:
        return self._size

    @property
    def numeric_scale(self) -> float:
        return self._scale

    def encode(self, view: dict[str, Any], out: FloatArray) -> None:
        sums = [0.0] * self._size  # summed in a list: numpy's item access costs more
        scale = self._scale
        bucket = self.bucket
        for path, value in _leaves(view, ""):
            if isinstance(value, int | float) and not isinstance(value, bool):
                sums[bucket(path)] += float(value) * scale
                sums[bucket(path + "#set")] += 1.0
            else:
                sums[bucket(f"{path}={value}")] += 1.0
        out[:] = sums

    def bucket(self, text: str) -> int:
        """The bucket of a leaf's text (its path, or path ``=`` value)."""
        found = self._buckets.get(text)
        if found is None:
            found = _bucket(text, self._size)
            if len(self._buckets) < BUCKET_MEMO_LIMIT:
                self._buckets[text] = found
        return found

    def __repr__(self) -> str:
        return f"HashedViewEncoder(size={self._size})"


def encode_view(encoder: ViewEncoder, view: dict[str, Any]) -> FloatArray:
    """A new vector holding ``view`` encoded by ``encoder``."""
    out = np.zeros(encoder.size, dtype=np.float32)
    encoder.encode(view, out)
    return out
