"""The conformance suite, run against the minimal test game (chance, simultaneous
moves and hidden information)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koth.core.conformance import check_playout
from tests.core.toy_game import SecretDuel


@pytest.mark.parametrize("seed", range(30))
def test_random_playouts_conform(seed: int) -> None:
    report = check_playout(SecretDuel(), seed)
    assert report.terminal
    assert report.moves == 4  # two deals, the stake, one joint choice


@given(seed=st.integers(0, 2**32 - 1), max_card=st.integers(2, 9))
@settings(max_examples=50, deadline=None)
def test_conformance_holds_for_every_seed_and_parameter(seed: int, max_card: int) -> None:
    check_playout(SecretDuel(max_card=max_card), seed)
