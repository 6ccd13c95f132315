"""Fixtures: the app on a temporary SQLite file (PostgreSQL where a test asks for it)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from koth.server.app import create_app
from koth.server.settings import Settings
from tests.server.quiz.helpers import QuizApi


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'quiz.sqlite3'}"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database=sqlite_url, computer_delay=0.0))) as c:
        yield c


@pytest.fixture
def api(client: TestClient) -> QuizApi:
    return QuizApi(client)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class ServerProcess:
    """``koth serve`` as a real process (so it can be killed with SIGKILL)."""

    database: str
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        koth = Path(sys.executable).with_name("koth")
        command = [str(koth), "serve", "--port", str(self.port), "--database", self.database]
        env = {**os.environ, "KOTH_COMPUTER_DELAY": "0"}
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"koth serve exited with {self.process.returncode}")
            try:
                if httpx.get(f"{self.url}/quiz", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("koth serve did not start in time")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ServerProcess]:
    proc = ServerProcess(sqlite_url)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()
