"""The computer's search processes never outlive the server that started them."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

START = "from koth.server.games.worker import _start_worker; _start_worker((), {pid}); print('up')"


@pytest.mark.parametrize(
    ("server_pid", "stays"),
    [("os.getppid()", True), ("1", False)],
    ids=["its server lives", "orphaned while starting"],
)
def test_a_search_process_orphaned_while_starting_leaves_at_once(
    server_pid: str, stays: bool
) -> None:
    # the process that runs the snippet stands for a pool worker; its parent (this test)
    # is "the server" unless the server's pid is another one (it died meanwhile)
    code = "import os; " + START.format(pid=server_pid)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=os.environ
    )
    assert done.returncode == 0, done.stderr
    assert (done.stdout.strip() == "up") is stays
