"""The card game's rules as compiled loops over a batch of games (numba).

One row of ``g`` (int64 fields, ``cards_layout.F_*``) and of ``stk`` (the pyramid's
cards) is one game; every function here reads and writes game ``i`` alone, so the
batch's loops hand the games to one worker per core. The rules follow
``koth.games.cards.rules`` and ``legal`` step by step (rule numbers from
docs/rules/cards.md); tests/vector/test_cards_batch.py plays both side by side.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from koth.games.cards.rules import stack_available as rule_available
from koth.games.cards.state import Phase
from koth.vector._jit import below, jit, jit_parallel, lowest_bit, nth_bit, popcount, prange
from koth.vector.cards_layout import (
    ALL_NORMAL,
    ATTACK_MASK,
    ATTACK_VALUE,
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
    CHOOSE_BASE,
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
    F_UNDEALT,
    F_WINNER,
    F_WON_TOPS,
    IS_SINGLE,
    JOKER_PLAY_ID,
    MAX_RUN,
    NUM_FIELDS,
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
    P_JOKERS,
    P_REVEAL,
    P_TENS_EQUAL,
    PLACE_HAND_BASE,
    PLACE_RESERVE_BASE,
    RUN_ID,
    S_AVAILABLE,
    S_DISCARDED,
    S_IN_PLAY,
    S_WON_ME,
    S_WON_OPP,
    SINGLE_BASE,
    STACK_SIZES,
    SUIT_RUN_CARDS,
    TM_BOTH,
    TM_CHANCE,
    TM_OVER,
    TM_PLAYER0,
)

Array = Any

DEAL = int(Phase.DEAL)
RESERVE = int(Phase.RESERVE)
CHOOSE = int(Phase.CHOOSE)
ATTACK = int(Phase.ATTACK)
TIEBREAK = int(Phase.TIEBREAK)
ASSIGN = int(Phase.ASSIGN)
OVER = int(Phase.OVER)
START_CARDS = 12
NUM_STACKS = 15
APEX_JOKER = 54
#: each 8-bit value with bit k moved to the lowest bit of byte k
SPREAD = np.array(
    [sum(((v >> k) & 1) << (8 * k) for k in range(8)) for v in range(256)], dtype=np.int64
)


@jit
def reset_game(g: Array, stk: Array, params: Array, i: int) -> None:
    """Game ``i`` at the start of the deal (C2)."""
    for f in range(NUM_FIELDS):
        g[i, f] = 0
    g[i, F_PHASE] = DEAL
    g[i, F_HAND] = 1 << 52
    g[i, F_HAND + 1] = 1 << 53
    g[i, F_UNDEALT] = ALL_NORMAL
    g[i, F_STACK] = -1
    g[i, F_LAST] = -1
    g[i, F_LAST + 1] = -1
    g[i, F_WINNER] = -2
    g[i, F_LAST_TOP] = -1
    for s in range(NUM_STACKS):
        g[i, F_OWNER + s] = -1
    if params[P_JOKERS] == 3:
        stk[i, 0, 0] = APEX_JOKER
        g[i, F_SLEN] = 1


def _available_table() -> Array:
    """``[gone]``: the stacks that may be chosen when the stacks ``gone`` are gone (C3),
    as a mask, for every set of gone stacks."""
    table = np.zeros(1 << NUM_STACKS, dtype=np.int16)
    for gone in range(1 << NUM_STACKS):
        table[gone] = sum(1 << s for s in range(NUM_STACKS) if rule_available(gone, s))
    return table


#: the table of ``_available_table`` (64 KiB), read by the compiled loops as a constant
AVAILABLE = _available_table()


@jit
def chooser(g: Array, params: Array, i: int) -> int:
    """C5: the dealer chooses first, then the choice alternates."""
    return int((params[P_DEALER] + g[i, F_TURN]) % 2)


@jit
def to_move(g: Array, params: Array, i: int) -> int:
    phase = g[i, F_PHASE]
    if phase == DEAL:
        return TM_CHANCE
    if phase in (RESERVE, ATTACK, TIEBREAK):
        return TM_BOTH
    if phase == CHOOSE:
        return TM_PLAYER0 + chooser(g, params, i)
    if phase == ASSIGN:
        return int(TM_PLAYER0 + g[i, F_WINNER])
    return TM_OVER


@jit
def legal(g: Array, params: Array, i: int, p: int, out: Array) -> int:
    """Player ``p``'s legal action ids in game ``i``, in id order, into ``out``."""
    phase = g[i, F_PHASE]
    if phase == RESERVE:  # C4.1: the round's card of p, to hand or reserve
        card = nth_bit(g[i, F_HAND + p] | g[i, F_RESERVE + p], g[i, F_RROUND])
        if card >= 52:
            card = 52
        out[0] = PLACE_HAND_BASE + card
        out[1] = PLACE_RESERVE_BASE + card
        return 2
    if phase in (ATTACK, TIEBREAK):  # C6.2
        source = g[i, F_RESERVE + p] if phase == TIEBREAK else g[i, F_HAND + p]
        normal = source & ALL_NORMAL
        n = 0
        rest = normal
        while rest:
            out[n] = SINGLE_BASE + lowest_bit(rest)
            n += 1
            rest &= rest - 1
        for suit in range(4):
            small = normal & SUIT_RUN_CARDS[suit]
            if small & (small - 1):
                for low in range(MAX_RUN):
                    if not (small >> (low * 4 + suit)) & 1:
                        continue
                    for high in range(low + 1, MAX_RUN + 1):
                        if not (small >> (high * 4 + suit)) & 1:
                            break
                        out[n] = RUN_ID[suit, low, high]
                        n += 1
        out[n] = JOKER_PLAY_ID
        return n + 1
    if phase == CHOOSE:  # C3, C5
        if p != chooser(g, params, i):
            return 0
        n = 0
        available = AVAILABLE[g[i, F_GONE]]
        while available:
            out[n] = CHOOSE_BASE + lowest_bit(available)
            n += 1
            available &= available - 1
        return n
    if phase == ASSIGN and p == g[i, F_WINNER]:  # C11.1
        card = lowest_bit(g[i, F_PENDING])
        out[0] = PLACE_HAND_BASE + card
        out[1] = PLACE_RESERVE_BASE + card
        return 2
    return 0


