"""Live updates of games: each game's WebSocket listeners, grouped by seat."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from koth.server.listeners import Listener, Listeners, Sink

#: a game's listener: its key is the seat it watches from (None: a spectator)
Subscriber = Listener[int | None]


class LiveHub:
    """Who listens to which game; ``publish`` sends each listener its own seat's view."""

    def __init__(self) -> None:
        self._games: dict[str, Listeners[int | None]] = {}

    def subscribe(self, game_id: str, sink: Sink, seat: int | None) -> Subscriber:
        listeners = self._games.get(game_id)
        if listeners is None:
            listeners = self._games[game_id] = Listeners(f"game {game_id}")
        return listeners.add(seat, sink)

    def unsubscribe(self, game_id: str, subscriber: Subscriber) -> None:
        listeners = self._games.get(game_id)
        if listeners is not None:
            listeners.remove(subscriber)
            if not listeners:
                del self._games[game_id]

    def count(self, game_id: str) -> int:
        listeners = self._games.get(game_id)
        return 0 if listeners is None else len(listeners)

    async def publish(self, game_id: str, message_for: Callable[[int | None], Any]) -> None:
        """Send every listener of ``game_id`` the message built for its seat."""
        listeners = self._games.get(game_id)
        if listeners is None:
            return
        await listeners.deliver({seat: message_for(seat) for seat in listeners.audiences()})
