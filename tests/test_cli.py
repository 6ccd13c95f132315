"""The `koth` command line skeleton: version, help and replay."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from koth import __version__
from koth.cli import EXIT_BAD_INPUT, app
from koth.core.chance import random_game
from koth.core.record import GameRecord
from tests.cli_text import plain
from tests.core.toy_game import SecretDuel

runner = CliRunner()


def test_version_and_help() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and __version__ in result.output
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0 and "replay" in result.output and "play" in result.output


def test_replay_prints_the_final_state(tmp_path: Path) -> None:
    path = tmp_path / "duel.json"
    state = random_game(SecretDuel(), seed=5)
    GameRecord.from_state(state).save(path)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "4 moves replayed" in result.output
    assert "game over (fold): Seat 2 won" in result.output

    result = runner.invoke(app, ["replay", str(path), "--json"])
    payload = json.loads(result.output)
    assert payload["ok"] and payload["moves"] == 4 and payload["terminal"]
    assert payload["state"] == SecretDuel().state_to_json(state.data)


def test_replay_reports_the_index_and_rule_of_an_illegal_move(tmp_path: Path) -> None:
    record = GameRecord.from_state(random_game(SecretDuel(), seed=5))
    record.moves[1] = record.moves[1].model_copy(update={"action": record.moves[0].action})
    path = tmp_path / "bad.json"
    record.save(path)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == EXIT_BAD_INPUT
    assert "move 1" in result.output and "illegal action" in result.output
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == EXIT_BAD_INPUT
    assert json.loads(result.output)["index"] == 1


def test_replay_rejects_missing_and_malformed_files(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nope.json")])
    assert result.exit_code == EXIT_BAD_INPUT and "cannot read record" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "toy_duel", "moves": [1, 2]')
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == EXIT_BAD_INPUT and "not a valid koth record" in result.output
    bad.write_text('{"game": "chess"}')
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == EXIT_BAD_INPUT and "unknown game 'chess'" in result.output


@pytest.mark.parametrize(
    "command",
    [
        ["play", "cards"],
        ["play", "board"],
        ["simulate"],
        ["analyze"],
        ["serve"],
        ["replay"],
        ["quiz", "score"],
        ["quiz", "pack", "check"],
    ],
)
def test_help_is_reflowed_and_shows_no_bool_type(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "80", "TERMINAL_WIDTH": "80"})
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.output
    lines = result.output.splitlines()
    intro = lines[: next(k for k, line in enumerate(lines) if line.startswith("╭"))]
    # a paragraph's lines are filled to the width: none ends after a word or two
    # unless the paragraph ends there (a blank line follows)
    for line, after in itertools.pairwise(intro):
        if line.strip() and after.strip():
            assert len(line.rstrip()) > 50, line


def test_notation_in_brackets_is_shown_in_help_and_errors() -> None:
    result = runner.invoke(
        app, ["play", "board", "--seed", "2"], input="?\nmove runner 1.0>1.1 [by pair]\n"
    )
    text = plain(result.output)
    assert "recruit <unit> [by move]" in text and "[by recruit|pair]" in text
    assert "[by <pay>+<pay>]" in text
