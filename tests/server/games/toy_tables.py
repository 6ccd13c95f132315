"""A stored two-seat toy game for the tests of a service and its store: both seats
people who hold their seats, the first card dealt (version 1)."""

from __future__ import annotations

from koth.server.games.rows import StoredSeat
from koth.server.games.schemas import GameStatus, SeatKind
from koth.server.games.store import Repository


def store_toy_duel(repository: Repository, game_id: str) -> None:
    """Store ``game_id``: a running toy duel of two seated people, at version 1."""
    repository.create_game(
        game_id=game_id,
        game_name="toy_duel",
        params={"max_card": 4},
        chance_seed=1,
        seats=[StoredSeat(s, SeatKind.HUMAN, None, None, f"h{s}", True) for s in (0, 1)],
        status=GameStatus.RUNNING,
        initial_moves=[{"player": -1, "action": "deal 1"}],
    )
