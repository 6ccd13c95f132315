"""The batched board game's steps: node, observation, legal actions, chance and the
batch's loops (numba). The rules themselves are ``board_legal`` and ``board_rules``.

``arrays`` bundles the batch's arrays in the order of ``board_buffer.step_arrays``;
every function reads and writes game ``i`` alone, so the loops hand the games to one
worker per core.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from koth.vector._jit import (
    below,
    jit,
    jit_inline,
    jit_parallel,
    lowest_bit,
    prange,
    set_word,
    word,
)
from koth.vector.board_buffer import batch_views, step_arrays
from koth.vector.board_jit import occupied, prefetch
from koth.vector.board_layout import (
    ALL_LOCS,
    ALLY_DIE,
    ANSWER,
    DRAW,
    EXCLUDE,
    F_AREA_OF,
    F_AREA_POS,
    F_CHANGED,
    F_COUNTDOWN,
    F_DECLINED,
    F_DICE,
    F_EXCLUDED,
    F_HAND,
    F_OFFER,
    F_ORDER,
    F_PHASE,
    F_POINTS,
    F_ROUND,
    F_SLOTS,
    F_TERMINATION,
    F_TERRAIN,
    F_TURN,
    F_UNITS,
    F_USED,
    F_WINNERS,
    MOVER_ALL,
    MOVER_CHANCE,
    MOVER_OVER,
    O_AREA_OWNER,
    O_AREA_TOUCH,
    O_COUNTDOWN,
    O_DECLINED,
    O_DICE,
    O_EXCLUDED,
    O_HAND,
    O_MOVER,
    O_OFFER,
    O_PHASE,
    O_POINTS,
    O_ROUND,
    O_SLOTS,
    O_TERMINATION,
    O_TERRAIN,
    O_TURN,
    O_TURN_POS,
    O_UNITS,
    O_USED,
    O_WINNER,
    OVER,
    P_COUNTDOWN,
    P_N,
    PLACE,
    ROLL,
    STRIDE,
    TERRAIN,
    TM_ALL,
    TM_CHANCE,
    TM_OVER,
    TM_PLAYER0,
    TURN,
)
from koth.vector.board_legal import active_seat, legal, placer
from koth.vector.board_rules import (
    apply_chance,
    apply_decision,
    apply_exclude,
    chance_count,
    chance_id,
    reset_game,
)

Array = Any


@jit
def to_move(g: Array, prm: Array, i: int) -> int:
    """Game ``i``'s node (``TM_*``)."""
    phase = g[i, F_PHASE]
    if phase == TURN:
        return TM_PLAYER0 + active_seat(g, prm, i)
    if phase in (ROLL, TERRAIN, DRAW, ALLY_DIE):
        return TM_CHANCE
    if phase == ANSWER:
        return int(TM_PLAYER0 + g[i, F_OFFER + 2])
    if phase == PLACE:
        return TM_PLAYER0 + placer(g, prm, i)
    if phase == EXCLUDE:
        return TM_ALL
    return TM_OVER


@jit
def seat_from(q: int, me: int, n: int) -> int:
    """Player ``q``'s seat counted from ``me``: ``(q - me) % n`` for players
    ``0..n-1``, by a comparison instead of a division."""
    r = q - me
    return r + n if r < 0 else r


@jit
def observe(g: Array, prm: Array, i: int, me: int, mover: int, row: Array) -> None:
    """Player ``me``'s observation of game ``i`` (``board_layout``; ``board_obs``
    computes it from the view): seats counted from ``me``, the others' excluded types
    hidden until the end (B16.2). Every entry is written."""
    row[:] = 0
    observe_changes(g, prm, i, me, mover, row, ALL_LOCS)


