"""Two processes on PostgreSQL look for the same clocks run out: each is acted on once,
by one of them (the compare-and-set on the game row), and both then see the same table.

Each "process" is a service of its own with its own engine (its own connections), as
two server processes have; they run their looks at once."""

from __future__ import annotations

import asyncio
import time

from koth.server.database import make_engine, migrate
from koth.server.games import clocks
from koth.server.games.clock_schemas import ClockMode, ClockOptions
from koth.server.games.rows import StoredSeat
from koth.server.games.schemas import GameStatus, SeatKind
from koth.server.games.service import GameService
from koth.server.games.store import Repository
from koth.server.games.timekeeping import TimeKeeper, as_time
from tests.server.conftest import postgres_schema

GAMES = 12


def test_a_clock_run_out_is_acted_on_once_across_processes() -> None:
    with postgres_schema("koth_clocks") as url:
        engine, other = make_engine(url), make_engine(url)
        migrate(engine)
        try:
            asyncio.run(_race(Repository(engine), Repository(other)))
        finally:
            engine.dispose()
            other.dispose()


def _store_run_out(repository: Repository, game_id: str) -> None:
    """A toy duel whose per-decision clock ran out a second ago (seat 0 to move)."""
    made = clocks.new_clock(ClockOptions(mode=ClockMode.MOVE, seconds=60, level="random"), 2)
    assert made is not None
    started = clocks.start(made, time.time() - 61)
    repository.create_game(
        game_id=game_id,
        game_name="toy_duel",
        params={"max_card": 4},
        chance_seed=1,
        seats=[StoredSeat(s, SeatKind.HUMAN, None, None, f"h{s}", True) for s in (0, 1)],
        status=GameStatus.RUNNING,
        initial_moves=[
            {"player": -1, "action": "deal 1"},
            {"player": -1, "action": "deal 2"},
        ],
        clock=started,
    )
    with repository.engine.begin() as connection:
        connection.exec_driver_sql(
            "UPDATE games SET deadline = %(at)s WHERE id = %(id)s",
            {"at": as_time(clocks.deadline(started, [0])), "id": game_id},
        )


async def _race(mine: Repository, theirs: Repository) -> None:
    ids = [f"race{i}" for i in range(GAMES)]
    for game_id in ids:
        _store_run_out(mine, game_id)
    first, second = GameService(mine), GameService(theirs)
    # each process holds every game in memory, as a server with its tables open does
    for game_id in ids:
        await first.live(game_id)
        await second.live(game_id)
    acted = await asyncio.gather(TimeKeeper(first).check(), TimeKeeper(second).check())
    assert sum(acted) == GAMES, acted  # each clock once, whichever process got there
    assert await TimeKeeper(first).check() == 0 and await TimeKeeper(second).check() == 0
    for game_id in ids:
        for service in (first, second):
            live = await service.reload(game_id)
            assert live.stored.clock is not None and live.stored.clock["computer"] == [0]
            assert live.seat_kind(0) is SeatKind.COMPUTER and live.seat_kind(1) is SeatKind.HUMAN
        stored = mine.get_game(game_id)
        assert stored is not None and stored.deadline is None  # nobody's clock runs now
    assert sorted(mine.due_game_ids()) == sorted(ids)  # the computer owes each a move