# ------------------------------------------------------------------ transitions
@jit
def apply_deal(g: Array, stk: Array, i: int, card: int) -> None:
    """C2.1: the next card of the deal goes to its player or stack."""
    k = g[i, F_DEALT]
    target = DEAL_TARGET[k]
    if target < 2:
        g[i, F_HAND + target] |= 1 << card
    else:
        s = target - 2
        stk[i, s, g[i, F_SLEN + s]] = card
        g[i, F_SLEN + s] += 1
    g[i, F_UNDEALT] &= ~(1 << card)
    g[i, F_DEALT] = k + 1
    if k + 1 == 52:
        g[i, F_PHASE] = RESERVE


@jit
def deal_random(g: Array, stk: Array, rng: Array, i: int) -> int:
    """Deal one card drawn uniformly from the undealt ones; returns it."""
    undealt = g[i, F_UNDEALT]
    card = nth_bit(undealt, below(rng, i, popcount(undealt)))
    apply_deal(g, stk, i, card)
    return card


@jit
def apply_reserve(g: Array, i: int, a0: int, a1: int) -> None:
    """C4.1: both players' card of this round to hand or reserve."""
    for p in range(2):
        a = a0 if p == 0 else a1
        if a >= PLACE_RESERVE_BASE:
            bit = 1 << nth_bit(g[i, F_HAND + p] | g[i, F_RESERVE + p], g[i, F_RROUND])
            g[i, F_HAND + p] &= ~bit
            g[i, F_RESERVE + p] |= bit
    g[i, F_RROUND] += 1
    if g[i, F_RROUND] == START_CARDS:
        g[i, F_PHASE] = CHOOSE


@jit
def apply_choose(g: Array, i: int, a: int) -> None:
    g[i, F_STACK] = a - CHOOSE_BASE
    g[i, F_PHASE] = ATTACK
    g[i, F_NROUNDS] = 0
    g[i, F_LAST] = -1
    g[i, F_LAST + 1] = -1


@jit
def joker_home(g: Array, i: int) -> None:
    """C8.2: after a tie-break both Jokers go back to their owners' hands."""
    for p in range(2):
        joker = 1 << (52 + p)
        if g[i, F_RESERVE + p] & joker:
            g[i, F_RESERVE + p] ^= joker
            g[i, F_HAND + p] |= joker


