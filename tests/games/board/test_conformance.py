"""The koth.core conformance suite over seeded random games, every table size and variant."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koth.core.conformance import check_playout
from koth.games.board import BoardGame

CONFIGS: list[dict[str, Any]] = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 4, "teamplay": True, "target_points": 12},
    {"num_players": 3, "one_excluded": True, "target_points": 12},
    {"num_players": 2, "countdown": True, "countdown_start": 12},
    {
        "num_players": 4,
        "fighter_range": 2,
        "blocker_range": 3,
        "runners_blocked_by_own": False,
        "blockers_avoid_blockers": True,
        "score_own_turns_only": True,
        "target_points": 8,
    },
    {"num_players": 2, "round_limit": 3},
]


@pytest.mark.parametrize(
    "config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items())
)
def test_random_playouts_conform(config: dict[str, Any]) -> None:
    report = check_playout(BoardGame(**config), seed=7, deep_every=40)
    assert report.terminal and report.moves > 50


@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    countdown=st.booleans(),
    one_excluded=st.booleans(),
    teamplay=st.booleans(),
)
@settings(max_examples=12, deadline=None)
def test_conformance_for_any_seed_and_variant(
    seed: int, players: int, countdown: bool, one_excluded: bool, teamplay: bool
) -> None:
    game = BoardGame(
        num_players=players,
        countdown=countdown,
        one_excluded=one_excluded,
        teamplay=teamplay and players == 4,
        target_points=6,
        countdown_start=6,
        round_limit=20,
    )
    check_playout(game, seed, deep_every=15)
