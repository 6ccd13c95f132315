"""``koth play board`` driven through Typer with scripted input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from koth.cli import app
from koth.core.record import GameRecord, replay

runner = CliRunner()


@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_game_is_played_through_the_cli(players: int, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(
        app,
        [
            "play",
            "board",
            "--players",
            str(players),
            "--seed",
            "5",
            "--set",
            "round_limit=6",
            "--record",
            str(record),
        ],
        input="1\n" * 2000,
    )
    assert result.exit_code == 0, result.output
    assert "the game is over" in result.output and "record saved" in result.output
    assert "You won" in result.output or "You lost" in result.output or "Draw" in result.output
    state = replay(GameRecord.load(record))
    assert state.is_terminal() and state.game.num_players == players
    again = runner.invoke(app, ["replay", str(record)])
    assert again.exit_code == 0 and "moves replayed" in again.output


def test_same_seed_same_game(tmp_path: Path) -> None:
    texts = []
    for name in ("a.json", "b.json"):
        runner.invoke(
            app,
            [
                "play",
                "board",
                "--seed",
                "9",
                "--set",
                "round_limit=3",
                "--record",
                str(tmp_path / name),
            ],
            input="1\n" * 500,
        )
        texts.append(json.loads((tmp_path / name).read_text())["moves"])
    assert texts[0] == texts[1]


def test_bad_input_is_explained_and_asked_again() -> None:
    result = runner.invoke(
        app,
        ["play", "board", "--seed", "2", "--set", "round_limit=2"],
        input="fly away\n999\nmove runner 1.0>1.1\n?\n" + "1\n" * 600,
    )
    assert result.exit_code == 0
    assert "is not a board action" in result.output
    assert "choose a number from 1 to" in result.output
    # a refused move speaks of seats and rules, never of "player 0" or the position
    assert "'move runner 1.0>1.1' is not allowed now:" in result.output
    assert "player 0" not in result.output and "; position" not in result.output
    assert "type a number from the list or an action" in result.output
    assert "a tutorial: /learn/board in the web app" in " ".join(result.output.split())


def test_hotseat_and_variants_with_typed_actions() -> None:
    result = runner.invoke(
        app,
        [
            "play",
            "board",
            "--players",
            "4",
            "--seat",
            "human",
            "--seat",
            "human",
            "--seat",
            "random",
            "--seat",
            "human",
            "--set",
            "teamplay=true",
            "--variant",
            "one-excluded",
            "--seed",
            "1",
            "--set",
            "round_limit=2",
        ],
        input="end\n" * 50 + "1\n" * 1500,
    )
    assert result.exit_code == 0, result.output
    assert "Seat 4's decision" in result.output and "the game is over" in result.output


def test_end_of_input_exits_cleanly(tmp_path: Path) -> None:
    record = tmp_path / "partial.json"
    result = runner.invoke(
        app, ["play", "board", "--seed", "3", "--record", str(record)], input="1\n1\n"
    )
    assert result.exit_code == 1 and "End of input" in result.output
    assert GameRecord.load(record).moves


def test_bad_options_are_refused() -> None:
    assert runner.invoke(app, ["play", "board", "--variant", "chess"]).exit_code == 2
    assert runner.invoke(app, ["play", "board", "--variant", "teamplay"]).exit_code == 2
    assert runner.invoke(app, ["play", "board", "--vs", "random", "--vs", "random"]).exit_code == 2


@pytest.mark.parametrize("spec", ["heuristic", "mcts:iters=10:max_rollout=10"])
def test_every_agent_with_its_budget_can_be_a_computer_seat(spec: str) -> None:
    result = runner.invoke(
        app,
        ["play", "board", "--vs", spec, "--seed", "3", "--set", "round_limit=2"],
        input="1\n" * 400,
    )
    assert result.exit_code == 0, result.output
    assert "the game is over" in result.output


def test_an_unknown_agent_is_refused_with_its_name() -> None:
    result = runner.invoke(app, ["play", "board", "--vs", "nobody"])
    assert result.exit_code == 2
    assert "nobody" in result.output


def _two_humans(*extra: str) -> str:
    args = ["play", "board", "--vs", "human", "--seed", "4", "--set", "round_limit=1", *extra]
    result = runner.invoke(app, args, input="\n" + "1\n" * 1500)
    assert result.exit_code == 0, result.output
    return result.output


def test_one_excluded_hotseat_hands_the_terminal_over_between_humans() -> None:
    output = _two_humans("--variant", "one-excluded")
    assert "Pass the terminal to Seat 1" in output
    assert "Pass the terminal to Seat 2" in output
    # every decision screen of a human follows a handover to that human
    for player in (0, 1):
        first_decision = output.index(f"Seat {player + 1}'s decision")
        assert output.rfind(f"Pass the terminal to Seat {player + 1}", 0, first_decision) >= 0


def test_a_public_hotseat_game_needs_no_handover() -> None:
    assert "Pass the terminal" not in _two_humans()


def test_the_handover_clears_a_real_terminal_before_and_after_the_pause(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    from rich.console import Console

    from koth.games import terminal

    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, highlight=False)
    monkeypatch.setattr(terminal, "read_line", lambda prompt: "")
    handover = terminal.Handover(console, True)
    handover.face(1)
    handover.face(1)  # the same person again: no pause
    text = screen.getvalue()
    assert text.count("Pass the terminal to Seat 2") == 1
    assert text.count("\x1b[2J") == 2  # cleared before the pause and after it


def test_end_with_dice_left_names_the_form_that_would_be_accepted() -> None:
    result = runner.invoke(
        app,
        ["play", "board", "--seed", "2", "--set", "round_limit=3"],
        input="end\n1\n" * 400,
    )
    assert result.exit_code == 0
    refused = [line for line in result.output.splitlines() if "'end' is not allowed now" in line]
    assert refused, result.output[-2000:]
    assert "; type 'end drop " in result.output
    assert "player 0" not in result.output
