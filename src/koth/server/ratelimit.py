"""Rate limits per client address: moving windows in this process's memory (one
process), or in Redis with the ``limits`` library (shared by every process of a site).

Each kind of request has its own limit (a setting); a request over it is refused with
429 ``rate_limited`` and a ``Retry-After`` header, and changes nothing.
"""

from __future__ import annotations

import enum
import ipaddress
import math
import time
from collections import deque
from collections.abc import Mapping

from limits import RateLimitItem, parse
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string

from koth.server.errors import RateLimitedError
from koth.server.settings import Settings


class Action(enum.StrEnum):
    """The kinds of request that are counted, each with its setting ``rate_<kind>``."""

    CREATE = "create"
    """creating a game or a quiz event"""
    JOIN = "join"
    """a team joining a quiz event with its code"""
    RECOVER = "recover"
    """trying a recovery code"""
    ACT = "act"
    """a move, an answer, a declaration or a judge command"""
    LOOKUP = "lookup"
    """any request that names a game, an event, a code or a token"""


_WHAT = {
    Action.CREATE: "new games and events",
    Action.JOIN: "joins",
    Action.RECOVER: "recovery attempts",
    Action.ACT: "moves and answers",
    Action.LOOKUP: "requests",
}


def client_key(address: str, ipv6_prefix: int = 64) -> str:
    """What a client's requests are counted under: its IPv4 address, or the network of
    the first ``ipv6_prefix`` bits of its IPv6 address (a host commonly holds a whole
    /64 and can rotate through it). Anything else (a test client's name) as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, ipv6_prefix), strict=False))
    return address


def parse_limit(text: str) -> RateLimitItem:
    """``"20/minute"`` as a limit (ValueError names what is wrong)."""
    try:
        return parse(text)
    except ValueError as exc:
        raise ValueError(f"{text!r} is not a rate such as 20/minute: {exc}") from None


def storage_uri(uri: str) -> tuple[str, dict[str, str]]:
    """The asyncio flavour of a ``limits`` storage URI (redis through redis-py)."""
    scheme = uri.split("://", 1)[0]
    options = {"implementation": "redispy"} if scheme in ("redis", "rediss") else {}
    return (uri if uri.startswith("async+") else f"async+{uri}"), options


#: how often the memory windows let go of the clients that sent nothing for a window
SWEEP_EVERY_S = 60.0


class MemoryWindows:
    """Moving windows in this process's memory: for each action and client, the times of
    its requests counted in the last window (at most the limit's amount of them).

    A request costs an append and the removal of the times that left its window: no
    task, thread hop or lock (the ``limits`` library's asyncio memory storage started a
    task per request that hopped to a thread for each client it held). Now and then the
    clients that sent nothing for a whole window are let go of.
    """

    def __init__(self, items: Mapping[Action, RateLimitItem]) -> None:
        self.windows = {action: float(item.get_expiry()) for action, item in items.items()}
        self.amounts = {action: item.amount for action, item in items.items()}
        self._times: dict[tuple[Action, str], deque[float]] = {}
        self._swept = time.monotonic()

    async def hit(self, action: Action, client: str) -> float | None:
        """Count a request of ``client``; None when it is within the limit, else the
        seconds until the oldest request counted leaves the window (nothing is counted)."""
        now = time.monotonic()
        window = self.windows[action]
        if now - self._swept >= SWEEP_EVERY_S:
            self._sweep(now)
        times = self._times.get((action, client))
        if times is None:
            times = self._times[(action, client)] = deque()
        while times and times[0] <= now - window:
            times.popleft()
        if len(times) >= self.amounts[action]:
            return (times[0] + window - now) if times else window
        times.append(now)
        return None

    def clients(self) -> int:
        """How many (action, client) windows are held."""
        return len(self._times)

    def _sweep(self, now: float) -> None:
        self._swept = now
        idle = [
            key
            for key, times in self._times.items()
            if not times or times[-1] <= now - self.windows[key[0]]
        ]
        for key in idle:
            del self._times[key]


class SharedWindows:
    """Moving windows in a ``limits`` storage that every process shares (Redis)."""

    def __init__(self, uri: str, items: Mapping[Action, RateLimitItem]) -> None:
        address, options = storage_uri(uri)
        self.limiter = MovingWindowRateLimiter(storage_from_string(address, **options))
        self.items = dict(items)

    async def hit(self, action: Action, client: str) -> float | None:
        """As :meth:`MemoryWindows.hit`."""
        item = self.items[action]
        if await self.limiter.hit(item, action.value, client):
            return None
        stats = await self.limiter.get_window_stats(item, action.value, client)
        return stats.reset_time - time.time()


class RateLimits:
    def __init__(self, settings: Settings) -> None:
        self.items = {action: parse_limit(getattr(settings, f"rate_{action}")) for action in Action}
        self.ipv6_prefix = settings.rate_ipv6_prefix
        uri = settings.rate_limit_storage
        self.windows: MemoryWindows | SharedWindows = (
            MemoryWindows(self.items)
            if storage_uri(uri)[0].startswith("async+memory://")
            else SharedWindows(uri, self.items)
        )

    async def hit(self, action: Action, client: str) -> None:
        """Count one request of ``client`` (an IPv6 client by its network: see
        :func:`client_key`); RateLimitedError when it is over the limit."""
        client = client_key(client, self.ipv6_prefix)
        left = await self.windows.hit(action, client)
        if left is None:
            return
        item = self.items[action]
        wait = max(1, math.ceil(left))
        raise RateLimitedError(
            f"too many {_WHAT[action]} from this address (at most {item}): try again in {wait} s",
            retry_after=wait,
        )
