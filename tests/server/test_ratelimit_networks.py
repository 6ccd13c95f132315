"""Rate limits count an IPv6 client by its /64 (a setting): a client rotating through the
addresses of its network is one client; IPv4 clients by their address."""

from __future__ import annotations

import asyncio

import pytest

from koth.server.errors import RateLimitedError
from koth.server.ratelimit import Action, RateLimits, client_key
from koth.server.settings import Settings


@pytest.mark.parametrize(
    ("address", "prefix", "key"),
    [
        ("2001:db8:1:2:aaaa::1", 64, "2001:db8:1:2::/64"),
        ("2001:db8:1:2:bbbb:cccc:dddd:eeee", 64, "2001:db8:1:2::/64"),
        ("2001:db8:1:2:bbbb::1", 48, "2001:db8:1::/48"),
        ("2001:db8::1", 128, "2001:db8::1/128"),
        ("::ffff:192.0.2.7", 64, "192.0.2.7"),
        ("192.0.2.7", 64, "192.0.2.7"),
        ("testclient", 64, "testclient"),
    ],
)
def test_the_key_of_a_client(address: str, prefix: int, key: str) -> None:
    assert client_key(address, prefix) == key


def test_an_ipv6_client_rotating_through_its_64_is_limited() -> None:
    limits = RateLimits(Settings(rate_create="2/minute"))

    async def scenario() -> None:
        await limits.hit(Action.CREATE, "2001:db8:0:1::1")
        await limits.hit(Action.CREATE, "2001:db8:0:1::2")
        with pytest.raises(RateLimitedError):
            await limits.hit(Action.CREATE, "2001:db8:0:1:ffff:ffff:ffff:ffff")
        await limits.hit(Action.CREATE, "2001:db8:0:2::1")  # another network
        await limits.hit(Action.CREATE, "192.0.2.1")
        await limits.hit(Action.CREATE, "192.0.2.2")  # IPv4: by address

    asyncio.run(scenario())
