"""A game's notice carries the change (the moves appended, a seat that chose or took its
choice back), so that another process holding the game takes it in without reading the
database; where the change does not fit (the process is behind, the notice is too long
or does not parse, a choice taken back came first) it reads the change as before."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from koth.server.database import make_engine, migrate
from koth.server.errors import StaleVersionError
from koth.server.games import notice
from koth.server.games.live import LiveGame
from koth.server.games.messages import state_message
from koth.server.games.notice import Appended, Submitted, game_notice, read_change
from koth.server.games.schemas import GameStatus
from koth.server.games.service import GameService
from koth.server.games.store import Changes, Repository

BASE = "http://test"


class Captured:
    """A broker that keeps the notices for the test to deliver (or not)."""

    def __init__(self) -> None:
        self.notices: list[str] = []

    async def start(self, handler: Callable[[str], Awaitable[None]]) -> None:
        pass

    async def publish(self, text: str) -> None:
        self.notices.append(text)

    async def close(self) -> None:
        pass

    def take(self) -> list[str]:
        taken, self.notices = self.notices, []
        return taken


class Counted(Repository):
    """A repository that counts its catch-up reads."""

    reads = 0

    def changes(self, game_id: str, after: int) -> Changes | None:
        self.reads += 1
        return super().changes(game_id, after)


async def deliver(service: GameService, text: str) -> None:
    """Hand ``text`` to ``service`` as the server's notice handler does, and wait for the sends
    it started."""
    kind, key, number, origin, *carried = text.split(" ", 4)
    assert kind == "game"
    await service.on_notice(key, int(number), origin, carried[0] if carried else None)
    await service.settled()


def picture(live: LiveGame) -> dict[str, Any]:
    """What every listener of ``live`` would be sent, and what the process keeps of it."""
    message = state_message(live, None).model_dump(exclude={"clock"})
    return {
        "message": message,
        "stored": live.stored,
        "version": live.version,
        "history": live.state.history,
        "submitted": live.submitted,
        "notes": live.notes,
        "log": live.book.entries(None) if live.book is not None else None,
    }


async def same(reader: GameService, writer: GameService, game_id: str) -> None:
    """Both processes hold the same game and would send their listeners the same."""
    assert picture(await reader.live(game_id)) == picture(await writer.live(game_id))


@pytest.fixture
def engine_url(database_url: str) -> Iterator[str]:
    engine = make_engine(database_url)
    migrate(engine)
    engine.dispose()
    yield database_url


def run(url: str, scenario: Callable[[GameService, GameService, Counted], Awaitable[None]]) -> None:
    """``scenario`` with a writing process (its notices captured) and a reading one."""
    engine = make_engine(url)
    try:
        writer = GameService(Repository(engine))
        writer.broker = Captured()
        reader_store = Counted(engine)
        reader = GameService(reader_store)
        asyncio.run(scenario(writer, reader, reader_store))
    finally:
        engine.dispose()


def captured(service: GameService) -> Captured:
    assert isinstance(service.broker, Captured)
    return service.broker


async def start_cards(writer: GameService, reader: GameService) -> str:
    """A card game (simultaneous: each seat chooses a card in secret), held by both."""
    created = await writer.create("cards", {}, None, BASE)
    await reader.live(created.id)
    await writer.settled()
    captured(writer).take()  # the creation's notice: nothing held it yet
    TOKENS[created.id] = [seat.token for seat in created.seats]
    return created.id


TOKENS: dict[str, list[str | None]] = {}


def to_choose(live: LiveGame) -> Iterator[int]:
    """The seats that are to act and have not chosen yet."""
    return (p for p in live.state.acting_players() if p not in live.submitted)


async def choose(writer: GameService, game_id: str, seat: int) -> None:
    live = await writer.live(game_id)
    action = live.game.action_to_str(live.state.legal_actions(seat)[0])
    await writer.submit(game_id, seat, action, live.version)
    await writer.settled()


async def play(writer: GameService, game_id: str, choices: int) -> None:
    """``choices`` seats choose, one after the other, as their turns come."""
    for _ in range(choices):
        await choose(writer, game_id, next(to_choose(await writer.live(game_id))))


async def fresh(repository: Repository, game_id: str) -> LiveGame:
    """The game as a process that holds nothing yet loads it."""
    return await GameService(repository).live(game_id)


def test_a_carried_move_catches_up_without_a_read(engine_url: str) -> None:
    async def scenario(writer: GameService, reader: GameService, store: Counted) -> None:
        game_id = await start_cards(writer, reader)
        store.reads = 0
        delivered = 0
        while not (await writer.live(game_id)).state.is_terminal():
            await choose(writer, game_id, next(to_choose(await writer.live(game_id))))
            for text in captured(writer).take():
                assert len(text.split(" ", 4)) == 5  # the change is carried
                await deliver(reader, text)
                delivered += 1
            mine, theirs = await reader.live(game_id), await writer.live(game_id)
            assert mine.version == theirs.version
            assert mine.submitted == theirs.submitted
            if not theirs.submitted:
                assert picture(mine) == picture(theirs)
        assert store.reads == 0
        assert delivered > 10
        final = await reader.live(game_id)
        assert picture(final) == picture(await fresh(Repository(store.engine), game_id))
        assert final.status == "finished" and final.stored.outcome is not None

    run(engine_url, scenario)


def test_a_process_behind_the_change_reads_it(engine_url: str) -> None:
    async def scenario(writer: GameService, reader: GameService, store: Counted) -> None:
        game_id = await start_cards(writer, reader)
        await play(writer, game_id, 4)
        first, *_, last = captured(writer).take()  # the reader missed all but the last
        store.reads = 0
        await deliver(reader, last)
        assert store.reads == 1
        await same(reader, writer, game_id)
        await deliver(reader, first)  # late: older than the game held, nothing to read
        assert store.reads == 1
        await same(reader, writer, game_id)

    run(engine_url, scenario)


def test_a_change_too_long_for_a_notice_is_read(
    engine_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    move = {"joint": {"0": "x" * notice.MAX_NOTICE_BYTES}}
    change = Appended(
        before=1, moves=[move], status="running", decisions=1, outcome=None, clock=None,
        deadline=None,
    )  # fmt: skip
    assert game_notice("g", 2, "here", change) == "game g 2 here"
    assert game_notice("g", 2, "here", Submitted(seat=0)).startswith("game g 2 here {")

    monkeypatch.setattr(notice, "MAX_NOTICE_BYTES", 40)

    async def scenario(writer: GameService, reader: GameService, store: Counted) -> None:
        game_id = await start_cards(writer, reader)
        store.reads = 0
        await play(writer, game_id, 2)
        plain = captured(writer).take()
        assert [len(t.split(" ")) for t in plain] == [4, 4]  # no change carried
        for text in plain:
            await deliver(reader, text)
        assert store.reads == len(plain)
        await same(reader, writer, game_id)

    run(engine_url, scenario)


def test_a_garbled_change_is_read_and_logged_without_its_content(
    engine_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario(writer: GameService, reader: GameService, store: Counted) -> None:
        game_id = await start_cards(writer, reader)
        await play(writer, game_id, 2)
        texts = captured(writer).take()
        store.reads = 0
        secret = '{"kind":"moves","before":1,"moves":[{"joint":{"0":"SECRET'
        with caplog.at_level(logging.WARNING):
            for text in texts:
                head = " ".join(text.split(" ", 4)[:4])
                await deliver(reader, f"{head} {secret}")
        assert store.reads == 2
        await same(reader, writer, game_id)
        warned = [r for r in caplog.records if "does not parse" in r.getMessage()]
        assert len(warned) == 2
        assert not any("SECRET" in r.getMessage() for r in caplog.records)

    run(engine_url, scenario)


def test_a_choice_taken_back_is_not_undone_by_a_late_notice(engine_url: str) -> None:
    async def scenario(writer: GameService, reader: GameService, store: Counted) -> None:
        game_id = await start_cards(writer, reader)
        await choose(writer, game_id, 0)
        (chose,) = captured(writer).take()
        live = await writer.live(game_id)
        await writer.withdraw(game_id, TOKENS[game_id][0], live.version)
        await writer.settled()
        (took_back,) = captured(writer).take()
        assert '"withdrawn"' in took_back
        store.reads = 0
        await deliver(reader, took_back)  # the later notice arrives first
        assert store.reads == 0
        await deliver(reader, chose)
        assert store.reads == 1  # not taken on trust: the database says who chose
        assert (await reader.live(game_id)).submitted == frozenset()

    run(engine_url, scenario)


def test_a_seat_listening_here_gets_its_choice_read(engine_url: str) -> None:
    async def scenario(writer: GameService, reader: GameService, store: Counted) -> None:
        game_id = await start_cards(writer, reader)
        await choose(writer, game_id, 0)
        (chose,) = captured(writer).take()
        store.reads = 0
        await deliver(reader, chose)
        live = await reader.live(game_id)
        assert store.reads == 0
        assert live.submitted == {0} and live.pending == {}
        assert state_message(live, 1).my_submission is None  # another seat's: not shown
        await reader.readable(live, 1)
        assert store.reads == 0
        live = await reader.readable(live, 0)
        assert store.reads == 1
        assert live.pending == (await writer.live(game_id)).pending
        assert state_message(live, 0).my_submission == live.pending[0]

    run(engine_url, scenario)


def test_a_change_reads_back_as_it_was_sent() -> None:
    deadline = datetime(2026, 11, 28, 20, 0, 1, 250, tzinfo=UTC)
    change = Appended(
        before=3,
        moves=[{"joint": {"0": "hand 2d", "1": "hand 2s"}}, {"player": -1, "action": "deal 5"}],
        status=GameStatus.FINISHED,
        decisions=2,
        outcome={"winners": [1], "reason": "rules"},
        clock={"left": [1.5, math.inf], "running": None},
        deadline=deadline,
    )
    text = game_notice("g", 5, "here", change)
    head, carried = text.split(" {", 1)
    assert head == "game g 5 here"
    back = read_change("g", "{" + carried)
    assert back == change and isinstance(back, Appended) and back.deadline == deadline
    odd = change.model_copy(update={"outcome": {"odd": object()}})
    assert game_notice("g", 5, "here", odd) == "game g 5 here"  # read from the database


def test_a_write_refused_as_stale_leaves_the_game_caught_up(engine_url: str) -> None:
    """A process that had not heard of another's move refuses its seat's choice as stale,
    and takes in that move at once (one read of what came after its version), instead
    of dropping the game to replay it from the start on the seat's next read."""

    async def scenario(writer: GameService, reader: GameService, store: Counted) -> None:
        game_id = await start_cards(writer, reader)
        behind = (await reader.live(game_id)).version
        await play(writer, game_id, 2)  # a joint move the reader is not told of
        captured(writer).take()
        assert (await writer.live(game_id)).version > behind
        store.reads = 0
        with pytest.raises(StaleVersionError):
            await choose(reader, game_id, 0)
        assert reader.cached(game_id) is not None
        assert store.reads == 1
        await same(reader, writer, game_id)
        assert store.reads == 1

    run(engine_url, scenario)


