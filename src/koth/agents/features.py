"""Every seat's network features of one state at once, for the learned search's leaves.

The learned agent's features are ``HashedViewEncoder`` over ``view(state, seat)``
(``koth.agents.learned.features``). A search leaf needs them for every seat, and
building and hashing a view for each seat was most of a leaf's cost. Here:

- the cards read the same leaves straight from the state, the public ones once for both
  seats and each seat's own ones apart: the same numbers as the view's encoding
  (``tests/agents/test_learned_features.py`` compares them on every decision and chance
  node of games in every variant), with the buckets of recurring parts (a pyramid
  stack, a finished fight) remembered;
- a game whose players lack no information and whose view does not name its viewer
  (the standard board) builds and hashes one view for all seats;
- any other game: one view per seat, as before.

Only what a seat's view shows is read: the cards' reader mirrors the view (the other
player's cards are counted, never listed), and the conformance test of
``tests/agents/test_learned.py`` redraws hidden information and checks every seat's
features through this path as well.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import numpy as np
import numpy.typing as npt

from koth.core.encoding import HashedViewEncoder
from koth.core.game import Game

FloatArray = npt.NDArray[np.float32]

#: every seat's encoded view of a state into the rows of ``out`` (``[:, :encoder.size]``)
SeatEncoder = Callable[[Game[Any, Any, Any], Any, FloatArray], None]

#: remembered contributions of recurring parts (a few MB at most)
MEMO_LIMIT = 50_000


class Leaves:
    """Sums of one encoding, leaf by leaf as ``HashedViewEncoder.encode`` adds them:
    a number at ``path`` adds itself to bucket ``path`` and 1 to ``path#set``; any
    other leaf adds 1 to bucket ``path=value``."""

    __slots__ = ("bucket", "sums")

    def __init__(self, encoder: HashedViewEncoder) -> None:
        self.bucket = encoder.bucket
        self.sums = [0.0] * encoder.size

    def num(self, path: str, value: int) -> None:
        sums, bucket = self.sums, self.bucket
        sums[bucket(path)] += value
        sums[bucket(path + "#set")] += 1.0

    def text(self, path: str, value: object) -> None:
        self.sums[self.bucket(f"{path}={value}")] += 1.0

    def texts(self, path: str, values: list[str]) -> None:
        """A list of texts: its length, then each item at its index."""
        self.num(path + "#len", len(values))
        sums, bucket = self.sums, self.bucket
        for index, value in enumerate(values):
            sums[bucket(f"{path}/{index}={value}")] += 1.0

    def add(self, contributions: list[tuple[int, float]]) -> None:
        sums = self.sums
        for index, value in contributions:
            sums[index] += value


class Recorder(Leaves):
    """``Leaves`` that keeps its additions as (bucket, value) pairs, to be remembered
    and added again where the same part recurs."""

    __slots__ = ("pairs",)

    def __init__(self, encoder: HashedViewEncoder) -> None:
        super().__init__(encoder)
        self.pairs: list[tuple[int, float]] = []

    def num(self, path: str, value: int) -> None:
        self.pairs.append((self.bucket(path), float(value)))
        self.pairs.append((self.bucket(path + "#set"), 1.0))

    def text(self, path: str, value: object) -> None:
        self.pairs.append((self.bucket(f"{path}={value}"), 1.0))

    def texts(self, path: str, values: list[str]) -> None:
        self.num(path + "#len", len(values))
        for index, value in enumerate(values):
            self.pairs.append((self.bucket(f"{path}/{index}={value}"), 1.0))

    def add(self, contributions: list[tuple[int, float]]) -> None:
        self.pairs += contributions


class Memo:
    """Contributions by key, forgotten all at once past ``MEMO_LIMIT`` keys."""

    def __init__(self, encoder: HashedViewEncoder) -> None:
        self.encoder = encoder
        self.found: dict[Hashable, list[tuple[int, float]]] = {}

    def get(self, key: Hashable, build: Callable[..., None], *args: Any) -> list[tuple[int, float]]:
        """The contributions of ``key``: ``build(recorder, *args)`` the first time."""
        pairs = self.found.get(key)
        if pairs is None:
            recorder = Recorder(self.encoder)
            build(recorder, *args)
            pairs = recorder.pairs
            if len(self.found) >= MEMO_LIMIT:
                self.found.clear()
            self.found[key] = pairs
        return pairs


def view_seat_encoder(encoder: HashedViewEncoder) -> SeatEncoder:
    """One view per seat, hashed (any game)."""

    def encode(game: Game[Any, Any, Any], data: Any, out: FloatArray) -> None:
        size = encoder.size
        for seat in range(game.num_players):
            encoder.encode(dict(game.view(data, seat)), out[seat, :size])

    return encode


def shared_view_seat_encoder(encoder: HashedViewEncoder) -> SeatEncoder:
    """One view hashed for every seat: for a game whose views are the same for every
    seat (nothing hidden, no viewer named)."""

    def encode(game: Game[Any, Any, Any], data: Any, out: FloatArray) -> None:
        size = encoder.size
        encoder.encode(dict(game.view(data, 0)), out[0, :size])
        out[1:, :size] = out[0, :size]

    return encode


def views_are_shared(game: Game[Any, Any, Any], hidden: bool) -> bool:
    """Whether every seat's view of a state is the same: the board's names no viewer,
    and only its variant with a hidden excluded area shows seats different things."""
    return game.name == "board" and not hidden
