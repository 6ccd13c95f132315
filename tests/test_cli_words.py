"""What the commands say to a person: help in whole sentences with examples that work for
the game at hand, refusals that list what would be accepted, output that fits the width."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from koth.cli import app
from koth.games.board.params import BoardParams
from koth.games.cards.params import CardsParams
from koth.games.terminal import EXIT_BAD_INPUT
from tests.cli_text import plain

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "quiz"
COMMANDS = [
    ["serve"],
    ["analyze"],
    ["simulate"],
    ["play", "cards"],
    ["play", "board"],
    ["replay"],
    ["quiz", "score"],
    ["quiz", "pack", "check"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_fits_80_columns_whole(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80
    assert "…" not in result.output, "a help text was cut"
    assert "<bool>" not in result.output


@pytest.mark.parametrize(
    ("game", "params"), [("cards", CardsParams), ("board", BoardParams)]
)  # fmt: skip
def test_the_set_help_gives_an_example_that_the_game_accepts(game: str, params: type) -> None:
    text = plain(runner.invoke(app, ["play", game, "--help"], env={"COLUMNS": "200"}).output)
    examples = re.findall(rf"(\w+)=(\w+) for {game}", text)
    assert examples, text
    for key, value in examples:
        params.parse({key: int(value) if value.isdigit() else value == "true"})


@pytest.mark.parametrize(
    ("args", "valid"),
    [
        (["play", "cards", "--set", "round_limit=20"], "jokers, tens_equal, dealer"),
        (["play", "board", "--set", "tens_equal=true"], "num_players, runner_range"),
        (["simulate", "cards", "--agents", "random,random", "--set", "round_limit=20"],
         "jokers, tens_equal, dealer"),
    ],
)  # fmt: skip
def test_a_refused_option_lists_the_valid_ones(args: list[str], valid: str) -> None:
    result = runner.invoke(app, args, input="")
    text = plain(result.output)
    assert result.exit_code == EXIT_BAD_INPUT, text
    assert "Traceback" not in text
    assert "unknown option" in text and f"(the options are: {valid}" in text
    assert "Extra inputs are not permitted" not in text


def test_pack_check_fits_the_width_asked_for() -> None:
    pack = str(EXAMPLES / "pack" / "pack.csv")
    for args, env, width in (
        (["--width", "60"], {}, 60),
        ([], {"COLUMNS": "80"}, 80),
        ([], {"COLUMNS": "100"}, 100),
    ):
        result = runner.invoke(app, ["quiz", "pack", "check", pack, *args], env=env)
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert max(len(line) for line in lines) <= width
        # the table is drawn whole: its right border is there
        assert any(line.endswith("┓") for line in lines)
    assert "5 questions, 1 backup question" in plain(result.output)


def test_a_file_problem_names_the_file_once(tmp_path: Path) -> None:
    (tmp_path / "pack.txt").write_text("hello")
    result = runner.invoke(app, ["quiz", "pack", "check", str(tmp_path / "pack.txt")])
    assert result.exit_code == EXIT_BAD_INPUT
    assert "pack.txt: a pack is a .csv" in result.output
    assert "pack.txt: pack.txt" not in result.output


def test_quiz_score_takes_several_protocols() -> None:
    files = sorted(str(p) for p in EXAMPLES.glob("*.json"))
    result = runner.invoke(app, ["quiz", "score", *files], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    for name in files:
        assert Path(name).name in result.output


def test_explain_says_each_thing_once_and_indents_its_wrapped_lines() -> None:
    protocol = str(EXAMPLES / "king_held.json")
    result = runner.invoke(app, ["quiz", "score", protocol, "--explain", "--width", "60"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "  Owls: ordinary, right: +1 step, +1 point (Q2)" in lines
    assert not [line for line in lines if re.search(r"right: .* — right", line)]
    first = lines.index(next(line for line in lines if line.startswith("Question 2:")))
    block = lines[first + 1 : first + 14]
    # a team's line that wraps goes on under its text, not at the left margin
    assert all(line.startswith("  ") for line in block if line.strip())
