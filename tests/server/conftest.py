"""Fixtures: the app on SQLite and on PostgreSQL (a fresh schema per test); the real server
and Chromium for the page tests."""

from __future__ import annotations

import contextlib
import uuid
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

# starlette's test client works with httpx but warns about it on import
warnings.filterwarnings("ignore", message="Using `httpx` with")
from fastapi.testclient import TestClient  # noqa: E402

import tests.core.toy_game  # noqa: E402, F401  (registers toy_duel)
from koth.server.app import create_app  # noqa: E402
from koth.server.settings import Settings  # noqa: E402
from tests.server.limits import GENEROUS_LIMITS  # noqa: E402
from tests.server.live_server import CHROMIUM_ARGS, LiveServer  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")

PG_HOST = "127.0.0.1:5432"
PG_DATABASE = "test"
_pg_cache: dict[str, str | None] = {}


def postgres_base_url() -> str | None:
    """A URL of the test database, or None when PostgreSQL is not reachable."""
    if "url" not in _pg_cache:
        _pg_cache["url"] = None
        for user in ("postgres", "root"):
            try:
                with psycopg.connect(
                    f"postgresql://{user}@{PG_HOST}/{PG_DATABASE}", connect_timeout=3
                ):
                    _pg_cache["url"] = f"postgresql+psycopg://{user}@{PG_HOST}/{PG_DATABASE}"
                    break
            except psycopg.Error:
                continue
    return _pg_cache["url"]


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'koth.sqlite3'}"
        return
    with postgres_schema("koth_test") as url:
        yield url


@contextlib.contextmanager
def postgres_schema(prefix: str) -> Iterator[str]:
    """A URL of a fresh schema of the test database, dropped afterwards (the test is
    skipped when PostgreSQL is not reachable)."""
    base = postgres_base_url()
    if base is None:
        pytest.skip(f"PostgreSQL is not reachable at {PG_HOST} (database {PG_DATABASE})")
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    plain = base.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{base}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(plain, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The real server (``koth serve`` on SQLite, the computer moving at once), started
    once a test process: each page test creates the games and events it looks at (the
    lobby lists the newest first), so what an earlier test left is never in its way."""
    database = tmp_path_factory.mktemp("shared-server") / "koth.sqlite3"
    live = LiveServer(f"sqlite:///{database}", computer_delay=0.0).start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture
def server(shared_server: LiveServer) -> LiveServer:
    """The shared real server, started again should a test have stopped it. A test that
    stops, freezes or kills the server takes one of its own instead."""
    if shared_server.process is None or shared_server.process.poll() is not None:
        shared_server.start()
    return shared_server


@contextlib.contextmanager
def launched_chromium() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (the test is skipped where either is missing)."""
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Chromium at {CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Chromium, launched once a module. Not once a session: Playwright's sync API leaves
    its event loop set on the thread, so a later test's ``asyncio.run`` would fail."""
    with launched_chromium() as launched:
        yield launched


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """The module's Chromium; every context a test opened is closed after it, so that no
    page of one test stays connected (and reconnecting) while the next runs."""
    yield chromium
    for context in list(chromium.contexts):
        context.close()


def make_settings(database_url: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database": database_url,
        "computer_delay": 0.0,
        **GENEROUS_LIMITS,
    }
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(database_url))) as test_client:
        yield test_client


@dataclass
class Created:
    id: str
    tokens: dict[int, str]
    body: dict[str, Any]

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}


def create_game(
    client: TestClient,
    game: str = "toy_duel",
    seats: list[dict[str, Any]] | None = None,
    **params: Any,
) -> Created:
    body: dict[str, Any] = {"game": game, "params": params}
    if seats is not None:
        body["seats"] = seats
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    tokens = {s["seat"]: s["token"] for s in data["seats"] if s["token"]}
    return Created(data["id"], tokens, data)
