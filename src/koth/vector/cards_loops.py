"""The batched card game's loops over a batch (numba): start, check and step every
game, keeping each game's node, legal actions (list and mask) and both observations
up to date after every step.

Each loop takes the batch's arrays once and hands each game to the rules
(``cards_kernels``) and the observations (``cards_view``) by index; compiled without
reference counting (``_jit.jit``), the calls per game count no references.

numba's cache of a compiled function is keyed on its own file, not on those it calls:
after changing ``cards_kernels`` or ``cards_view``, delete the ``*.nbi`` and ``*.nbc``
files of ``__pycache__`` here, or these loops keep the old code until this file changes.
"""

from __future__ import annotations

from typing import Any

from koth.vector._jit import (
    below,
    jit,
    jit_inline,
    jit_parallel,
    lowest_bit,
    prange,
)
from koth.vector.cards_kernels import (
    ASSIGN,
    ATTACK,
    CHOOSE,
    DEAL,
    OVER,
    RESERVE,
    START_CARDS,
    TIEBREAK,
    apply_assign,
    apply_choose,
    apply_deal,
    apply_reserve,
    draw_card,
    legal,
    reset_game,
    resolve,
    returns_of,
    to_move,
)
from koth.vector.cards_layout import (
    F_PENDING,
    F_PHASE,
    F_RROUND,
    F_UNDEALT,
    NUM_ACTIONS,
    TM_BOTH,
    TM_CHANCE,
    TM_OVER,
    TM_PLAYER0,
)
from koth.vector.cards_view import assign_seen, choose_seen, dealt_seen, observe, reserve_seen

Array = Any


@jit_inline
def relist(g: Array, params: Array, i: int, p: int, mask: Array, ids: Array, count: Array) -> None:
    """Player ``p``'s legal actions in game ``i`` anew: the list ``ids[i, p]`` (its
    length in ``count[i, p]``) and the mask, whose old entries are cleared one by one
    from the old list (a few dozen at most, where the row holds 310)."""
    for k in range(count[i, p]):
        mask[i, p, ids[i, p, k]] = False
    n = legal(g, params, i, p, ids)
    count[i, p] = n
    for k in range(n):
        mask[i, p, ids[i, p, k]] = True


@jit
def refresh(
    g: Array,
    stk: Array,
    params: Array,
    i: int,
    obs: Array,
    mask: Array,
    ids: Array,
    count: Array,
    movers: Array,
) -> None:
    """Game ``i``'s node, legal actions (list and mask) and both observations."""
    movers[i] = to_move(g, params, i)
    for p in range(2):
        relist(g, params, i, p, mask, ids, count)
        observe(g, stk, params, i, p, obs)


@jit
def start(g: Array, stk: Array, params: Array, rng: Array, i: int, auto_chance: bool) -> None:
    reset_game(g, stk, params, i)
    if auto_chance:
        while g[i, F_PHASE] == DEAL:
            apply_deal(g, stk, i, draw_card(g, rng, i))


@jit
def reset_range(
    g: Array,
    stk: Array,
    params: Array,
    rng: Array,
    obs: Array,
    mask: Array,
    ids: Array,
    count: Array,
    movers: Array,
    auto_chance: bool,
) -> None:
    for i in range(g.shape[0]):
        start(g, stk, params, rng, i, auto_chance)
        refresh(g, stk, params, i, obs, mask, ids, count, movers)


@jit
def first_invalid(
    g: Array,
    movers: Array,
    mask: Array,
    actions: Array,
    chance: Array,
    active: Array,
    num_actions: int,
) -> int:
    """``3 * i + p`` for the first active game ``i`` whose player ``p`` (2: chance) was
    handed an action it may not take, or -1 when all are legal."""
    for i in range(movers.shape[0]):
        if not active[i]:
            continue
        mover = movers[i]
        if mover == TM_CHANCE:
            c = chance[i]
            if c >= 0 and (c >= 52 or not (g[i, F_UNDEALT] >> c) & 1):
                return 3 * i + 2
        elif mover != TM_OVER:
            for p in range(2):
                if mover == TM_BOTH or mover == TM_PLAYER0 + p:
                    a = actions[i, p]
                    if a < 0 or a >= num_actions or not mask[i, p, a]:
                        return 3 * i + p
    return -1


