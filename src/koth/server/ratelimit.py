"""Rate limits per client address, with the ``limits`` library: counters in memory (one
process) or in Redis (shared by every process of a site).

Each kind of request has its own limit (a setting); a request over it is refused with
429 ``rate_limited`` and a ``Retry-After`` header, and changes nothing.
"""

from __future__ import annotations

import enum
import ipaddress
import math
import time

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


class RateLimits:
    def __init__(self, settings: Settings) -> None:
        uri, options = storage_uri(settings.rate_limit_storage)
        self.storage = storage_from_string(uri, **options)
        self.limiter = MovingWindowRateLimiter(self.storage)
        self.items = {action: parse_limit(getattr(settings, f"rate_{action}")) for action in Action}
        self.ipv6_prefix = settings.rate_ipv6_prefix

    async def hit(self, action: Action, client: str) -> None:
        """Count one request of ``client`` (an IPv6 client by its network: see
        :func:`client_key`); RateLimitedError when it is over the limit."""
        client = client_key(client, self.ipv6_prefix)
        item = self.items[action]
        if await self.limiter.hit(item, action.value, client):
            return
        stats = await self.limiter.get_window_stats(item, action.value, client)
        wait = max(1, math.ceil(stats.reset_time - time.time()))
        raise RateLimitedError(
            f"too many {_WHAT[action]} from this address (at most {item}): try again in {wait} s",
            retry_after=wait,
        )
