"""A (re)start loads only the games that owe a computer move (an index says which);
every other game waits in the database until it is asked for, and unfinished games
nobody moved in for the abandon days expire."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import update

from koth.server.app import create_app
from koth.server.database import make_engine, migrate
from koth.server.games.rows import GameRow, StoredSeat
from koth.server.games.schemas import GameStatus, SeatKind
from koth.server.games.store import Repository
from tests.server.conftest import make_settings

HUMANS = [StoredSeat(s, SeatKind.HUMAN, None, None, f"h{s}", True) for s in (0, 1)]
COMPUTER_FIRST = [StoredSeat(0, SeatKind.COMPUTER, "random", None, None, True), HUMANS[1]]
#: toy duel after its two deals: seat 0 stakes
DEALT = [{"player": -1, "action": "deal 1"}, {"player": -1, "action": "deal 2"}]


def until(check: Callable[[], bool], ceiling: float = 60.0) -> None:
    """Wait for ``check`` to hold (a generous ceiling: CI is a loaded machine)."""
    deadline = time.monotonic() + ceiling
    while not check():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.05)


def stored(url: str) -> Repository:
    engine = make_engine(url)
    migrate(engine)
    return Repository(engine)


def add(repository: Repository, game_id: str, seats: list[StoredSeat], due: bool) -> None:
    repository.create_game(
        game_id=game_id,
        game_name="toy_duel",
        params={"max_card": 4},
        chance_seed=1,
        seats=seats,
        status=GameStatus.RUNNING,
        initial_moves=DEALT,
        computer_due=due,
    )


def test_a_start_loads_only_the_games_owing_a_computer_move(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'start.sqlite3'}"
    repository = stored(url)
    for n in range(200):
        add(repository, f"people{n:04d}", HUMANS, due=False)
    for n in range(3):
        add(repository, f"computer{n}", COMPUTER_FIRST, due=True)
    repository.engine.dispose()
    with TestClient(create_app(make_settings(url))) as client:
        games = client.app.state.games  # type: ignore[attr-defined]
        for n in range(3):  # the computer seats move: their games were loaded
            until(lambda n=n: client.get(f"/api/games/computer{n}").json()["version"] == 3)
        until(lambda: games.repository.due_game_ids() == [])  # each submitted its choice
        assert games.in_memory() == 3
        assert client.get("/api/games/people0000").json()["version"] == 2  # loaded now
        assert games.in_memory() == 4


def test_unfinished_games_nobody_moved_in_expire(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'expire.sqlite3'}"
    repository = stored(url)
    for game_id in ("old", "recent", "oldfinished"):
        add(repository, game_id, HUMANS, due=False)
    long_ago = datetime.now(UTC) - timedelta(days=15)
    with repository._sessions.begin() as session:
        session.execute(
            update(GameRow).where(GameRow.id.in_(["old", "oldfinished"])).values(updated=long_ago)
        )
        session.execute(
            update(GameRow).where(GameRow.id == "oldfinished").values(status=GameStatus.FINISHED)
        )
    repository.engine.dispose()
    with TestClient(create_app(make_settings(url, abandon_days=14))) as client:
        assert client.get("/api/games/old").status_code == 404  # deleted at start-up
        assert client.get("/api/games/recent").status_code == 200
        assert client.get("/api/games/oldfinished").status_code == 200
