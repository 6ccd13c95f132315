"""Every rule number of docs/rules/board.md has a test named after it."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "board.md"
TESTS = Path(__file__).resolve().parent


def test_every_rule_number_has_a_test() -> None:
    numbers = sorted(set(re.findall(r"\*\*B(\d+(?:\.\d+)?)\*\*", DOC.read_text())))
    assert len(numbers) >= 30
    names = [
        name
        for path in TESTS.glob("test_*.py")
        for name in re.findall(r"def (test_\w+)", path.read_text())
    ]
    missing = [
        number
        for number in numbers
        if not any(re.search(rf"_b{number.replace('.', '_')}(?![0-9])", name) for name in names)
    ]
    assert not missing, f"rules without a test: {missing}"
