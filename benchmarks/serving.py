"""``koth serve`` as a subprocess on a free port, for the benchmarks that load the server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_koth(
    database: str,
    env: Mapping[str, str] | None = None,
    args: Sequence[str] = (),
    ready_path: str = "/readyz",
    timeout: float = 60.0,
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``koth serve`` on ``database``; return the process and its base URL once
    ``ready_path`` answers 200. ``BENCH_SERVER_PREFIX`` replaces the ``koth`` command
    (for example ``py-spy record -o p.svg -- koth``)."""
    port = free_port()
    koth = Path(sys.executable).with_name("koth")
    prefix = os.environ.get("BENCH_SERVER_PREFIX", "").split() or [str(koth)]
    process = subprocess.Popen(
        [*prefix, "serve", "--port", str(port), "--database", database, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "KOTH_COMPUTER_DELAY": "0", **(env or {})},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"koth serve exited with {process.returncode}")
        try:
            if httpx.get(f"{url}{ready_path}", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("koth serve did not start")
