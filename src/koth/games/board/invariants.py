"""The conservation and placement invariants every reachable state satisfies."""

from __future__ import annotations

from typing import TYPE_CHECKING

from koth.games.board.state import BoardState, occupancy_masks
from koth.games.board.tables import (
    ALLOWED_TERRAIN,
    CENTER,
    LOC_NAMES,
    NUM_LOCS,
    NUM_TILES,
    RING_TERRAIN,
    STACK_LIMIT,
    STRIDE,
    UNIT_NAMES,
    UNITS_PER_PLAYER,
)

if TYPE_CHECKING:
    from koth.games.board.rules import Rules


def violations(rules: Rules, s: BoardState) -> list[str]:
    n = rules.n
    units, hand = s.units, s.hand
    found: list[str] = []
    if min(units, default=0) < 0 or min(hand, default=0) < 0:
        found.append("a negative unit count")
    if s.occupied != occupancy_masks(units):
        found.append(f"the occupancy masks {s.occupied} do not match the unit counts")
    for p in range(n):
        for t in range(3):
            in_play = sum(units[p * STRIDE + loc * 3 + t] for loc in range(NUM_LOCS))
            if in_play + hand[p * 3 + t] != UNITS_PER_PLAYER[t]:
                found.append(f"player {p} has {in_play + hand[p * 3 + t]} {UNIT_NAMES[t]}s (B4)")
            if t == s.excluded[p] and in_play:
                found.append(f"player {p} uses its excluded {UNIT_NAMES[t]} (B16.2)")
        own_area = CENTER + s.area_of[p]
        for loc in range(NUM_LOCS):
            k = p * STRIDE + loc * 3
            count = units[k] + units[k + 1] + units[k + 2]
            if not count:
                continue
            if loc > CENTER and loc != own_area:
                found.append(f"player {p} has units in area {LOC_NAMES[loc]} (B3)")
            if count > STACK_LIMIT[loc]:
                found.append(f"player {p} stacks {count} units on {LOC_NAMES[loc]} (B5)")
            if loc < NUM_TILES:
                terrain = s.terrain[loc]
                for t in range(3):
                    if units[k + t] and not (ALLOWED_TERRAIN[t] >> terrain) & 1:
                        found.append(f"a {UNIT_NAMES[t]} of {p} on forbidden {LOC_NAMES[loc]} (B9)")
    shared_blockers = not rules.blockers_avoid_blockers
    for loc in range(CENTER + 1):
        fighters = {p for p in range(n) if units[p * STRIDE + loc * 3 + 1]}
        blockers = {p for p in range(n) if units[p * STRIDE + loc * 3 + 2]}
        # B12.3: blockers of several players may share a tile, but never with a fighter
        # of another player (B11, B12)
        holders = fighters | blockers if fighters or not shared_blockers else fighters
        if len(holders) > 1:
            found.append(f"fighters/blockers of several players share {LOC_NAMES[loc]} (B11, B12)")
    if -1 not in s.terrain and sorted(s.terrain) != sorted(RING_TERRAIN * 4):
        # swaps between rings may change a ring's mix, never the board's 12/8/8
        found.append(f"the board's terrain mix changed: {s.terrain} (B2)")
    placed = [pos for pos in s.area_pos if pos >= 0]
    if len(set(placed)) != len(placed):
        found.append("two areas touch the same outer tile (B3)")
    for p in range(n):
        if len(s.dice[p]) > 4 or any(not 1 <= f <= 6 for f in s.dice[p]):
            found.append(f"player {p} holds dice {s.dice[p]} (B6)")
    return found
