"""Every action of the turn-based games prints as its notation (``Single('6h')``, as
python-chess prints ``Move.from_uci('g1f3')``), and that text parses back to it."""

from __future__ import annotations

from typing import Any

import pytest

from koth.core.game import Game
from koth.games.board import BoardGame
from koth.games.cards import CardsGame


@pytest.mark.parametrize("game", [CardsGame(), BoardGame(num_players=4)], ids=["cards", "board"])
def test_repr_is_the_notation_and_parses_back(game: Game[Any, Any, Any]) -> None:
    for action_id in range(game.num_distinct_actions()):
        action = game.action_from_id(action_id)
        text = str(action)
        assert repr(action) == f"{type(action).__name__}({text!r})"
        assert game.parse_action(text) == action


@pytest.mark.parametrize(
    ("game", "text", "expected"),
    [
        (CardsGame(), "6h", "Single('6h')"),
        (CardsGame(), "JK", "JokerPlay('JK')"),
        (BoardGame(), "move fighter 2.4>3.4", "Move('move fighter 2.4>3.4')"),
        (BoardGame(), "end drop move+turn", "End('end drop move+turn')"),
    ],
)
def test_repr_examples(game: Game[Any, Any, Any], text: str, expected: str) -> None:
    assert repr(game.parse_action(text)) == expected


@pytest.mark.parametrize("game", [CardsGame(), BoardGame(num_players=4)], ids=["cards", "board"])
def test_every_action_has_one_of_the_kinds_its_game_declares(game: Game[Any, Any, Any]) -> None:
    kinds = {game.action_kind(game.action_from_id(i)) for i in range(game.num_distinct_actions())}
    assert kinds == set(game.action_kinds)  # each declared kind is one some action has


def test_an_action_kind_is_its_class_name_in_snake_case() -> None:
    assert BoardGame().action_kind(BoardGame().parse_action("turn ring1 left")) == "turn_ring"
    assert CardsGame().action_kind(CardsGame().parse_action("JK")) == "joker_play"
