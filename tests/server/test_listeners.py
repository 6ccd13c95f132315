"""The listener registry shared by live games and live quiz events."""

from __future__ import annotations

import asyncio
from typing import Any

from koth.server.games.live import LiveHub
from koth.server.listeners import Listeners


class RecordingSink:
    def __init__(self, delay: float = 0.0, fail: bool = False) -> None:
        self.received: list[Any] = []
        self.delay = delay
        self.fail = fail

    async def send_text(self, data: str) -> None:
        if self.fail:
            raise ConnectionError("gone")
        await asyncio.sleep(self.delay)
        self.received.append(data)


def test_each_audience_gets_its_own_message_and_others_nothing() -> None:
    listeners: Listeners[str] = Listeners("test")
    judge, team_a, team_a2, team_b = (RecordingSink() for _ in range(4))
    listeners.add("judge", judge)
    listeners.add("team:a", team_a)
    listeners.add("team:a", team_a2)
    listeners.add("team:b", team_b)
    asyncio.run(listeners.deliver({"judge": "J", "team:a": "A"}))
    assert (judge.received, team_a.received, team_a2.received, team_b.received) == (
        ["J"],
        ["A"],
        ["A"],
        [],
    )
    assert listeners.audiences() == {"judge", "team:a", "team:b"}
    assert len(listeners) == 4


def test_a_stuck_or_gone_listener_is_dropped_and_does_not_hold_up_the_others() -> None:
    listeners: Listeners[str] = Listeners("test", send_timeout=0.05)
    stuck, gone, fine = RecordingSink(delay=10), RecordingSink(fail=True), RecordingSink()
    stuck_listener = listeners.add("team:a", stuck)
    listeners.add("team:a", gone)
    listeners.add("team:a", fine)
    asyncio.run(asyncio.wait_for(listeners.deliver({"team:a": 1}), 2))
    assert fine.received == [1]
    assert len(listeners) == 1
    assert stuck_listener.closed


def test_removing_the_last_listener_of_an_audience_forgets_the_audience() -> None:
    listeners: Listeners[int | None] = Listeners("test")
    one = listeners.add(0, RecordingSink())
    listeners.add(None, RecordingSink())
    listeners.remove(one)
    listeners.remove(one)  # twice is harmless
    assert listeners.audiences() == {None}


def test_live_hub_sends_each_seat_its_view_and_forgets_games_without_listeners() -> None:
    hub = LiveHub()
    seat0, spectator, other_game = RecordingSink(), RecordingSink(), RecordingSink()
    s0 = hub.subscribe("g1", seat0, 0)
    spec = hub.subscribe("g1", spectator, None)
    hub.subscribe("g2", other_game, 1)
    built: list[int | None] = []

    def message_for(seat: int | None) -> str:
        built.append(seat)
        return f"view of {seat}"

    asyncio.run(hub.publish("g1", message_for))
    assert seat0.received == ["view of 0"]
    assert spectator.received == ["view of None"]
    assert other_game.received == []
    assert sorted(built, key=str) == [0, None]  # one view per seat, not per listener
    hub.unsubscribe("g1", s0)
    hub.unsubscribe("g1", spec)
    assert hub.count("g1") == 0 and hub.count("g2") == 1
    asyncio.run(hub.publish("g1", message_for))  # nobody left: nothing is built
    assert len(built) == 2
