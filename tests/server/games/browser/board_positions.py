"""Board games placed on a live server at a chosen kind of position: a seeded random game
is played here until the seat to move may take the actions a test needs, and its moves
(chance outcomes included) are stored as a new game in the server's database, every seat
a person with a known join link. The server replays the moves like any stored game."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from koth.core.state import GameState
from koth.games.board import BoardGame
from koth.games.board.params import BoardParams
from koth.server import security
from koth.server.database import make_engine
from koth.server.games.messages import join_url
from koth.server.games.rows import StoredSeat
from koth.server.games.schemas import GameStatus, SeatKind
from koth.server.games.store import Repository
from tests.server.live_server import LiveServer

#: what a random player prefers when it may: fights and alliances come up sooner
EAGER = ("attack", "ally", "accept")


@dataclass(frozen=True)
class Position:
    game_id: str
    mover: int
    links: dict[int, str]
    legal: tuple[str, ...]  # the mover's legal actions, in notation


def _search(
    num_players: int, wanted: Callable[[GameState[Any, Any], list[str]], bool], seeds: Iterable[int]
) -> tuple[list[dict[str, Any]], GameState[Any, Any], list[str]]:
    game = BoardGame(BoardParams(num_players=num_players))
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        moves: list[dict[str, Any]] = []
        while not state.is_terminal() and len(moves) < 4000:
            if state.is_chance_node():
                outcome = state.sample_chance(rng)
                moves.append({"player": -1, "action": game.action_to_str(outcome)})
                state.apply_action(outcome)
                continue
            legal = [game.action_to_str(a) for a in state.legal_actions()]
            if wanted(state, legal):
                return moves, state, legal
            eager = [text for text in legal if text.startswith(EAGER)]
            text = rng.choice(eager or legal)
            moves.append({"player": state.current_player(), "action": text})
            state.apply_action(text)
    raise AssertionError("no seeded game reached the wanted position")


def store_position(
    server: LiveServer,
    wanted: Callable[[GameState[Any, Any], list[str]], bool],
    *,
    num_players: int = 3,
    seeds: Iterable[int] = range(200),
) -> Position:
    """A new game on ``server`` at the first position of a seeded game that ``wanted``
    accepts (given the state and the mover's legal actions in notation)."""
    moves, state, legal = _search(num_players, wanted, seeds)
    tokens = {seat: security.new_token() for seat in range(num_players)}
    seats = [
        StoredSeat(seat, SeatKind.HUMAN, None, None, security.hash_token(token), claimed=False)
        for seat, token in tokens.items()
    ]
    engine = make_engine(server.database)
    try:
        stored = Repository(engine).create_game(
            game_id=security.new_id(9),
            game_name="board",
            params=BoardParams(num_players=num_players).to_json(),
            chance_seed=1,
            seats=seats,
            status=GameStatus.OPEN,
            initial_moves=moves,
        )
    finally:
        engine.dispose()
    links = {seat: join_url(server.url, stored.id, seat, token) for seat, token in tokens.items()}
    return Position(stored.id, state.current_player(), links, tuple(legal))


def having(*prefixes: str) -> Callable[[GameState[Any, Any], list[str]], bool]:
    """A position where the mover has an action starting with each of ``prefixes``."""

    def wanted(state: GameState[Any, Any], legal: list[str]) -> bool:
        return all(any(text.startswith(p) for text in legal) for p in prefixes)

    return wanted


def last_decision(server: LiveServer, game_id: str) -> str:
    """The last action a seat took in ``game_id``, as the server stored it."""
    engine = make_engine(server.database)
    try:
        moves = Repository(engine).moves(game_id)
    finally:
        engine.dispose()
    return str([m for m in moves if m.get("player", -1) >= 0][-1]["action"])
