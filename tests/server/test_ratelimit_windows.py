"""The rate limits' moving windows in memory: at most the limit's amount of requests in
any window of its length, a refused request is not counted, and the clients that sent
nothing for a window are let go of; the windows shared through Redis refuse alike."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from koth.server import ratelimit
from koth.server.errors import RateLimitedError
from koth.server.ratelimit import Action, MemoryWindows, RateLimits, parse_limit
from koth.server.settings import Settings


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(ratelimit.time, "monotonic", fake)
    return fake


def test_a_window_moves_with_the_requests(clock: Clock) -> None:
    windows = MemoryWindows({Action.ACT: parse_limit("3/minute")})

    async def scenario() -> None:
        for _ in range(2):
            assert await windows.hit(Action.ACT, "a") is None
        clock.now += 40
        assert await windows.hit(Action.ACT, "a") is None
        assert await windows.hit(Action.ACT, "a") == pytest.approx(20)  # the first two leave
        assert await windows.hit(Action.ACT, "b") is None  # another client counts apart
        clock.now += 20
        assert await windows.hit(Action.ACT, "a") is None
        assert await windows.hit(Action.ACT, "a") is None
        # the request made at 40 s is still within the window: it leaves at 100 s
        assert await windows.hit(Action.ACT, "a") == pytest.approx(40)

    asyncio.run(scenario())


def test_a_refused_request_is_not_counted(clock: Clock) -> None:
    windows = MemoryWindows({Action.CREATE: parse_limit("1/minute")})

    async def scenario() -> None:
        assert await windows.hit(Action.CREATE, "a") is None
        for _ in range(5):
            clock.now += 10
            assert await windows.hit(Action.CREATE, "a") is not None
        clock.now += 10.5  # a minute after the one counted request
        assert await windows.hit(Action.CREATE, "a") is None

    asyncio.run(scenario())


def test_idle_clients_are_let_go_of(clock: Clock) -> None:
    windows = MemoryWindows({Action.LOOKUP: parse_limit("5/minute")})

    async def scenario() -> None:
        for client in ("a", "b", "c"):
            await windows.hit(Action.LOOKUP, client)
        clock.now += 30
        await windows.hit(Action.LOOKUP, "a")
        assert windows.clients() == 3
        clock.now += ratelimit.SWEEP_EVERY_S - 30  # the first sweep, a minute after the start
        await windows.hit(Action.LOOKUP, "d")  # b and c sent nothing for a minute, a did
        assert windows.clients() == 2

    asyncio.run(scenario())


def test_the_refusal_says_when_to_try_again(clock: Clock) -> None:
    limits = RateLimits(Settings(rate_act="2/minute"))

    async def scenario() -> None:
        await limits.hit(Action.ACT, "192.0.2.1")
        clock.now += 15
        await limits.hit(Action.ACT, "192.0.2.1")
        clock.now += 14.5
        with pytest.raises(RateLimitedError) as refused:
            await limits.hit(Action.ACT, "192.0.2.1")
        assert refused.value.retry_after == 31  # the first request leaves in 30.5 s

    asyncio.run(scenario())


def test_limits_shared_through_redis_refuse_the_same_way() -> None:
    from tests.server.test_processes import redis_url

    url = redis_url()
    if url is None:
        pytest.skip("Redis is not reachable at 127.0.0.1:6379")
    # a client of its own: other runs' counts in the shared store do not meet this one
    client = f"198.51.100.{os.getpid() % 250}-{time.time_ns()}"
    settings = Settings(rate_limit_storage=url, rate_join="2/minute")
    first, second = RateLimits(settings), RateLimits(settings)

    async def scenario() -> None:
        await first.hit(Action.JOIN, client)
        await second.hit(Action.JOIN, client)  # another process, the same counts
        with pytest.raises(RateLimitedError) as refused:
            await first.hit(Action.JOIN, client)
        assert 1 <= refused.value.retry_after <= 60

    asyncio.run(scenario())
