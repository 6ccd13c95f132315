"""The immutable state of a board game."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Final

from koth.core.fastdata import fast_constructors
from koth.core.frozen import FrozenFields, refuse_deletion, set_field_once
from koth.games.board.actions import Ally
from koth.games.board.tables import (
    LOC_NAMES,
    NUM_LOCS,
    RING_SIZE,
    STRIDE,
    TERRAIN_LETTERS,
    UNIT_LETTERS,
    has_bit,
)


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


#: each phase as a module constant for the rules' hot paths: compiled, ``Phase.TURN``
#: looks the member up on the class (a dict lookup by name) at every use, where a
#: module constant is read from a C static
PHASE_TERRAIN: Final = Phase.TERRAIN
PHASE_DRAW: Final = Phase.DRAW
PHASE_PLACE: Final = Phase.PLACE
PHASE_EXCLUDE: Final = Phase.EXCLUDE
PHASE_ROLL: Final = Phase.ROLL
PHASE_TURN: Final = Phase.TURN
PHASE_ANSWER: Final = Phase.ANSWER
PHASE_ALLY_DIE: Final = Phase.ALLY_DIE
PHASE_OVER: Final = Phase.OVER


class BoardTermination(enum.Enum):
    TARGET_POINTS = "target_points"
    COUNTDOWN = "countdown"
    ROUND_LIMIT_DRAW = "round_limit_draw"


class _Keep:
    """The type of ``KEEP``: "this field as it was" in ``evolve``."""


KEEP: Final = _Keep()


#: BoardState's fields in declaration order (the order ``__init__`` takes them)
FIELD_NAMES: Final = (
    "phase",
    "terrain",
    "area_of",
    "area_pos",
    "order",
    "units",
    "hand",
    "excluded",
    "used_types",
    "round",
    "turn",
    "dice",
    "slots",
    "declined",
    "offer",
    "points",
    "countdown",
    "termination",
    "winners",
    "occupied",
)


def occupancy_masks(units: bytes) -> tuple[int, ...]:
    """``BoardState.occupied`` computed from ``units``: per player and unit type
    (``[player * 3 + unit_type]``), the mask of the locations holding such a unit."""
    masks = [0] * (len(units) // NUM_LOCS)
    for k, count in enumerate(units):
        if count:
            player, rest = divmod(k, STRIDE)
            masks[player * 3 + rest % 3] |= 1 << rest // 3
    return tuple(masks)


class BoardState(FrozenFields):
    """Everything about one game, secrets (excluded unit types) included.

    ``units`` is flat: ``units[(player * 33 + loc) * 3 + unit_type]`` counts one player's
    units of one type at one location (a ``bytes``: every action copies it, and a copy of
    bytes is one memory copy, where a tuple of 198 ints costs a reference count per item
    twice over and is watched by the garbage collector; no count comes near 256);
    ``hand[player * 3 + unit_type]`` the units in hand.
    ``occupied[player * 3 + unit_type]`` is the bit mask (bit ``loc``) of the locations
    where that count is not zero: derived from ``units``, computed from it when a state
    is built without it, and kept up to date by the rules, which change a few bits per
    action instead of scanning every count (the move search reads these masks at every
    decision). Whoever changes ``units`` with ``evolve`` passes ``occupied`` too; the
    invariants (``invariants.violations``) check that the two agree.

    Immutable, compared and hashed by value like a frozen dataclass. It is a plain class
    because the compiled build compiles it (docs/performance.md): mypyc makes it a native
    class, whose ``__init__`` stores straight into the instance (a copy costs about 50 ns
    instead of the 2.5 us of a compiled frozen dataclass), while any later assignment
    still goes through ``__setattr__`` and is refused.
    """

    __slots__ = FIELD_NAMES
    FIELD_NAMES = FIELD_NAMES

    phase: Phase
    terrain: tuple[int, ...]  # per ring tile, -1 before it is drawn
    area_of: tuple[int, ...]  # per seat: its starting area number (0 before the draw)
    area_pos: tuple[int, ...]  # per area number - 1: the outer index it touches, or -1
    order: tuple[int, ...]  # seats in turn order (area 1's owner first)
    units: bytes
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
    termination: BoardTermination | None
    winners: tuple[int, ...]
    occupied: tuple[int, ...]

    def __init__(
        self,
        phase: Phase,
        terrain: tuple[int, ...],
        area_of: tuple[int, ...],
        area_pos: tuple[int, ...],
        order: tuple[int, ...],
        units: bytes,
        hand: tuple[int, ...],
        excluded: tuple[int, ...],
        used_types: tuple[int, ...],
        round: int,
        turn: int,
        dice: tuple[tuple[int, ...], ...],
        slots: int,
        declined: int,
        offer: Ally | None,
        points: tuple[int, ...],
        countdown: int,
        termination: BoardTermination | None = None,
        winners: tuple[int, ...] = (),
        occupied: tuple[int, ...] | None = None,
    ) -> None:
        self.phase = phase
        self.terrain = terrain
        self.area_of = area_of
        self.area_pos = area_pos
        self.order = order
        self.units = units
        self.hand = hand
        self.excluded = excluded
        self.used_types = used_types
        self.round = round
        self.turn = turn
        self.dice = dice
        self.slots = slots
        self.declined = declined
        self.offer = offer
        self.points = points
        self.countdown = countdown
        self.termination = termination
        self.winners = winners
        self.occupied = occupancy_masks(units) if occupied is None else occupied

    # After __init__ on purpose: mypyc compiles the stores written before a class's
    # __setattr__ as direct stores (koth.core.frozen.FrozenFields).
    def __setattr__(self, name: str, value: object) -> None:
        set_field_once(self, name, value)

    def __delattr__(self, name: str) -> None:
        refuse_deletion(self, name)

    def fields(self) -> tuple[object, ...]:
        """Every field's value, in declaration order."""
        return (
            self.phase,
            self.terrain,
            self.area_of,
            self.area_pos,
            self.order,
            self.units,
            self.hand,
            self.excluded,
            self.used_types,
            self.round,
            self.turn,
            self.dice,
            self.slots,
            self.declined,
            self.offer,
            self.points,
            self.countdown,
            self.termination,
            self.winners,
            self.occupied,
        )

    def __repr__(self) -> str:
        return f"BoardState({position_text(self)!r})"

    def active(self) -> int:
        return self.order[self.turn % len(self.order)]


