"""A YAML pack may not use aliases (a few bytes of them expand to gigabytes); the
refusal names the line and takes next to no memory."""

from __future__ import annotations

import tracemalloc

import pytest

from koth.games.quiz.pack import PackError, parse_pack


def alias_bomb(levels: int = 30) -> str:
    """Each level doubles the one before: 2**levels strings from a few hundred bytes."""
    lines = ['l0: &l0 ["laugh", "laugh"]']
    lines += [f"l{i}: &l{i} [*l{i - 1}, *l{i - 1}]" for i in range(1, levels)]
    return "\n".join([*lines, "questions:", "  - {number: 1, text: a, answer: b}"])


def test_an_alias_bomb_is_refused_at_its_first_alias_in_little_memory() -> None:
    tracemalloc.start()
    try:
        with pytest.raises(PackError) as refused:
            parse_pack(alias_bomb(), "yaml")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert refused.value.problems == ["line 2: a pack may not use YAML aliases (*name)"]
    assert peak < 1_000_000


def test_anchors_without_aliases_and_plain_packs_still_read() -> None:
    pack = parse_pack("questions:\n  - &first {number: 1, text: a, answer: b}\n", "yaml")
    assert [q.number for q in pack.questions] == [1]


def test_a_pack_past_its_reading_time_is_refused() -> None:
    with pytest.raises(PackError) as refused:
        parse_pack("questions:\n  - {number: 1, text: a, answer: b}\n", "yaml", max_seconds=-1)
    assert "too long" in str(refused.value)
