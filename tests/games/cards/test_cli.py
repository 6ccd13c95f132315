"""`koth play cards` driven through the real command line with scripted input."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from koth.cli import app

RUNNER = CliRunner()
ALWAYS_FIRST = "1\n" * 800


def play(*args: str, text: str = ALWAYS_FIRST) -> tuple[int, str]:
    result = RUNNER.invoke(app, ["play", "cards", *args], input=text)
    return result.exit_code, result.output


def test_a_whole_game_is_played_to_the_end_by_always_answering_1(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, out = play("--seed", "4", "--record", str(record))
    assert code == 0, out
    assert "Game over:" in out
    assert "Choose your reserve" in out
    assert "your hand:" in out
    saved = json.loads(record.read_text())
    assert saved["game"] == "cards" and saved["meta"]["seed"] == 4
    replayed = RUNNER.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
    assert "moves replayed" in replayed.output


def test_the_same_seed_and_input_give_the_same_game(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    play("--seed", "9", "--record", str(first))
    play("--seed", "9", "--record", str(second))
    assert first.read_text() == second.read_text()


def test_bad_input_is_explained_and_asked_again() -> None:
    # 12 reserve answers, then at the first stack choice: junk, a bad number, a covered
    # stack, a valid notation; then always the first option
    script = "1\n" * 12 + "blah\n99\nstack A\nhelp\nstack K\n" + ALWAYS_FIRST
    code, out = play("--seed", "2", text=script)
    assert code == 0, out
    assert "is not a card game action" in out
    assert "choose a number from 1 to 5" in out
    assert "the apex may be chosen only when both B and C are gone (rule C3)" in out
    assert "type a number from the list or an action" in out
    assert "Stack K:" in out  # the stack chosen by notation was fought for


def test_the_reserve_choice_accepts_notation_and_refuses_other_cards() -> None:
    script = "reserve JK\n" + "2\n" * 11 + ALWAYS_FIRST
    code, out = play("--seed", "5", text=script)
    assert code == 0, out
    assert "decide on" in out  # "reserve JK" is not the first card to decide on


def test_end_of_input_stops_the_game_cleanly(tmp_path: Path) -> None:
    record = tmp_path / "partial.json"
    code, out = play("--seed", "1", "--record", str(record), text="1\n" * 5)
    assert code == 1
    assert "End of input" in out
    assert json.loads(record.read_text())["meta"]["finished"] is False


def test_hotseat_hides_the_table_between_players() -> None:
    code, out = play("--seed", "3", "--hotseat")
    assert code == 0, out
    assert "Pass the terminal to player 0" in out
    assert "Pass the terminal to player 1" in out
    assert "you: player 1" in out and "you: player 0" in out
    assert "you: spectator" in out  # the final table shows no hand


def test_playing_the_second_seat_against_the_computer() -> None:
    code, out = play("--seed", "6", "--human", "1", "--jokers", "2", "--tens-equal")
    assert code == 0, out
    assert "you: player 1" in out and "you: player 0" not in out


def test_an_unknown_opponent_is_refused() -> None:
    code, out = play("--vs", "nobody")
    assert code == 2
    assert "unknown agent 'nobody'" in out


def test_every_agent_with_its_budget_can_be_the_opponent() -> None:
    code, out = play("--vs", "ismcts:iters=20", "--seed", "4")
    assert code == 0, out
    assert "Game over" in out