class Stuck:
    """A spectator whose connection takes nothing: its send waits until it is given up."""

    def __init__(self) -> None:
        self.given_up = False

    async def send_text(self, data: str) -> None:
        try:
            await asyncio.Event().wait()
        finally:
            self.given_up = True


class Told:
    """A spectator that notes when it is sent a message."""

    def __init__(self) -> None:
        self.told = asyncio.Event()

    async def send_text(self, data: str) -> None:
        self.told.set()


def test_a_stuck_spectator_does_not_hold_up_the_next_notice(engine_url: str) -> None:
    """The broker hands notices over one at a time: the tables of the next game hear of
    its change while a spectator of the game before still has not taken its message."""

    async def scenario(writer: GameService, reader: GameService, store: Counted) -> None:
        first, second = await start_cards(writer, reader), await start_cards(writer, reader)
        stuck, told = Stuck(), Told()
        await reader.subscribe(first, stuck, None)
        await reader.subscribe(second, told, None)
        for game_id in (first, second):
            await choose(writer, game_id, next(to_choose(await writer.live(game_id))))
        notices = captured(writer).take()
        assert len(notices) == 2

        async def broker() -> None:  # as the PostgreSQL and Redis brokers deliver
            for text in notices:
                _kind, key, number, origin, carried = text.split(" ", 4)
                await reader.on_notice(key, int(number), origin, carried)

        delivering = asyncio.create_task(broker())
        await asyncio.wait_for(told.told.wait(), 60)
        assert not stuck.given_up  # told while the first game's send still waits
        await delivering

    run(engine_url, scenario)
