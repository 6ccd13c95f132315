"""Games in memory: the cached state of each live game and its WebSocket listeners,
grouped by seat."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from koth.core.game import Game
from koth.core.state import GameState
from koth.server.games.schemas import GameStatus, SeatKind
from koth.server.games.store import StoredGame
from koth.server.listeners import Listener, Listeners, Sink


@dataclass(eq=False)
class LiveGame:
    """A game's replayed state, cached in memory; the stored moves are the truth."""

    stored: StoredGame
    state: GameState[Any, Any]
    version: int
    #: seats that have a secret submission waiting at the current simultaneous node
    submitted: frozenset[int] = frozenset()
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def status(self) -> GameStatus:
        return self.stored.status

    @property
    def game(self) -> Game[Any, Any, Any]:
        return self.state.game

    def seat_kind(self, seat: int) -> SeatKind:
        return self.stored.seats[seat].kind


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

    async def publish(self, game_id: str, message_for: Callable[[int | None], str]) -> None:
        """Send every listener of ``game_id`` the message built for its seat."""
        listeners = self._games.get(game_id)
        if listeners is None:
            return
        await listeners.deliver({seat: message_for(seat) for seat in listeners.audiences()})
