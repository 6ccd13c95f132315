"""What ties people's games together: the rematch and its running score, ratings and
recovery codes. ``FriendsService`` fills each table's people's facts
(``LiveGame.friends``) before a message is built, and changes the ratings of a rated
game once it is over (once, whichever process sees it first: the store's
compare-and-set decides).
"""

from __future__ import annotations

import asyncio
import functools
import re
import secrets
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import ParamSpec, TypeVar

from koth.i18n import N_
from koth.server import security
from koth.server.errors import ForbiddenError, NotFinishedError
from koth.server.games import ratings
from koth.server.games.friends_schemas import (
    RECOVERY_ALPHABET,
    ChainScore,
    FriendsInfo,
    MyRatingsResponse,
    RatingChange,
    RatingEntry,
    RecoveredResponse,
    RecoveryCodeResponse,
    RematchInfo,
    RematchResponse,
)
from koth.server.games.friends_store import ChainGame, FriendsRepository, Rating
from koth.server.games.live import LiveGame
from koth.server.games.messages import join_url
from koth.server.games.schemas import PLAYER_KEY_PATTERN, GameSummary, SeatKind, SeatLink
from koth.server.games.service import GameService, SeatRequest

T = TypeVar("T")
PS = ParamSpec("PS")

#: how long a recovery code works (once)
RECOVERY_MINUTES = 30


@dataclass(frozen=True, slots=True)
class _Facts:
    chain: list[ChainGame]
    rematch: str | None
    ratings: list[Rating | None]


def chain_score(chain: list[ChainGame]) -> ChainScore | None:
    """The score of a rematch chain (newest first), by seat of its newest game: the
    person at seat ``s`` of the game ``d`` rematches after the first sat at
    ``(s - d) mod n`` there (seats rotate by one each time). A win is 1 point, shared
    wins and draws are split."""
    if not chain:
        return None
    n = chain[0].seats
    depth = len(chain) - 1
    points = [0.0] * n  # by seat of the first game
    games = draws = 0
    for index, game in enumerate(chain):
        if game.status != "finished" or game.outcome is None or game.seats != n:
            continue
        games += 1
        d = depth - index
        winners = [int(w) for w in game.outcome.get("winners", [])]
        if not winners:
            draws += 1
        share = winners or list(range(n))
        for seat in share:
            points[(seat - d) % n] += 1.0 / len(share)
    if not games:
        return None
    return ChainScore(games=games, points=[points[(s - depth) % n] for s in range(n)], draws=draws)


def normalise_code(code: str) -> str:
    return code.replace("-", "").upper()


