"""Change notices between the processes that serve one database.

After a process commits a change of a game or a quiz event it publishes a short notice
(``"game <id> <version>"``, ``"quiz <id> <seq>"``); every process, itself included,
receives it and catches up if it holds that game or event in memory and has not seen
that version yet: from the database, or, where a game's notice carries the change
itself (a move, a secret choice: ``koth.server.games.notice``) and the process holds
the game just before it, from the notice. The database stays the truth, so a lost notice
costs a delay (the next request, or the periodic check, catches up), never a wrong
state.

Brokers: PostgreSQL's own LISTEN/NOTIFY (no extra service), Redis pub/sub where a site
runs it (``KOTH_BROKER=redis://...``), and, for SQLite's single process, the process
itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import psycopg

log = logging.getLogger(__name__)

#: the PostgreSQL channel and the Redis pub/sub channel
CHANNEL = "koth_changes"

Handler = Callable[[str], Awaitable[None]]

#: every notice of a list in one statement, in the list's order (the order unnest yields)
NOTIFY_ALL = "SELECT pg_notify(%s, notice) FROM unnest(%s::text[]) AS notice"


class Broker(Protocol):
    async def start(self, handler: Handler) -> None:
        """Deliver every notice (this process's own too) to ``handler``."""

    async def publish(self, notice: str) -> None: ...

    async def close(self) -> None: ...


class LocalBroker:
    """One process: a notice goes straight to the handler."""

    def __init__(self) -> None:
        self._handler: Handler | None = None

    async def start(self, handler: Handler) -> None:
        self._handler = handler

    async def publish(self, notice: str) -> None:
        if self._handler is not None:
            await self._handler(notice)

    async def close(self) -> None:
        self._handler = None


class PostgresBroker:
    """LISTEN/NOTIFY on the application's own PostgreSQL, with psycopg's asyncio API."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._listener: asyncio.Task[None] | None = None
        self._publisher: psycopg.AsyncConnection[Any] | None = None
        self._lock = asyncio.Lock()
        #: notices published and not sent yet
        self._waiting: list[str] = []
        #: round trips that sent notices
        self.sends = 0

    async def start(self, handler: Handler) -> None:
        ready = asyncio.get_running_loop().create_future()

        async def listen() -> None:
            while True:
                try:
                    async with await psycopg.AsyncConnection.connect(
                        self.url, autocommit=True
                    ) as connection:
                        await connection.execute(f"LISTEN {CHANNEL}")
                        if not ready.done():
                            ready.set_result(None)
                        async for notify in connection.notifies():
                            await _deliver(handler, notify.payload)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    if not ready.done():
                        ready.set_exception(exc)
                        return
                    log.warning("change notices lost their connection (%s); reconnecting", exc)
                    await asyncio.sleep(1.0)

        self._listener = asyncio.create_task(listen())
        await ready

    async def publish(self, notice: str) -> None:
        """Send ``notice``. Notices published while another send is under way go
        together in the next one, one round trip for all of them, in their order: one
        at a time, a busy process's notices queued faster than they went out."""
        self._waiting.append(notice)
        async with self._lock:
            if not self._waiting:
                return  # sent with the batch of the send before
            batch, self._waiting = self._waiting, []
            for attempt in range(2):
                if self._publisher is None:
                    self._publisher = await psycopg.AsyncConnection.connect(
                        self.url, autocommit=True
                    )
                connection = self._publisher
                try:
                    await connection.execute(NOTIFY_ALL, (CHANNEL, batch))
                    self.sends += 1
                    return
                except psycopg.Error:
                    self._publisher = None
                    if attempt:
                        raise

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        if self._publisher is not None:
            with contextlib.suppress(Exception):
                await self._publisher.close()


class RedisBroker:
    """Redis pub/sub, for sites that run Redis anyway."""

    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        self.client = redis.from_url(url)
        self._listener: asyncio.Task[None] | None = None

    async def start(self, handler: Handler) -> None:
        pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(CHANNEL)

        async def listen() -> None:
            async for message in pubsub.listen():
                data = message.get("data")
                if isinstance(data, bytes):
                    await _deliver(handler, data.decode())

        self._listener = asyncio.create_task(listen())

    async def publish(self, notice: str) -> None:
        await self.client.publish(CHANNEL, notice)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        await self.client.aclose()


async def _deliver(handler: Handler, notice: str) -> None:
    try:
        await handler(notice)
    except Exception:  # one bad notice must not stop the others
        # named by its kind and key only: a game's notice may carry its hidden moves
        log.exception("handling the change notice %r failed", " ".join(notice.split(" ")[:2]))


def make_broker(database_url: str, broker_url: str | None) -> Broker:
    """Redis when ``broker_url`` names it, else the database's own notices on
    PostgreSQL, else (SQLite: one process) the process itself."""
    if broker_url:
        if not broker_url.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError(f"KOTH_BROKER must be a redis:// URL, not {broker_url!r}")
        return RedisBroker(broker_url)
    if database_url.startswith("postgresql"):
        plain = "postgresql://" + database_url.split("://", 1)[1]
        return PostgresBroker(plain)
    return LocalBroker()
