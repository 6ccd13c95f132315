"""The `koth` command line skeleton: version, help and replay."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from koth import __version__
from koth.cli import EXIT_BAD_INPUT, app
from koth.core.chance import random_game
from koth.core.record import GameRecord
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