class FriendsService:
    """Rematches, the running score, ratings and recovery codes."""

    def __init__(self, games: GameService, repository: FriendsRepository) -> None:
        self.games = games
        self.repository = repository
        #: the games whose rating was seen done here (no second look)
        self._rated: weakref.WeakSet[LiveGame] = weakref.WeakSet()
        #: whether each game was over when its facts were read (its end changes them)
        self._read_finished: weakref.WeakKeyDictionary[LiveGame, bool] = weakref.WeakKeyDictionary()
        games.decorators.append(self._decorate)

    async def _db(self, fn: Callable[PS, T], *args: PS.args, **kwargs: PS.kwargs) -> T:
        return await asyncio.to_thread(fn, *args, **kwargs)

    # ------------------------------------------------------------ the table
    async def _decorate(self, live: LiveGame) -> None:
        finished = live.state.is_terminal()
        if finished and live.stored.rated and live not in self._rated:
            self._rated.add(live)
            winners = list(live.stored.outcome["winners"]) if live.stored.outcome else []
            applied = await self._db(
                self.repository.apply_rating,
                live.stored.id,
                live.game.name,
                functools.partial(ratings.rate, winners=winners),
                ratings.shown,
            )
            if applied is not None:
                live.friends = None
        if live.friends is not None and self._read_finished.get(live, False) == finished:
            return
        facts = await self._db(self._facts, live.stored.id, live.game.name, finished)
        rematch = await self._rematch_info(live, facts.rematch) if facts.rematch else None
        live.friends = FriendsInfo(
            rated=live.stored.rated,
            ratings=[None if r is None else round(ratings.shown(r)) for r in facts.ratings],
            score=chain_score(facts.chain),
            rematch=rematch,
        )
        self._read_finished[live] = finished

    def _facts(self, game_id: str, kind: str, finished: bool) -> _Facts:
        hashes = self.repository.player_hashes(game_id)
        return _Facts(
            chain=self.repository.chain(game_id),
            rematch=self.repository.rematch_of(game_id) if finished else None,
            ratings=self.repository.ratings(hashes, kind),
        )

    async def _rematch_info(self, live: LiveGame, rematch_id: str) -> RematchInfo:
        stored = (await self.games.live(rematch_id)).stored
        n = len(live.stored.seats)
        waiting: list[int] = []
        taken: list[int] = []
        for seat in range(n):
            new = stored.seats[(seat + 1) % n]
            if new.kind is SeatKind.HUMAN:
                (taken if new.claimed else waiting).append(seat)
        return RematchInfo(game_id=rematch_id, offered_by=taken[0] if taken else 0, waiting=waiting)

    async def with_ratings(self, games: list[GameSummary]) -> list[GameSummary]:
        """The lobby's games with each person's rating in that kind of game."""
        found = await self._db(self.repository.seat_ratings, [g.id for g in games])
        if not found:
            return games
        return [
            game.model_copy(
                update={
                    "seats": [
                        seat.model_copy(
                            update={"rating": _shown(found.get((game.id, seat.seat, game.game)))}
                        )
                        for seat in game.seats
                    ]
                }
            )
            for game in games
        ]

    # --------------------------------------------------------------- rematch
    async def rematch(self, game_id: str, token: str | None, base: str) -> RematchResponse:
        """Offer the rematch of the finished ``game_id`` (same options and persons, each
        one seat on), or take one's seat in the rematch offered: the seat of the token,
        moved on by one, with its secret link (given once)."""
        live = await self.games.live(game_id)
        seat = self.games.seat_of(live, token)
        if seat is None:
            raise ForbiddenError(N_("a rematch is offered or accepted with a seat's token"))
        if not live.state.is_terminal():
            raise NotFinishedError(N_("a rematch is offered once the game is over"))
        rematch_id = await self._db(self.repository.rematch_of, game_id)
        if rematch_id is None:
            rematch_id = await self._offer(live, base)
        n = len(live.stored.seats)
        name = live.stored.seats[seat].name
        player = (await self._db(self.repository.player_hashes, game_id))[seat]
        link = await self.games.take_seat(rematch_id, (seat + 1) % n, base, name, player)
        self.games.refresh_tables(live, announce=True)
        new = await self.games.live(rematch_id)
        self.games.refresh_tables(new, announce=True)
        accepted = all(s.claimed for s in new.stored.seats)
        assert link.token is not None and link.join_url is not None
        return RematchResponse(
            game_id=rematch_id,
            seat=link.seat,
            token=link.token,
            join_url=link.join_url,
            accepted=accepted,
        )

    async def _offer(self, live: LiveGame, base: str) -> str:
        seats = live.stored.seats
        n = len(seats)
        requests: list[SeatRequest] = [SeatRequest()] * n
        for s in seats:
            requests[(s.seat + 1) % n] = SeatRequest(s.kind, s.agent, s.budget, s.name)
        created = await self.games.create(
            live.game.name, live.stored.params, requests, base, rated=live.stored.rated
        )
        if await self._db(self.repository.mark_rematch, created.id, live.stored.id):
            # each seat is kept for its person: nobody else takes it from the lobby
            players = await self._db(self.repository.player_hashes, live.stored.id)
            for old, player in enumerate(players):
                if player is not None:
                    await self._db(
                        self.games.repository.tie_player, created.id, (old + 1) % n, player
                    )
            return created.id
        # another offer of the same game won: this one goes, that one is taken
        await self._db(self.repository.drop_game, created.id)
        self.games.forget(created.id)
        other = await self._db(self.repository.rematch_of, live.stored.id)
        assert other is not None
        return other

    # --------------------------------------------------------------- ratings
    async def my_ratings(self, key: str | None) -> MyRatingsResponse:
        """The ratings of the device's person, and how each rated game changed them."""
        player = _player_hash(key)
        current = await self._db(self.repository.current, player)
        history = await self._db(self.repository.history, player)
        return MyRatingsResponse(
            current=[
                RatingEntry(kind=kind, rating=round(ratings.shown(r)), games=r.games)
                for kind, r in sorted(current.items())
            ],
            history=[
                RatingChange(
                    game_id=h.game_id,
                    kind=h.kind,
                    seat=h.seat,
                    before=round(h.before),
                    after=round(h.after),
                    created=h.created,
                )
                for h in history
            ],
        )

    # -------------------------------------------------------------- recovery
    async def recovery_code(self, key: str | None) -> RecoveryCodeResponse:
        """A new recovery code of the device's identity (shown once, stored hashed)."""
        player = _player_hash(key)
        raw = "".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(12))
        expires = datetime.now(UTC) + timedelta(minutes=RECOVERY_MINUTES)
        await self._db(self.repository.add_recovery, security.hash_token(raw), player, expires)
        return RecoveryCodeResponse(code=f"{raw[:4]}-{raw[4:8]}-{raw[8:]}", expires=expires)

    async def recover(self, code: str, key: str | None) -> RecoveredResponse:
        """Move the identity of the code to this device: a new player key holds its
        seats and ratings (and this device's own seats)."""
        new_key = secrets.token_urlsafe(32)
        new_hash = security.hash_token(new_key)
        own = security.hash_token(key) if key and re.fullmatch(PLAYER_KEY_PATTERN, key) else None
        result = await self._db(
            self.repository.use_recovery,
            security.hash_token(normalise_code(code)),
            new_hash,
            own,
        )
        if result != "moved":
            raise ForbiddenError(_RECOVERY_REFUSALS[result], minutes=RECOVERY_MINUTES)
        tied = await self._db(self.games.repository.player_seats, new_hash)
        return RecoveredResponse(key=new_key, games=len(tied))

    async def seat_link(self, game_id: str, key: str | None, base: str) -> SeatLink:
        """A fresh secret link of the seat of ``game_id`` tied to the device's player key
        (its device may be new: a recovery code moved the identity there); the seat's
        earlier link stops working."""
        player = _player_hash(key)
        live = await self.games.live(game_id)
        token = security.new_token()
        seat = await self._db(
            self.repository.reissue_seat, game_id, player, security.hash_token(token)
        )
        if seat is None:
            raise ForbiddenError(N_("no seat of this game is tied to this device's player key"))
        await self.games.seats_changed(live)
        return SeatLink(
            seat=seat,
            kind=SeatKind.HUMAN,
            claimed=True,
            name=live.stored.seats[seat].name,
            token=token,
            join_url=join_url(base, game_id, seat, token),
        )


_RECOVERY_REFUSALS: dict[str, str] = {
    "unknown": N_(
        "this recovery code is not known: check it, or show a new one on the other device"
    ),
    "expired": N_(
        "this recovery code has expired (a code works for {minutes} minutes): show a new "
        "one on the other device"
    ),
    "used": N_("this recovery code has been used already: show a new one on the other device"),
}


def _shown(rating: Rating | None) -> int | None:
    return None if rating is None else round(ratings.shown(rating))


def _player_hash(key: str | None) -> str:
    if key is None or not re.fullmatch(PLAYER_KEY_PATTERN, key):
        raise ForbiddenError(N_("this needs the device's player key"))
    return security.hash_token(key)
