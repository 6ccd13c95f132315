"""Who is at a table now: a seat is online while it has a live connection (a table open
on some device) in any of the processes that serve the database.

Each process knows its own connections. When the seats connected to a game here change,
it announces them through the change notices (``"presence <game> <seats> <origin>"``,
the seats as a bit mask); every process keeps the last mask each other process sent and
shows the union. A process repeats its masks every ``heartbeat_s`` (and at once to a
process it hears of for the first time), and forgets a mask not repeated within three
beats: a process that died stops counting soon after.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from typing import Any

from koth.server.games.live import LiveGame
from koth.server.games.schemas import GameSummary, SeatKind
from koth.server.games.service import GameService

#: how often a process repeats the masks of the games connected to it
HEARTBEAT_S = 15.0


def seats_of(mask: int) -> frozenset[int]:
    return frozenset(seat for seat in range(mask.bit_length()) if mask >> seat & 1)


class PresenceService:
    """Presence of the seats of every game, across processes."""

    def __init__(self, games: GameService, heartbeat_s: float = HEARTBEAT_S) -> None:
        self.games = games
        self.heartbeat_s = heartbeat_s
        #: the last mask this process announced, by game
        self._sent: dict[str, int] = {}
        #: by game: each other process's last mask and when it came (monotonic)
        self._remote: dict[str, dict[str, tuple[int, float]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        games.on_listen.append(self.changed)
        games.decorators.append(self._decorate)

    def local_mask(self, game_id: str) -> int:
        mask = 0
        for seat, _lang in self.games.hub.audiences(game_id):
            if seat is not None:
                mask |= 1 << seat
        return mask

    def online(self, game_id: str) -> frozenset[int]:
        """The seats connected to ``game_id`` here or in another process."""
        mask = self.local_mask(game_id)
        fresh = time.monotonic() - 3 * self.heartbeat_s
        for other, seen in self._remote.get(game_id, {}).values():
            if seen >= fresh:
                mask |= other
        return seats_of(mask)

    def mark(self, games: list[GameSummary]) -> list[GameSummary]:
        """The lobby's games with each person's seat marked online or not."""
        return [
            game.model_copy(
                update={
                    "seats": [
                        seat.model_copy(update={"online": seat.seat in online})
                        if seat.kind is SeatKind.HUMAN
                        else seat
                        for seat in game.seats
                    ]
                }
            )
            for game, online in ((g, self.online(g.id)) for g in games)
        ]

    async def _decorate(self, live: LiveGame) -> None:
        live.online = self.online(live.stored.id)

    def changed(self, game_id: str) -> None:
        """A connection to ``game_id`` came or went here."""
        mask = self.local_mask(game_id)
        if mask != self._sent.get(game_id, 0):
            self._sent[game_id] = mask
            self._later(self._announce(game_id, mask))
        if not mask:
            self._sent.pop(game_id, None)
        self._show(game_id)

    async def _announce(self, game_id: str, mask: int) -> None:
        broker = self.games.broker
        if broker is not None:
            await broker.publish(f"presence {game_id} {mask} {self.games.origin}")

    async def on_notice(self, game_id: str, mask: int, origin: str) -> None:
        """Another process's seats connected to ``game_id``."""
        if origin == self.games.origin:
            return
        known = self._remote.setdefault(game_id, {})
        new = origin not in known
        if mask:
            known[origin] = (mask, time.monotonic())
        else:
            known.pop(origin, None)
            if not known:
                del self._remote[game_id]
        local = self.local_mask(game_id)
        if new and local:  # a process that has not heard of our seats yet
            await self._announce(game_id, local)
        self._show(game_id)

    def _show(self, game_id: str) -> None:
        live = self.games.cached(game_id)
        if live is None:
            return
        online = self.online(game_id)
        if online != live.online:
            live.online = online
            self.games.refresh_tables(live, reread=False)

    async def beat(self) -> None:
        """Repeat this process's masks and forget the others' that stopped coming."""
        for game_id, mask in list(self._sent.items()):
            if mask:
                await self._announce(game_id, mask)
        fresh = time.monotonic() - 3 * self.heartbeat_s
        for game_id in list(self._remote):
            known = self._remote[game_id]
            for origin in [o for o, (_, seen) in known.items() if seen < fresh]:
                del known[origin]
            if not known:
                del self._remote[game_id]
            self._show(game_id)

    async def run(self) -> None:
        """Beat until cancelled."""
        while True:
            await asyncio.sleep(self.heartbeat_s)
            await self.beat()

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
