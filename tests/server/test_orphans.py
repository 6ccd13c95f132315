"""Under ``koth serve --workers N`` the workers stop when their supervisor dies: no
orphan keeps serving (and holding the port) after a kill -9 of the supervisor."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx

from tests.server.conftest import postgres_schema
from tests.server.live_server import LiveServer


def children_of(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        # "pid (name) state ppid ...": the name may hold spaces, so split after it
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has stopped


def test_workers_stop_when_their_supervisor_is_killed() -> None:
    with postgres_schema("koth_orphans") as url:
        server = LiveServer(url, workers=2).start(timeout=90)
        assert server.process is not None
        workers: set[int] = set()
        try:
            deadline = time.monotonic() + 60
            while len(workers := children_of(server.process.pid)) < 2:
                assert time.monotonic() < deadline, "the workers never started"
                time.sleep(0.1)
            assert httpx.get(f"{server.url}/healthz", timeout=10).status_code == 200
            server.kill()  # the supervisor only: no shutdown code runs
            deadline = time.monotonic() + 60
            while any(alive(pid) for pid in workers):
                assert time.monotonic() < deadline, "orphaned workers kept serving"
                time.sleep(0.1)
        finally:
            for pid in workers:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
