"""The analysis benchmark runs and prints its figures (no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_analysis_benchmark_prints_a_row_per_record() -> None:
    command = [
        sys.executable,
        str(ROOT / "benchmarks" / "bench_analysis.py"),
        "--agent",
        "ismcts:iters=5",
        "--games",
        "1",
    ]
    out = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True).stdout
    rows = [line.split() for line in out.splitlines()[2:]]
    assert [row[0] for row in rows] == ["cards", "board"]
    assert all(int(row[2]) > 0 for row in rows)
