"""What the board game's actions do, as compiled loops over one row of a batch (numba).

Every function changes game ``i`` of ``g`` (``board_layout.F_*``) alone, following
``koth.games.board.rules`` step by step (rule numbers from docs/rules/board.md); an
action arrives as its id (``koth.games.board.actions``) and was checked legal.
"""

from __future__ import annotations

from typing import Any

from koth.games.board.actions import PAY_MOVE, PAY_RECRUIT
from koth.games.board.tables import (
    BLOCKER,
    CENTER,
    FIGHTER,
    LIGHT,
    MOVE_DIE,
    NORMAL,
    NUM_LOCS,
    NUM_TILES,
    RECRUIT_DIE,
    RING_SIZE,
    RUNNER,
    TURN_DIE,
    UNITS_PER_PLAYER,
)
from koth.vector._jit import jit, set_word
from koth.vector.board_end import finish_turn
from koth.vector.board_jit import mark_changed, occupied, set_occupied
from koth.vector.board_layout import (
    ALL_LOCS,
    ALLY_BASE,
    ALLY_DIE,
    ANSWER,
    ANSWER_BASE,
    AREA_BASE,
    AREAS_BASE,
    ARRANGEMENT_ROWS,
    ATTACK_BASE,
    DRAW,
    DROP_ROWS,
    EDGE_ENDS,
    END_BASE,
    EXCLUDE,
    EXCLUDE_BASE,
    F_AREA_OF,
    F_AREA_POS,
    F_CHANGED,
    F_COUNTDOWN,
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
    F_TERMINATION,
    F_TERRAIN,
    F_TURN,
    F_UNITS,
    F_USED,
    MOVE_BASE,
    NUM_ARRANGEMENTS,
    NUM_FIELDS,
    OUTWARDS,
    P_COUNTDOWN_START,
    P_N,
    P_ONE_EXCLUDED,
    PAIR_ROWS,
    PAY_PAIR_ROWS,
    PLACE,
    PLACE_BASE,
    RECRUIT_BASE,
    ROLL,
    STACK_LIMITS,
    STRIDE,
    SWAP_BASE,
    TERRAIN,
    TERRAIN_BASE,
    TURN,
    TURN_BASE,
)
from koth.vector.board_legal import active_seat, blocker_victim, next_area_to_place, stack_at

Array = Any


@jit
def reset_game(g: Array, prm: Array, i: int) -> None:
    """``Rules.initial``: terrain to draw, no areas, every unit in hand."""
    n = prm[P_N]
    for f in range(NUM_FIELDS):
        g[i, f] = 0
    g[i, F_PHASE] = TERRAIN
    g[i, F_COUNTDOWN] = prm[P_COUNTDOWN_START]
    g[i, F_TERMINATION] = -1
    g[i, F_OFFER + 2] = -1
    set_word(g, i, F_CHANGED, ALL_LOCS)  # every count is new to the observations
    for tile in range(28):
        g[i, F_TERRAIN + tile] = -1
    for q in range(4):
        g[i, F_AREA_POS + q] = -1
        g[i, F_EXCLUDED + q] = -1
        g[i, F_ORDER + q] = q if q < n else -1
        if q < n:
            for t in range(3):
                g[i, F_HAND + q * 3 + t] = UNITS_PER_PLAYER[t]


# ------------------------------------------------------------------ small parts
@jit
def add_unit(g: Array, i: int, q: int, loc: int, t: int) -> None:
    g[i, F_UNITS + q * STRIDE + loc * 3 + t] += 1
    set_occupied(g, i, q, t, occupied(g, i, q, t) | 1 << loc)
    mark_changed(g, i, 1 << loc)


@jit
def remove_unit(g: Array, i: int, q: int, loc: int, t: int) -> None:
    k = F_UNITS + q * STRIDE + loc * 3 + t
    g[i, k] -= 1
    mark_changed(g, i, 1 << loc)
    if g[i, k] == 0:
        set_occupied(g, i, q, t, occupied(g, i, q, t) & ~(1 << loc))


