"""The board game's legal actions as compiled loops over one row of a batch (numba).

Every function reads game ``i`` of ``g`` (``board_layout.F_*``) alone. The rules
follow ``koth.games.board.legal`` step by step (rule numbers from docs/rules/board.md),
with its memos left out: a search over four steps of 29-bit masks costs less here
than a lookup. tests/vector/test_board_batch.py plays both side by side.
"""

from __future__ import annotations

from typing import Any

from koth.games.board.actions import PAY_MOVE, PAY_PAIR, PAY_RECRUIT
from koth.games.board.tables import (
    BLOCKER,
    CENTER,
    FIGHTER,
    PLAYFIELD,
    RING_SIZE,
    RUNNER,
    TOTAL_UNITS,
)
from koth.vector._jit import jit, lowest_bit
from koth.vector.board_jit import occupied
from koth.vector.board_layout import (
    ALL_EDGES,
    ALL_TILES,
    ALLY_BASE,
    ANSWER,
    ANSWER_BASE,
    AREA_BASE,
    ATTACK_BASE,
    DROP_INDEX,
    EDGE_HIGH_BYTES,
    EDGE_LOW_BYTES,
    END_BASE,
    EXCLUDE,
    EXCLUDE_BASE,
    F_AREA_OF,
    F_AREA_POS,
    F_DECLINED,
    F_DICE,
    F_EXCLUDED,
    F_HAND,
    F_LIGHT,
    F_NDICE,
    F_NORMAL,
    F_OFFER,
    F_ORDER,
    F_PHASE,
    F_ROUND,
    F_SLOTS,
    F_TURN,
    F_UNITS,
    MOVE_BASE,
    NEIGHBOURS_BYTES,
    NUM_SLOTS,
    P_BLOCKER_RANGE,
    P_BLOCKERS_AVOID_BLOCKERS,
    P_FIGHTER_RANGE,
    P_N,
    P_RUNNER_FIRST,
    P_RUNNER_RANGE,
    P_RUNNERS_BLOCKED_BY_OWN,
    PAIR_INDEX,
    PAY_PAIR_INDEX,
    PLACE,
    PLACE_BASE,
    RECRUIT_BASE,
    SLOT_MASKS,
    SLOTS,
    STACK_LIMITS,
    STRIDE,
    SWAP_BASE,
    TURN,
    TURN_BASE,
)

Array = Any


@jit
def neighbours_of(locs: int) -> int:
    """The locations next to any of ``locs`` (tiles and the center; B1): the by-byte
    union of ``tables.NEIGHBOURS_BY_BYTE``."""
    return int(
        NEIGHBOURS_BYTES[locs & 255]
        | NEIGHBOURS_BYTES[256 + (locs >> 8 & 255)]
        | NEIGHBOURS_BYTES[512 + (locs >> 16 & 255)]
        | NEIGHBOURS_BYTES[768 + (locs >> 24 & 255)]
    )


@jit
def search_reach(reach: int, src: int, stop: int) -> tuple[int, int]:
    """``tables.search_reach``: breadth-first from ``src`` over ``reach`` steps, never
    through ``stop``: (the locations seen, src excluded; those passed)."""
    visited = 1 << src
    frontier = visited
    passed = 0
    for _ in range(reach):
        if frontier == 0:
            break
        passed |= frontier
        new = neighbours_of(frontier) & ~visited
        visited |= new
        frontier = new & ~stop
    return visited & ~(1 << src), passed


@jit
def units_at(g: Array, i: int, q: int, loc: int, t: int) -> int:
    return int(g[i, F_UNITS + q * STRIDE + loc * 3 + t])


@jit
def stack_at(g: Array, i: int, q: int, loc: int) -> int:
    k = F_UNITS + q * STRIDE + loc * 3
    return int(g[i, k] + g[i, k + 1] + g[i, k + 2])


@jit
def die_counts(g: Array, i: int, q: int) -> tuple[int, int, int]:
    """The recruit, move and turn dice of a seat's pool."""
    recruit = move = turn = 0
    for k in range(g[i, F_NDICE + q]):
        face = g[i, F_DICE + q * 4 + k]
        if face <= 2:
            recruit += 1
        elif face <= 4:
            move += 1
        else:
            turn += 1
    return recruit, move, turn