def units_code(counts: Sequence[int]) -> str:
    """``R1F2``: counts of (runners, fighters, blockers), as the test builders write them."""
    return "".join(f"{UNIT_LETTERS[t]}{count}" for t, count in enumerate(counts) if count)


def position_text(s: BoardState, secrets: bool = True) -> str:
    """The whole position on one line, in the notation of the rules and the test
    builders: phase, round, turn and slots used; the terrain of rings 1-4; then per
    seat its area and where it touches, its units by location, hand, dice and points
    (and, with ``secrets``, its excluded type: leave them out for a player's eyes);
    then a pending offer, declined helpers, the countdown and the end, when there are.

    ``TURN round 4 turn 0 slots 0 | LLLNNDD/LLLNNDD/LLLNNDD/LLLNNDD | P0 A1@1.0
    2.1:R1F2 hand R1F3B2 dice 356 points 0 | P1 A2@1.2 C:R1 hand R1F5B2 dice - points 0``
    """
    rings = "/".join(
        "".join(TERRAIN_LETTERS[t] if t >= 0 else "?" for t in s.terrain[r : r + RING_SIZE])
        for r in range(0, len(s.terrain), RING_SIZE)
    )
    parts = [f"{s.phase.name} round {s.round} turn {s.turn} slots {s.slots}", rings]
    for q, area in enumerate(s.area_of):
        pos = s.area_pos[area - 1] if area else -1
        where = f"A{area}@" + (f"1.{pos}" if pos >= 0 else "-") if area else "A?"
        base = q * STRIDE
        units = [
            f"{LOC_NAMES[loc]}:{units_code(s.units[base + loc * 3 : base + loc * 3 + 3])}"
            for loc in range(NUM_LOCS)
            if any(s.units[base + loc * 3 : base + loc * 3 + 3])
        ]
        hand = units_code(s.hand[q * 3 : q * 3 + 3]) or "-"
        dice = "".join(map(str, s.dice[q])) or "-"
        seat = " ".join([f"P{q} {where}", *units, f"hand {hand} dice {dice} points {s.points[q]}"])
        if secrets and s.excluded[q] >= 0:
            seat += f" excluded {UNIT_LETTERS[s.excluded[q]]}"
        parts.append(seat)
    if s.offer is not None:
        parts.append(f"offer {s.offer}")
    if s.declined:
        parts.append(
            "declined " + ",".join(str(q) for q in range(len(s.area_of)) if has_bit(s.declined, q))
        )
    parts.append(f"countdown {s.countdown}")
    if s.termination is not None:
        parts.append(f"over {s.termination.value} winners {','.join(map(str, s.winners)) or '-'}")
    return " | ".join(parts)


