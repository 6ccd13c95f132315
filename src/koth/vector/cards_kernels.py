"""The card game's rules, compiled (numba), for one game of a batch at a time.

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
from koth.vector._jit import (
    below,
    jit,
    jit_inline,
    lowest_bit,
    nth_bit,
    popcount,
)
from koth.vector.cards_layout import (
    ALL_NORMAL,
    ATTACK_MASK,
    ATTACK_VALUE,
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
    P_DEALER,
    P_JOKERS,
    P_REVEAL,
    P_TENS_EQUAL,
    PLACE_HAND_BASE,
    PLACE_RESERVE_BASE,
    RUN_ID,
    SINGLE_BASE,
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


@jit_inline
def chooser(g: Array, params: Array, i: int) -> int:
    """C5: the dealer chooses first, then the choice alternates."""
    return int((params[P_DEALER] + g[i, F_TURN]) % 2)


@jit_inline
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


@jit_inline
def legal(g: Array, params: Array, i: int, p: int, ids: Array) -> int:
    """Player ``p``'s legal action ids in game ``i``, in id order, into ``ids[i, p]``
    (indexed in place, not through a row view: a view costs two atomic reference
    counts a call)."""
    phase = g[i, F_PHASE]
    if phase == RESERVE:  # C4.1: the round's card of p, to hand or reserve
        card = nth_bit(g[i, F_HAND + p] | g[i, F_RESERVE + p], g[i, F_RROUND])
        if card >= 52:
            card = 52
        ids[i, p, 0] = PLACE_HAND_BASE + card
        ids[i, p, 1] = PLACE_RESERVE_BASE + card
        return 2
    if phase in (ATTACK, TIEBREAK):  # C6.2
        source = g[i, F_RESERVE + p] if phase == TIEBREAK else g[i, F_HAND + p]
        normal = source & ALL_NORMAL
        n = 0
        rest = normal
        while rest:
            ids[i, p, n] = SINGLE_BASE + lowest_bit(rest)
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
                        ids[i, p, n] = RUN_ID[suit, low, high]
                        n += 1
        ids[i, p, n] = JOKER_PLAY_ID
        return n + 1
    if phase == CHOOSE:  # C3, C5
        if p != chooser(g, params, i):
            return 0
        n = 0
        available = AVAILABLE[g[i, F_GONE]]
        while available:
            ids[i, p, n] = CHOOSE_BASE + lowest_bit(available)
            n += 1
            available &= available - 1
        return n
    if phase == ASSIGN and p == g[i, F_WINNER]:  # C11.1
        card = lowest_bit(g[i, F_PENDING])
        ids[i, p, 0] = PLACE_HAND_BASE + card
        ids[i, p, 1] = PLACE_RESERVE_BASE + card
        return 2
    return 0


# ------------------------------------------------------------------ transitions
@jit_inline
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


@jit_inline
def draw_card(g: Array, rng: Array, i: int) -> int:
    """A card drawn uniformly from game ``i``'s undealt ones (the deal's next)."""
    undealt = g[i, F_UNDEALT]
    return nth_bit(undealt, below(rng, i, popcount(undealt)))


@jit_inline
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


@jit_inline
def apply_choose(g: Array, i: int, a: int) -> None:
    g[i, F_STACK] = a - CHOOSE_BASE
    g[i, F_PHASE] = ATTACK
    g[i, F_NROUNDS] = 0
    g[i, F_LAST] = -1
    g[i, F_LAST + 1] = -1


@jit_inline
def joker_home(g: Array, i: int) -> None:
    """C8.2: after a tie-break both Jokers go back to their owners' hands."""
    for p in range(2):
        joker = 1 << (52 + p)
        if g[i, F_RESERVE + p] & joker:
            g[i, F_RESERVE + p] ^= joker
            g[i, F_HAND + p] |= joker


@jit_inline
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


@jit_inline
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


@jit_inline
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


@jit
def returns_of(g: Array, i: int, out: Array) -> None:
    """C12: +1 to the apex's winner, -1 to the other, 0 each for a discarded apex."""
    w = g[i, F_WINNER]
    out[i, 0] = 0.0
    out[i, 1] = 0.0
    if g[i, F_PHASE] == OVER and w >= 0:
        out[i, w] = 1.0
        out[i, 1 - w] = -1.0
