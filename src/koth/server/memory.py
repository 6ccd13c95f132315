"""What a process keeps in memory of games and quiz events: a bounded cache.

The database is the truth; a live game or event in memory is a cache of its replay.
Entries leave when the cache is over its capacity (the least recently used first) or
when nobody used them for ``idle_seconds``, but never while they are busy (someone
listens, a write is under way): the next request reloads them from the database.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

V = TypeVar("V")


class LiveCache(Generic[V]):
    def __init__(
        self,
        capacity: int,
        idle_seconds: float,
        busy: Callable[[str, V], bool],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.capacity = capacity
        self.idle_seconds = idle_seconds
        self.busy = busy
        self.clock = clock
        self._entries: OrderedDict[str, tuple[V, float]] = OrderedDict()

    def get(self, key: str) -> V | None:
        """The entry (and it counts as used now), or None."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._entries[key] = (entry[0], self.clock())
        self._entries.move_to_end(key)
        return entry[0]

    def peek(self, key: str) -> V | None:
        """The entry without counting it as used (a look by the server itself, such as
        the takeover watch, must not keep an idle game in memory), or None."""
        entry = self._entries.get(key)
        return None if entry is None else entry[0]

    def put(self, key: str, value: V) -> list[tuple[str, V]]:
        """Keep ``value``; returns the entries that left to make room."""
        self._entries[key] = (value, self.clock())
        self._entries.move_to_end(key)
        over = len(self._entries) - self.capacity
        return self._evict(lambda _used: True, over) if over > 0 else []

    def pop(self, key: str) -> V | None:
        entry = self._entries.pop(key, None)
        return None if entry is None else entry[0]

    def sweep(self) -> list[tuple[str, V]]:
        """Let go of every entry idle for ``idle_seconds``; returns them."""
        cutoff = self.clock() - self.idle_seconds
        return self._evict(lambda used: used <= cutoff, len(self._entries))

    def _evict(self, stale: Callable[[float], bool], most: int) -> list[tuple[str, V]]:
        gone: list[tuple[str, V]] = []
        for key, (value, used) in list(self._entries.items()):  # oldest first
            if len(gone) >= most:
                break
            if stale(used) and not self.busy(key, value):
                del self._entries[key]
                gone.append((key, value))
        return gone

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def values(self) -> Iterator[V]:
        return (value for value, _used in self._entries.values())
