"""Live updates: the WebSocket subscribers of each game, each tied to one seat."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

log = logging.getLogger(__name__)

#: a subscriber that does not take a message within this time is dropped
SEND_TIMEOUT_S = 5.0


class Sink(Protocol):
    async def send_json(self, data: Any, mode: str = "text") -> None: ...


@dataclass(eq=False)
class Subscriber:
    sink: Sink
    seat: int | None
    game_id: str
    closed: bool = field(default=False)


class LiveHub:
    """Who listens to which game; ``publish`` sends each listener its own view."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[Subscriber]] = {}

    def subscribe(self, game_id: str, sink: Sink, seat: int | None) -> Subscriber:
        subscriber = Subscriber(sink, seat, game_id)
        self._subscribers.setdefault(game_id, set()).add(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        subscriber.closed = True
        listeners = self._subscribers.get(subscriber.game_id)
        if listeners is not None:
            listeners.discard(subscriber)
            if not listeners:
                del self._subscribers[subscriber.game_id]

    def count(self, game_id: str) -> int:
        return len(self._subscribers.get(game_id, ()))

    async def publish(self, game_id: str, message_for: Callable[[int | None], Any]) -> None:
        """Send every subscriber of ``game_id`` the message built for its seat."""
        listeners = list(self._subscribers.get(game_id, ()))
        if not listeners:
            return
        by_seat: dict[int | None, Any] = {}
        for subscriber in listeners:
            if subscriber.seat not in by_seat:
                by_seat[subscriber.seat] = message_for(subscriber.seat)
        await asyncio.gather(*(self._send(s, by_seat[s.seat]) for s in listeners))

    async def _send(self, subscriber: Subscriber, message: Any) -> None:
        try:
            await asyncio.wait_for(subscriber.sink.send_json(message), SEND_TIMEOUT_S)
        except Exception:  # a gone or stuck client: it reconnects and gets the full view
            log.debug("dropping a subscriber of %s", subscriber.game_id, exc_info=True)
            self.unsubscribe(subscriber)