@jit
def terrain_changed(g: Array, i: int) -> None:
    """``F_LIGHT`` and ``F_NORMAL`` rebuilt from the 28 terrain fields (after a ring's
    draw, a ring turn or a swap; an undrawn tile is in neither)."""
    light = normal = 0
    for tile in range(NUM_TILES):
        kind = g[i, F_TERRAIN + tile]
        if kind == LIGHT:
            light |= 1 << tile
        elif kind == NORMAL:
            normal |= 1 << tile
    g[i, F_LIGHT] = light
    g[i, F_NORMAL] = normal


@jit
def add_face(g: Array, i: int, q: int, face: int) -> None:
    """The rolled ``face`` into a seat's sorted pool (of at most three)."""
    k = g[i, F_NDICE + q]
    base = F_DICE + q * 4
    while k > 0 and g[i, base + k - 1] > face:
        g[i, base + k] = g[i, base + k - 1]
        k -= 1
    g[i, base + k] = face
    g[i, F_NDICE + q] += 1


@jit
def remove_die(g: Array, i: int, q: int, category: int) -> None:
    """A seat's lowest face of ``category`` leaves its pool."""
    base = F_DICE + q * 4
    size = g[i, F_NDICE + q]
    for k in range(size):
        if (g[i, base + k] - 1) // 2 == category:
            for j in range(k, size - 1):
                g[i, base + j] = g[i, base + j + 1]
            g[i, base + size - 1] = 0
            g[i, F_NDICE + q] = size - 1
            return


@jit
def pay(g: Array, i: int, q: int, payment: int) -> None:
    if payment == PAY_MOVE:
        remove_die(g, i, q, MOVE_DIE)
    elif payment == PAY_RECRUIT:
        remove_die(g, i, q, RECRUIT_DIE)
    else:
        remove_die(g, i, q, TURN_DIE)
        remove_die(g, i, q, TURN_DIE)


# ------------------------------------------------------------------ chance and setup
@jit
def chance_count(g: Array, prm: Array, i: int, num_draws: int) -> int:
    """The number of outcomes of game ``i``'s chance node (all equally likely)."""
    phase = g[i, F_PHASE]
    if phase == TERRAIN:
        return NUM_ARRANGEMENTS
    if phase == DRAW:
        return num_draws
    return 6


@jit
def chance_id(g: Array, i: int, k: int) -> int:
    """The action id of the ``k``-th outcome of game ``i``'s chance node."""
    phase = g[i, F_PHASE]
    if phase == TERRAIN:
        return TERRAIN_BASE + rings_drawn(g, i) * NUM_ARRANGEMENTS + k
    if phase == DRAW:
        return AREAS_BASE + k
    return k


@jit
def rings_drawn(g: Array, i: int) -> int:
    drawn = 0
    for ring in range(4):
        if g[i, F_TERRAIN + ring * RING_SIZE] >= 0:
            drawn += 1
    return drawn


@jit
def apply_chance(g: Array, prm: Array, draws: Array, i: int, a: int) -> None:
    """A chance outcome (its action id) of game ``i``."""
    phase = g[i, F_PHASE]
    if phase == ROLL:
        apply_roll(g, prm, i, a + 1)
    elif phase == ALLY_DIE:
        alliance_fight(g, prm, i, a + 1)
        after_action(g, prm, i)
    elif phase == TERRAIN:
        ring, k = divmod(a - TERRAIN_BASE, NUM_ARRANGEMENTS)
        for x in range(RING_SIZE):
            g[i, F_TERRAIN + ring * RING_SIZE + x] = ARRANGEMENT_ROWS[k, x]
        terrain_changed(g, i)
        if ring == 3:
            g[i, F_PHASE] = DRAW
    else:  # DRAW
        n = prm[P_N]
        k = a - AREAS_BASE
        for q in range(n):
            area = draws[k, q]
            g[i, F_AREA_OF + q] = area
            g[i, F_ORDER + area - 1] = q
        g[i, F_PHASE] = PLACE