@jit
def resolve(g: Array, stk: Array, params: Array, i: int, a0: int, a1: int) -> None:
    """C6-C10: reveal both attacks, discard their cards, and decide the fight."""
    tiebreak = g[i, F_PHASE] == TIEBREAK
    for p in range(2):
        a = a0 if p == 0 else a1
        if a == JOKER_PLAY_ID:
            g[i, F_JOKER_PUBLIC + p] = 1
            joker = 1 << (52 + p)
            if not tiebreak and g[i, F_RESERVE + p] & joker:  # C6.1
                g[i, F_RESERVE + p] ^= joker
                g[i, F_HAND + p] |= joker
            continue
        mask = ATTACK_MASK[a]
        if tiebreak:
            g[i, F_RESERVE + p] &= ~mask
        else:
            g[i, F_HAND + p] &= ~mask
        g[i, F_DISCARDS] |= mask  # C10
        g[i, F_PLAYED + p] |= mask
    g[i, F_NROUNDS] += 1
    g[i, F_LAST] = a0
    g[i, F_LAST + 1] = a1
    if a0 == JOKER_PLAY_ID and a1 == JOKER_PLAY_ID:
        winner = -1  # C9
    else:
        diff = ATTACK_VALUE[a0] - ATTACK_VALUE[a1]
        if (
            diff == 0
            and params[P_TENS_EQUAL] == 0
            and IS_SINGLE[a0]
            and IS_SINGLE[a1]
            and ATTACK_VALUE[a0] == 10
        ):  # C7.1: 10 < J < Q < K
            diff = ((a0 - SINGLE_BASE) >> 2) - ((a1 - SINGLE_BASE) >> 2)
        if diff == 0:  # C8: Jokers into the reserves, fight on from there
            for p in range(2):
                joker = 1 << (52 + p)
                if g[i, F_HAND + p] & joker:
                    g[i, F_HAND + p] ^= joker
                    g[i, F_RESERVE + p] |= joker
                g[i, F_JOKER_PUBLIC + p] = 1  # C8.1
            g[i, F_PHASE] = TIEBREAK
            return
        winner = 0 if diff > 0 else 1
    if g[i, F_NROUNDS] > 1:
        joker_home(g, i)
    finish_fight(g, stk, params, i, winner)


@jit
def finish_fight(g: Array, stk: Array, params: Array, i: int, winner: int) -> None:
    s = g[i, F_STACK]
    size = g[i, F_SLEN + s]
    won = 0
    for k in range(size):
        won |= 1 << stk[i, s, k]
    top = stk[i, s, size - 1] if size > 0 else -1
    g[i, F_SLEN + s] = 0
    g[i, F_GONE] |= 1 << s
    g[i, F_WINNER] = winner
    g[i, F_LAST_TOP] = top
    g[i, F_OWNER + s] = 2 if winner == -1 else winner
    g[i, F_NROUNDS] = 0
    g[i, F_LAST] = -1
    g[i, F_LAST + 1] = -1
    g[i, F_STACK] = -1
    if winner == -1:  # C9
        g[i, F_DISCARDS] |= won
        if params[P_REVEAL] == 0 and size > 0:  # C9.1
            g[i, F_BURIED] |= won & ~(1 << top)
        if s == 0:
            g[i, F_PHASE] = OVER  # C12: a draw
        else:
            g[i, F_PHASE] = CHOOSE
            g[i, F_TURN] += 1
    elif s == 0:  # C12: the apex is won
        g[i, F_HAND + winner] |= won
        if top >= 0:
            g[i, F_WON_TOPS + winner] |= 1 << top
        g[i, F_PHASE] = OVER
    else:
        g[i, F_PENDING] = won
        g[i, F_PHASE] = ASSIGN


@jit
def apply_assign(g: Array, i: int, a: int) -> None:
    """C11.1: the next won card to hand or reserve; placed when all are assigned."""
    pending = g[i, F_PENDING]
    bit = pending & -pending
    g[i, F_PENDING] = pending ^ bit
    if a >= PLACE_RESERVE_BASE:
        g[i, F_TO_RESERVE] |= bit
    else:
        g[i, F_TO_HAND] |= bit
    if g[i, F_PENDING]:
        return
    w = g[i, F_WINNER]
    g[i, F_HAND + w] |= g[i, F_TO_HAND]
    g[i, F_RESERVE + w] |= g[i, F_TO_RESERVE]
    g[i, F_TO_HAND] = 0
    g[i, F_TO_RESERVE] = 0
    if g[i, F_LAST_TOP] >= 0:
        g[i, F_WON_TOPS + w] |= 1 << g[i, F_LAST_TOP]
    g[i, F_PHASE] = CHOOSE
    g[i, F_TURN] += 1


# ------------------------------------------------------------------ observation
@jit
def joker_public(g: Array, i: int, p: int) -> bool:
    return bool(g[i, F_JOKER_PUBLIC + p] == 1 or g[i, F_PHASE] == TIEBREAK)


