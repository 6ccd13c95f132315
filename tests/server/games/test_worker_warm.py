"""A process that holds a game whose searching computer seat another process is
computing starts its own search pool ahead: if that process dies, the move taken over
here does not first wait for a search process to start."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from koth.server.database import make_engine, migrate
from koth.server.games.schemas import SeatKind
from koth.server.games.service import GameService, SeatRequest
from koth.server.games.store import Repository
from koth.server.games.worker import ComputerWorker


def driven(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str) -> tuple[bool, int]:
    """Whether the pool started, and the version of a card game whose seat 0 is the
    computer (``agent``) once this process looked at it, the move claimed elsewhere."""
    engine = make_engine(f"sqlite:///{tmp_path / 'koth.sqlite3'}")
    migrate(engine)
    games = GameService(Repository(engine))

    async def elsewhere(game_id: str) -> None:
        return None  # another process holds the game's claim

    monkeypatch.setattr(games, "claim_turn", elsewhere)
    worker = ComputerWorker(games, threads=1)

    async def scenario() -> tuple[bool, int]:
        seats = [SeatRequest(SeatKind.COMPUTER, agent), SeatRequest(SeatKind.HUMAN)]
        created = await games.create("cards", {}, seats, "http://test")
        version = (await games.live(created.id)).version
        await worker._drive(created.id)
        started = worker._processes is not None
        await worker.stop()
        return started, (await games.live(created.id)).version - version

    try:
        return asyncio.run(scenario())
    finally:
        engine.dispose()


def test_a_searching_seat_claimed_elsewhere_starts_the_search_pool_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started, moved = driven(tmp_path, monkeypatch, "mcts")
    assert started
    assert moved == 0  # the move is left to the claimant


def test_a_seat_that_does_not_search_starts_no_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started, moved = driven(tmp_path, monkeypatch, "random")
    assert not started and moved == 0
