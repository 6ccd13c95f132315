"""Fixtures: the app on a temporary SQLite file (PostgreSQL where a test asks for it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from koth.server.app import create_app
from tests.server.conftest import make_settings
from tests.server.live_server import CHROMIUM_ARGS, LiveServer
from tests.server.quiz.helpers import QuizApi

CHROMIUM = "/usr/bin/chromium"


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
def browser() -> Iterator[Any]:
    """Chromium driven by Playwright (skipped where either is missing)."""
    playwright_sync = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed at /usr/bin/chromium")
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def server(sqlite_url: str) -> Iterator[LiveServer]:
    proc = LiveServer(sqlite_url)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()
