"""The batched card game's observations, compiled (numba): each player's observation
rebuilt from a game's row (``observe``), and the few entries that the common steps
change, updated in place (``*_seen``).

``observe`` is the definition the engine keeps to: it reads what ``view(state, me)``
shows and nothing else (tests/vector/test_cards_batch.py compares it with the readable
encoder ``cards_obs.encode`` at every step, and checks that changing what a player
cannot see leaves its observation alone). An update in place must leave exactly what
``observe`` would write; the same test checks that after every step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from koth.vector._jit import (
    jit_inline,
    nth_bit,
    popcount,
    put8,
)
from koth.vector.cards_kernels import (
    ASSIGN,
    ATTACK,
    AVAILABLE,
    CHOOSE,
    NUM_STACKS,
    OVER,
    RESERVE,
    TIEBREAK,
    chooser,
)
from koth.vector.cards_layout import (
    C_DISCARDED,
    C_FACE_UP,
    C_MY_HAND,
    C_MY_PENDING,
    C_MY_RESERVE,
    C_MY_TO_HAND,
    C_MY_TO_RESERVE,
    C_OPP_HAND,
    C_OPP_HOLDS,
    C_OPP_RESERVE,
    C_OPP_WON,
    C_PLAYED_ME,
    C_PLAYED_OPP,
    DEAL_TARGET,
    F_BURIED,
    F_DEALT,
    F_DISCARDS,
    F_GONE,
    F_HAND,
    F_JOKER_PUBLIC,
    F_LAST,
    F_LAST_TOP,
    F_NROUNDS,
    F_OWNER,
    F_PENDING,
    F_PHASE,
    F_PLAYED,
    F_RESERVE,
    F_RROUND,
    F_SLEN,
    F_STACK,
    F_TO_HAND,
    F_TO_RESERVE,
    F_TURN,
    F_WINNER,
    F_WON_TOPS,
    O_ASSIGNED,
    O_ASSIGNING,
    O_CARDS,
    O_CHOOSER,
    O_DEALER,
    O_DEALT,
    O_FACE_DOWN_DISCARDS,
    O_MY_CARDS,
    O_MY_HAND,
    O_MY_JOKER_PUBLIC,
    O_MY_LAST,
    O_MY_RESERVE,
    O_NROUNDS,
    O_OPP_CARDS,
    O_OPP_HAND,
    O_OPP_JOKER_PUBLIC,
    O_OPP_LAST,
    O_OPP_RESERVE,
    O_OPP_SPLIT_SECRET,
    O_PHASE,
    O_REMAINING,
    O_RROUND,
    O_SIZE,
    O_STACK,
    O_STATUS,
    O_TOP,
    O_TURN,
    OBS_SIZE,
    P_DEALER,
    PLACE_RESERVE_BASE,
    S_AVAILABLE,
    S_DISCARDED,
    S_IN_PLAY,
    S_WON_ME,
    S_WON_OPP,
    SINGLE_BASE,
    STACK_SIZES,
)

Array = Any

#: each 8-bit value with bit k moved to the lowest bit of byte k
SPREAD = np.array(
    [sum(((v >> k) & 1) << (8 * k) for k in range(8)) for v in range(256)], dtype=np.int64
)


@jit_inline
def joker_public(g: Array, i: int, p: int) -> bool:
    return bool(g[i, F_JOKER_PUBLIC + p] == 1 or g[i, F_PHASE] == TIEBREAK)


@jit_inline
def with_code(planes: Any, mask: int, code: int) -> Any:
    """``planes`` (the four bits of every card's code, one mask per bit) with the
    cards of ``mask`` given ``code`` (the zones are disjoint: no card gets two)."""
    p0, p1, p2, p3 = planes
    return (
        p0 | (mask if code & 1 else 0),
        p1 | (mask if code & 2 else 0),
        p2 | (mask if code & 4 else 0),
        p3 | (mask if code & 8 else 0),
    )


@jit_inline
def observe(g: Array, stk: Array, params: Array, i: int, me: int, obs: Array) -> None:
    """Player ``me``'s observation of game ``i`` (the layout of ``cards_layout``) into
    ``obs[i, me]``: a function of what ``view(state, me)`` shows, nothing else.
    ``obs`` is a batch's C-contiguous ``(N, 2, OBS_SIZE)`` uint8 array (the card codes
    are stored by byte offset, ``put8``)."""
    for k in range(O_PHASE, OBS_SIZE):
        obs[i, me, k] = 0
    opp = 1 - me
    phase = g[i, F_PHASE]
    hidden = g[i, F_BURIED] if phase != OVER else 0
    discards = g[i, F_DISCARDS]
    visible = discards & ~hidden
    my_cards = g[i, F_HAND + me] | g[i, F_RESERVE + me]
    opp_cards = g[i, F_HAND + opp] | g[i, F_RESERVE + opp]
    planes = (0, 0, 0, 0)
    planes = with_code(planes, g[i, F_HAND + me], C_MY_HAND)
    planes = with_code(planes, g[i, F_RESERVE + me], C_MY_RESERVE)
    planes = with_code(planes, g[i, F_WON_TOPS + opp] & ~discards & opp_cards, C_OPP_HOLDS)
    opp_joker = 1 << (52 + opp)
    if not joker_public(g, i, opp):
        planes = with_code(planes, opp_joker, C_OPP_HOLDS)
    elif g[i, F_HAND + opp] & opp_joker:
        planes = with_code(planes, opp_joker, C_OPP_HAND)
    else:
        planes = with_code(planes, opp_joker, C_OPP_RESERVE)
    planes = with_code(planes, visible & g[i, F_PLAYED + me], C_PLAYED_ME)
    planes = with_code(planes, visible & g[i, F_PLAYED + opp], C_PLAYED_OPP)
    planes = with_code(planes, visible & ~g[i, F_PLAYED] & ~g[i, F_PLAYED + 1], C_DISCARDED)
    if phase == ASSIGN:
        if g[i, F_WINNER] == me:
            planes = with_code(planes, g[i, F_PENDING], C_MY_PENDING)
            planes = with_code(planes, g[i, F_TO_HAND], C_MY_TO_HAND)
            planes = with_code(planes, g[i, F_TO_RESERVE], C_MY_TO_RESERVE)
        elif g[i, F_LAST_TOP] >= 0:
            planes = with_code(planes, 1 << g[i, F_LAST_TOP], C_OPP_WON)
        obs[i, me, O_ASSIGNING] = 1 if g[i, F_WINNER] == me else 2
        obs[i, me, O_REMAINING] = popcount(g[i, F_PENDING])
        obs[i, me, O_ASSIGNED] = popcount(g[i, F_TO_HAND] | g[i, F_TO_RESERVE])
    available = AVAILABLE[g[i, F_GONE]]
    tops = 0
    for s in range(NUM_STACKS):
        size = g[i, F_SLEN + s]
        obs[i, me, O_SIZE + s] = size
        obs[i, me, O_TOP + s] = 0
        if size > 0 and (s == 0 or size == STACK_SIZES[s]):  # the top shows (C2)
            top = stk[i, s, size - 1]
            tops |= 1 << top
            obs[i, me, O_TOP + s] = top + 1  # a normal card or the apex's Joker: one slot
        owner = g[i, F_OWNER + s]
        status = S_IN_PLAY
        if owner == me:
            status = S_WON_ME
        elif owner == opp:
            status = S_WON_OPP
        elif owner == 2:
            status = S_DISCARDED
        elif phase >= CHOOSE and (available >> s) & 1:
            status = S_AVAILABLE
        obs[i, me, O_STATUS + s] = status
    p0, p1, p2, p3 = with_code(planes, tops, C_FACE_UP)
    if me == 1:  # the Jokers' slots: mine first
        p0, p1, p2, p3 = swap_jokers(p0), swap_jokers(p1), swap_jokers(p2), swap_jokers(p3)
    # eight cards at a time: each plane's bit spread to a byte, the four planes' bytes
    # combined into the eight cards' codes, written in one store. The last store
    # spills a zero into slot 55 (``O_SIZE``), which the stack loop above already
    # wrote: so it writes its first stack's size again below.
    row = (i * 2 + me) * OBS_SIZE + O_CARDS  # obs[i, me, O_CARDS], counted in bytes
    for base in range(0, 56, 8):
        codes = (
            SPREAD[(p0 >> base) & 0xFF]
            | (SPREAD[(p1 >> base) & 0xFF] << 1)
            | (SPREAD[(p2 >> base) & 0xFF] << 2)
            | (SPREAD[(p3 >> base) & 0xFF] << 3)
        )
        put8(obs, row + base, codes)
    obs[i, me, O_SIZE] = g[i, F_SLEN]
    obs[i, me, O_PHASE] = phase
    obs[i, me, O_DEALER] = 1 if params[P_DEALER] == me else 0
    obs[i, me, O_DEALT] = g[i, F_DEALT]
    obs[i, me, O_RROUND] = g[i, F_RROUND]
    obs[i, me, O_TURN] = g[i, F_TURN]
    if phase != OVER:
        obs[i, me, O_CHOOSER] = 1 if chooser(g, params, i) == me else 2
    obs[i, me, O_STACK] = g[i, F_STACK] + 1
    obs[i, me, O_NROUNDS] = g[i, F_NROUNDS]
    if g[i, F_LAST + me] >= 0:
        obs[i, me, O_MY_LAST] = g[i, F_LAST + me] - SINGLE_BASE + 1
        obs[i, me, O_OPP_LAST] = g[i, F_LAST + opp] - SINGLE_BASE + 1
    obs[i, me, O_MY_CARDS] = popcount(my_cards)
    obs[i, me, O_MY_HAND] = popcount(g[i, F_HAND + me])
    obs[i, me, O_MY_RESERVE] = popcount(g[i, F_RESERVE + me])
    obs[i, me, O_OPP_CARDS] = popcount(opp_cards)
    if phase == RESERVE:  # C4.2
        obs[i, me, O_OPP_SPLIT_SECRET] = 1
    else:
        obs[i, me, O_OPP_HAND] = popcount(g[i, F_HAND + opp])
        obs[i, me, O_OPP_RESERVE] = popcount(g[i, F_RESERVE + opp])
    obs[i, me, O_MY_JOKER_PUBLIC] = 1 if joker_public(g, i, me) else 0
    obs[i, me, O_OPP_JOKER_PUBLIC] = 1 if joker_public(g, i, opp) else 0
    obs[i, me, O_FACE_DOWN_DISCARDS] = popcount(hidden)


@jit_inline
def swap_jokers(mask: int) -> int:
    """``mask`` with bits 52 and 53 exchanged (player 1's Joker is its slot 52)."""
    a = (mask >> 52) & 1
    b = (mask >> 53) & 1
    return (mask & ~(3 << 52)) | (a << 53) | (b << 52)


@jit_inline
def dealt_seen(g: Array, i: int, card: int, obs: Array) -> None:
    """Both observations after a card of the deal that leaves the deal going: what
    ``observe`` would write, changed in place (the deal changes a count, a hand or a
    stack, and no legal action: nobody acts during the deal)."""
    k = g[i, F_DEALT] - 1
    target = DEAL_TARGET[k]
    for me in range(2):
        obs[i, me, O_DEALT] = k + 1
        if target == me:
            obs[i, me, O_CARDS + card] = C_MY_HAND
            obs[i, me, O_MY_CARDS] += 1
            obs[i, me, O_MY_HAND] += 1
        elif target < 2:
            obs[i, me, O_OPP_CARDS] += 1
            obs[i, me, O_OPP_HAND] += 1
        else:
            s = target - 2
            obs[i, me, O_SIZE + s] += 1
            if obs[i, me, O_SIZE + s] == STACK_SIZES[s]:  # complete: its top shows (C2)
                obs[i, me, O_CARDS + card] = C_FACE_UP
                obs[i, me, O_TOP + s] = card + 1


@jit_inline
def reserve_seen(g: Array, i: int, a0: int, a1: int, obs: Array) -> None:
    """Both observations after a reserve round that is not the last (C4.1), changed in
    place, read before the move: each player's card of the round goes from its hand's
    code to its reserve's where it chose the reserve, and the round's number goes on.
    Nothing else shows: the opponent's split is secret (C4.2), its Joker unseen."""
    r = g[i, F_RROUND]
    for me in range(2):
        obs[i, me, O_RROUND] = r + 1
        a = a0 if me == 0 else a1
        if a >= PLACE_RESERVE_BASE:
            card = nth_bit(g[i, F_HAND + me] | g[i, F_RESERVE + me], r)
            # a player's own Joker (52 or 53) is its slot 52 (``observe``)
            obs[i, me, O_CARDS + min(card, 52)] = C_MY_RESERVE
            obs[i, me, O_MY_HAND] -= 1
            obs[i, me, O_MY_RESERVE] += 1


@jit_inline
def choose_seen(g: Array, i: int, obs: Array) -> None:
    """Both observations after a stack is chosen, changed in place: the phase and
    the stack (the fight's rounds and last attacks were already cleared, C5)."""
    for me in range(2):
        obs[i, me, O_PHASE] = ATTACK
        obs[i, me, O_STACK] = g[i, F_STACK] + 1


@jit_inline
def assign_seen(g: Array, i: int, card: int, a: int, obs: Array) -> None:
    """Both observations after a won card is assigned and others remain (C11.1),
    changed in place: the winner sees where it put ``card``; both see the counts."""
    w = g[i, F_WINNER]
    obs[i, w, O_CARDS + card] = C_MY_TO_RESERVE if a >= PLACE_RESERVE_BASE else C_MY_TO_HAND
    for me in range(2):
        obs[i, me, O_REMAINING] -= 1
        obs[i, me, O_ASSIGNED] += 1