@jit
def observe_changes(
    g: Array, prm: Array, i: int, me: int, mover: int, row: Array, locs: int
) -> None:
    """``observe`` for a ``row`` that held player ``me``'s observation of game ``i``
    before the last changes: every entry before ``O_UNITS`` (a hundred) is written
    again, and of the unit counts (four hundred) only those at the locations of the
    mask ``locs`` (``F_CHANGED``: where the rules changed a count). The counts of the
    seats beyond the table are never written: they stay 0."""
    n = prm[P_N]
    # Every entry of the first O_UNITS of a seat at the table is written below, so the
    # row is not cleared first (a memset of 400 bytes a player a step); the entries of
    # the seats and areas beyond the table are never written and stay 0.
    phase = g[i, F_PHASE]
    row[O_PHASE] = phase
    row[O_ROUND] = g[i, F_ROUND]
    row[O_TURN] = g[i, F_TURN]
    row[O_SLOTS] = g[i, F_SLOTS]
    if mover == TM_ALL:
        row[O_MOVER] = MOVER_ALL
    elif mover == TM_CHANCE:
        row[O_MOVER] = MOVER_CHANCE
    elif mover == TM_OVER:
        row[O_MOVER] = MOVER_OVER
    else:
        row[O_MOVER] = seat_from(mover - TM_PLAYER0, me, n)
    row[O_COUNTDOWN] = g[i, F_COUNTDOWN] if prm[P_COUNTDOWN] else 0
    row[O_TERMINATION] = g[i, F_TERMINATION] + 1
    if g[i, F_OFFER + 2] >= 0:
        row[O_OFFER] = g[i, F_OFFER] + 1
        row[O_OFFER + 1] = g[i, F_OFFER + 1] + 1
        row[O_OFFER + 2] = seat_from(g[i, F_OFFER + 2], me, n) + 1
        row[O_OFFER + 3] = g[i, F_OFFER + 3] + 1
        row[O_OFFER + 4] = g[i, F_OFFER + 4] + 1
    else:
        for k in range(5):
            row[O_OFFER + k] = 0
    for tile in range(28):
        row[O_TERRAIN + tile] = g[i, F_TERRAIN + tile] + 1
    for k in range(n):
        row[O_AREA_TOUCH + k] = g[i, F_AREA_POS + k] + 1
        row[O_AREA_OWNER + k] = 0  # before the draw of the areas (then set below)
    for q in range(n):
        r = seat_from(q, me, n)
        if g[i, F_AREA_OF + q] > 0:
            row[O_AREA_OWNER + g[i, F_AREA_OF + q] - 1] = r + 1
        for t in range(3):
            row[O_HAND + r * 3 + t] = g[i, F_HAND + q * 3 + t]
        # the faces past a pool are 0 in the row too (add_face, remove_die, clear_dice)
        for k in range(4):
            row[O_DICE + r * 4 + k] = g[i, F_DICE + q * 4 + k]
        row[O_POINTS + r] = g[i, F_POINTS + q]
        row[O_DECLINED + r] = g[i, F_DECLINED] >> q & 1
        excluded = g[i, F_EXCLUDED + q]
        if excluded < 0:
            row[O_EXCLUDED + r] = 0
        else:
            row[O_EXCLUDED + r] = excluded + 2 if q == me or phase == OVER else 1
        row[O_USED + r] = g[i, F_USED + q]
        row[O_WINNER + r] = g[i, F_WINNERS] >> q & 1
        rest = locs
        while rest:
            loc = lowest_bit(rest)
            rest &= rest - 1
            k = loc * 3
            for t in range(3):
                row[O_UNITS + r * STRIDE + k + t] = g[i, F_UNITS + q * STRIDE + k + t]
    for k in range(n):
        row[O_TURN_POS + seat_from(g[i, F_ORDER + k], me, n)] = k


@jit
def returns_of(g: Array, prm: Array, i: int, out: Array) -> None:
    """B17.1: the losers get -1/(n-1) each, the winners share the rest (0 each when
    nobody or everybody won)."""
    n = prm[P_N]
    for q in range(n):
        out[i, q] = 0.0
    winners = g[i, F_WINNERS]
    won = 0
    for q in range(n):
        won += winners >> q & 1
    if g[i, F_PHASE] != OVER or won == 0 or won == n:
        return
    for q in range(n):
        if winners >> q & 1:
            out[i, q] = (n - won) / (won * (n - 1))
        else:
            out[i, q] = -1.0 / (n - 1)


# ------------------------------------------------------------------ batch loops
@jit
def refresh(
    g: Array, prm: Array, i: int, obs: Array, mask: Array, ids: Array, count: Array, movers: Array
) -> None:
    """Game ``i``'s node, the legal actions of whoever moves (list and mask: at the
    one simultaneous node every player has the same three) and every observation (the
    unit counts where they changed, ``F_CHANGED``, which is then cleared)."""
    mover = to_move(g, prm, i)
    movers[i] = mover
    row = mask[i]
    for k in range(count[i]):
        row[ids[i, k]] = False
    c = 0
    if mover == TM_ALL:
        c = legal(g, prm, i, 0, ids[i])
    elif mover != TM_CHANCE and mover != TM_OVER:
        c = legal(g, prm, i, mover - TM_PLAYER0, ids[i])
    count[i] = c
    for k in range(c):
        row[ids[i, k]] = True
    locs = word(g, i, F_CHANGED)
    for p in range(prm[P_N]):
        observe_changes(g, prm, i, p, mover, obs[i, p], locs)
    set_word(g, i, F_CHANGED, 0)


