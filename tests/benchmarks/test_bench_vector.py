"""The batched engines' benchmark runs and prints its rows (no timing is asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_vector_benchmark_prints_every_row_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "rows.json"
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_vector.py")]
    args = ["--seconds", "0.2", "--rounds", "1", "--batch", "8", "--json", str(out)]
    result = subprocess.run(
        [*command, *args], capture_output=True, text=True, timeout=600, check=True
    )
    assert "goofspiel" in result.stdout and "GameState" in result.stdout
    rows = json.loads(out.read_text(encoding="utf-8"))
    apis = [row["api"] for row in rows]
    assert apis[:3] == ["pyspiel (OpenSpiel)", "GameState", "CardsBatch(8), 1 worker"]
    assert "CardsVectorEnv(8)" in apis and "CardsParallelBatch(8)" in apis
    board = [row for row in rows if row["engine"] == "koth board"]
    assert [row["api"] for row in board][:2] == ["GameState", "BoardBatch(8), 1 worker"]
    assert board[1]["memory_per_1000"] > 0
    assert all(row["steps"] > 0 for row in rows)
    assert rows[2]["memory_per_1000"] > 0
