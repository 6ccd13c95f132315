"""Games in memory: the cached state of each live game and its WebSocket listeners,
grouped by seat and language."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from koth.core.game import Game
from koth.core.log import LogBook
from koth.core.state import GameState
from koth.server.games.clocks import acting_seats
from koth.server.games.friends_schemas import FriendsInfo
from koth.server.games.notes import Notes
from koth.server.games.rows import StoredGame, StoredSeat
from koth.server.games.schemas import GameStatus, SeatKind
from koth.server.listeners import Listener, Listeners, Sink


@dataclass(eq=False)
class LiveGame:
    """A game's replayed state, cached in memory; the stored moves are the truth."""

    stored: StoredGame
    state: GameState[Any, Any]
    version: int
    #: seats that have a secret submission waiting at the current simultaneous node
    submitted: frozenset[int] = frozenset()
    #: what each of those seats submitted (shown to that seat alone); a seat another
    #: process told of is in ``submitted`` only, until its own message is built here
    pending: dict[int, str] = field(default_factory=dict)
    #: the recent events, collected as moves are applied (a message only reads them)
    notes: Notes = ()
    #: every reader's log, kept as moves are applied (replaced, never changed, once kept)
    book: LogBook | None = None
    #: the seats with a live connection, on any process (kept by the presence service)
    online: frozenset[int] = frozenset()
    #: the rest of the people's facts (ratings, score, rematch); None: to be read again
    friends: FriendsInfo | None = None
    #: seats that took their choice back at the current node: a late notice of another
    #: process saying that one of them chose is not taken in (the database is read)
    withdrawn: frozenset[int] = frozenset()
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def moved(
        self, state: GameState[Any, Any], version: int, notes: Notes, book: LogBook | None
    ) -> None:
        """The game moved on to ``state`` at ``version`` (with its notes and every
        reader's log): nobody has chosen at its node yet."""
        self.state, self.version, self.notes, self.book = state, version, notes, book
        self.submitted, self.pending, self.withdrawn = frozenset(), {}, frozenset()

    def unread_submission(self, seat: int | None) -> bool:
        """``seat`` has chosen, but its choice was not read here (another process told
        only that it chose)."""
        return seat is not None and seat in self.submitted and seat not in self.pending

    @property
    def status(self) -> GameStatus:
        return self.stored.status

    @property
    def game(self) -> Game[Any, Any, Any]:
        return self.state.game

    def seat_kind(self, seat: int) -> SeatKind:
        """Who plays ``seat`` now: a person's seat the computer plays for them (they
        ran out of time, or resigned) is a computer's."""
        return self.seat_info(seat).kind

    def seat_info(self, seat: int) -> StoredSeat:
        """``seat`` as the computer worker plays it (``clocks.acting_seats``)."""
        return acting_seats(self.stored.seats, self.stored.clock)[seat]


#: whom a game's message is built for: the seat it watches from (None: a spectator) and
#: the language its texts are worded in
Audience = tuple[int | None, str]
#: a game's listener
Subscriber = Listener[Audience]

K = TypeVar("K", bound=Hashable)


class LiveHub(Generic[K]):
    """Who listens to which game; ``publish`` sends each listener the message built for
    its audience (its own seat's view, in its language)."""

    def __init__(self) -> None:
        self._games: dict[str, Listeners[K]] = {}
        self._log_sent: dict[str, dict[K, int]] = {}

    def subscribe(self, game_id: str, sink: Sink, audience: K) -> Listener[K]:
        listeners = self._games.get(game_id)
        if listeners is None:
            listeners = self._games[game_id] = Listeners(f"game {game_id}")
        return listeners.add(audience, sink)

    def unsubscribe(self, game_id: str, subscriber: Listener[K]) -> None:
        listeners = self._games.get(game_id)
        if listeners is not None:
            listeners.remove(subscriber)
            if not listeners:
                del self._games[game_id]
                self._log_sent.pop(game_id, None)

    def first_sent(self, game_id: str, audience: K, entries: int) -> None:
        """A listener of ``audience`` was sent its first message, with ``entries`` log
        entries: when it is the audience's only listener and no update was sent to the
        audience yet, the next update starts from there."""
        listeners = self._games.get(game_id)
        if listeners is None or listeners.count(lambda key: key == audience) != 1:
            return
        self._log_sent.setdefault(game_id, {}).setdefault(audience, entries)

    def log_sent(self, game_id: str) -> dict[K, int]:
        """How many log entries each audience of ``game_id`` has been sent (every
        listener of it has had them: its first message, or an update); the publisher
        keeps it up to date."""
        if game_id not in self._games:
            return {}  # nobody listens: nothing is sent, nothing kept
        return self._log_sent.setdefault(game_id, {})

    def audiences(self, game_id: str) -> set[K]:
        """The audiences of ``game_id`` with at least one listener."""
        listeners = self._games.get(game_id)
        return listeners.audiences() if listeners is not None else set()

    def count(self, game_id: str, wanted: Callable[[K], bool] | None = None) -> int:
        """How many listen to ``game_id`` (those of the audiences ``wanted`` picks)."""
        listeners = self._games.get(game_id)
        if listeners is None:
            return 0
        return len(listeners) if wanted is None else listeners.count(wanted)

    async def publish(self, game_id: str, message_for: Callable[[K], str]) -> None:
        """Send every listener of ``game_id`` the message built for its audience."""
        listeners = self._games.get(game_id)
        if listeners is None:
            return
        await listeners.deliver({key: message_for(key) for key in listeners.audiences()})
