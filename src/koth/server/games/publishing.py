"""The games held in memory and the news of their changes: a game is loaded by replaying
its stored moves, caught up when another process committed moves after it, and let go of
when nobody used it for a while. Every committed change is told to the other processes
(the broker's change notices), to every listener of the game (each its audience's
message, sent in the background: a slow spectator never delays a player) and to the
hooks of the computer worker and the people's facts. ``GamePublisher`` is the base of
``GameService``: the part that holds and publishes, never the rules of a change.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from datetime import UTC, datetime, timedelta
from typing import Any, ParamSpec, TypeVar

from koth.core.log import LogBook
from koth.core.record import GameRecord, moves_from_record
from koth.server import security
from koth.server.broker import Broker
from koth.server.errors import NotFoundError, StaleVersionError
from koth.server.games.catalog import make_game
from koth.server.games.live import Audience, LiveGame, LiveHub
from koth.server.games.messages import state_message
from koth.server.games.notes import apply_noting
from koth.server.games.notice import (
    Appended,
    Submitted,
    Withdrawn,
    game_notice,
    read_change,
    stored_after,
)
from koth.server.games.store import Repository, recorded_move
from koth.server.memory import LiveCache

log = logging.getLogger(__name__)


T = TypeVar("T")
PS = ParamSpec("PS")


class GamePublisher:
    """The live games of this process, their listeners, and the notices of their
    changes."""

    def __init__(
        self, repository: Repository, *, max_live: int = 2000, idle_seconds: float = 3600.0
    ) -> None:
        self.repository = repository
        self.hub: LiveHub[Audience] = LiveHub()
        self._live: LiveCache[LiveGame] = LiveCache(max_live, idle_seconds, self._busy)
        #: loads under way: concurrent requests for one game share one replay, and the
        #: entry goes when the load ends (an unknown id leaves nothing behind)
        self._loading: dict[str, asyncio.Future[LiveGame]] = {}
        #: called with a game id when it leaves memory (the computer worker listens)
        self.on_forget: list[Callable[[str], None]] = []
        #: where committed changes are announced to every process (None: this one only)
        self.broker: Broker | None = None
        #: names this process in its notices, so it skips its own
        self.origin = secrets.token_hex(6)
        self._background: set[asyncio.Task[None]] = set()
        #: called with a game id after every change (the computer worker listens)
        self.on_change: list[Callable[[str], None]] = []
        #: fill a game's people's facts (``LiveGame.friends``) before a message is built
        self.decorators: list[Callable[[LiveGame], Awaitable[None]]] = []

    async def _db(self, fn: Callable[PS, T], *args: PS.args, **kwargs: PS.kwargs) -> T:
        return await asyncio.to_thread(fn, *args, **kwargs)

    # ---------------------------------------------------------------- memory
    async def live(self, game_id: str) -> LiveGame:
        """The cached game, replayed from its stored moves on first use."""
        cached = self._live.get(game_id)
        if cached is not None:
            return cached
        if not security.could_be_id(game_id):
            raise NotFoundError(f"no game {game_id!r}")
        loading = self._loading.get(game_id)
        if loading is not None:
            return await asyncio.shield(loading)
        future: asyncio.Future[LiveGame] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            loaded = await self._load(game_id)
            self._keep(game_id, loaded)
            future.set_result(loaded)
            self._changed(game_id)  # it may owe computer moves that nobody is making
            return loaded
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # marked as seen: no one else may be waiting for it
            raise
        except BaseException:
            future.cancel()
            raise
        finally:
            del self._loading[game_id]

    def _keep(self, game_id: str, live: LiveGame) -> None:
        for gone, _ in self._live.put(game_id, live):
            self._forgotten(gone)

    def _busy(self, game_id: str, live: LiveGame) -> bool:
        return self.hub.count(game_id) > 0 or live.lock.locked()

    async def _load(self, game_id: str) -> LiveGame:
        changes = await self._db(self.repository.changes, game_id, 0)
        if changes is None:
            raise NotFoundError(f"no game {game_id!r}")
        stored, moves = changes.game, changes.moves
        game = make_game(stored.game_name, stored.params)
        record = GameRecord(
            game=game.name,
            params=game.params.to_json(),
            moves=[recorded_move(m) for m in moves],
        )
        state = game.new_initial_state()
        book = LogBook(state)
        # one replay rebuilds the state, its recent events (the notes of its moves) and
        # every reader's log
        notes = await asyncio.to_thread(
            apply_noting, state, moves_from_record(game, record), (), book
        )
        pending: dict[int, str] = {}
        if state.is_simultaneous_node():
            pending = dict(changes.pending)
        return LiveGame(stored, state, len(moves), frozenset(pending), pending, notes, book=book)

    async def reload(
        self,
        game_id: str,
        version: int | None = None,
        change: Appended | Submitted | Withdrawn | None = None,
    ) -> LiveGame:
        """Catch ``game_id`` up with the database (a process never trusts its cache over
        what another process committed): the moves after the cached version are applied
        to it; if anything does not fit, the game is replayed from the start. With the
        ``change`` another process's notice carried (the game at ``version`` after it),
        the change is taken in without a read where the cached game is where it began."""
        live = self._live.get(game_id)
        if live is None:
            return await self.live(game_id)
        async with live.lock:  # a write of this process finishes first
            try:
                if change is None or version is None:
                    await self._catch_up(live)
                else:
                    await self._take(live, version, change)
                return live
            except Exception:
                log.warning("catching up game %s failed; replaying it", game_id, exc_info=True)
                self._live.pop(game_id)
        return await self.live(game_id)

    async def _catch_up(self, live: LiveGame) -> None:
        game_id = live.stored.id
        changes = await self._db(self.repository.changes, game_id, live.version)
        if changes is None:
            raise NotFoundError(f"no game {game_id!r}")
        stored = changes.game
        if changes.moves:
            self._replay(live, changes.moves, stored.version)
        elif stored.version > live.version:
            raise StaleVersionError(f"game {game_id} has a gap in its stored moves")
        live.pending = dict(changes.pending) if live.state.is_simultaneous_node() else {}
        live.submitted = frozenset(live.pending)
        live.stored = stored

    def _replay(self, live: LiveGame, moves: list[dict[str, Any]], version: int) -> None:
        """Apply the stored ``moves`` that bring ``live`` to ``version`` (on a copy, taken
        in once every move applied)."""
        game = live.game
        record = GameRecord(
            game=game.name,
            params=game.params.to_json(),
            moves=[recorded_move(m) for m in moves],
        )
        after = live.state.clone()
        book = live.book.copy() if live.book is not None else None
        notes = apply_noting(after, moves_from_record(game, record), live.notes, book)
        if after.num_moves != version:
            raise StaleVersionError(f"game {live.stored.id} has a gap in its stored moves")
        live.moved(after, version, notes, book)

    async def _take(
        self, live: LiveGame, version: int, change: Appended | Submitted | Withdrawn
    ) -> None:
        """Take in ``change``, which brought the game to ``version`` in another process;
        read the database instead where the cached game is not where the change began
        (behind it, or a notice came out of order). A change older than the cached game
        is in it already."""
        if live.version > version:
            return
        if isinstance(change, Appended):
            if live.version == version:
                return
            if live.version == change.before:
                self._replay(live, change.moves, version)
                live.stored = stored_after(live.stored, version, change)
                return
        elif live.version == version and live.state.is_simultaneous_node():
            if isinstance(change, Withdrawn):
                live.withdrawn |= {change.seat}
                live.submitted -= {change.seat}
                live.pending.pop(change.seat, None)
                return
            if change.seat not in live.withdrawn:
                live.submitted |= {change.seat}
                return
        await self._catch_up(live)
        if isinstance(change, Withdrawn) and live.version == version:
            live.withdrawn |= {change.seat}

    async def readable(self, live: LiveGame, seat: int | None) -> LiveGame:
        """``live`` with ``seat``'s own waiting choice in it (its message shows it): read
        when another process told only that the seat chose."""
        if live.unread_submission(seat):
            return await self.reload(live.stored.id)
        return live

    def cached(self, game_id: str) -> LiveGame | None:
        """The game if it is held in memory now (this look does not count as a use)."""
        return self._live.peek(game_id)

    def forget(self, game_id: str) -> None:
        """Drop the cached state (after a stale write: another writer moved on)."""
        self._live.pop(game_id)

    def held_game_ids(self) -> list[str]:
        """The games held in memory now."""
        return [live.stored.id for live in self._live.values()]

    def in_memory(self) -> int:
        return len(self._live)

    def sweep(self) -> int:
        """Let go of the games nobody used for a while; returns how many went."""
        gone = self._live.sweep()
        for game_id, _ in gone:
            self._forgotten(game_id)
        return len(gone)

    async def expire_abandoned(self, days: float) -> int:
        """Delete the unfinished games nobody moved in for ``days``; returns how many."""
        before = datetime.now(UTC) - timedelta(days=days)
        gone = 0
        while True:
            ids = await self._db(self.repository.expire_abandoned, before)
            for game_id in ids:
                if self._live.pop(game_id) is not None:
                    self._forgotten(game_id)
            gone += len(ids)
            if not ids:
                return gone

    def _forgotten(self, game_id: str) -> None:
        for listener in self.on_forget:
            listener(game_id)

    # ------------------------------------------------------------------ news
    def published(self, live: LiveGame) -> None:
        """``live`` changed without a move (a resignation, a clock): tell every process,
        every listener and the computer worker."""
        self._announce(live.stored.id, live.version)
        self._fan_out(live)
        self._changed(live.stored.id)

    def refresh_tables(
        self, live: LiveGame, *, reread: bool = True, announce: bool = False
    ) -> None:
        """The game's people's facts changed: send every listener the new picture
        (``reread``: read them again first; ``announce``: in every process too)."""
        if reread:
            live.friends = None
        if announce:
            self._announce(live.stored.id, live.version)
        self._fan_out(live)

    async def decorate(self, live: LiveGame) -> None:
        """Fill the people's facts of ``live`` where they are to be read again."""
        for decorator in self.decorators:
            await decorator(live)

    async def on_notice(
        self, game_id: str, version: int, origin: str, carried: str | None = None
    ) -> None:
        """Another process changed ``game_id`` (to ``version``; ``carried``: the change,
        as the notice has it): catch up if it is held here, or if someone here listens
        to it (a game dropped from memory after a stale write still has its tables
        connected: they must hear of the change). The listeners are sent the new state
        in the background: the broker hands over notices one at a time, and one game's
        slow spectators must not hold up the next notice (waiting for every send, the
        spectators of a process that did not make the moves fell seconds behind)."""
        if origin == self.origin:
            return
        if game_id not in self._live and self.hub.count(game_id) == 0:
            return
        change = read_change(game_id, carried)
        live = await self.reload(game_id, version, change)
        if change is None:
            # a rematch or a rating may have changed without a move (a move's own change
            # of them, at the game's end, the decorators see for themselves)
            live.friends = None
        self._fan_out(live)
        self._changed(game_id)

    async def _publish(self, live: LiveGame) -> None:
        """Send every listener its audience's message, with only the log entries that
        audience was not sent before (each connection's first message had the whole log;
        a client that finds a gap asks for the whole picture)."""
        if any(live.unread_submission(seat) for seat, _ in self.hub.audiences(live.stored.id)):
            live = await self.reload(live.stored.id)  # a seat listening here sees its choice
        await self.decorate(live)
        sent = self.hub.log_sent(live.stored.id)

        def message_for(audience: Audience) -> str:
            message = state_message(live, *audience, log_from=sent.get(audience, 0))
            sent[audience] = message.log_from + len(message.log)
            return message.model_dump_json()

        await self.hub.publish(live.stored.id, message_for)

    def _fan_out(self, live: LiveGame) -> None:
        """Send the listeners the new state after the request is answered: a slow or
        dead spectator never delays a player."""
        self._in_background(self._publish(live))

    def _announce(
        self,
        game_id: str,
        version: int,
        change: Appended | Submitted | Withdrawn | None = None,
    ) -> None:
        """Tell every process that ``game_id`` changed (once it is committed), with the
        ``change`` where it is a move or a secret choice."""
        if self.broker is not None:
            notice = game_notice(game_id, version, self.origin, change)
            self._in_background(self.broker.publish(notice))

    async def settled(self) -> None:
        """Wait until the background work under way (sends to listeners, notices to
        the other processes, and what that work starts) is done."""
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _changed(self, game_id: str) -> None:
        for listener in self.on_change:
            listener(game_id)
