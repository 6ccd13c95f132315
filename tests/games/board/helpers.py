"""Scenario builders for board-game rule tests."""

from __future__ import annotations

from typing import Any

from koth.core.state import GameState
from koth.games.board import BoardGame, BoardState, Phase
from koth.games.board.tables import (
    LOC_BY_NAME,
    NUM_LOCS,
    STRIDE,
    TERRAIN_LETTERS,
    UNITS_PER_PLAYER,
)

DEFAULT_TERRAIN = ("LLLNNDD", "LLLNNDD", "LLLNNDD", "LLLNNDD")


def loc(name: str) -> int:
    return LOC_BY_NAME[name.lower()]


def make_state(
    game: BoardGame,
    *,
    units: dict[tuple[int, str], str] | None = None,
    dice: dict[int, tuple[int, ...]] | None = None,
    terrain: tuple[str, ...] = DEFAULT_TERRAIN,
    area_pos: tuple[int, ...] | None = None,
    round_: int = 4,
    turn: int = 0,
    slots: int = 0,
    points: tuple[int, ...] | None = None,
    excluded: tuple[int, ...] | None = None,
    countdown: int | None = None,
    phase: Phase = Phase.TURN,
) -> BoardState:
    """A state in the middle of play: seat p owns area p+1 (so seat 0 moves first).

    ``units`` maps (player, location name) to a code like ``"R1F2"``; the rest of each
    player's units are in hand. ``dice`` gives each player's remaining faces.
    """
    n = game.num_players
    flat = [0] * (STRIDE * n)
    for (player, where), code in (units or {}).items():
        for k in range(0, len(code), 2):
            t = "RFB".index(code[k])
            flat[player * STRIDE + loc(where) * 3 + t] += int(code[k + 1])
    hand = []
    for p in range(n):
        for t in range(3):
            on_board = sum(flat[p * STRIDE + x * 3 + t] for x in range(NUM_LOCS))
            hand.append(UNITS_PER_PLAYER[t] - on_board)
    cells = "".join(terrain)
    return BoardState(
        phase=phase,
        terrain=tuple(TERRAIN_LETTERS.index(c) for c in cells),
        area_of=tuple(range(1, n + 1)),
        area_pos=area_pos if area_pos is not None else tuple(range(0, 2 * n, 2)),
        order=tuple(range(n)),
        units=bytes(flat),
        hand=tuple(hand),
        excluded=excluded or (-1,) * n,
        used_types=(7,) * n if excluded is None else tuple(7 & ~(1 << e) for e in excluded),
        round=round_,
        turn=turn,
        dice=tuple(tuple(sorted((dice or {}).get(p, ()))) for p in range(n)),
        slots=slots,
        declined=0,
        offer=None,
        points=points or (0,) * n,
        countdown=game.params.countdown_start if countdown is None else countdown,
    )


def handle(game: BoardGame, state: BoardState) -> GameState[Any, Any]:
    return GameState(game, state)


def legal(game: BoardGame, state: BoardState, player: int = 0) -> set[str]:
    return {str(a) for a in game.legal_actions(state, player)}


def play(game: BoardGame, state: BoardState, *texts: str) -> BoardState:
    """Apply actions by notation through the checked GameState API; every state reached
    must keep the invariants (unit counts, and the occupancy masks the rules update
    bit by bit)."""
    gs = GameState(game, state)
    for text in texts:
        gs.apply_action(text)
        assert game.invariant_violations(gs.data) == [], text
    return gs.data  # type: ignore[no-any-return]


def code_at(state: BoardState, player: int, where: str) -> str:
    k = player * STRIDE + loc(where) * 3
    return "".join(f"{'RFB'[t]}{state.units[k + t]}" for t in range(3) if state.units[k + t])
