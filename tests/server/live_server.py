"""The real server (``koth serve``) as a subprocess on a free port."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.server.limits import GENEROUS_LIMITS

REPO = Path(__file__).resolve().parents[2]
#: how the browser tests start Debian's Chromium (headless, in a container)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """``koth serve`` on 127.0.0.1:port with ``database``; start, kill, restart."""

    def __init__(
        self,
        database: str,
        port: int | None = None,
        computer_delay: float = 0.0,
        extra_games: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
        workers: int = 1,
    ) -> None:
        self.database = database
        self.workers = workers
        self.env = env or {}
        self.extra_games = list(extra_games)
        self.port = port or free_port()
        self.computer_delay = computer_delay
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"koth-server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120.0) -> LiveServer:
        env = {
            **os.environ,
            # this checkout's sources first, whatever koth the environment has installed
            "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)]),
            "KOTH_EXTRA_GAMES": json.dumps(self.extra_games),
            "KOTH_COMPUTER_DELAY": str(self.computer_delay),
            **{f"KOTH_{k.upper()}": str(v) for k, v in GENEROUS_LIMITS.items()},
            **self.env,
        }
        command = [
            sys.executable,
            "-c",
            "from koth.cli import main; main()",
            "serve",
            "--port",
            str(self.port),
            "--database",
            self.database,
            *(["--workers", str(self.workers)] if self.workers > 1 else []),
        ]
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"koth serve exited: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/catalog", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"koth serve did not start: {self.log_path.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, like a power cut of the process."""
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