@jit_inline
def decide(
    g: Array,
    stk: Array,
    params: Array,
    actions: Array,
    obs: Array,
    mask: Array,
    ids: Array,
    count: Array,
    movers: Array,
    i: int,
) -> bool:
    """Game ``i``'s decision (its actions were checked by ``first_invalid``). True
    when the step was one of the common ones that change a few entries (a reserve
    round, a won card assigned, a stack chosen, the phase going on), whose node,
    legal actions and observations are brought up to date here; False when the
    caller must compute them anew (``refresh``)."""
    phase = g[i, F_PHASE]
    mover = movers[i]
    if phase in (ATTACK, TIEBREAK):
        resolve(g, stk, params, i, actions[i, 0], actions[i, 1])
        return False
    # the players whose legal actions change: both (TM_BOTH), or the mover alone
    listed = TM_BOTH
    if phase == RESERVE:
        a0, a1 = actions[i, 0], actions[i, 1]
        if g[i, F_RROUND] == START_CARDS - 1:  # the last round: the phase ends
            apply_reserve(g, i, a0, a1)
            return False
        reserve_seen(g, i, a0, a1, obs)  # reads the round's cards: before the move
        apply_reserve(g, i, a0, a1)
    elif phase == CHOOSE:
        apply_choose(g, i, actions[i, mover - TM_PLAYER0])
        choose_seen(g, i, obs)
        movers[i] = TM_BOTH
    else:  # ASSIGN
        a = actions[i, mover - TM_PLAYER0]
        card = lowest_bit(g[i, F_PENDING])
        apply_assign(g, i, a)
        if g[i, F_PHASE] != ASSIGN:  # the last card: placed, the next choice
            return False
        assign_seen(g, i, card, a, obs)
        listed = mover
    for p in range(2):  # one call site: ``relist`` is inlined where it is called
        if listed == TM_BOTH or listed == TM_PLAYER0 + p:
            relist(g, params, i, p, mask, ids, count)
    return True


@jit
def step_range(arrays: Array, autoreset: bool, auto_chance: bool, lo: int, hi: int) -> None:
    """One step of games ``lo..hi-1``; ``arrays`` are the batch's, in the order
    ``CardsBatch.step`` passes them, unpacked once here (not once a game)."""
    (g, stk, params, rng, actions, chance, obs, mask, ids, count, movers) = arrays[:11]
    rewards, terminated, chance_taken, final_obs, active = arrays[11:]
    for i in range(lo, hi):
        if not active[i]:
            continue
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        terminated[i] = False
        chance_taken[i] = -1
        mover = movers[i]
        if mover == TM_OVER:
            continue
        if mover == TM_CHANCE:
            card = chance[i] if chance[i] >= 0 else draw_card(g, rng, i)
            apply_deal(g, stk, i, card)
            chance_taken[i] = card
            if g[i, F_PHASE] == DEAL:  # the deal goes on: a count, a hand or a stack
                dealt_seen(g, i, card, obs)
                continue
        elif decide(g, stk, params, actions, obs, mask, ids, count, movers, i):
            continue
        if auto_chance:
            while g[i, F_PHASE] == DEAL:
                apply_deal(g, stk, i, draw_card(g, rng, i))
        if g[i, F_PHASE] == OVER:
            returns_of(g, i, rewards)
            terminated[i] = True
            if autoreset:
                refresh(g, stk, params, i, obs, mask, ids, count, movers)
                # entry by entry: a slice's copy may allocate (for overlaps), and
                # these loops run without reference counting (``_jit.jit``)
                for q in range(2):
                    for k in range(obs.shape[2]):
                        final_obs[i, q, k] = obs[i, q, k]
                start(g, stk, params, rng, i, auto_chance)
        refresh(g, stk, params, i, obs, mask, ids, count, movers)


@jit
def step_serial(arrays: Array, autoreset: bool, auto_chance: bool) -> int:
    """One step of every game, in this thread (small batches), once every action is
    legal; otherwise nothing, and the first bad one (``first_invalid``)."""
    bad = first_of(arrays)
    if bad < 0:
        step_range(arrays, autoreset, auto_chance, 0, arrays[0].shape[0])
    return bad


#: the games one worker steps at a time (``step_parallel``)
CHUNK = 256


@jit_parallel
def step_parallel(arrays: Array, autoreset: bool, auto_chance: bool) -> int:
    """``step_serial`` with the batch split among one worker per core in chunks of
    ``CHUNK`` games (one unpacking of the arrays a chunk, not a game)."""
    bad = first_of(arrays)
    if bad < 0:
        n = arrays[0].shape[0]
        for c in prange((n + CHUNK - 1) // CHUNK):
            step_range(arrays, autoreset, auto_chance, c * CHUNK, min(n, (c + 1) * CHUNK))
    return bad


@jit
def first_of(arrays: Array) -> int:
    """``first_invalid`` of a step's arrays (``CardsBatch.step``'s order)."""
    g, actions, chance, mask, movers, active = (
        arrays[0], arrays[4], arrays[5], arrays[7], arrays[10], arrays[15]
    )  # fmt: skip
    return first_invalid(g, movers, mask, actions, chance, active, NUM_ACTIONS)


@jit
def random_actions(rng: Array, ids: Array, count: Array, out: Array) -> None:
    """A uniformly random legal action for every player who has one (-1 otherwise)."""
    for i in range(ids.shape[0]):
        for p in range(2):
            n = count[i, p]
            out[i, p] = ids[i, p, below(rng, i, n)] if n > 0 else -1
