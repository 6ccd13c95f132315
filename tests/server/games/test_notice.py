"""A change made by another process reaches the tables connected here, also when this
process has dropped the game from memory (after a stale write of its own)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from koth.server.database import make_engine, migrate
from koth.server.games.service import GameService
from koth.server.games.store import Repository
from tests.server.games.toy_tables import store_toy_duel


class Sink:
    def __init__(self) -> None:
        self.sent: list[dict[str, object]] = []

    async def send_text(self, data: str) -> None:
        self.sent.append(json.loads(data))


def test_a_dropped_game_still_tells_its_tables_of_another_process_change(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'koth.sqlite3'}")
    migrate(engine)
    try:
        asyncio.run(_dropped_game_hears_the_change(Repository(engine)))
    finally:
        engine.dispose()


async def _dropped_game_hears_the_change(repository: Repository) -> None:
    store_toy_duel(repository, "g")
    service = GameService(repository)
    sink = Sink()
    await service.subscribe("g", sink, None)
    service.forget("g")  # as after a stale write: the next use replays it
    # another process appends a move and announces it
    repository.append_moves("g", 1, [{"player": -1, "action": "deal 2"}])
    await service.on_notice("g", 2, origin="elsewhere")
    await service.settled()
    assert sink.sent and sink.sent[-1]["version"] == 2
