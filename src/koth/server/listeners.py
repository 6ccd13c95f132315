"""WebSocket listeners grouped by audience, shared by live games and live quiz events.

A game groups its listeners by seat (each seat sees its own view), a quiz event by
audience ("judge", "projector", "team:<name>"). Either way one message is built (and
serialised to JSON text) per audience and sent to all of that audience's listeners at
once; a listener that does not take its message within ``SEND_TIMEOUT_S`` is dropped:
it reconnects and gets the full picture again, and it never holds up the others.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

log = logging.getLogger(__name__)

#: a listener that does not take a message within this time is dropped
SEND_TIMEOUT_S = 5.0

K = TypeVar("K", bound=Hashable)


class Sink(Protocol):
    async def send_text(self, data: str) -> None: ...


@dataclass(eq=False)
class Listener(Generic[K]):
    sink: Sink
    key: K
    closed: bool = field(default=False)


class Listeners(Generic[K]):
    """The listeners of one game or event, grouped by audience key."""

    def __init__(self, label: str, send_timeout: float = SEND_TIMEOUT_S) -> None:
        self.label = label  # names the game or event in log lines
        self.send_timeout = send_timeout
        self._groups: dict[K, set[Listener[K]]] = {}

    def add(self, key: K, sink: Sink) -> Listener[K]:
        listener = Listener(sink, key)
        self._groups.setdefault(key, set()).add(listener)
        return listener

    def remove(self, listener: Listener[K]) -> None:
        listener.closed = True
        group = self._groups.get(listener.key)
        if group is not None:
            group.discard(listener)
            if not group:
                del self._groups[listener.key]

    def take(self, key: K) -> list[Listener[K]]:
        """Remove and return the listeners of audience ``key`` (it no longer exists)."""
        group = self._groups.pop(key, set())
        for listener in group:
            listener.closed = True
        return list(group)

    def audiences(self) -> set[K]:
        """The audiences with at least one listener."""
        return set(self._groups)

    def __len__(self) -> int:
        return sum(len(group) for group in self._groups.values())

    def count(self, wanted: Callable[[K], bool]) -> int:
        """How many listeners the audiences that ``wanted`` picks have."""
        return sum(len(group) for key, group in self._groups.items() if wanted(key))

    async def deliver(self, messages: Mapping[K, str]) -> None:
        """Send each audience in ``messages`` its message (JSON text), all listeners
        concurrently."""
        sends = [
            self._send(listener, message)
            for key, message in messages.items()
            for listener in list(self._groups.get(key, ()))
        ]
        await asyncio.gather(*sends)

    async def _send(self, listener: Listener[K], message: str) -> None:
        try:
            await asyncio.wait_for(listener.sink.send_text(message), self.send_timeout)
        except Exception:  # gone or stuck: it reconnects and gets the full picture
            log.debug("dropping a listener of %s", self.label, exc_info=True)
            self.remove(listener)
