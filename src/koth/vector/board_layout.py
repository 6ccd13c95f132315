"""The batched board game's state row, tables and observation layout, shared by the
compiled loops (``board_rules``, ``board_kernels``) and the reference encoder
(``board_obs``).

A game is one row of int32 fields (``F_*`` columns). Locations, unit types, terrain
and phases are numbered as in ``koth.games.board`` (``tables``, ``state.Phase``);
``F_UNITS + q * 99 + loc * 3 + t`` counts player ``q``'s units of type ``t`` at ``loc``
like ``BoardState.units``. The location masks (33 bits) are 64-bit words of two
fields each, at even columns, read and written by ``_jit.word`` and ``set_word``
(``board_jit.occupied`` for ``F_OCC``). A dice pool is four face slots, sorted,
``F_NDICE + q`` of them used.

An observation is ``OBS_SIZE`` integers (int32) from the observer's seat: seats are
counted from the observer (relative seat ``r`` is player ``(me + r) % n``), so the
observer is always seat 0 of its own observation; locations, areas and terrain are
the board's own. Entries of seats beyond the table stay 0.
"""

from __future__ import annotations

from math import factorial
from typing import Final

import numpy as np

from koth.games.board import actions as act
from koth.games.board.tables import (
    ARRANGEMENTS,
    EDGES,
    MAX_SLOTS,
    NEIGHBOURS_BY_BYTE,
    NUM_LOCS,
    NUM_TILES,
    ORIGIN_SLOTS,
    OUTWARD,
    STACK_LIMIT,
)

MAX_PLAYERS: Final = 4

# ------------------------------------------------------------------ state row
F_PHASE: Final = 0
F_ROUND: Final = 1
F_TURN: Final = 2
F_SLOTS: Final = 3
F_DECLINED: Final = 4  # bit mask of helpers who declined an alliance this turn
F_COUNTDOWN: Final = 5
F_TERMINATION: Final = 6  # -1 none, else TERM_*
F_WINNERS: Final = 7  # bit mask of the winners
F_OFFER: Final = 8  # target, own, helper (-1: no offer), helper_from, pay
F_TERRAIN: Final = 13  # +tile: -1 undrawn, else LIGHT/NORMAL/DIFFICULT
F_AREA_OF: Final = 41  # +seat: its area number, 0 before the draw
F_AREA_POS: Final = 45  # +area - 1: the outer index it touches, or -1
F_ORDER: Final = 49  # +position: the seat
F_HAND: Final = 53  # +seat * 3 + type
F_EXCLUDED: Final = 65  # +seat: excluded type or -1
F_USED: Final = 69  # +seat: bit mask of types ever recruited
F_NDICE: Final = 73  # +seat
F_DICE: Final = 77  # +seat * 4 + k: sorted faces
F_POINTS: Final = 93  # +seat
F_OCC: Final = 98  # word (q * 3 + t): 2 fields each, ``BoardState.occupied``
#: the bit mask of the locations whose unit counts changed since the observations were
#: last written (a word): the rules set a location's bit wherever they change a count
#: (``board_rules.add_unit``, ``remove_unit``, the kills, pushes and ring turns), and
#: ``board_kernels.refresh`` rewrites only those locations' counts in the observations,
#: then clears it; ``ALL_LOCS`` after a reset
F_CHANGED: Final = 122
#: the tiles of light terrain, and of normal terrain, as bit masks over the 28 ring
#: tiles (one field each): derived from ``F_TERRAIN`` and rebuilt from it by
#: ``board_rules`` (``terrain_changed``) whenever a terrain field changes (a ring's
#: draw, a ring turn, a swap), so the move search reads one field instead of 28
F_LIGHT: Final = 124
F_NORMAL: Final = 125
F_UNITS: Final = 126  # +seat * 99 + loc * 3 + type
STRIDE: Final = NUM_LOCS * 3
#: every location's bit (``F_CHANGED`` after a reset)
ALL_LOCS: Final = (1 << NUM_LOCS) - 1
NUM_FIELDS: Final = F_UNITS + MAX_PLAYERS * STRIDE
#: the largest value a field holds (int32: the countdown starts at a parameter)
FIELD_MAX: Final = 2**31 - 1