@jit
def active_seat(g: Array, prm: Array, i: int) -> int:
    # turns 0..2n-1: the second round of turns starts again at position 0
    turn = g[i, F_TURN]
    n = prm[P_N]
    return int(g[i, F_ORDER + (turn - n if turn >= n else turn)])


@jit
def next_area_to_place(g: Array, prm: Array, i: int) -> int:
    """The highest area number not yet attached (B3), 0 when all are."""
    for area in range(prm[P_N], 0, -1):
        if g[i, F_AREA_POS + area - 1] < 0:
            return area
    return 0


@jit
def placer(g: Array, prm: Array, i: int) -> int:
    area = next_area_to_place(g, prm, i)
    for q in range(prm[P_N]):
        if g[i, F_AREA_OF + q] == area:
            return q
    return -1


@jit
def all_recruited(g: Array, i: int, p: int) -> bool:
    """No unit the player may use is left in hand (B7)."""
    excluded = g[i, F_EXCLUDED + p]
    k = F_HAND + p * 3
    return bool(
        (g[i, k] == 0 or excluded == 0)
        and (g[i, k + 1] == 0 or excluded == 1)
        and (g[i, k + 2] == 0 or excluded == 2)
    )


@jit
def blocker_victim(g: Array, prm: Array, i: int, p: int, target: int) -> int:
    """The first opponent after ``p`` in turn order with a blocker on ``target``
    (B12.4)."""
    n = prm[P_N]
    start = 0
    for k in range(n):
        if g[i, F_ORDER + k] == p:
            start = k
    for k in range(1, n):
        q = g[i, F_ORDER + (start + k) % n]
        if units_at(g, i, q, target, BLOCKER):
            return int(q)
    return -1


@jit
def attached_area(g: Array, prm: Array, i: int, index: int) -> int:
    """The location of the area touching outer index ``index``, or -1."""
    for k in range(prm[P_N]):
        if g[i, F_AREA_POS + k] == index:
            return CENTER + 1 + k
    return -1


@jit
def fighter_origins(g: Array, prm: Array, i: int, q: int, target: int) -> int:
    """The slots around ``target`` from which ``q``'s fighters may assault it: tiles
    (and the center) holding one, or ``q``'s own area when it touches ``target``. A
    mask over slot numbers, not locations: bit ``k`` stands for ``SLOTS[target, k]``
    (at most ``MAX_SLOTS`` = 7 bits), so its bits lowest first are the slots in slot
    order, and the search needs no list."""
    q_area = CENTER + g[i, F_AREA_OF + q]
    found = 0
    for k in range(NUM_SLOTS[target]):
        loc = SLOTS[target, k]
        if units_at(g, i, q, loc, FIGHTER) and (
            loc <= CENTER or (loc == q_area and attached_area(g, prm, i, target) == loc)
        ):
            found |= 1 << k
    return found


@jit
def legal(g: Array, prm: Array, i: int, p: int, out: Array) -> int:
    """Player ``p``'s legal action ids in game ``i``, in id order, into ``out``; their
    count (``LegalActions.legal_actions``)."""
    phase = g[i, F_PHASE]
    if phase == TURN:
        if p != active_seat(g, prm, i):
            return 0
        return turn_actions(g, prm, i, p, out)
    if phase == ANSWER:
        if g[i, F_OFFER + 2] != p:
            return 0
        out[0] = ANSWER_BASE
        out[1] = ANSWER_BASE + 1
        return 2
    if phase == PLACE:
        if p != placer(g, prm, i):
            return 0
        count = 0
        for index in range(RING_SIZE):
            if attached_area(g, prm, i, index) < 0:
                out[count] = PLACE_BASE + index
                count += 1
        return count
    if phase == EXCLUDE:
        for t in range(3):
            out[t] = EXCLUDE_BASE + t
        return 3
    return 0


