"""Clocks, resigning and absence at work: what the service does when a seat resigns,
when its person is back, when the clocks start, and when a clock runs out.

Each change is one compare-and-set on the game row (``clock_store.change_table``), made
under the game's lock in this process; another process that changed the row first makes
it fail, and the game is read again. Every change is announced like a move, so every
process and table hears of it. The rules are in :mod:`koth.server.games.clocks`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from koth.core.errors import GameOverError
from koth.server.errors import StaleVersionError
from koth.server.games import clock_store, clocks
from koth.server.games.clock_schemas import ClockMode, EndReason, OnTimeout
from koth.server.games.live import LiveGame
from koth.server.games.publishing import GamePublisher
from koth.server.games.rows import StoredSeat
from koth.server.games.schemas import GameStatus

log = logging.getLogger(__name__)


def as_time(epoch: float | None) -> datetime | None:
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC)


def running(live: LiveGame, clock: clocks.Clock | None) -> list[int]:
    """The seats whose clock runs now."""
    return clocks.owing(live.state, live.stored.seats, clock, live.submitted)


def table_values(
    live: LiveGame, clock: clocks.Clock | None, outcome: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The game row's columns for ``clock`` (and, given an ``outcome``, the end)."""
    if outcome is not None:
        return {
            "clock": clock,
            "deadline": None,
            "computer_due": False,
            "status": GameStatus.FINISHED,
            "outcome": outcome,
        }
    seats = clocks.acting_seats(live.stored.seats, clock)
    return {
        "clock": clock,
        "deadline": as_time(clocks.deadline(clock, running(live, clock))),
        "computer_due": clocks.owes_computer(seats, live.state, live.submitted),
    }


def record_meta(live: LiveGame) -> dict[str, Any]:
    """What a game's record adds of its time control and of an end outside its rules
    (a resignation, a clock run out): the state the moves replay to is no end then."""
    meta: dict[str, Any] = {}
    if clocks.timed(live.stored.clock) and live.stored.clock is not None:
        keys = ("mode", "seconds", "increment", "on_timeout", "level")
        meta["clock"] = {key: live.stored.clock[key] for key in keys}
    if clocks.ending_of(live.stored.outcome, live.stored.seats, "en") is not None:
        meta["ending"] = live.stored.outcome
    return meta


def clock_after(
    live: LiveGame, after: Any, paid: dict[int, float]
) -> tuple[clocks.Clock | None, float | None]:
    """The clock once the seats of ``paid`` (each at the time given) made the move that
    leads from ``live``'s state to ``after``, and its next deadline."""
    return clock_between(live.stored.clock, live.stored.seats, ran_before(live), after, paid)


def ran_before(live: LiveGame) -> set[int]:
    """The seats whose clock runs at ``live``'s state (none: the game is not timed)."""
    clock = live.stored.clock
    if not clocks.timed(clock) or clock is None:
        return set()
    return set(clocks.owing(live.state, live.stored.seats, clock))


def clock_between(
    clock: clocks.Clock | None,
    seats: Sequence[StoredSeat],
    ran: set[int],
    after: Any,
    paid: dict[int, float],
) -> tuple[clocks.Clock | None, float | None]:
    """``clock_after`` from what the caller read before the move: the game's ``clock``
    and ``seats``, and the seats whose clock ran (``ran_before``); any thread."""
    if not clocks.timed(clock) or clock is None:
        return clock, None
    now = time.time()
    new = clocks.after_decisions(clock, {s: t for s, t in paid.items() if s in ran}, now)
    return new, clocks.deadline(new, clocks.owing(after, seats, new))


def paid_times(
    clock: clocks.Clock | None, joint: dict[int, str], made: dict[int, float]
) -> dict[int, float]:
    """When each seat of a secret choice chose (the last one: now): with a chess clock,
    when its choice was stored (``made``); with any other, now."""
    now = time.time()
    if clock is None or clock["mode"] != ClockMode.CHESS.value:
        return dict.fromkeys(joint, now)
    return {seat: made.get(seat, now) for seat in joint}


async def change(service: GamePublisher, live: LiveGame, values: dict[str, Any]) -> bool:
    """Store ``values`` on ``live``'s game if nobody changed it since it was read (the
    caller holds the game's lock); on success the cached game takes them in."""
    stored = live.stored
    done = await asyncio.to_thread(
        clock_store.change_table,
        service.repository,
        stored.id,
        live.version,
        stored.deadline,
        values,
    )
    if not done:
        return False
    live.stored = replace(
        stored,
        clock=values["clock"],
        deadline=values["deadline"],
        status=values.get("status", stored.status),
        outcome=values.get("outcome", stored.outcome),
    )
    return True