@jit
def draw_chance(g: Array, prm: Array, draws: Array, rng: Array, i: int) -> int:
    """A chance outcome drawn by game ``i``'s generator, applied; its id."""
    # as int64: the generator's unsigned draw would make the id's sum a float
    k: Any = np.int64(below(rng, i, chance_count(g, prm, i, draws.shape[0])))
    a = chance_id(g, i, k)
    apply_chance(g, prm, draws, i, a)
    return a


@jit
def is_chance(g: Array, i: int) -> bool:
    phase = g[i, F_PHASE]
    return phase in (ROLL, TERRAIN, DRAW, ALLY_DIE)


@jit
def start(g: Array, prm: Array, draws: Array, rng: Array, i: int, auto_chance: bool) -> None:
    reset_game(g, prm, i)
    if auto_chance:
        while is_chance(g, i):
            draw_chance(g, prm, draws, rng, i)


@jit
def reset_range(buf: Array, dims: Array, auto_chance: bool) -> None:
    """Every game of the batch in ``buf`` started anew (its generators already seeded)."""
    g, prm, draws, rng, _, obs, _, mask, ids, count, movers = batch_views(buf, dims)[:11]
    for i in range(g.shape[0]):
        start(g, prm, draws, rng, i, auto_chance)
        refresh(g, prm, i, obs, mask, ids, count, movers)


@jit
def first_invalid(
    g: Array,
    prm: Array,
    draws: Array,
    movers: Array,
    mask: Array,
    actions: Array,
    chance: Array,
    active: Array,
    num_actions: int,
) -> int:
    """``5 * i + p`` for the first active game ``i`` whose player ``p`` (4: chance) was
    handed an action it may not take, or -1 when all are legal."""
    n = prm[P_N]
    for i in range(movers.shape[0]):
        if not active[i]:
            continue
        mover = movers[i]
        if mover == TM_CHANCE:
            c = chance[i]
            if c >= 0:
                first = chance_id(g, i, 0)
                if not first <= c < first + chance_count(g, prm, i, draws.shape[0]):
                    return 5 * i + 4
        elif mover != TM_OVER:
            for p in range(n):
                if mover == TM_ALL or mover == TM_PLAYER0 + p:
                    a = actions[i, p]
                    if a < 0 or a >= num_actions or not mask[i, a]:
                        return 5 * i + p
    return -1


@jit_inline
def step_one(
    g: Array,
    prm: Array,
    draws: Array,
    rng: Array,
    actions: Array,
    chance: Array,
    obs: Array,
    mask: Array,
    ids: Array,
    count: Array,
    movers: Array,
    rewards: Array,
    terminated: Array,
    chance_taken: Array,
    final_obs: Array,
    autoreset: bool,
    auto_chance: bool,
    i: int,
) -> None:
    """One step of game ``i`` (its actions were checked by ``first_invalid``), the
    batch's arrays in the order of ``board_buffer.step_arrays``; compiled into the
    batch's loops (``jit_inline``)."""
    for q in range(prm[P_N]):
        rewards[i, q] = 0.0
    terminated[i] = False
    chance_taken[i] = -1
    mover = movers[i]
    if mover == TM_OVER:
        return
    if mover == TM_CHANCE:
        if chance[i] >= 0:
            apply_chance(g, prm, draws, i, chance[i])
            chance_taken[i] = chance[i]
        else:
            chance_taken[i] = draw_chance(g, prm, draws, rng, i)
    elif mover == TM_ALL:
        apply_exclude(g, prm, i, actions[i])
    else:
        p = mover - TM_PLAYER0
        apply_decision(g, prm, i, p, actions[i, p])
    if auto_chance:
        while is_chance(g, i):
            draw_chance(g, prm, draws, rng, i)
    if g[i, F_PHASE] == OVER:
        returns_of(g, prm, i, rewards)
        terminated[i] = True
        if autoreset:
            refresh(g, prm, i, obs, mask, ids, count, movers)
            for q in range(obs.shape[1]):
                for k in range(obs.shape[2]):
                    final_obs[i, q, k] = obs[i, q, k]
            start(g, prm, draws, rng, i, auto_chance)
    refresh(g, prm, i, obs, mask, ids, count, movers)


#: how many games ahead the batch's loops ask for the rows a step reads (a game's step
#: takes about a microsecond, several times the wait for one line from memory)
AHEAD = 2
#: the batch size from which the loops give prefetch hints: a smaller batch stays in
#: the core's caches, where a hint is an instruction that fetches nothing
FETCH_FROM = 128


