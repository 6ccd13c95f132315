"""The platform's conformance suite over seeded random games, every variant."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koth.core.conformance import check_playout
from koth.games.cards import CardsGame

VARIANTS = [
    {},
    {"jokers": 2},
    {"tens_equal": True},
    {"dealer": 1},
    {"jokers": 2, "tens_equal": True, "dealer": 1},
]


@pytest.mark.parametrize(
    "params", VARIANTS, ids=lambda p: ",".join(map(str, p.items())) or "default"
)
@pytest.mark.parametrize("seed", range(3))
def test_full_conformance_at_every_node(params: dict[str, object], seed: int) -> None:
    report = check_playout(CardsGame(params), seed)
    assert report.terminal


@pytest.mark.parametrize("seed", range(3, 43))
def test_conformance_with_deep_checks_on_a_sample_of_nodes(seed: int) -> None:
    check_playout(CardsGame(VARIANTS[seed % len(VARIANTS)]), seed, deep_every=7)


@given(
    seed=st.integers(0, 2**32 - 1),
    jokers=st.sampled_from([2, 3]),
    tens_equal=st.booleans(),
    dealer=st.integers(0, 1),
)
@settings(max_examples=15, deadline=None)
def test_conformance_for_any_seed_and_options(
    seed: int, jokers: int, tens_equal: bool, dealer: int
) -> None:
    game = CardsGame(jokers=jokers, tens_equal=tens_equal, dealer=dealer)
    check_playout(game, seed, deep_every=5)