async def resign(service: GamePublisher, game_id: str, seat: int) -> LiveGame:
    """``seat`` resigns (clocks.resign says what that means)."""
    live = await service.live(game_id)
    async with live.lock:
        live = await service.live(game_id)
        if live.stored.status is GameStatus.FINISHED or live.state.is_terminal():
            raise GameOverError(f"game {game_id} is over: there is nothing to resign")
        if seat in (live.stored.clock or {}).get("resigned", ()):
            raise GameOverError(f"seat {seat + 1} has resigned already")
        clock, winners = clocks.resign(live.stored.clock, seat, live.game.num_players)
        outcome = (
            clocks.ending_outcome(EndReason.RESIGNED, seat, winners)
            if winners is not None
            else None
        )
        if not await change(service, live, table_values(live, clock, outcome)):
            service.forget(game_id)
            raise StaleVersionError(
                f"stale: game {game_id} changed while seat {seat + 1} resigned; try again"
            )
    service.published(live)
    return live


async def come_back(service: GamePublisher, live: LiveGame, seat: int) -> None:
    """``seat``'s person is back: the computer stops playing for it."""
    if not clocks.computer_plays(live.stored.clock, seat):
        return
    async with live.lock:
        live = await service.live(live.stored.id)
        clock = live.stored.clock
        if clock is None or seat not in clock["computer"] or live.status is GameStatus.FINISHED:
            return
        others = [s for s in running(live, clock) if s != seat]
        new = clocks.back(clock, seat, time.time(), others)
        if not await change(service, live, table_values(live, new)):
            service.forget(live.stored.id)
            raise StaleVersionError(
                f"stale: game {live.stored.id} changed just now; reload and try again"
            )
    service.published(live)


async def start(service: GamePublisher, live: LiveGame) -> None:
    """Every seat is taken: the clocks start."""
    clock = live.stored.clock
    if not clocks.timed(clock) or clock is None or clock["since"] is not None:
        return
    if live.status is not GameStatus.RUNNING:
        return
    async with live.lock:
        if live.stored.clock != clock:
            return
        if not await change(service, live, table_values(live, clocks.start(clock, time.time()))):
            service.forget(live.stored.id)


async def expire(service: GamePublisher, game_id: str) -> bool:
    """Act on the clocks of ``game_id`` that ran out: hand their seats to the computer,
    or end the game; True when this process did (another may have done it first)."""
    live = await service.reload(game_id)
    async with live.lock:
        live = await service.live(game_id)
        clock = live.stored.clock
        if live.status is GameStatus.FINISHED or not clocks.timed(clock) or clock is None:
            return False
        now = time.time()
        out = clocks.out_of_time(clock, running(live, clock), now)
        if not out:  # a seat that ran first has chosen meanwhile: the next deadline
            if not await change(service, live, table_values(live, clock)):
                service.forget(game_id)
            return False
        outcome = None
        if clock["on_timeout"] == OnTimeout.LOSE.value:
            new: clocks.Clock = clock
            for seat in out:
                new, winners = clocks.resign(new, seat, live.game.num_players)
                if winners is not None:
                    outcome = clocks.ending_outcome(EndReason.OUT_OF_TIME, seat, winners)
                    break
        else:
            new = clocks.hand_to_computer(clock, out, now)
        if not await change(service, live, table_values(live, new, outcome)):
            service.forget(game_id)  # another process acted first
            return False
    log.info("game %s: seats %s ran out of time", game_id, out)
    service.published(live)
    return True


class TimeKeeper:
    """Looks for the clocks that ran out, in every game stored (the database's deadline
    index says which), and acts on each one once across processes."""

    def __init__(self, service: GamePublisher, every: float = 1.0) -> None:
        self.service = service
        self.every = every

    async def check(self) -> int:
        """Act on every clock run out by now; returns how many this process acted on."""
        ids = await asyncio.to_thread(
            clock_store.expired_ids, self.service.repository, datetime.now(UTC)
        )
        acted = 0
        for game_id in ids:
            try:
                acted += await expire(self.service, game_id)
            except Exception:
                log.warning("acting on the clock of game %s failed", game_id, exc_info=True)
        return acted

    async def watch(self) -> None:
        """Every ``every`` seconds: act on the clocks run out."""
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.check()
            except Exception:  # the database is away for a moment
                log.warning("could not look for clocks run out", exc_info=True)
