"""The immutable state of a board game."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from koth.core.fastdata import fast_constructors
from koth.games.board.actions import Ally


class Phase(enum.IntEnum):
    TERRAIN = 0  # chance: one ring's terrain order
    DRAW = 1  # chance: which seat gets which starting area
    PLACE = 2  # decision: attach the next area (highest number first)
    EXCLUDE = 3  # simultaneous: one-excluded variant's secret choice
    ROLL = 4  # chance: the next die of the round
    TURN = 5  # decision: the active player's next action
    ANSWER = 6  # decision: the asked helper accepts or declines an alliance
    ALLY_DIE = 7  # chance: which fighter of an alliance dies
    OVER = 8


class BoardTermination(enum.Enum):
    TARGET_POINTS = "target_points"
    COUNTDOWN = "countdown"
    ROUND_LIMIT_DRAW = "round_limit_draw"


@dataclass(frozen=True, slots=True)
class BoardState:
    """Everything about one game, secrets (excluded unit types) included.

    ``units`` is flat: ``units[(player * 33 + loc) * 3 + unit_type]`` counts one player's
    units of one type at one location; ``hand[player * 3 + unit_type]`` the units in hand.
    """

    phase: Phase
    terrain: tuple[int, ...]  # per ring tile, -1 before it is drawn
    area_of: tuple[int, ...]  # per seat: its starting area number (0 before the draw)
    area_pos: tuple[int, ...]  # per area number - 1: the outer index it touches, or -1
    order: tuple[int, ...]  # seats in turn order (area 1's owner first)
    units: tuple[int, ...]
    hand: tuple[int, ...]
    excluded: tuple[int, ...]  # per seat: excluded unit type, -1 for none
    used_types: tuple[int, ...]  # per seat: bit mask of unit types ever recruited (public)
    round: int  # 1-based once play starts, 0 during setup
    turn: int  # 0 .. 2n-1 within the round
    dice: tuple[tuple[int, ...], ...]  # per seat: faces still unused this round, sorted
    slots: int  # action slots used in the current turn (0..2)
    declined: int  # bit mask of helpers who declined an alliance this turn
    offer: Ally | None  # the pending or accepted alliance
    points: tuple[int, ...]  # per seat: center turns scored
    countdown: int
    termination: BoardTermination | None = None
    winners: tuple[int, ...] = ()

    def active(self) -> int:
        return self.order[self.turn % len(self.order)]


#: the hot paths' fast equivalents of ``BoardState(...)`` and ``dataclasses.replace``
new_state, evolve = fast_constructors(BoardState)
