"""Fixtures: the app on a temporary SQLite file (PostgreSQL where a test asks for it); a
real server of a test's own (the page tests share tests/server/conftest.py's)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from koth.server.app import create_app
from tests.server.conftest import make_settings
from tests.server.live_server import LiveServer
from tests.server.quiz.helpers import QuizApi


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'quiz.sqlite3'}"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        yield c


@pytest.fixture
def api(client: TestClient) -> QuizApi:
    return QuizApi(client)


@pytest.fixture
def own_server(sqlite_url: str) -> Iterator[LiveServer]:
    """A real server of the test's own, on its own database."""
    proc = LiveServer(sqlite_url)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()
