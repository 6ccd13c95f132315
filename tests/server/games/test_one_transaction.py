"""A move costs one database transaction: a turn-based move, a simultaneous node's first
choice and the choice that completes it (the hints and the chess clock's times read in
that same transaction), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from koth.core.players import NodeKind
from koth.server.database import make_engine, migrate
from koth.server.games.clock_schemas import ClockMode, ClockOptions
from koth.server.games.schemas import SeatKind
from koth.server.games.service import GameService, SeatRequest
from koth.server.games.store import Repository


@contextmanager
def transactions(engine: Engine) -> Iterator[list[int]]:
    """Counts the transactions begun on ``engine`` while open (in its one element)."""
    count = [0]

    def begun(_connection: Connection) -> None:
        count[0] += 1

    event.listen(engine, "begin", begun)
    try:
        yield count
    finally:
        event.remove(engine, "begin", begun)


async def _start(
    service: GameService, game: str, seats: list[SeatRequest], clock: ClockOptions | None = None
) -> tuple[str, dict[int, str]]:
    created = await service.create(game, {}, seats, "http://test", clock=clock)
    tokens = {s.seat: s.token for s in created.seats if s.token}
    live = await service.live(created.id)
    for seat in tokens:
        await service.claim(live, seat)  # taking a seat is not part of a move
    return created.id, tokens


async def _move(service: GameService, engine: Engine, game_id: str, token: str, seat: int) -> int:
    """Seat ``seat`` plays its first legal action through the move's whole service
    path; returns the transactions it cost."""
    live = await service.live(game_id)
    action = live.game.action_to_str(live.state.legal_actions(seat)[0])
    with transactions(engine) as count:
        await service.act(game_id, token, action, live.version)
    return count[0]


def _run(database_url: str, body: Any) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    try:
        asyncio.run(body(GameService(Repository(engine)), engine))
    finally:
        engine.dispose()


def test_every_move_of_two_people_is_one_transaction(database_url: str) -> None:
    async def play(service: GameService, engine: Engine) -> None:
        people = [SeatRequest(), SeatRequest()]
        game_id, tokens = await _start(service, "toy_duel", people)
        live = await service.live(game_id)
        assert live.state.to_move().kind is NodeKind.PLAYER
        assert await _move(service, engine, game_id, tokens[0], 0) == 1
        live = await service.live(game_id)
        assert live.state.to_move().kind is NodeKind.SIMULTANEOUS
        version = live.version
        assert await _move(service, engine, game_id, tokens[0], 0) == 1  # it waits
        assert (await service.live(game_id)).version == version
        assert await _move(service, engine, game_id, tokens[1], 1) == 1  # it completes
        live = await service.live(game_id)
        stored = service.repository.moves(game_id)
        assert live.version == len(stored) > version
        assert stored[version]["joint"] and live.submitted == frozenset()

    _run(database_url, play)


def test_a_hinted_move_against_the_computer_is_one_transaction(database_url: str) -> None:
    async def play(service: GameService, engine: Engine) -> None:
        seats = [SeatRequest(), SeatRequest(kind=SeatKind.COMPUTER)]
        game_id, tokens = await _start(service, "toy_duel", seats)
        version = (await service.live(game_id)).version
        await service.note_hint(game_id, version, 0)
        assert await _move(service, engine, game_id, tokens[0], 0) == 1
        assert service.repository.moves(game_id)[version]["hinted"] == [0]

    _run(database_url, play)


def test_the_completing_choice_reads_hints_and_chess_clock_in_its_transaction(
    database_url: str,
) -> None:
    async def play(service: GameService, engine: Engine) -> None:
        seats = [SeatRequest(), SeatRequest(kind=SeatKind.COMPUTER)]
        chess = ClockOptions(mode=ClockMode.CHESS, seconds=600, increment=5)
        game_id, tokens = await _start(service, "cards", seats, chess)
        live = await service.live(game_id)
        assert live.state.to_move().kind is NodeKind.SIMULTANEOUS
        assert live.stored.clock is not None and live.stored.clock["since"] is not None
        version = live.version
        computer = live.game.action_to_str(live.state.legal_actions(1)[0])
        await service.submit(game_id, 1, computer, version)  # the computer chose first
        await service.note_hint(game_id, version, 0)
        assert await _move(service, engine, game_id, tokens[0], 0) == 1
        joint = service.repository.moves(game_id)[version]
        assert joint["hinted"] == [0] and set(joint["joint"]) == {"0", "1"}
        live = await service.live(game_id)
        assert live.version > version
        stored = service.repository.get_game(game_id)
        assert stored is not None and stored.clock == live.stored.clock
        assert stored.deadline is not None

    _run(database_url, play)
