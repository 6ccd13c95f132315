"""The PostgreSQL broker: notices published while a send is under way go together in
the next send, every one of them, in the order they were published."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from koth.server.broker import PostgresBroker
from tests.server.conftest import postgres_base_url


def test_notices_published_together_all_arrive_in_their_order() -> None:
    base = postgres_base_url()
    if base is None:
        pytest.skip("PostgreSQL is not reachable")
    url = base.replace("postgresql+psycopg://", "postgresql://")
    tag = uuid.uuid4().hex  # other tests may use the channel at the same time
    sent = [f"test {tag} {n}" for n in range(200)]

    async def run() -> tuple[list[str], int]:
        got: list[str] = []
        all_in = asyncio.Event()

        async def handler(notice: str) -> None:
            if tag in notice:
                got.append(notice)
                if len(got) == len(sent):
                    all_in.set()

        listener, publisher = PostgresBroker(url), PostgresBroker(url)
        sends = 0
        await listener.start(handler)
        try:
            await asyncio.gather(*(publisher.publish(notice) for notice in sent))
            await asyncio.wait_for(all_in.wait(), 60)
            sends = publisher.sends
        finally:
            await publisher.close()
            await listener.close()
        return got, sends

    got, sends = asyncio.run(run())
    assert got == sent
    assert sends < len(sent)  # published together: fewer round trips than notices