@jit
def turn_actions(g: Array, prm: Array, i: int, p: int, out: Array) -> int:
    """Every action of the active player ``p`` in a turn, in id order: recruits, unit
    moves, assaults and alliance offers, turning, ends (``list_turn_actions``)."""
    n_recruit, n_move, n_turn = die_counts(g, i, p)
    hand = F_HAND + p * 3
    nothing_in_play = g[i, hand] + g[i, hand + 1] + g[i, hand + 2] == TOTAL_UNITS
    count = 0
    # B8: recruits (a recruit die, or a move die while nothing is in play, B7.4)
    by_move = n_move > 0 and nothing_in_play
    if n_recruit or by_move:
        excluded = g[i, F_EXCLUDED + p]
        runners_too = g[i, F_ROUND] >= prm[P_RUNNER_FIRST]
        for t in range(3):
            if g[i, hand + t] and t != excluded and (t != RUNNER or runners_too):
                if n_recruit:
                    out[count] = RECRUIT_BASE + t * 2
                    count += 1
                if by_move:
                    out[count] = RECRUIT_BASE + t * 2 + 1
                    count += 1
    # the payments of a move (B7, B7.4), in id order
    pays = (
        (1 if n_move else 0)
        | (2 if n_recruit and all_recruited(g, i, p) else 0)
        | (4 if n_turn >= 2 else 0)
    )
    if pays and not nothing_in_play:
        count, enemy_b = unit_moves(g, prm, i, p, pays, out, count)
        if g[i, F_SLOTS] == 0 or prm[P_N] > 2:
            light = g[i, F_LIGHT]
            normal = g[i, F_NORMAL]
            own_fighters = occupied(g, i, p, FIGHTER)
            rest = enemy_b & (light | normal | 1 << CENTER)
            targets = 0
            while rest:
                d = lowest_bit(rest)
                rest &= rest - 1
                if own_fighters & SLOT_MASKS[d]:
                    targets |= 1 << d
            if targets:
                count = assaults(g, prm, i, p, pays, targets, out, count)
    # B14: ring turns, the own area to a free position, swaps
    if n_turn:
        for k in range(8):
            out[count] = TURN_BASE + k
            count += 1
        for index in range(RING_SIZE):
            if attached_area(g, prm, i, index) < 0:
                out[count] = AREA_BASE + index
                count += 1
        count = swaps(g, prm, i, out, count)
    # B7, B7.1: the ends of the turn
    return ends(g, prm, i, n_recruit, n_move, n_turn, out, count)


@jit
def unit_moves(
    g: Array, prm: Array, i: int, p: int, pays: int, out: Array, count: int
) -> tuple[int, int]:
    """Append every move of one of ``p``'s units (B9-B12) with each payment of the bit
    set ``pays``; (the count, the mask of the enemy blockers)."""
    n = prm[P_N]
    own_r = occupied(g, i, p, 0)
    own_f = occupied(g, i, p, 1)
    own_b = occupied(g, i, p, 2)
    enemy_r = enemy_f = enemy_b = 0
    for q in range(n):
        if q != p:
            enemy_r |= occupied(g, i, q, 0)
            enemy_f |= occupied(g, i, q, 1)
            enemy_b |= occupied(g, i, q, 2)
    # B5: own stacks at their limit take no more units
    full = 0
    mine = own_r | own_f | own_b
    while mine:
        loc = lowest_bit(mine)
        mine &= mine - 1
        if stack_at(g, i, p, loc) >= STACK_LIMITS[loc]:
            full |= 1 << loc
    light = g[i, F_LIGHT]
    normal = g[i, F_NORMAL]
    center = 1 << CENTER
    fighter_ground = light | normal | center
    blocker_ground = light | center
    enemy_any = enemy_f | enemy_b | enemy_r
    own_area = CENTER + g[i, F_AREA_OF + p]
    own_pos = g[i, F_AREA_POS + own_area - CENTER - 1] if own_area > CENTER else -1
    own_bit = 1 << own_area
    own_touch = 1 << own_pos if own_pos >= 0 else 0
    blocked_runner = enemy_f | enemy_b
    if prm[P_RUNNERS_BLOCKED_BY_OWN]:
        blocked_runner |= own_f | own_b
    for t in range(3):
        positions = occupied(g, i, p, t)
        if t == RUNNER:
            reach = prm[P_RUNNER_RANGE]
            stop = blocked_runner
            target_ok = PLAYFIELD & ~blocked_runner & ~full
        elif t == FIGHTER:
            reach = prm[P_FIGHTER_RANGE]
            stop = ~fighter_ground | enemy_any
            target_ok = fighter_ground & ~full & ~enemy_b
        else:
            reach = prm[P_BLOCKER_RANGE]
            stop = ~blocker_ground | enemy_any
            target_ok = blocker_ground & ~full & ~enemy_f
            if prm[P_BLOCKERS_AVOID_BLOCKERS]:
                target_ok &= ~enemy_b
        while positions:
            src = lowest_bit(positions)
            positions &= positions - 1
            start = src
            steps = reach
            dests = 0
            if src > CENTER:
                start = g[i, F_AREA_POS + src - CENTER - 1]
                if start < 0:
                    continue
                dests = 1 << start & target_ok
                steps = 0 if stop >> start & 1 else reach - 1
            if steps:
                seen, passed = search_reach(steps, start, stop & PLAYFIELD)
                dests |= seen & target_ok
                if passed & own_touch and src <= CENTER:
                    dests |= own_bit  # B3.1: back into the own area
            row = MOVE_BASE + (t * 33 + src) * 33 * 3
            while dests:
                dst = lowest_bit(dests)
                dests &= dests - 1
                for pay in range(3):
                    if pays >> pay & 1:
                        out[count] = row + dst * 3 + pay
                        count += 1
    return count, enemy_b


