"""UniformOutcomes: equally likely chance outcomes built when read, sampled exactly as
the walk over their pairs samples them."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from koth.core.chance import UniformOutcomes, running_sums, sample_outcome


class Names(UniformOutcomes[str]):
    """``size`` names ("o0", "o1", ...), each as likely, made once per index."""

    NAMES = tuple(f"o{k}" for k in range(64))

    def outcome(self, index: int) -> str:
        return self.NAMES[index]


def walk_index(size: int, threshold: float) -> int:
    """The index sample_outcome's walk over the pairs picks for ``threshold``."""
    pairs = [(k, 1.0 / size) for k in range(size)]
    cumulative = 0.0
    for index, probability in pairs:
        cumulative += probability
        if threshold < cumulative:
            return index
    return size - 1


@given(st.integers(1, 60), st.floats(0.0, 1.0, exclude_max=True))
def test_the_search_finds_the_outcome_the_walk_finds(size: int, threshold: float) -> None:
    assert Names(size).index_at(threshold) == walk_index(size, threshold)


@pytest.mark.parametrize("size", range(1, 61))
def test_the_search_agrees_at_every_running_sum_and_beside_it(size: int) -> None:
    outcomes = Names(size)
    for total in running_sums(size):
        for threshold in (math.nextafter(total, 0.0), total, math.nextafter(total, 1.0)):
            if 0.0 <= threshold < 1.0:
                assert outcomes.index_at(threshold) == walk_index(size, threshold)


def test_sampling_draws_what_the_pairs_would_draw_from_the_same_seed() -> None:
    for size in (1, 2, 3, 7, 26, 52):
        lazy = Names(size)
        pairs = tuple(lazy)
        for seed in range(200):
            assert sample_outcome(lazy, random.Random(seed)) == sample_outcome(
                pairs, random.Random(seed)
            )


def test_a_sequence_of_pairs_each_one_over_its_length() -> None:
    outcomes = Names(4)
    assert len(outcomes) == 4 and outcomes[1] == ("o1", 0.25) and outcomes[-1] == ("o3", 0.25)
    assert list(outcomes) == [("o0", 0.25), ("o1", 0.25), ("o2", 0.25), ("o3", 0.25)]
    assert outcomes == tuple(outcomes) and outcomes.probability == 0.25
    name = outcomes.outcome(2)
    assert outcomes.offers(name) and not outcomes.offers("o9") and not outcomes.offers(3)
    with pytest.raises(IndexError):
        outcomes[4]


def test_no_outcomes_cannot_be_sampled() -> None:
    with pytest.raises(ValueError, match="no chance outcomes"):
        sample_outcome(Names(0), random.Random(0))