@jit
def apply_roll(g: Array, prm: Array, i: int, face: int) -> None:
    """B6: the die goes to the first seat in turn order with fewer than four; once
    every seat has four, the turns start."""
    n = prm[P_N]
    for k in range(n):
        q = g[i, F_ORDER + k]
        if g[i, F_NDICE + q] < 4:
            add_face(g, i, q, face)
            if g[i, F_NDICE + q] < 4:
                return
            break
    for q in range(n):
        if g[i, F_NDICE + q] != 4:
            return
    g[i, F_PHASE] = TURN
    g[i, F_TURN] = 0
    g[i, F_SLOTS] = 0
    g[i, F_DECLINED] = 0


@jit
def apply_place(g: Array, prm: Array, i: int, a: int) -> None:
    area = next_area_to_place(g, prm, i)
    g[i, F_AREA_POS + area - 1] = a - PLACE_BASE
    if area > 1:
        return
    if prm[P_ONE_EXCLUDED]:
        g[i, F_PHASE] = EXCLUDE
    else:
        g[i, F_PHASE] = ROLL
        g[i, F_ROUND] = 1


@jit
def apply_exclude(g: Array, prm: Array, i: int, joint: Array) -> None:
    """B16.2: every seat's secret choice at once."""
    for q in range(prm[P_N]):
        g[i, F_EXCLUDED + q] = joint[q] - EXCLUDE_BASE
    g[i, F_PHASE] = ROLL
    g[i, F_ROUND] = 1


# ------------------------------------------------------------------ a turn's actions
@jit
def apply_decision(g: Array, prm: Array, i: int, p: int, a: int) -> None:
    """Player ``p``'s action ``a`` at a node where one player moves."""
    phase = g[i, F_PHASE]
    if phase == TURN:
        apply_turn(g, prm, i, p, a)
    elif phase == ANSWER:
        answer(g, prm, i, a == ANSWER_BASE)
    else:
        apply_place(g, prm, i, a)


@jit
def apply_turn(g: Array, prm: Array, i: int, p: int, a: int) -> None:
    if MOVE_BASE <= a < ATTACK_BASE:
        rest, payment = divmod(a - MOVE_BASE, 3)
        rest, dst = divmod(rest, NUM_LOCS)
        t, src = divmod(rest, NUM_LOCS)
        move(g, prm, i, p, t, src, dst)
        g[i, F_SLOTS] += 1
        pay(g, i, p, payment)
        after_action(g, prm, i)
    elif a >= END_BASE:
        end_turn(g, prm, i, p, a - END_BASE)
    elif a < MOVE_BASE:  # a recruit
        t, by_move = divmod(a - RECRUIT_BASE, 2)
        g[i, F_HAND + p * 3 + t] -= 1
        add_unit(g, i, p, CENTER + g[i, F_AREA_OF + p], t)
        g[i, F_USED + p] |= 1 << t
        remove_die(g, i, p, MOVE_DIE if by_move else RECRUIT_DIE)
        g[i, F_SLOTS] += 1
        after_action(g, prm, i)
    elif a < ALLY_BASE:
        pair, pays = divmod(a - ATTACK_BASE, 6)
        target = PAIR_ROWS[pair, 0]
        lose = PAIR_ROWS[pair, 1]
        keep = PAIR_ROWS[pair, 2]
        pay(g, i, p, PAY_PAIR_ROWS[pays, 0])
        pay(g, i, p, PAY_PAIR_ROWS[pays, 1])
        # B11: one own fighter dies, the blocker dies, the other may move in
        remove_unit(g, i, p, lose, FIGHTER)
        g[i, F_HAND + p * 3 + FIGHTER] += 1
        kill_blocker(g, prm, i, p, target)
        enter_after_fight(g, prm, i, p, keep, target)
        g[i, F_SLOTS] = 2
        after_action(g, prm, i)
    elif a < ANSWER_BASE:
        rest, payment = divmod(a - ALLY_BASE, 3)
        pair, helper = divmod(rest, 4)
        g[i, F_OFFER] = PAIR_ROWS[pair, 0]
        g[i, F_OFFER + 1] = PAIR_ROWS[pair, 1]
        g[i, F_OFFER + 2] = helper
        g[i, F_OFFER + 3] = PAIR_ROWS[pair, 2]
        g[i, F_OFFER + 4] = payment
        g[i, F_PHASE] = ANSWER
    else:
        remove_die(g, i, p, TURN_DIE)
        g[i, F_SLOTS] += 1
        if a < AREA_BASE:
            ring, right = divmod(a - TURN_BASE, 2)
            rotate(g, prm, i, ring, right == 1)
        elif a < SWAP_BASE:
            g[i, F_AREA_POS + g[i, F_AREA_OF + p] - 1] = a - AREA_BASE
        else:
            x = F_TERRAIN + EDGE_ENDS[a - SWAP_BASE, 0]
            y = F_TERRAIN + EDGE_ENDS[a - SWAP_BASE, 1]
            g[i, x], g[i, y] = g[i, y], g[i, x]
            terrain_changed(g, i)
        after_action(g, prm, i)


