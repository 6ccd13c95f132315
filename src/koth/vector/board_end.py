"""The end of a board turn as compiled loops over one row of a batch (numba): scoring,
the end of the game and the passing of the turn (``Rules._finish_turn`` and its
helpers, B6, B7, B15-B17; ``board_rules`` applies the actions).
"""

from __future__ import annotations

from typing import Any

from koth.games.board.tables import CENTER
from koth.vector._jit import jit
from koth.vector.board_jit import occupied
from koth.vector.board_layout import (
    F_COUNTDOWN,
    F_DECLINED,
    F_DICE,
    F_NDICE,
    F_OFFER,
    F_ORDER,
    F_PHASE,
    F_POINTS,
    F_ROUND,
    F_SLOTS,
    F_TERMINATION,
    F_TURN,
    F_WINNERS,
    OVER,
    P_COUNTDOWN,
    P_N,
    P_ROUND_LIMIT,
    P_SCORE_OWN_TURNS,
    P_TARGET,
    P_TEAMPLAY,
    ROLL,
    TERM_COUNTDOWN,
    TERM_DRAW,
    TERM_TARGET,
    TURN,
)

Array = Any


@jit
def clear_dice(g: Array, i: int, q: int) -> None:
    for k in range(4):
        g[i, F_DICE + q * 4 + k] = 0
    g[i, F_NDICE + q] = 0


@jit
def order_index(g: Array, prm: Array, i: int, q: int) -> int:
    for k in range(prm[P_N]):
        if g[i, F_ORDER + k] == q:
            return k
    return -1


@jit
def ahead(g: Array, prm: Array, i: int, q: int, other: int) -> bool:
    """``q`` has more points than ``other``, or as many and comes earlier in turn
    order (``rules._leader``)."""
    mine = g[i, F_POINTS + q]
    theirs = g[i, F_POINTS + other]
    if mine != theirs:
        return bool(mine > theirs)
    return order_index(g, prm, i, q) < order_index(g, prm, i, other)


@jit
def side_mask(prm: Array, q: int) -> int:
    """The seats of ``q``'s side (B16.3: seats 0+2 and 1+3 in teamplay)."""
    if prm[P_TEAMPLAY]:
        return 0b0101 if q % 2 == 0 else 0b1010
    return 1 << q


@jit
def side_points(g: Array, i: int, side: int) -> int:
    total = 0
    for q in range(4):
        if side >> q & 1:
            total += g[i, F_POINTS + q]
    return total


@jit
def target_winners(g: Array, prm: Array, i: int, active: int) -> int:
    """B15: the side that reached the target (the best ranked of several: points, then
    the side on turn, then the one whose first member comes earlier in turn order)."""
    n = prm[P_N]
    target = prm[P_TARGET]
    sides = 2 if prm[P_TEAMPLAY] else n
    best = 0
    best_points = best_on_turn = best_first = 0
    for s in range(sides):
        side = side_mask(prm, s)
        points = side_points(g, i, side)
        if points < target:
            continue
        first = n
        for q in range(n):
            if side >> q & 1:
                first = min(first, order_index(g, prm, i, q))
        on_turn = 1 if side >> active & 1 else 0
        better = (
            best == 0
            or points > best_points
            or (points == best_points and on_turn > best_on_turn)
            or (points == best_points and on_turn == best_on_turn and first < best_first)
        )
        if better:
            best, best_points, best_on_turn, best_first = side, points, on_turn, first
    return best


@jit
def finish_turn(g: Array, prm: Array, i: int) -> None:
    """Score, check the end, and pass to the next turn that has dice (B6, B7, B15)."""
    n = prm[P_N]
    on_center = 0
    for q in range(n):
        if (occupied(g, i, q, 0) | occupied(g, i, q, 1) | occupied(g, i, q, 2)) >> CENTER & 1:
            on_center |= 1 << q
    turn = g[i, F_TURN]
    while True:
        active = g[i, F_ORDER + turn % n]
        if turn >= n and g[i, F_NDICE + active]:
            clear_dice(g, i, active)
        for q in range(n):
            if on_center >> q & 1 and (not prm[P_SCORE_OWN_TURNS] or q == active):
                g[i, F_POINTS + q] += 1
        winners = 0
        termination = -1
        if prm[P_COUNTDOWN]:
            if on_center:
                g[i, F_COUNTDOWN] -= 1
                if g[i, F_COUNTDOWN] <= 0:
                    termination = TERM_COUNTDOWN
                    best = -1
                    for q in range(n):
                        if on_center >> q & 1 and (best < 0 or ahead(g, prm, i, q, best)):
                            best = q
                    winners = side_mask(prm, best)
        else:
            winners = target_winners(g, prm, i, active)
            if winners:
                termination = TERM_TARGET
        if termination < 0 and turn == 2 * n - 1 and g[i, F_ROUND] >= prm[P_ROUND_LIMIT]:
            termination = TERM_DRAW
            sides = 2 if prm[P_TEAMPLAY] else n
            top = -1
            for s in range(sides):
                top = max(top, side_points(g, i, side_mask(prm, s)))
            for s in range(sides):
                if side_points(g, i, side_mask(prm, s)) == top:
                    winners |= side_mask(prm, s)
        if termination >= 0:
            g[i, F_PHASE] = OVER
            g[i, F_TERMINATION] = termination
            g[i, F_WINNERS] = winners
            g[i, F_SLOTS] = 0
            g[i, F_OFFER + 2] = -1
            return
        if turn == 2 * n - 1:
            g[i, F_PHASE] = ROLL
            g[i, F_ROUND] += 1
            g[i, F_TURN] = 0
            g[i, F_SLOTS] = 0
            g[i, F_DECLINED] = 0
            g[i, F_OFFER + 2] = -1
            for q in range(n):
                clear_dice(g, i, q)
            return
        turn += 1
        if turn >= n and g[i, F_NDICE + g[i, F_ORDER + turn % n]] == 0:
            continue  # B7: no dice left for the second turn: it is skipped
        g[i, F_PHASE] = TURN
        g[i, F_TURN] = turn
        g[i, F_SLOTS] = 0
        g[i, F_DECLINED] = 0
        g[i, F_OFFER + 2] = -1
        return
