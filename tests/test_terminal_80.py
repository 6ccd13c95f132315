"""The games in a real 80-column terminal (tmux): no line is wider than the terminal,
and the cues a player needs are on screen."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WIDTH = 80

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    """One tmux session of 80 x ``height`` running one command, kept after it exits."""

    def __init__(self, command: list[str], height: int = 40) -> None:
        self.socket = f"koth-test-{uuid.uuid4().hex[:8]}"
        env = f"PYTHONPATH={shlex.quote(str(ROOT / 'src'))}"
        shell = f"cd {shlex.quote(str(ROOT))} && {env} {shlex.join(command)}"
        # the options first: a quick command must not take its pane (and output) along
        self.tmux(
            "-f", "/dev/null", "start-server",
            ";", "set-option", "-g", "history-limit", "100000",
            ";", "set-option", "-g", "remain-on-exit", "on",
            ";", "new-session", "-d", "-x", str(WIDTH), "-y", str(height), shell,
        )  # fmt: skip

    def tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], check=True, capture_output=True, text=True
        ).stdout

    def send(self, text: str, seconds: float = 60) -> None:
        """Type ``text`` and Enter once the program waits at a prompt: keys typed ahead
        would be echoed into the middle of its output."""
        deadline = time.monotonic() + seconds
        while not self.prompting():
            if self.exited():
                return
            assert time.monotonic() < deadline, self.text()[-3000:]
            time.sleep(0.05)
        self.tmux("send-keys", "-t", "0", "-l", text)
        self.tmux("send-keys", "-t", "0", "Enter")
        time.sleep(0.05)

    def prompting(self) -> bool:
        shown = [line for line in self.tmux("capture-pane", "-p", "-t", "0").splitlines()]
        last = next((line for line in reversed(shown) if line.strip()), "")
        return last.rstrip().endswith(">")

    def lines(self) -> list[str]:
        """Everything printed so far, each wrapped line joined back (-J): a line wider
        than the terminal shows as such."""
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "0").splitlines()

    def text(self) -> str:
        return "\n".join(self.lines())

    def screen(self) -> list[str]:
        """What the terminal shows now (its rows, no history)."""
        return self.tmux("capture-pane", "-p", "-t", "0").splitlines()

    def exited(self) -> bool:
        return self.tmux("display-message", "-p", "-t", "0", "#{pane_dead}").strip() == "1"

    def play_until_exit(self, answer: str, seconds: float = 240) -> None:
        deadline = time.monotonic() + seconds
        while not self.exited():
            assert time.monotonic() < deadline, self.text()[-3000:]
            self.send(answer)

    def close(self) -> None:
        path = self.tmux("display-message", "-p", "#{socket_path}").strip()
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
        Path(path).unlink(missing_ok=True)  # kill-server leaves the socket file behind


@pytest.fixture
def terminal() -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for t in opened:
        t.close()


def koth(*args: str) -> list[str]:
    return [sys.executable, "-c", "from koth.cli import main; main()", *args]


def _fits(lines: list[str]) -> None:
    wide = [line for line in lines if len(line.rstrip()) > WIDTH]
    assert not wide, "\n".join(wide)


def _wait_for(t: Terminal, text: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while text not in t.text():
        assert time.monotonic() < deadline, t.text()[-3000:]
        time.sleep(0.2)


def test_cards_at_80_columns(terminal: list[Terminal]) -> None:
    t = Terminal(koth("play", "cards", "--seed", "4"))
    terminal.append(t)
    _wait_for(t, "reserve>")
    t.send("JK 2")
    _wait_for(t, "reserve* (2)")
    t.send("undo")
    t.send("done")
    t.play_until_exit("1")
    text = t.text()
    _fits(t.lines())
    assert "Choose your reserve" in text and "Your reserve: empty" in text
    assert "(random): stack" in text  # the computer's stack is announced
    assert "You: " in text  # the player's own choice is echoed
    assert "You won: you took the apex" in text or "You lost: Seat 2 took the apex" in text


def test_board_at_80_columns(terminal: list[Terminal]) -> None:
    t = Terminal(koth("play", "board", "--seed", "5", "--players", "3", "--set", "round_limit=3"))
    terminal.append(t)
    _wait_for(t, "Seat 1>")
    t.send("?")
    _wait_for(t, "[by recruit|pair]")  # notation is shown, not read as markup
    t.play_until_exit("1")
    text = t.text()
    _fits(t.lines())
    assert "6↔0" in text and "every ring-4 tile touches center C" in text
    assert "L light: every unit" in text
    assert "place area A" in text
    assert "You: place 1." in text
    assert "recruit:" in text and "swap:" in text  # options grouped
    assert "the game is over" in text and (
        "You won" in text or "You lost" in text or "Draw" in text
    )


def test_a_board_decision_fits_an_80_by_24_terminal(
    terminal: list[Terminal], tmp_path: Path
) -> None:
    """Each decision's board, status, options and prompt are on one 24-row screen: the
    terrain swaps are one entry (s) that asks for the two tiles, the legend one line
    (the whole of it on ?)."""
    game = koth("play", "board", "--seed", "2", "--vs", "heuristic", "--set", "round_limit=20")
    t = Terminal(game, height=24)
    terminal.append(t)
    screens = []
    swapped = False
    for _ in range(12):
        deadline = time.monotonic() + 60
        while not t.prompting():  # a new decision's screen, its prompt last
            assert time.monotonic() < deadline and not t.exited(), t.text()[-3000:]
            time.sleep(0.05)
        screen = t.screen()
        while screen and not screen[-1].strip():
            screen.pop()
        screens.append("\n".join(screen))
        assert len(screen) <= 24
        header = [k for k, line in enumerate(screen) if line.startswith("ring ")]
        assert header, "the board scrolled off the screen:\n" + "\n".join(screen)
        assert any("? the legend" in line for line in screen)
        assert screen[-1].startswith("Seat 1>")
        if not swapped and any("s) two tiles" in line for line in screen):
            t.send("s")
            _wait_for(t, "swap which two tiles")
            t.send("1.3 1.4")
            swapped = True
            if "is not allowed now" in t.text():
                t.send("1")  # refused: the decision goes on (its screen is not new)
            continue
        t.send("1")
    assert swapped, "no decision offered a swap"
    text = t.text()
    assert "You: swap 1.3 1.4" in text or "'swap 1.3 1.4' is not allowed now" in text
    t.send("?")
    _wait_for(t, "L light: every unit")
    _fits(t.lines())
    (tmp_path / "screen.txt").write_text(screens[-1] + "\n", encoding="utf-8")
    print(screens[-1])


def test_quiz_score_at_80_columns(terminal: list[Terminal]) -> None:
    t = Terminal(koth("quiz", "score", "examples/quiz/king_held.json", "--explain"))
    terminal.append(t)
    deadline = time.monotonic() + 60
    while not t.exited():
        assert time.monotonic() < deadline
        time.sleep(0.2)
    lines = t.lines()
    _fits(lines)
    text = " ".join(" ".join(lines).split())
    assert "Spur: 'used' = the team has used a spur (Q4)" in text
    assert "without a Revolution: points, no step (Q8)" in text


def test_a_piped_board_replay_fits_80_columns(tmp_path: Path) -> None:
    record = tmp_path / "board.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    subprocess.run(
        koth("play", "board", "--seat", "random", "--seed", "2", "--record", str(record)),
        input="",
        env=env,
        capture_output=True,
        check=True,
    )
    shown = subprocess.run(
        koth("replay", str(record)), env=env, capture_output=True, text=True, check=True
    ).stdout
    _fits(shown.splitlines())
    assert "game over" in shown and "6↔0" in shown