def evolve(
    s: BoardState,
    *,
    phase: Phase | _Keep = KEEP,
    terrain: tuple[int, ...] | _Keep = KEEP,
    area_of: tuple[int, ...] | _Keep = KEEP,
    area_pos: tuple[int, ...] | _Keep = KEEP,
    order: tuple[int, ...] | _Keep = KEEP,
    units: bytes | _Keep = KEEP,
    hand: tuple[int, ...] | _Keep = KEEP,
    excluded: tuple[int, ...] | _Keep = KEEP,
    used_types: tuple[int, ...] | _Keep = KEEP,
    round: int | _Keep = KEEP,
    turn: int | _Keep = KEEP,
    dice: tuple[tuple[int, ...], ...] | _Keep = KEEP,
    slots: int | _Keep = KEEP,
    declined: int | _Keep = KEEP,
    offer: Ally | _Keep | None = KEEP,
    points: tuple[int, ...] | _Keep = KEEP,
    countdown: int | _Keep = KEEP,
    termination: BoardTermination | _Keep | None = KEEP,
    winners: tuple[int, ...] | _Keep = KEEP,
    occupied: tuple[int, ...] | _Keep = KEEP,
) -> BoardState:
    """``s`` with the given fields changed (``dataclasses.replace`` for ``BoardState``).

    Compiled, this builds the native instance in C, and the other compiled modules call
    it directly, their keyword arguments matched when they are compiled. Interpreted,
    the module rebinds the name to a faster equivalent (below).
    """
    return BoardState(
        phase=s.phase if isinstance(phase, _Keep) else phase,
        terrain=s.terrain if isinstance(terrain, _Keep) else terrain,
        area_of=s.area_of if isinstance(area_of, _Keep) else area_of,
        area_pos=s.area_pos if isinstance(area_pos, _Keep) else area_pos,
        order=s.order if isinstance(order, _Keep) else order,
        units=s.units if isinstance(units, _Keep) else units,
        hand=s.hand if isinstance(hand, _Keep) else hand,
        excluded=s.excluded if isinstance(excluded, _Keep) else excluded,
        used_types=s.used_types if isinstance(used_types, _Keep) else used_types,
        round=s.round if isinstance(round, _Keep) else round,
        turn=s.turn if isinstance(turn, _Keep) else turn,
        dice=s.dice if isinstance(dice, _Keep) else dice,
        slots=s.slots if isinstance(slots, _Keep) else slots,
        declined=s.declined if isinstance(declined, _Keep) else declined,
        offer=s.offer if isinstance(offer, _Keep) else offer,
        points=s.points if isinstance(points, _Keep) else points,
        countdown=s.countdown if isinstance(countdown, _Keep) else countdown,
        termination=s.termination if isinstance(termination, _Keep) else termination,
        winners=s.winners if isinstance(winners, _Keep) else winners,
        occupied=s.occupied if isinstance(occupied, _Keep) else occupied,
    )


#: the ``evolve`` above in either build (the tests check that the two agree)
evolve_compiled: Final = evolve

if __file__.endswith(".py"):
    # Interpreted, the function above would run ``__setattr__`` per field; the
    # generated one that stores through the slot descriptors is three times faster.
    # Modules that import ``evolve`` do so after this module ran, and get this one.
    globals()["evolve"] = fast_constructors(BoardState, FIELD_NAMES)[1]
