"""Every rule number of docs/rules/quiz.md has a test whose name contains it."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOC = HERE.parents[2] / "docs" / "rules" / "quiz.md"


def _rule_numbers() -> list[str]:
    return re.findall(r"^\*\*Q(\d+(?:\.\d+)?) ", DOC.read_text(encoding="utf-8"), re.MULTILINE)


def _test_names() -> list[str]:
    names: list[str] = []
    for path in HERE.glob("test_*.py"):
        names += re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.MULTILINE)
    return names


def test_q1_to_q35_doc_numbers_are_consecutive() -> None:
    numbers = [int(n) for n in _rule_numbers() if "." not in n]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 16


def test_every_rule_number_has_a_test() -> None:
    names = _test_names()
    missing = []
    for number in _rule_numbers():
        token = "q" + number.replace(".", "_")
        pattern = re.compile(rf"(?:^|_){token}(?:_|$)")
        if not any(pattern.search(name) for name in names):
            missing.append(f"Q{number}")
    assert not missing, f"rules without a test named after them: {missing}"
