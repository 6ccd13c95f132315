"""A game's seats and the persons at them: who a seat token is, taking, claiming and
naming a seat, tying it to a person's device ("My games"), listening to a table (each
seat and the spectators with caps of their own), and a seat's person resigning or being
back (the clocks' part of it is ``timekeeping``'s). ``Seating`` is the part of
``GameService`` these make up; it stands on ``GamePublisher``, which tells every process
and listener of each change.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from koth.core.errors import GameOverError
from koth.i18n import DEFAULT
from koth.server import security
from koth.server.errors import (
    ForbiddenError,
    InvalidRequestError,
    SeatTakenError,
    TooManyConnectionsError,
)
from koth.server.games import timekeeping
from koth.server.games.live import Audience, LiveGame, Subscriber
from koth.server.games.messages import join_url, state_message, summary
from koth.server.games.publishing import GamePublisher
from koth.server.games.schemas import (
    PLAYER_KEY_PATTERN,
    GameStatus,
    MyGame,
    SeatKind,
    SeatLink,
    StateMessage,
)
from koth.server.games.store import Repository
from koth.server.listeners import Sink
from koth.server.names import player_name

#: live connections one seat may hold at once (its tabs and devices)
SOCKETS_PER_SEAT = 16


def _spectating(audience: Audience) -> bool:
    return audience[0] is None


def _seat_is(seat: int) -> Callable[[Audience], bool]:
    return lambda audience: audience[0] == seat


class Seating(GamePublisher):
    """Seats, their tokens and persons, and the tables listened to."""

    def __init__(
        self,
        repository: Repository,
        *,
        max_listeners: int = 200,
        max_live: int = 2000,
        idle_seconds: float = 3600.0,
    ) -> None:
        super().__init__(repository, max_live=max_live, idle_seconds=idle_seconds)
        self.max_listeners = max_listeners
        #: called with a game id when a live connection to it comes or goes (presence)
        self.on_listen: list[Callable[[str], None]] = []

    # ----------------------------------------------------------------- seats
    def seat_of(self, live: LiveGame, token: str | None) -> int | None:
        """The seat whose token this is; None (a spectator) without a token.

        Every seat's hash is compared in constant time, so timing tells nothing about
        which seat or how much of a token matched.
        """
        if token is None:
            return None
        digest = security.hash_token(token)
        found: int | None = None
        for seat in live.stored.seats:
            if security.hash_matches(digest, seat.token_hash):
                found = seat.seat
        if found is None:
            raise ForbiddenError("this seat token is not valid for this game")
        return found

    async def claim(self, live: LiveGame, seat: int | None) -> None:
        """Note that a person holds ``seat`` now (the game leaves 'open' when all do)."""
        if seat is None or live.stored.seats[seat].claimed:
            return
        status = await self._db(self.repository.claim_seat, live.stored.id, seat)
        seats = tuple(replace(s, claimed=True) if s.seat == seat else s for s in live.stored.seats)
        if live.stored.status is not GameStatus.FINISHED:
            live.stored = replace(live.stored, seats=seats, status=status)
        else:
            live.stored = replace(live.stored, seats=seats)
        await timekeeping.start(self, live)
        self._announce(live.stored.id, live.version)
        self._fan_out(live)

    async def take_seat(
        self,
        game_id: str,
        seat: int,
        base_url: str,
        name: str | None = None,
        person: str | None = None,
    ) -> SeatLink:
        """Hand the open human ``seat`` to whoever asks first: a new secret token (the
        creator's link of that seat stops working), given out once; ``name``: shown for
        the seat; ``person``: the player key hash a seat kept for a person needs."""
        shown = player_name(name) if name is not None else None
        live = await self.live(game_id)
        seats = live.stored.seats
        if not 0 <= seat < len(seats):
            raise InvalidRequestError(
                f"seat {seat}: game {game_id} has seats 0 to {len(seats) - 1}"
            )
        if live.state.is_terminal():
            raise GameOverError(f"game {game_id} is over: its seats cannot be taken")
        if seats[seat].kind is not SeatKind.HUMAN or seats[seat].claimed:
            raise SeatTakenError(f"seat {seat} of game {game_id} is not open")
        token = security.new_token()
        status = await self._db(
            self.repository.take_seat, game_id, seat, security.hash_token(token), shown, person
        )
        if status is None:
            raise SeatTakenError(
                f"seat {seat} of game {game_id} was taken just now, or is kept for its person"
            )
        await self.seats_changed(live)
        return SeatLink(
            seat=seat,
            kind=SeatKind.HUMAN,
            claimed=True,
            name=shown,
            token=token,
            join_url=join_url(base_url, game_id, seat, token),
        )

    async def name_seat(
        self, game_id: str, token: str | None, name: str, lang: str = DEFAULT
    ) -> StateMessage:
        """Show ``name`` for the token's seat from now on; every listener is told."""
        shown = player_name(name)
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ForbiddenError("naming a seat needs that seat's token")
        await self._db(self.repository.name_seat, game_id, seat, shown)
        await self.seats_changed(live)
        return state_message(await self.readable(live, seat), seat, lang)

    async def tie_player(self, game_id: str, token: str | None, key: str) -> None:
        """The token's seat is played from the device of player ``key`` ("My games")."""
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ForbiddenError("tying a seat to a player needs that seat's token")
        await self._db(self.repository.tie_player, game_id, seat, security.hash_token(key))
        live.friends = None  # its person's rating shows from now on
        self._fan_out(live)

    async def my_games(self, key: str | None, base_url: str) -> list[MyGame]:
        """The games of the device of player ``key``: running first, those where it is
        to act before the others, then the newest."""
        if key is None or not re.fullmatch(PLAYER_KEY_PATTERN, key):
            raise ForbiddenError("'My games' needs this device's player key")
        tied = await self._db(self.repository.player_seats, security.hash_token(key))
        games = []
        for stored, seat in tied:
            to_move: list[int] = []
            if stored.status is not GameStatus.FINISHED:
                live = await self.live(stored.id)
                stored = live.stored
                if not live.state.is_terminal():
                    to_move = [p for p in live.state.to_move().players if p >= 0]
                    to_move = [p for p in to_move if p not in live.submitted]
            entry = summary(stored, base_url)
            games.append(
                MyGame(**entry.model_dump(), seat=seat, to_move=to_move, my_turn=seat in to_move)
            )
        order = {GameStatus.RUNNING: 0, GameStatus.OPEN: 1, GameStatus.FINISHED: 2}
        games.sort(key=lambda g: (order[g.status], not g.my_turn))
        return games

    async def seats_changed(self, live: LiveGame) -> None:
        """The stored seats changed: take them in, and tell every process and listener."""
        async with live.lock:
            stored = await self._db(self.repository.get_game, live.stored.id)
            if stored is not None:
                live.stored = replace(live.stored, seats=stored.seats, status=stored.status)
            live.friends = None
        await timekeeping.start(self, live)
        self._announce(live.stored.id, live.version)
        self._fan_out(live)

    async def message(self, game_id: str, token: str | None, lang: str = DEFAULT) -> StateMessage:
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        await self.claim(live, seat)
        live = await self.readable(live, seat)
        await self.decorate(live)
        return state_message(live, seat, lang)

    # ------------------------------------------------------------- listening
    async def subscribe(
        self, game_id: str, sink: Sink, token: str | None, lang: str = DEFAULT
    ) -> tuple[Subscriber, StateMessage]:
        """Listen to ``game_id`` as the seat of ``token``, reading ``lang``; returns the
        listener and the first message (built as it subscribes, so no update falls in
        between)."""
        while True:
            live = await self.live(game_id)
            seat = self.seat_of(live, token)
            # spectators and each seat have caps of their own: no crowd of spectators can
            # keep a player from their own table
            if seat is None and self.hub.count(game_id, _spectating) >= self.max_listeners:
                raise TooManyConnectionsError(
                    f"this game already has {self.max_listeners} spectators connected"
                )
            if seat is not None and self.hub.count(game_id, _seat_is(seat)) >= SOCKETS_PER_SEAT:
                raise TooManyConnectionsError(
                    f"seat {seat} already has {SOCKETS_PER_SEAT} live connections"
                )
            await self.claim(live, seat)
            live = await self.readable(live, seat)
            await self.decorate(live)
            if self._live.get(game_id) is live:
                break  # not replaced while the facts were read
        # subscribed, first message built and its log counted with no pause in between:
        # every later update reaches this listener and starts where its first message ended
        subscriber = self.hub.subscribe(game_id, sink, (seat, lang))
        first = state_message(live, seat, lang)
        self.hub.first_sent(game_id, (seat, lang), len(first.log))
        self._listened(game_id)
        return subscriber, first

    def unsubscribe(self, game_id: str, subscriber: Subscriber) -> None:
        self.hub.unsubscribe(game_id, subscriber)
        self._listened(game_id)

    def _listened(self, game_id: str) -> None:
        for listener in self.on_listen:
            listener(game_id)

    # --------------------------------------------------------------- persons
    async def resign(self, game_id: str, token: str | None, lang: str = DEFAULT) -> StateMessage:
        """The token's seat resigns (``koth.server.games.clocks`` says what that means);
        returns the new message for the seat."""
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ForbiddenError("spectators cannot resign: a seat token is required")
        live = await timekeeping.resign(self, game_id, seat)
        return state_message(await self.readable(live, seat), seat, lang)

    async def back(self, game_id: str, token: str | None, lang: str = DEFAULT) -> StateMessage:
        """The token's person is back: the computer stops playing for the seat."""
        live = await self.live(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ForbiddenError("only a seat's person can be back: a seat token is required")
        if live.status is GameStatus.FINISHED:
            raise GameOverError(f"game {game_id} is over")
        await timekeeping.come_back(self, live, seat)
        return state_message(await self.readable(await self.live(game_id), seat), seat, lang)