@jit
def pay_pairs(g: Array, i: int, p: int, pays: int) -> int:
    """The payments of an assault (two move actions at once, B11): a mask over
    ``PAY_PAIRS`` indices (bit ``k`` for ``PAY_PAIRS[k]``, six bits; the indices follow
    the loops' order, so the bits lowest first are the payments in id order)."""
    counts = die_counts(g, i, p)
    found = 0
    for first in range(3):
        if not pays >> first & 1:
            continue
        for second in range(first, 3):
            if not pays >> second & 1:
                continue
            need_r = (first == PAY_RECRUIT) + (second == PAY_RECRUIT)
            need_m = (first == PAY_MOVE) + (second == PAY_MOVE)
            need_t = 2 * ((first == PAY_PAIR) + (second == PAY_PAIR))
            if need_r <= counts[0] and need_m <= counts[1] and need_t <= counts[2]:
                found |= 1 << PAY_PAIR_INDEX[first, second]
    return found


@jit
def assaults(
    g: Array, prm: Array, i: int, p: int, pays: int, targets: int, out: Array, count: int
) -> int:
    """Append the assaults by two own fighters (B11) and the alliance offers (B13) on
    the enemy blockers of ``targets`` (a mask)."""
    n = prm[P_N]
    pairs = pay_pairs(g, i, p, pays) if g[i, F_SLOTS] == 0 else 0
    helpers = 0
    if n > 2:
        for q in range(n):
            if q != p and not g[i, F_DECLINED] >> q & 1:
                helpers |= 1 << q
    if pairs == 0 and helpers == 0:
        return count
    if pairs:
        rest = targets
        while rest:
            d = lowest_bit(rest)
            rest &= rest - 1
            origins = fighter_origins(g, prm, i, p, d)
            xs = origins
            while xs:
                a = SLOTS[d, lowest_bit(xs)]
                xs &= xs - 1
                ys = origins
                while ys:
                    b = SLOTS[d, lowest_bit(ys)]
                    ys &= ys - 1
                    if a == b and units_at(g, i, p, a, FIGHTER) < 2:
                        continue
                    zs = pairs
                    while zs:
                        out[count] = ATTACK_BASE + PAIR_INDEX[d, a, b] * 6 + lowest_bit(zs)
                        zs &= zs - 1
                        count += 1
    if helpers == 0:
        return count
    rest = targets
    while rest:
        d = lowest_bit(rest)
        rest &= rest - 1
        origins = fighter_origins(g, prm, i, p, d)
        if origins == 0:
            continue
        owner = blocker_victim(g, prm, i, p, d)
        # per helper q, the slots it may assault d from, in bits 8q to 8q + 6
        helper_slots = 0
        for q in range(n):
            if helpers >> q & 1 and q != owner:
                helper_slots |= fighter_origins(g, prm, i, q, d) << 8 * q
        if helper_slots == 0:
            continue
        xs = origins
        while xs:
            a = SLOTS[d, lowest_bit(xs)]
            xs &= xs - 1
            for y in range(NUM_SLOTS[d]):
                h_loc = SLOTS[d, y]
                for q in range(n):
                    if helper_slots >> (8 * q + y) & 1:
                        for pay in range(3):
                            if pays >> pay & 1:
                                out[count] = ALLY_BASE + (PAIR_INDEX[d, a, h_loc] * 4 + q) * 3 + pay
                                count += 1
    return count


