"""SIGTERM to ``koth simulate`` stops it as Ctrl-C does: no worker is left running, and
the games finished so far are written."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (read from /proc: children, theirs, ...)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _finished(output: str) -> int:
    """The most games the progress bar has counted so far ("12/20000")."""
    return max((int(n) for n in re.findall(r"(\d+)/20000\b", output)), default=0)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_sigterm_stops_the_workers_and_keeps_the_finished_games(tmp_path: Path) -> None:
    out = tmp_path / "out"
    command = [
        sys.executable,
        "-c",
        "from koth.cli import main; main()",
        "simulate",
        "cards",
        "--agents",
        "random,random",
        "--games",
        # far more than the workers finish before the signal
        "20000",
        "--workers",
        "2",
        "--out",
        str(out),
    ]
    env = {
        **os.environ,
        "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
        # the progress bar is drawn into the log file too: it says when games have finished
        "TTY_COMPATIBLE": "1",
        "TTY_INTERACTIVE": "1",
        "COLUMNS": "200",
    }
    log = tmp_path / "output.txt"
    with log.open("w") as sink:
        process = subprocess.Popen(command, env=env, stdout=sink, stderr=subprocess.STDOUT)
    try:
        workers: set[int] = set()
        deadline = time.monotonic() + 120
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = _descendants(process.pid)
        assert len(workers) >= 2, "the worker processes never started"
        # some games have finished (the bar counts them), however busy the machine is
        deadline = time.monotonic() + 180
        while not _finished(log.read_text()) and time.monotonic() < deadline:
            time.sleep(0.2)
        seen = _finished(log.read_text())
        assert seen, "no game finished"
        workers = _descendants(process.pid)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=240)  # the report is written then
    finally:
        if process.poll() is None:
            process.kill()
    output = log.read_text()
    assert "Traceback" not in output, output
    assert "interrupted" in output
    deadline = time.monotonic() + 60
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [w for w in workers if _alive(w)], "orphaned worker processes remain"
    document = json.loads((out / "results.json").read_text())
    assert document["interrupted"] and seen <= document["games_finished"] < 20000
