"""The turn-based game packages share one layout: the same module names for the same
concerns (docs/architecture.md, "Inside a game package"), so a newcomer who knows one
knows where everything of the other lives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "src" / "koth" / "games"
ARCHITECTURE = GAMES.parents[2] / "docs" / "architecture.md"
TURN_BASED = ("cards", "board")


def documented_modules() -> set[str]:
    """The module names of the table under "Inside a game package"."""
    section = ARCHITECTURE.read_text().split("## Inside a game package", 1)[1].split("\n## ", 1)
    return set(re.findall(r"^\| `(\w+)\.py` \|", section[0], flags=re.MULTILINE))


def optional_modules() -> set[str]:
    """The rows of that table a game has only where it needs them ("only where ...")."""
    section = ARCHITECTURE.read_text().split("## Inside a game package", 1)[1].split("\n## ", 1)
    return set(re.findall(r"^\| `(\w+)\.py` \| only where", section[0], flags=re.MULTILINE))


def modules_of(game: str) -> set[str]:
    return {path.stem for path in (GAMES / game).glob("*.py") if path.stem != "__init__"}


@pytest.mark.parametrize("game", TURN_BASED)
def test_each_turn_based_game_has_the_documented_modules(game: str) -> None:
    documented = documented_modules()
    assert documented - optional_modules() <= modules_of(game) <= documented
