"""``koth analyze``: the table, the chart, and one-line errors with exit code 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from koth.cli import EXIT_BAD_INPUT, app
from tests.analysis.records import board_center_left_to_the_enemy
from tests.cli_text import plain

runner = CliRunner()
QUIZ_PROTOCOL = Path(__file__).resolve().parents[2] / "examples" / "quiz" / "king_held.json"


def test_analyze_marks_the_blunder_and_writes_the_chart(tmp_path: Path) -> None:
    record, move = board_center_left_to_the_enemy()
    path = tmp_path / "board.json"
    record.save(path)
    chart = tmp_path / "chart.png"
    args = ["analyze", str(path), "--seat", "1", "--agent", "mcts:iters=60", "--out", str(chart)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    (row,) = [line for line in result.output.splitlines() if line.startswith(f"│ {move} ")]
    assert "?? blunder" in row and "end" in row
    assert "Seat 1:" in result.output
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        (None, [], "cannot read record"),
        ("not json", [], "not a valid koth record"),
        (QUIZ_PROTOCOL.read_text(), [], "quiz protocol"),
        ('{"format": "koth-record/1", "game": "quiz"}', [], "cannot be analysed"),
        ("VALID", ["--agent", "heuristic"], "needs a search agent"),
        ("VALID", ["--seat", "3"], "Seat 3 is not at this board table"),
        ("VALID", ["--out", "/no/such/folder/chart.png"], "no folder"),
    ],
    ids=["missing", "not-json", "quiz-protocol", "quiz-record", "agent", "seat", "out"],
)
def test_bad_input_is_one_error_and_exit_2(
    tmp_path: Path, content: str | None, args: list[str], message: str
) -> None:
    path = tmp_path / "record.json"
    if content == "VALID":
        board_center_left_to_the_enemy()[0].save(path)
    elif content is not None:
        path.write_text(content)
    result = runner.invoke(app, ["analyze", str(path), "--agent", "mcts:iters=5", *args])
    assert result.exit_code == EXIT_BAD_INPUT, result.output
    # the same error box as every command: one message, no traceback
    assert "Traceback" not in result.output
    assert "Error" in result.output and message in plain(result.output), result.output
