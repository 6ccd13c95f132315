"""Catching up with another process's commits: the game's version and its moves are
read in one snapshot, so a commit landing in the middle of a catch-up is never taken
for a gap in the stored moves (PostgreSQL, where processes share the database)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from sqlalchemy import event

from koth.server.database import make_engine, migrate
from koth.server.games.service import GameService
from koth.server.games.store import Repository
from tests.server.conftest import postgres_schema
from tests.server.games.toy_tables import store_toy_duel


def test_a_commit_during_a_catch_up_is_no_gap(caplog: pytest.LogCaptureFixture) -> None:
    with postgres_schema("koth_catchup") as url:
        engine, other = make_engine(url), make_engine(url)
        migrate(engine)
        try:
            asyncio.run(_catch_up_across_a_commit(Repository(engine), Repository(other), caplog))
        finally:
            engine.dispose()
            other.dispose()


async def _catch_up_across_a_commit(
    mine: Repository, theirs: Repository, caplog: pytest.LogCaptureFixture
) -> None:
    store_toy_duel(mine, "shared")
    service = GameService(mine)
    assert (await service.live("shared")).version == 1
    theirs.append_moves("shared", 1, [{"player": -1, "action": "deal 2"}])
    landed: list[int] = []

    def commit_meanwhile(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        # another process commits just as this one reads the moves
        if "FROM moves" in statement and not landed:
            landed.append(theirs.append_moves("shared", 2, [{"player": 0, "action": "stake 1"}]))

    event.listen(mine.engine, "before_cursor_execute", commit_meanwhile)
    with caplog.at_level(logging.WARNING, logger="koth.server.games.publishing"):
        live = await service.reload("shared")
    event.remove(mine.engine, "before_cursor_execute", commit_meanwhile)
    assert landed == [3]
    assert not [r for r in caplog.records if "gap" in str(r.exc_info) or "failed" in r.message]
    assert live is await service.live("shared")  # caught up in place, not replayed
    assert live.version == live.state.num_moves == 2
    assert (await service.reload("shared")).version == 3