@jit
def edges_of(table: Array, tiles: int) -> int:
    """The by-byte union of ``table`` (``EDGE_LOW_BYTES`` or ``EDGE_HIGH_BYTES``) over
    the tile mask ``tiles``: a mask over ``EDGES`` indices."""
    return int(
        table[tiles & 255]
        | table[256 + (tiles >> 8 & 255)]
        | table[512 + (tiles >> 16 & 255)]
        | table[768 + (tiles >> 24 & 255)]
    )


@jit
def swaps(g: Array, prm: Array, i: int, out: Array, count: int) -> int:
    """B14: the terrain swaps allowed (a tile gets difficult terrain only where no
    fighter or blocker stands, normal terrain only where no blocker does). The
    conditions are tested for the 49 edges at once, as masks over ``EDGES`` indices
    (bit ``e`` for edge ``e`` = (a, b), a < b; ``low``/``high``: edges whose a/b is in a
    set of tiles), instead of one edge at a time with five branches."""
    fighters = blockers = 0
    for q in range(prm[P_N]):
        fighters |= occupied(g, i, q, 1)
        blockers |= occupied(g, i, q, 2)
    standing = fighters | blockers
    light = g[i, F_LIGHT]
    normal = g[i, F_NORMAL]
    difficult = ALL_TILES & ~light & ~normal  # every tile is drawn in a turn
    low_l = edges_of(EDGE_LOW_BYTES, light)
    high_l = edges_of(EDGE_HIGH_BYTES, light)
    low_d = edges_of(EDGE_LOW_BYTES, difficult)
    high_d = edges_of(EDGE_HIGH_BYTES, difficult)
    # both ends of the same kind (normal: neither light nor difficult)
    same = low_l & high_l | low_d & high_d | ALL_EDGES & ~(low_l | low_d) & ~(high_l | high_d)
    # a tile takes difficult terrain only where nothing stands, anything but light
    # terrain only where no blocker stands
    refused = (
        edges_of(EDGE_LOW_BYTES, standing) & high_d
        | edges_of(EDGE_HIGH_BYTES, standing) & low_d
        | edges_of(EDGE_LOW_BYTES, blockers) & ~high_l
        | edges_of(EDGE_HIGH_BYTES, blockers) & ~low_l
    )
    allowed = ALL_EDGES & ~same & ~refused
    while allowed:
        out[count] = SWAP_BASE + lowest_bit(allowed)
        allowed &= allowed - 1
        count += 1
    return count


@jit
def ends(
    g: Array, prm: Array, i: int, n_recruit: int, n_move: int, n_turn: int, out: Array, count: int
) -> int:
    """B7, B7.1: the ends of the turn; in the first turn of the round, one per choice of
    the dice to give up when the choice matters."""
    if g[i, F_TURN] >= prm[P_N]:
        out[count] = END_BASE
        return count + 1
    to_drop = min(2 - g[i, F_SLOTS], n_recruit + n_move + n_turn)
    dice = (n_recruit, n_move, n_turn)
    start = count
    if to_drop == 1:
        for c in range(3):
            if dice[c]:
                out[count] = END_BASE + DROP_INDEX[c, 3]
                count += 1
    elif to_drop == 2:
        for c1 in range(3):
            for c2 in range(c1, 3):
                usable = dice[c1] >= 2 if c1 == c2 else dice[c1] > 0 and dice[c2] > 0
                if usable:
                    out[count] = END_BASE + DROP_INDEX[c1, c2]
                    count += 1
    if count - start <= 1:
        out[start] = END_BASE
        return start + 1
    return count


#: the payments, for the readers of this module
PAYS = (PAY_MOVE, PAY_RECRUIT, PAY_PAIR)