# phases (``Phase``)
TERRAIN: Final = 0
DRAW: Final = 1
PLACE: Final = 2
EXCLUDE: Final = 3
ROLL: Final = 4
TURN: Final = 5
ANSWER: Final = 6
ALLY_DIE: Final = 7
OVER: Final = 8
#: terminations (``BoardTermination``, in declaration order)
TERM_TARGET: Final = 0
TERM_COUNTDOWN: Final = 1
TERM_DRAW: Final = 2
TERMINATION_NAMES: Final = ("target_points", "countdown", "round_limit_draw")

# ------------------------------------------------------------------ parameters
P_N: Final = 0
P_RUNNER_RANGE: Final = 1
P_FIGHTER_RANGE: Final = 2
P_BLOCKER_RANGE: Final = 3
P_RUNNER_FIRST: Final = 4
P_RUNNERS_BLOCKED_BY_OWN: Final = 5
P_BLOCKERS_AVOID_BLOCKERS: Final = 6
P_SCORE_OWN_TURNS: Final = 7
P_COUNTDOWN: Final = 8
P_ONE_EXCLUDED: Final = 9
P_TEAMPLAY: Final = 10
P_ROUND_LIMIT: Final = 11
P_TARGET: Final = 12
P_COUNTDOWN_START: Final = 13
NUM_PARAMS: Final = 14

# ------------------------------------------------------------------ to move
#: ``to_move`` codes: a chance node, one player (``TM_PLAYER0 + p``), every player at
#: once (the one-excluded variant's secret choice), the game is over
TM_CHANCE: Final = 0
TM_PLAYER0: Final = 1
TM_ALL: Final = 5
TM_OVER: Final = 6

# ------------------------------------------------------------------ actions
ROLL_BASE: Final = act.ROLL_BASE
TERRAIN_BASE: Final = act.TERRAIN_BASE
PLACE_BASE: Final = act.PLACE_BASE
EXCLUDE_BASE: Final = act.EXCLUDE_BASE
RECRUIT_BASE: Final = act.RECRUIT_BASE
MOVE_BASE: Final = act.MOVE_BASE
ATTACK_BASE: Final = act.ATTACK_BASE
ALLY_BASE: Final = act.ALLY_BASE
ANSWER_BASE: Final = act.ANSWER_BASE
TURN_BASE: Final = act.TURN_BASE
AREA_BASE: Final = act.AREA_BASE
SWAP_BASE: Final = act.SWAP_BASE
END_BASE: Final = act.END_BASE
AREAS_BASE: Final = act.AREAS_BASE
NUM_ARRANGEMENTS: Final = len(ARRANGEMENTS)
#: the most legal actions one player has at once (a turn lists a few hundred at most)
MAX_LEGAL: Final = 1024


def num_actions(num_players: int) -> int:
    return act.num_actions(num_players)


# ------------------------------------------------------------------ tables as arrays
Int64s = np.ndarray
NEIGHBOURS_BYTES: Final = np.array(NEIGHBOURS_BY_BYTE, dtype=np.int64)
STACK_LIMITS: Final = np.array(STACK_LIMIT, dtype=np.int64)
OUTWARDS: Final = np.array(OUTWARD, dtype=np.int64)
#: ``[target, k]``: ``ORIGIN_SLOTS[target][k]`` (-1 past the end)
SLOTS: Final = np.array(
    [list(s) + [-1] * (MAX_SLOTS - len(s)) for s in ORIGIN_SLOTS], dtype=np.int64
)
NUM_SLOTS: Final = np.array([len(s) for s in ORIGIN_SLOTS], dtype=np.int64)
SLOT_MASKS: Final = np.array([sum(1 << loc for loc in s) for s in ORIGIN_SLOTS], dtype=np.int64)
#: ``[target, first, second]``: the index in ``ORIGIN_PAIRS`` (-1: not both slots)
PAIR_INDEX: Final = np.full((NUM_TILES + 1, NUM_LOCS, NUM_LOCS), -1, dtype=np.int64)
for (_t, _a, _b), _k in act.ORIGIN_PAIR_INDEX.items():
    PAIR_INDEX[_t, _a, _b] = _k
EDGE_ENDS: Final = np.array(EDGES, dtype=np.int64)
ARRANGEMENT_ROWS: Final = np.array(ARRANGEMENTS, dtype=np.int64)


def _edge_bytes(end: int) -> Int64s:
    """``[256 * b + v]``: the edges (a mask over ``EDGES`` indices, 49 bits) whose end
    ``end`` (0: the lower tile, 1: the higher) is one of the tiles of byte ``b`` of a
    tile mask whose bits there are ``v`` (tiles past 27 have no edges)."""
    table = np.zeros(4 * 256, dtype=np.int64)
    for b in range(4):
        for v in range(256):
            for e, ends in enumerate(EDGES):
                if v >> (ends[end] - 8 * b) & 1 if 0 <= ends[end] - 8 * b < 8 else False:
                    table[256 * b + v] |= 1 << e
    return table