@jit
def end_turn(g: Array, prm: Array, i: int, p: int, drop: int) -> None:
    """B7, B7.1: in the round's first turns the dice of the unused slots are given up
    (the chosen ones, or the lowest categories when the choice does not matter)."""
    if g[i, F_TURN] < prm[P_N]:
        size = g[i, F_NDICE + p]
        to_drop = min(2 - g[i, F_SLOTS], size)
        if drop == 0 and to_drop:
            # the forced choice: the lowest categories of the sorted pool
            first = (g[i, F_DICE + p * 4] - 1) // 2
            second = (g[i, F_DICE + p * 4 + 1] - 1) // 2
            remove_die(g, i, p, first)
            if to_drop == 2:
                remove_die(g, i, p, second)
        elif drop > 0:
            for c in DROP_ROWS[drop]:
                if c >= 0:
                    remove_die(g, i, p, c)
    finish_turn(g, prm, i)


@jit
def rotate(g: Array, prm: Array, i: int, ring: int, right: bool) -> None:
    """Turning right, what stood at index x of the ring goes to x + 1 (6 to 0)."""
    start = ring * RING_SIZE
    _rotate_fields(g, i, F_TERRAIN + start, 1, right)
    terrain_changed(g, i)
    mark_changed(g, i, 0x7F << start)  # the ring's seven tiles
    for q in range(prm[P_N]):
        for t in range(3):
            _rotate_fields(g, i, F_UNITS + q * STRIDE + start * 3 + t, 3, right)
            mask = occupied(g, i, q, t)
            bits = mask >> start & 0x7F
            turned = (bits << 1 | bits >> 6) & 0x7F if right else bits >> 1 | (bits & 1) << 6
            set_occupied(g, i, q, t, mask & ~(0x7F << start) | turned << start)


@jit
def _rotate_fields(g: Array, i: int, first: int, step: int, right: bool) -> None:
    """Seven fields ``step`` apart turned one place (right: x to x + 1)."""
    last = first + 6 * step
    if right:
        keep = g[i, last]
        for x in range(6, 0, -1):
            g[i, first + x * step] = g[i, first + (x - 1) * step]
        g[i, first] = keep
    else:
        keep = g[i, first]
        for x in range(6):
            g[i, first + x * step] = g[i, first + (x + 1) * step]
        g[i, last] = keep


@jit
def kill_runners(g: Array, prm: Array, i: int, p: int, loc: int) -> None:
    """A fighter of ``p`` entered ``loc``: every enemy runner there dies (B11)."""
    for q in range(prm[P_N]):
        k = F_UNITS + q * STRIDE + loc * 3
        if q != p and g[i, k]:
            g[i, F_HAND + q * 3] += g[i, k]
            g[i, k] = 0
            set_occupied(g, i, q, 0, occupied(g, i, q, 0) & ~(1 << loc))
            mark_changed(g, i, 1 << loc)


