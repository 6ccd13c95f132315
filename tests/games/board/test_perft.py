"""The checked-in positions (``positions.json``, see ``perft.py``) still have their
exact numbers of legal actions one and two plies deep, and the oracle lists as many."""

from __future__ import annotations

import json
from typing import Any

import pytest

from koth.games.board import BoardGame
from tests.games.board import oracle
from tests.games.board.perft import TABLE, perft, reach

ROWS: list[dict[str, Any]] = json.loads(TABLE.read_text())


def test_the_table_covers_every_variant() -> None:
    from tests.games.board.test_oracle import VARIANTS

    assert {row["variant"] for row in ROWS} == {name for name, _ in VARIANTS}
    assert len({json.dumps(row["history"]) for row in ROWS}) == len(ROWS)


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['variant']}-{k}" for k, r in enumerate(ROWS)])
def test_perft(row: dict[str, Any]) -> None:
    game = BoardGame(**row["options"])
    state = reach(game, row["history"])
    player = game.to_move(state).players[0]
    assert len(oracle.legal_actions(game.params, state, player)) == row["perft1"]
    assert perft(game, state, 1) == row["perft1"]
    assert perft(game, state, 2) == row["perft2"]
