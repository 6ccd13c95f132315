"""Shared test helpers: the toy games registered with OpenSpiel, and leak statistics."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from koth.core.game import Game
from koth.core.players import PlayerId, ToMove
from koth.interop.openspiel import register_openspiel_game
from koth.interop.spec import InteropSpec
from tests.core.toy_game import Action, Choice, DuelState, SecretDuel

TOY_SPEC = InteropSpec(max_decisions=2, max_chance_nodes=2, min_utility=-2.0, max_utility=2.0)


class OneSidedDuel(SecretDuel):
    """The toy duel where only player 1 chooses at the simultaneous node (player 0
    always stays): a simultaneous node whose acting players are a subset of the table,
    which OpenSpiel's faithful form must fill with the no-op."""

    name = "toy_one_sided"

    def to_move(self, state: DuelState) -> ToMove:
        if len(state.cards) == 2 and state.stake is not None and state.choices is None:
            return ToMove.simultaneous((1,))
        return super().to_move(state)

    def apply_joint(self, state: DuelState, actions: Mapping[PlayerId, Action]) -> DuelState:
        choice = actions[1]
        assert isinstance(choice, Choice)
        return replace(state, choices=(True, choice.stay))


def register_toys() -> None:
    register_openspiel_game(SecretDuel, TOY_SPEC)
    register_openspiel_game(OneSidedDuel, TOY_SPEC)


def leaves(value: Any, path: str = "") -> dict[str, Any]:
    """Every scalar of a JSON value by its path."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            out.update(leaves(item, f"{path}/{key}"))
        return out
    if isinstance(value, list):
        out = {f"{path}#len": len(value)}
        for index, item in enumerate(value):
            out.update(leaves(item, f"{path}/{index}"))
        return out
    return {path: value}


def agreement(game: Game[Any, Any, Any], first: Any, second: Any) -> int:
    """How many leaves of the full-state JSON two rules states share."""
    a = leaves(json.loads(json.dumps(game.state_to_json(first))))
    b = leaves(json.loads(json.dumps(game.state_to_json(second))))
    return sum(1 for key, value in a.items() if b.get(key) == value)


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def standard_error(values: Sequence[float]) -> float:
    m = mean(values)
    variance = sum((v - m) ** 2 for v in values) / max(1, len(values) - 1)
    return float((variance / len(values)) ** 0.5)
