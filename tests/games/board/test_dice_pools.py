"""Dice pools (B6, B7): adding a rolled face and paying a die are table lookups; the
tables agree with sorting and scanning on every pool, and a state read from JSON must
hold pools the tables know."""

from __future__ import annotations

import pytest

from koth.games.board import BoardGame
from koth.games.board.serialize import state_from_json, state_to_json
from koth.games.board.tables import POOLS, pool_code, with_face, without_die
from tests.games.board.helpers import make_state


def test_every_pool_has_its_own_code() -> None:
    assert len(POOLS) == 210  # multisets of at most four faces of six
    assert len({pool_code(pool) for pool in POOLS}) == len(POOLS)
    assert all(pool_code(pool) < 7**4 for pool in POOLS)


@pytest.mark.parametrize("pool", [p for p in POOLS if len(p) < 4])
def test_b6_a_rolled_face_is_added_in_order(pool: tuple[int, ...]) -> None:
    for face in range(1, 7):
        assert with_face(pool, face) == tuple(sorted((*pool, face)))


@pytest.mark.parametrize("pool", POOLS)
def test_b7_a_paid_die_is_the_lowest_of_its_category(pool: tuple[int, ...]) -> None:
    for category, faces in enumerate(((1, 2), (3, 4), (5, 6))):
        present = [f for f in pool if f in faces]
        if not present:
            with pytest.raises(ValueError, match=f"no die of category {category}"):
                without_die(pool, category)
            continue
        rest = list(pool)
        rest.remove(min(present))
        assert without_die(pool, category) == tuple(rest)


@pytest.mark.parametrize(
    "dice", [[1, 2, 3, 4, 5], [3, 1], [0], [7], [2, 9, 9]], ids=["five", "unsorted", "0", "7", "9"]
)
def test_a_json_state_with_a_malformed_pool_is_refused(dice: list[int]) -> None:
    game = BoardGame(num_players=2)
    data = state_to_json(make_state(game, dice={0: (1, 3)}))
    assert state_from_json(data, 2) == make_state(game, dice={0: (1, 3)})
    data["dice"][0] = dice  # type: ignore[index]
    with pytest.raises(ValueError, match=r"malformed board state: dice .* sorted faces 1-6"):
        state_from_json(data, 2)
