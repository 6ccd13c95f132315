"""What a command needs (an optional extra, an output format) is checked before it does
any work: one error naming the need and how to meet it, exit code 2, no traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import koth.analysis.cli
import koth.sim.cli
from koth.cli import app
from koth.games.terminal import EXIT_BAD_INPUT
from tests.analysis.records import board_center_left_to_the_enemy
from tests.cli_text import plain

runner = CliRunner()


def _no_work(*args: object, **kwargs: object) -> None:
    raise AssertionError("the work started before the check")


def _refused(args: list[str]) -> str:
    # wide enough that the error box never folds a long temporary path
    result = runner.invoke(app, args, input="", env={"COLUMNS": "400"})
    text = plain(result.output)
    assert result.exit_code == EXIT_BAD_INPUT, text
    assert "Traceback" not in text
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return text


@pytest.mark.parametrize("missing", ["numpy", "matplotlib"])
def test_simulate_names_the_missing_extra_before_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    monkeypatch.setitem(sys.modules, missing, None)  # an import of it fails
    monkeypatch.setattr(koth.sim.cli, "run_tournament", _no_work)
    out = tmp_path / "out"
    args = ["simulate", "cards", "--agents", "random,random", "--games", "2", "--out", str(out)]
    text = _refused(args)
    assert "koth simulate needs the 'sim' extra (" in text
    assert text.split("extra (")[1].split(")")[0].startswith(missing)  # named first
    assert "pip install '.[sim]'" in text and "make install" in text
    assert not out.exists()


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    record, _ = board_center_left_to_the_enemy()
    path = tmp_path / "board.json"
    record.save(path)
    return path


@pytest.mark.parametrize("name", ["chart.txt", "chart", "chart.jpeg"])
def test_analyze_refuses_an_unknown_chart_format_before_analysing(
    record_file: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setattr(koth.analysis.cli, "analyse_record", _no_work)
    out = record_file.parent / name
    text = _refused(["analyze", str(record_file), "--out", str(out)])
    assert f"cannot write the chart to {out}: name a .png, .svg, .pdf file" in text
    assert not out.exists()


def test_analyze_names_the_missing_extra_before_analysing(
    record_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setattr(koth.analysis.cli, "analyse_record", _no_work)
    out = record_file.parent / "chart.png"
    text = _refused(["analyze", str(record_file), "--out", str(out)])
    assert "koth analyze --out needs the 'sim' extra (matplotlib is not installed)" in text
    assert "pip install '.[sim]'" in text


@pytest.mark.parametrize("suffix", [".svg", ".pdf"])
def test_analyze_writes_each_allowed_chart_format(record_file: Path, suffix: str) -> None:
    out = record_file.parent / f"chart{suffix}"
    args = ["analyze", str(record_file), "--seat", "1", "--agent", "mcts:iters=20"]
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    head = out.read_bytes()[:5]
    assert head == (b"%PDF-" if suffix == ".pdf" else b"<?xml")
