"""A rule-based policy for the toy game, so the ``heuristic`` agent can be tested on it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from koth.agents.heuristics import register_heuristic
from koth.core.game import Game
from tests.core.toy_game import Choice, Stake


def toy_policy(
    game: Game[Any, Any, Any],
    player: int,
    view: Mapping[str, Any],
    legal: Sequence[Any],
    rng: random.Random,
) -> Any:
    card = view["cards"][player]
    high = card > game.params.max_card // 2
    if Stake(2) in legal:
        return Stake(2) if high else Stake(1)
    return Choice(high or rng.random() < 0.2)


register_heuristic("toy_duel", toy_policy)
