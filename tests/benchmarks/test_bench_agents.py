"""The strength benchmark's journal: a long run resumes where it stopped."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(journal: Path, games: int) -> str:
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_agents.py")]
    command += ["--only", "cards", "--opponent", "random", "--iters", "3"]
    command += ["--games", str(games), "--journal", str(journal)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
    return done.stdout


def test_a_journaled_run_skips_and_counts_the_games_it_holds(tmp_path: Path) -> None:
    journal = tmp_path / "games.jsonl"
    _run(journal, 2)
    first = [json.loads(line) for line in journal.read_text().splitlines()]
    assert sorted(line["index"] for line in first) == [0, 1]
    assert first[0]["key"] == ["cards", "ismcts:iters=3", "random", 0]

    output = _run(journal, 3)
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    assert lines[:2] == first  # kept, not replayed
    assert [line["index"] for line in lines[2:]] == [2]
    assert "2 games from the journal" in output
    row = [line for line in output.splitlines() if line.startswith("cards ")][-1]
    assert row.split()[3] == "3"  # the table counts all three games


def test_a_broken_journal_line_is_named(tmp_path: Path) -> None:
    journal = tmp_path / "games.jsonl"
    journal.write_text('{"key": []}\nnot json\n')
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_agents.py")]
    command += ["--only", "cards", "--iters", "3", "--games", "1", "--journal", str(journal)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    assert f"{journal}:2: not a JSON line" in done.stderr


def test_journal_only_reports_without_playing(tmp_path: Path) -> None:
    journal = tmp_path / "games.jsonl"
    _run(journal, 2)
    before = journal.read_text()
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_agents.py")]
    command += ["--only", "cards", "--iters", "3", "--games", "50", "--journal", str(journal)]
    done = subprocess.run(
        [*command, "--journal-only"], capture_output=True, text=True, timeout=300, check=True
    )
    assert journal.read_text() == before  # nothing played
    rows = [line for line in done.stdout.splitlines() if line.startswith("cards ")]
    assert rows and rows[-1].split()[3] == "2"  # the 2 journaled games vs random
    assert not any("heuristic" in row for row in rows)  # no games: no row


def test_journal_only_tells_apart_games_against_differently_calibrated_bots(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "games.jsonl"
    key = ["cards", "ismcts:iters=3", "os-ismcts", 0]
    played = [("os-ismcts:sims=5", True), ("os-ismcts:sims=5", False), ("os-ismcts:sims=9", True)]
    lines = [
        {
            "key": key,
            "opponent": opponent,
            "index": index,
            "win": win,
            "loss": not win,
            "think": [1.0, 2],
            "opponent_think": [3.0, 2],
        }
        for index, (opponent, win) in enumerate(played)
    ]
    journal.write_text("".join(json.dumps(line) + "\n" for line in lines))
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_agents.py")]
    command += ["--only", "cards", "--opponent", "os-ismcts", "--openspiel", "--iters", "3"]
    command += ["--games", "10", "--journal", str(journal), "--journal-only"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
    rows = done.stdout.splitlines()
    total = next(row for row in rows if row.startswith("cards ") and "%" in row)
    assert "os-ismcts:sims=5/9" in total and total.split()[3] == "3"
    parts = [row.split() for row in rows if "of which" in row]
    assert [(p[2], p[3], p[4]) for p in parts[:2]] == [
        ("os-ismcts:sims=5", "2", "50.0%"),
        ("os-ismcts:sims=9", "1", "100.0%"),
    ]
    assert "s/move 0.50 vs 1.50" in rows[rows.index(total) + 1]
    # nothing was calibrated, so the header names the bot's kind, not a made-up "sims=0"
    assert "cards ismcts:iters=3 vs os-ismcts: 3 games from the journal" in rows
    assert "sims=0" not in done.stdout