@jit
def move(g: Array, prm: Array, i: int, p: int, t: int, src: int, dst: int) -> None:
    """``p`` moves a unit of type ``t`` (B9-B12)."""
    n = prm[P_N]
    remove_unit(g, i, p, src, t)
    if t != RUNNER:
        met = 0
        for q in range(n):
            if q != p:
                met |= occupied(g, i, q, 0)
                if t == FIGHTER:
                    met |= occupied(g, i, q, 1)
        if met >> dst & 1:
            if t == FIGHTER:
                for q in range(n):
                    if q != p and g[i, F_UNITS + q * STRIDE + dst * 3 + 1]:
                        # B11: the attacker and one enemy fighter die
                        remove_unit(g, i, q, dst, FIGHTER)
                        g[i, F_HAND + q * 3 + 1] += 1
                        g[i, F_HAND + p * 3 + 1] += 1
                        return
                kill_runners(g, prm, i, p, dst)
            else:
                push(g, prm, i, p, src, dst)
    add_unit(g, i, p, dst, t)


@jit
def push(g: Array, prm: Array, i: int, p: int, src: int, dst: int) -> None:
    """B12: enemy runners on ``dst`` go one ring outward (from ring 1 or the center: to
    the blocker's origin); one that finds no room (or an area) there dies."""
    target = OUTWARDS[dst]
    if target < 0:
        target = src
    for q in range(prm[P_N]):
        k = F_UNITS + q * STRIDE + dst * 3
        if q == p or not g[i, k]:
            continue
        pushed = g[i, k]
        g[i, k] = 0
        set_occupied(g, i, q, 0, occupied(g, i, q, 0) & ~(1 << dst))
        mark_changed(g, i, 1 << dst)
        for _ in range(pushed):
            if target <= CENTER and stack_at(g, i, q, target) < STACK_LIMITS[target]:
                add_unit(g, i, q, target, RUNNER)
            else:
                g[i, F_HAND + q * 3] += 1


@jit
def enter_after_fight(g: Array, prm: Array, i: int, q: int, origin: int, target: int) -> None:
    """A surviving fighter of ``q`` moves onto ``target`` if nothing forbids it."""
    for r in range(prm[P_N]):
        k = F_UNITS + r * STRIDE + target * 3
        if r != q and (g[i, k + 1] or g[i, k + 2]):
            return
    if stack_at(g, i, q, target) >= STACK_LIMITS[target]:
        return
    remove_unit(g, i, q, origin, FIGHTER)
    kill_runners(g, prm, i, q, target)
    add_unit(g, i, q, target, FIGHTER)


@jit
def kill_blocker(g: Array, prm: Array, i: int, p: int, target: int) -> None:
    q = blocker_victim(g, prm, i, p, target)
    remove_unit(g, i, q, target, BLOCKER)
    g[i, F_HAND + q * 3 + 2] += 1


@jit
def answer(g: Array, prm: Array, i: int, accept: bool) -> None:
    """B13: the asked helper accepts (the blocker dies, a die decides which fighter
    dies) or declines."""
    helper = g[i, F_OFFER + 2]
    if not accept:
        g[i, F_PHASE] = TURN
        g[i, F_OFFER + 2] = -1
        g[i, F_DECLINED] |= 1 << helper
        return
    active = active_seat(g, prm, i)
    kill_blocker(g, prm, i, active, g[i, F_OFFER])
    g[i, F_PHASE] = ALLY_DIE
    g[i, F_SLOTS] += 1
    pay(g, i, active, g[i, F_OFFER + 4])


@jit
def alliance_fight(g: Array, prm: Array, i: int, face: int) -> None:
    active = active_seat(g, prm, i)
    target = g[i, F_OFFER]
    own = g[i, F_OFFER + 1]
    helper = g[i, F_OFFER + 2]
    helper_from = g[i, F_OFFER + 3]
    if face <= 3:
        dead, dead_at, survivor, survivor_at = active, own, helper, helper_from
    else:
        dead, dead_at, survivor, survivor_at = helper, helper_from, active, own
    remove_unit(g, i, dead, dead_at, FIGHTER)
    g[i, F_HAND + dead * 3 + 1] += 1
    enter_after_fight(g, prm, i, survivor, survivor_at, target)
    g[i, F_PHASE] = TURN
    g[i, F_OFFER + 2] = -1


# ------------------------------------------------------------------ turn end
@jit
def after_action(g: Array, prm: Array, i: int) -> None:
    if g[i, F_SLOTS] >= 2 or g[i, F_NDICE + active_seat(g, prm, i)] == 0:
        finish_turn(g, prm, i)