@jit_inline
def fetch_ahead(
    g: Array, prm: Array, obs: Array, mask: Array, ids: Array, count: Array, i: int
) -> None:
    """Prefetch hints for the games after game ``i``: the state rows' fixed fields (up to
    ``F_UNITS``, sixteen int32 a cache line), every observation's first ``O_UNITS``
    entries (the part written at every step, sixteen int32 a line) and the legal list
    of game ``i + AHEAD``; the unit counts at the locations each player occupies
    (``F_OCC``, whose line was asked for a game earlier) and the mask entries of the
    legal list to be cleared (``ids``, likewise) of game ``i + 1``."""
    num_games = g.shape[0]
    j = i + AHEAD
    if j < num_games:
        for f in range(0, F_UNITS, 16):
            prefetch(g, (j, f))
        for p in range(obs.shape[1]):
            for k in range(0, O_UNITS, 16):
                prefetch(obs, (j, p, k))
        prefetch(ids, (j, 0))
    j = i + 1
    if j < num_games:
        for q in range(prm[P_N]):
            rest = occupied(g, j, q, 0) | occupied(g, j, q, 1) | occupied(g, j, q, 2)
            while rest:
                prefetch(g, (j, F_UNITS + q * STRIDE + lowest_bit(rest) * 3))
                rest &= rest - 1
        for k in range(count[j]):
            prefetch(mask, (j, ids[j, k]))


@jit
def step_range(arrays: Array, autoreset: bool, auto_chance: bool, lo: int, hi: int) -> None:
    """One step of games ``lo..hi-1``; ``arrays`` are the batch's, in the order
    ``board_buffer.step_arrays`` builds them, unpacked once here (not once a game)."""
    (g, prm, draws, rng, actions, chance, obs, mask, ids, count, movers) = arrays[:11]
    rewards, terminated, chance_taken, final_obs, active = arrays[11:]
    ahead = g.shape[0] >= FETCH_FROM
    for i in range(lo, hi):
        if ahead:
            fetch_ahead(g, prm, obs, mask, ids, count, i)
        if active[i]:
            step_one(
                g, prm, draws, rng, actions, chance, obs, mask, ids, count, movers,
                rewards, terminated, chance_taken, final_obs, autoreset, auto_chance, i,
            )  # fmt: skip


@jit
def first_of(arrays: Array) -> int:
    """``first_invalid`` of the batch's arrays: the first action not legal, or -1."""
    g, prm, draws, _, actions, chance, _, mask, _, _, movers = arrays[:11]
    return first_invalid(g, prm, draws, movers, mask, actions, chance, arrays[15], mask.shape[1])


@jit
def step_serial(
    buf: Array,
    dims: Array,
    actions: Array,
    chance: Array,
    active: Array,
    autoreset: bool,
    auto_chance: bool,
) -> int:
    """One step of every game of the batch in ``buf`` (``board_buffer``), in this
    thread (small batches); or, where an action is not legal, nothing and
    ``first_invalid``'s code (else -1)."""
    arrays = step_arrays(buf, dims, actions, chance, active)
    bad = first_of(arrays)
    if bad < 0:
        step_range(arrays, autoreset, auto_chance, 0, arrays[0].shape[0])
    return bad


#: the games one worker steps at a time (``step_parallel``)
CHUNK = 256


@jit_parallel
def step_parallel(
    buf: Array,
    dims: Array,
    actions: Array,
    chance: Array,
    active: Array,
    autoreset: bool,
    auto_chance: bool,
) -> int:
    """``step_serial`` with the batch split among one worker per core in chunks of
    ``CHUNK`` games (the check of the actions first, in this thread)."""
    arrays = step_arrays(buf, dims, actions, chance, active)
    bad = first_of(arrays)
    if bad < 0:
        n = arrays[0].shape[0]
        for c in prange((n + CHUNK - 1) // CHUNK):
            step_range(arrays, autoreset, auto_chance, c * CHUNK, min(n, (c + 1) * CHUNK))
    return bad


@jit
def random_actions(buf: Array, dims: Array, out: Array) -> None:
    """A uniformly random legal action for every player to move (-1 for the others),
    from the generators of ``random_actions`` in ``buf``."""
    views = batch_views(buf, dims)
    rng, ids, count, movers, num_players = views[4], views[8], views[9], views[10], dims[1]
    for i in range(ids.shape[0]):
        if i + 4 < ids.shape[0]:
            prefetch(ids, (i + 4, 0))
        mover = movers[i]
        for p in range(num_players):
            c = count[i]
            if c > 0 and (mover == TM_ALL or mover == TM_PLAYER0 + p):
                out[i, p] = ids[i, below(rng, i, c)]
            else:
                out[i, p] = -1
