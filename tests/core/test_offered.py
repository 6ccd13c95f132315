"""``ActionList``'s defaults: a game that gives only ``__len__`` and ``item`` gets a
sequence that equals the list of its actions and answers ``holds`` by identity."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from koth.core.offered import ActionList, as_sequence


class Words(ActionList[str]):
    """The actions ``w0``, ``w1``, ... built when read, each once."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self.made: dict[int, str] = {}

    def __len__(self) -> int:
        return self.size

    def item(self, index: int) -> str:
        if index not in self.made:
            self.made[index] = "".join(["w", str(index)])  # a new object each time
        return self.made[index]


def test_reading_one_item_builds_only_that_one() -> None:
    words = Words(50)
    assert words[7] == "w7" and words[-1] == "w49"
    assert sorted(words.made) == [7, 49]


def test_an_action_list_is_a_sequence_equal_to_its_list() -> None:
    words = Words(4)
    typed: Sequence[str] = as_sequence(words)
    assert isinstance(typed, Sequence)
    assert words == ["w0", "w1", "w2", "w3"] == words
    assert words == ("w0", "w1", "w2", "w3")
    assert words == Words(4) and words != Words(3) and words != {"w0"}
    assert list(reversed(words)) == ["w3", "w2", "w1", "w0"]
    assert words[1:3] == ["w1", "w2"] and "w2" in words and "w9" not in words
    assert words.index("w2") == 2 and words.count("w1") == 1
    with pytest.raises(ValueError):
        words.index("w9")
    with pytest.raises(IndexError, match=r"action index 4 out of range \(4 legal actions\)"):
        words[4]
    with pytest.raises(TypeError, match="unhashable"):
        hash(words)


def test_holds_is_identity_not_equality() -> None:
    words = Words(3)
    offered = words[1]
    assert words.holds(offered)
    assert not words.holds("".join(["w", "1"]))  # equal, another object
    assert not words.holds("w7")
