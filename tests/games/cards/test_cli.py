"""`koth play cards` driven through the real command line with scripted input."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from koth.cli import app

RUNNER = CliRunner()
#: the whole reserve kept in hand, then always the first option
ALWAYS_FIRST = "done\n" + "1\n" * 800

HOTSEAT = "\ndone\n" * 2 + "1\n" * 1600


def play(*args: str, text: str = ALWAYS_FIRST) -> tuple[int, str]:
    result = RUNNER.invoke(app, ["play", "cards", *args], input=text)
    return result.exit_code, result.output


def test_a_whole_game_is_played_to_the_end_by_always_answering_1(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, out = play("--seed", "4", "--record", str(record))
    assert code == 0, out
    assert "You won: you took the apex" in out or "You lost: Seat 2 took the apex" in out
    assert "Choose your reserve" in out and "Your reserve: empty" in out
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
    # the reserve kept in hand, then at the first stack choice: junk, a bad number, a
    # covered stack, a valid notation; then always the first option
    script = "done\nblah\n99\nstack A\nhelp\nstack K\n" + ALWAYS_FIRST
    code, out = play("--seed", "2", text=script)
    assert code == 0, out
    out = " ".join(out.split())  # messages wrap at the terminal's width
    assert "is not a card game action" in out
    assert "choose a number from 1 to 5" in out
    assert "the apex may be chosen only when both B and C are gone (rule C3)" in out
    assert "type a number from the list or an action" in out
    assert "a tutorial: /learn/cards in the web app" in out
    assert "Stack K:" in out  # the stack chosen by notation was fought for


def test_the_reserve_is_chosen_on_one_screen_with_a_summary_and_undo(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    # JK and the first card to the reserve, a card that is not ours refused, the first
    # card back again by undo... then the first card by number once more, done
    script = "JK 1\nzz\n2\nundo\ndone\n" + "1\n" * 800
    code, out = play("--seed", "5", "--record", str(record), text=script)
    assert code == 0, out
    assert "'zz' is none of your cards" in out
    assert out.count("reserve* (2)") >= 2  # after "JK 1", and again after the undo
    assert "reserve* (3)" in out  # after "2", before the undo
    summary = out.split("Your reserve:")[1].split(";")[0]
    assert "JK" in summary and len(summary.split()) == 2
    moves = json.loads(record.read_text())["moves"]
    mine = [m["joint"]["0"] for m in moves if m.get("joint")][:12]
    assert sum(a.startswith("reserve") for a in mine) == 2 and "reserve JK" in mine


def test_end_of_input_stops_the_game_cleanly(tmp_path: Path) -> None:
    record = tmp_path / "partial.json"
    code, out = play("--seed", "1", "--record", str(record), text="done\n" + "1\n" * 5)
    assert code == 1
    assert "End of input" in out
    assert json.loads(record.read_text())["meta"]["finished"] is False


def test_hotseat_hides_the_table_between_players() -> None:
    # each person sits down (Enter) and keeps the whole reserve in hand
    code, out = play("--seat", "human", "--seat", "human", "--seed", "3", text=HOTSEAT)
    assert code == 0, out
    assert "Pass the terminal to Seat 1" in out
    assert "Pass the terminal to Seat 2" in out
    assert "you: Seat 2" in out and "you: Seat 1" in out
    assert "every hand shown" in out and "its hand:" in out  # the end shows every hand
    assert "spectator" not in out
    assert "Seat 1 won: took the apex" in out or "Seat 2 won: took the apex" in out


def test_the_old_hotseat_flag_still_works() -> None:
    code, out = play("--seed", "3", "--hotseat", text=HOTSEAT)
    assert code == 0, out
    assert "Pass the terminal to Seat 2" in out


def test_playing_the_second_seat_against_the_computer() -> None:
    code, out = play(
        "--seat",
        "random",
        "--seat",
        "human",
        "--seed",
        "6",
        "--set",
        "jokers=2",
        "--set",
        "tens_equal=true",
    )
    assert code == 0, out
    assert "you: Seat 2" in out and "you: Seat 1" not in out
    assert "Seat 1 (random): stack" in out  # the computer's choice of stack is announced
    code, old = play("--seed", "6", "--human", "1", "--jokers", "2", "--tens-equal")
    assert code == 0 and old.count("you: Seat 2") == out.count("you: Seat 2")


def test_an_unknown_opponent_is_refused() -> None:
    code, out = play("--vs", "nobody")
    assert code == 2
    assert "unknown agent 'nobody'" in out and "Seat 2" in out


def test_every_agent_with_its_budget_can_be_the_opponent() -> None:
    code, out = play("--vs", "ismcts:iters=20", "--seed", "4")
    assert code == 0, out
    assert "took the apex" in out or "Draw" in out


def test_a_refused_move_says_why_in_seat_names_and_the_engine_text_under_debug() -> None:
    text = "?\ndone\nstack A\n" + ALWAYS_FIRST
    code, out = play("--seed", "1", "--vs", "random", text=text)
    assert code == 0, out
    said = " ".join(out.split())
    assert "'stack A' is not allowed now: the apex may be chosen only when" in said
    assert "player 0" not in said and "player 1" not in said
    assert "type the numbers of the cards to move between hand and reserve" in said  # ?
    assert "is none of your cards" not in said
    code, out = play("--seed", "1", "--vs", "random", "--debug", text=text)
    assert code == 0 and "illegal action 'stack A' by player" in " ".join(out.split())
