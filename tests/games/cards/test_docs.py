"""Every numbered rule of docs/rules/cards.md has a test named after it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from koth.games.cards.params import CardsParams

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules" / "cards.md"
RULE = re.compile(r"\*\*(C\d+(?:\.\d+)?) —")


def rule_numbers() -> list[str]:
    return RULE.findall(DOC.read_text(encoding="utf-8"))


def collected_test_names() -> list[str]:
    names = []
    for path in Path(__file__).parent.glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names += [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    return [n for n in names if n.startswith("test_")]


def test_the_doc_numbers_rules_c1_to_c15_in_order() -> None:
    numbers = rule_numbers()
    assert len(numbers) == len(set(numbers))
    main = [n for n in numbers if "." not in n]
    assert main == [f"C{i}" for i in range(1, 16)]


@pytest.mark.parametrize("number", rule_numbers())
def test_every_rule_number_has_a_test(number: str) -> None:
    token = number.lower().replace(".", "_")
    pattern = re.compile(rf"(?:^test_|_){token}_(?!\d)")
    assert any(pattern.search(name) for name in collected_test_names()), f"no test for {number}"


def test_every_option_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in CardsParams.model_fields:
        assert f"`{name}`" in text
