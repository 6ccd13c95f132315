"""The pure build's notice: told once, on a terminal or when asked, never in the
compiled build, and by the commands that simulate."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from koth import build
from koth.cli import app


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build, "_noticed", [])
    monkeypatch.delenv("KOTH_BUILD_NOTICE", raising=False)
    monkeypatch.setattr(build, "compiled_modules", lambda: [])


def test_the_pure_build_is_told_once_on_a_terminal_with_the_command() -> None:
    terminal = Terminal()
    assert build.notice_pure_build(terminal)
    assert not build.notice_pure_build(terminal)
    assert terminal.getvalue().count(build.COMPILED_BUILD_COMMAND) == 1
    assert "pure Python build" in terminal.getvalue()


def test_a_pipe_hears_nothing_unless_asked_and_zero_silences_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pipe = io.StringIO()
    assert not build.notice_pure_build(pipe)
    monkeypatch.setenv("KOTH_BUILD_NOTICE", "0")
    assert not build.notice_pure_build(Terminal())
    monkeypatch.setenv("KOTH_BUILD_NOTICE", "1")
    assert build.notice_pure_build(pipe) and pipe.getvalue()


def test_the_compiled_build_is_not_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build, "compiled_modules", lambda: list(build.COMPILED_MODULES))
    assert build.pure_build_notice() is None
    assert not build.notice_pure_build(Terminal())


def test_koth_simulate_tells_the_pure_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KOTH_BUILD_NOTICE", "1")
    args = ["simulate", "cards", "--agents", "random,random", "--games", "1"]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "sim")])
    assert result.exit_code == 0, result.output
    assert build.COMPILED_BUILD_COMMAND in result.output