#: the by-byte union tables of the edges from a set of tiles as their lower end
#: (``EDGE_LOW_BYTES``) and as their higher end (``EDGE_HIGH_BYTES``), so that the swaps'
#: conditions are tested for all 49 edges at once (``board_legal.swaps``)
EDGE_LOW_BYTES: Final = _edge_bytes(0)
EDGE_HIGH_BYTES: Final = _edge_bytes(1)
#: every edge, a mask over ``EDGES`` indices
ALL_EDGES: Final = (1 << len(EDGES)) - 1
#: every ring tile, a location mask
ALL_TILES: Final = (1 << NUM_TILES) - 1
#: ``[pair]``: (target, first origin, second origin) of ``ORIGIN_PAIRS``
PAIR_ROWS: Final = np.array(act.ORIGIN_PAIRS, dtype=np.int64)
#: ``[k]``: the two payments of ``PAY_PAIRS[k]``
PAY_PAIR_ROWS: Final = np.array(act.PAY_PAIRS, dtype=np.int64)
#: ``[k]``: the dice categories of ``DROPS[k]``, -1 past its end
DROP_ROWS: Final = np.array([list(d) + [-1] * (2 - len(d)) for d in act.DROPS], dtype=np.int64)
#: ``[first, second]`` payments of an assault: the index in ``PAY_PAIRS``
PAY_PAIR_INDEX: Final = np.full((3, 3), -1, dtype=np.int64)
for _pair, _k in act.PAY_PAIR_INDEX.items():
    PAY_PAIR_INDEX[_pair] = _k
#: ``[c1, c2]`` (c1 <= c2; c2 = -1 for one die): the index in ``DROPS``
DROP_INDEX: Final = np.full((3, 4), -1, dtype=np.int64)
for _drop, _k in act.DROP_INDEX.items():
    if len(_drop) == 1:
        DROP_INDEX[_drop[0], 3] = _k
    elif len(_drop) == 2:
        DROP_INDEX[_drop[0], _drop[1]] = _k


def area_draws(num_players: int) -> np.ndarray:
    """``[k, seat]``: the area number of each seat in the k-th area draw (its id is
    ``AREAS_BASE + k``)."""
    perms = act.area_permutations(num_players)
    assert len(perms) == factorial(num_players)
    return np.array(perms, dtype=np.int64)


# ------------------------------------------------------------------ observation
O_PHASE: Final = 0
O_ROUND: Final = 1
O_TURN: Final = 2
O_SLOTS: Final = 3
#: who moves: the relative seat (0-3), or MOVER_ALL, MOVER_CHANCE, MOVER_OVER
O_MOVER: Final = 4
MOVER_ALL: Final = 4
MOVER_CHANCE: Final = 5
MOVER_OVER: Final = 6
O_COUNTDOWN: Final = 5  # the countdown (countdown variant only, else 0)
O_TERMINATION: Final = 6  # 0 none, 1 + TERM_*
O_OFFER: Final = 7  # 1 + target, 1 + own, 1 + relative helper, 1 + helper_from, 1 + pay
O_TERRAIN: Final = 12  # +tile: 0 undrawn, 1 + terrain
O_AREA_OWNER: Final = 40  # +area - 1: 0 none, 1 + relative seat
O_AREA_TOUCH: Final = 44  # +area - 1: 0 unattached, 1 + outer index
O_TURN_POS: Final = 48  # +relative seat: its position in turn order
O_HAND: Final = 52  # +relative seat * 3 + type
O_DICE: Final = 64  # +relative seat * 4 + k: sorted faces, 0 past the pool
O_POINTS: Final = 80  # +relative seat
O_DECLINED: Final = 84  # +relative seat: 1 when it declined this turn
O_EXCLUDED: Final = 88  # +relative seat: 0 none, 1 hidden, 2 + type
O_USED: Final = 92  # +relative seat: bit mask of types ever recruited
O_WINNER: Final = 96  # +relative seat: 1 for a winner
O_UNITS: Final = 100  # +relative seat * 99 + loc * 3 + type
OBS_SIZE: Final = O_UNITS + MAX_PLAYERS * STRIDE