@jit
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


@jit
def observe(g: Array, stk: Array, params: Array, i: int, me: int, row: Array) -> None:
    """Player ``me``'s observation of game ``i`` (the layout of ``cards_layout``):
    a function of what ``view(state, me)`` shows, nothing else."""
    for k in range(O_PHASE, OBS_SIZE):
        row[k] = 0
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
        row[O_ASSIGNING] = 1 if g[i, F_WINNER] == me else 2
        row[O_REMAINING] = popcount(g[i, F_PENDING])
        row[O_ASSIGNED] = popcount(g[i, F_TO_HAND] | g[i, F_TO_RESERVE])
    available = AVAILABLE[g[i, F_GONE]]
    tops = 0
    for s in range(NUM_STACKS):
        size = g[i, F_SLEN + s]
        row[O_SIZE + s] = size
        row[O_TOP + s] = 0
        if size > 0 and (s == 0 or size == STACK_SIZES[s]):  # the top shows (C2)
            top = stk[i, s, size - 1]
            tops |= 1 << top
            row[O_TOP + s] = top + 1  # a normal card or the apex's Joker: one slot
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
        row[O_STATUS + s] = status
    p0, p1, p2, p3 = with_code(planes, tops, C_FACE_UP)
    if me == 1:  # the Jokers' slots: mine first
        p0, p1, p2, p3 = swap_jokers(p0), swap_jokers(p1), swap_jokers(p2), swap_jokers(p3)
    for base in range(0, 56, 8):  # eight cards at a time: each bit spread to a byte
        codes = (
            SPREAD[(p0 >> base) & 0xFF]
            | (SPREAD[(p1 >> base) & 0xFF] << 1)
            | (SPREAD[(p2 >> base) & 0xFF] << 2)
            | (SPREAD[(p3 >> base) & 0xFF] << 3)
        )
        for b in range(min(8, 55 - base)):
            row[O_CARDS + base + b] = (codes >> (8 * b)) & 0xFF
    row[O_PHASE] = phase
    row[O_DEALER] = 1 if params[P_DEALER] == me else 0
    row[O_DEALT] = g[i, F_DEALT]
    row[O_RROUND] = g[i, F_RROUND]
    row[O_TURN] = g[i, F_TURN]
    if phase != OVER:
        row[O_CHOOSER] = 1 if chooser(g, params, i) == me else 2
    row[O_STACK] = g[i, F_STACK] + 1
    row[O_NROUNDS] = g[i, F_NROUNDS]
    if g[i, F_LAST + me] >= 0:
        row[O_MY_LAST] = g[i, F_LAST + me] - SINGLE_BASE + 1
        row[O_OPP_LAST] = g[i, F_LAST + opp] - SINGLE_BASE + 1
    row[O_MY_CARDS] = popcount(my_cards)
    row[O_MY_HAND] = popcount(g[i, F_HAND + me])
    row[O_MY_RESERVE] = popcount(g[i, F_RESERVE + me])
    row[O_OPP_CARDS] = popcount(opp_cards)
    if phase == RESERVE:  # C4.2
        row[O_OPP_SPLIT_SECRET] = 1
    else:
        row[O_OPP_HAND] = popcount(g[i, F_HAND + opp])
        row[O_OPP_RESERVE] = popcount(g[i, F_RESERVE + opp])
    row[O_MY_JOKER_PUBLIC] = 1 if joker_public(g, i, me) else 0
    row[O_OPP_JOKER_PUBLIC] = 1 if joker_public(g, i, opp) else 0
    row[O_FACE_DOWN_DISCARDS] = popcount(hidden)


@jit
def swap_jokers(mask: int) -> int:
    """``mask`` with bits 52 and 53 exchanged (player 1's Joker is its slot 52)."""
    a = (mask >> 52) & 1
    b = (mask >> 53) & 1
    return (mask & ~(3 << 52)) | (a << 53) | (b << 52)


@jit
def dealt_seen(g: Array, i: int, card: int, obs: Array) -> None:
    """Both observations after a card of the deal that leaves the deal going: what
    ``observe`` would write, changed in place (the deal changes a count, a hand or a
    stack, and no legal action: nobody acts during the deal)."""
    k = g[i, F_DEALT] - 1
    target = DEAL_TARGET[k]
    for me in range(2):
        row = obs[i, me]
        row[O_DEALT] = k + 1
        if target == me:
            row[O_CARDS + card] = C_MY_HAND
            row[O_MY_CARDS] += 1
            row[O_MY_HAND] += 1
        elif target < 2:
            row[O_OPP_CARDS] += 1
            row[O_OPP_HAND] += 1
        else:
            s = target - 2
            row[O_SIZE + s] += 1
            if row[O_SIZE + s] == STACK_SIZES[s]:  # complete: its top shows (C2)
                row[O_CARDS + card] = C_FACE_UP
                row[O_TOP + s] = card + 1


@jit
def returns_of(g: Array, i: int, out: Array) -> None:
    """C12: +1 to the apex's winner, -1 to the other, 0 each for a discarded apex."""
    w = g[i, F_WINNER]
    out[i, 0] = 0.0
    out[i, 1] = 0.0
    if g[i, F_PHASE] == OVER and w >= 0:
        out[i, w] = 1.0
        out[i, 1 - w] = -1.0


# ------------------------------------------------------------------ batch loops
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
        row = mask[i, p]
        if count[i, p] > 8:
            row[:] = False
        else:
            for k in range(count[i, p]):
                row[ids[i, p, k]] = False
        n = legal(g, params, i, p, ids[i, p])
        count[i, p] = n
        for k in range(n):
            row[ids[i, p, k]] = True
        observe(g, stk, params, i, p, obs[i, p])


@jit
def start(g: Array, stk: Array, params: Array, rng: Array, i: int, auto_chance: bool) -> None:
    reset_game(g, stk, params, i)
    if auto_chance:
        while g[i, F_PHASE] == DEAL:
            deal_random(g, stk, rng, i)


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


@jit
def step_one(arrays: Array, autoreset: bool, auto_chance: bool, i: int) -> None:
    """One step of game ``i`` (its actions were checked by ``first_invalid``);
    ``arrays`` are the batch's, in the order ``CardsBatch.step`` passes them."""
    (g, stk, params, rng, actions, chance, obs, mask, ids, count, movers) = arrays[:11]
    rewards, terminated, chance_taken, final_obs, active = arrays[11:]
    if not active[i]:
        return
    rewards[i, 0] = 0.0
    rewards[i, 1] = 0.0
    terminated[i] = False
    chance_taken[i] = -1
    mover = movers[i]
    if mover == TM_OVER:
        return
    phase = g[i, F_PHASE]
    if mover == TM_CHANCE:
        if chance[i] >= 0:
            apply_deal(g, stk, i, chance[i])
            chance_taken[i] = chance[i]
        else:
            chance_taken[i] = deal_random(g, stk, rng, i)
        if g[i, F_PHASE] == DEAL and not auto_chance:
            dealt_seen(g, i, chance_taken[i], obs)
            return
    elif phase == RESERVE:
        apply_reserve(g, i, actions[i, 0], actions[i, 1])
    elif phase in (ATTACK, TIEBREAK):
        resolve(g, stk, params, i, actions[i, 0], actions[i, 1])
    elif phase == CHOOSE:
        apply_choose(g, i, actions[i, mover - TM_PLAYER0])
    else:
        apply_assign(g, i, actions[i, mover - TM_PLAYER0])
    if auto_chance:
        while g[i, F_PHASE] == DEAL:
            deal_random(g, stk, rng, i)
    if g[i, F_PHASE] == OVER:
        returns_of(g, i, rewards)
        terminated[i] = True
        if autoreset:
            refresh(g, stk, params, i, obs, mask, ids, count, movers)
            final_obs[i] = obs[i]
            start(g, stk, params, rng, i, auto_chance)
    refresh(g, stk, params, i, obs, mask, ids, count, movers)


@jit
def step_serial(arrays: Array, autoreset: bool, auto_chance: bool) -> None:
    """One step of every game, in this thread (small batches)."""
    for i in range(arrays[0].shape[0]):
        step_one(arrays, autoreset, auto_chance, i)


@jit_parallel
def step_parallel(arrays: Array, autoreset: bool, auto_chance: bool) -> None:
    """One step of every game, the batch split among one worker per core."""
    for i in prange(arrays[0].shape[0]):
        step_one(arrays, autoreset, auto_chance, i)


@jit
def random_actions(rng: Array, ids: Array, count: Array, out: Array) -> None:
    """A uniformly random legal action for every player who has one (-1 otherwise)."""
    for i in range(ids.shape[0]):
        for p in range(2):
            n = count[i, p]
            out[i, p] = ids[i, p, below(rng, i, n)] if n > 0 else -1
