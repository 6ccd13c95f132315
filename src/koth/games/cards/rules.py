"""The rules as pure functions over ``CardsState`` (rule numbers from docs/rules/cards.md)."""

from __future__ import annotations

from typing import Final

from koth.games.cards.actions import (
    Attack,
    JokerPlay,
    Single,
    attack_mask,
    attack_value,
)
from koth.games.cards.params import CardsParams
from koth.games.cards.state import (
    DISCARDED,
    CardsState,
    Phase,
    evolve,
    new_fight_log,
    new_state,
)
from koth.games.cards.tables import (
    ALL_NORMAL,
    APEX,
    APEX_JOKER,
    COVERED_BY,
    JOKER,
    NORMAL_CARDS,
    NUM_STACKS,
    PLAYER_JOKERS,
    STACK_SIZES,
    mask_of,
    rank_of,
)

HAND_SIZE: Final = 11
#: cards in each player's hand after the deal, the Joker included (C2)
START_CARDS: Final = HAND_SIZE + 1
DEAL_LENGTH: Final = NORMAL_CARDS


def _deal_slots() -> tuple[tuple[int, int], ...]:
    """Where each card of the deal goes, in order (C2.1): (player, -1) or (-1, stack)."""
    slots = [(k % 2, -1) for k in range(2 * HAND_SIZE)]
    for stack in range(1, NUM_STACKS):
        slots.extend((-1, stack) for _ in range(STACK_SIZES[stack]))
    assert len(slots) == DEAL_LENGTH
    return tuple(slots)


DEAL_SLOTS: Final = _deal_slots()

_JOKER_BITS: Final = (1 << PLAYER_JOKERS[0], 1 << PLAYER_JOKERS[1])


def initial_state(params: CardsParams) -> CardsState:
    apex: tuple[int, ...] = (APEX_JOKER,) if params.jokers == 3 else ()
    return new_state(
        phase=Phase.DEAL,
        hands=_JOKER_BITS,
        reserves=(0, 0),
        stacks=(apex,) + ((),) * (NUM_STACKS - 1),
        gone=0,
        discards=0,
        undealt=ALL_NORMAL,
        dealt=0,
        reserve_round=0,
        turn=0,
        stack=-1,
        rounds=(),
        pending=0,
        to_hand=0,
        to_reserve=0,
        log=(),
        buried=0,
    )


def chooser(state: CardsState, params: CardsParams) -> int:
    """C5: the dealer chooses the first stack, then the choice alternates."""
    return (params.dealer + state.turn) % 2


def assignee(state: CardsState) -> int:
    """The winner of the fight whose cards are being assigned (C11)."""
    return state.log[-1].winner


def stack_available(gone: int, stack: int) -> bool:
    """C3: bottom row, or a covering stack gone; the apex needs both gone."""
    if gone >> stack & 1:
        return False
    covers = COVERED_BY[stack]
    if not covers:
        return True
    left, right = gone >> covers[0] & 1, gone >> covers[1] & 1
    return bool(left and right) if stack == APEX else bool(left or right)


def available_stacks(gone: int) -> list[int]:
    return [s for s in range(NUM_STACKS) if stack_available(gone, s)]


# ------------------------------------------------------------------ deal (C2)
def apply_deal(state: CardsState, card: int) -> CardsState:
    # Built field by field: the deal is almost half of all steps.
    player, stack = DEAL_SLOTS[state.dealt]
    dealt = state.dealt + 1
    hands, stacks = state.hands, state.stacks
    if player == 0:
        hands = (hands[0] | 1 << card, hands[1])
    elif player == 1:
        hands = (hands[0], hands[1] | 1 << card)
    else:
        stacks = (*stacks[:stack], (*stacks[stack], card), *stacks[stack + 1 :])
    # CardsState's fields in order (a keyword call costs 0.7 us more interpreted, on
    # half the steps); the fields after ``dealt`` are at their defaults while the deal
    # lasts (C2): nothing is reserved, fought for, won or logged yet
    return new_state(
        Phase.RESERVE if dealt == DEAL_LENGTH else Phase.DEAL,
        hands,
        state.reserves,
        stacks,
        state.gone,
        state.discards,
        state.undealt & ~(1 << card),
        dealt,
        0,  # reserve_round
        0,  # turn
        -1,  # stack
        (),  # rounds
        0,  # pending
        0,  # to_hand
        0,  # to_reserve
        (),  # log
        0,  # buried
    )


# ------------------------------------------------------------------ reserve (C4)
def card_to_place(state: CardsState, player: int) -> int:
    """C4.1: the card ``player`` decides on in this reserve round (its cards in id order)."""
    cards = state.hands[player] | state.reserves[player]
    for _ in range(state.reserve_round):
        cards &= cards - 1
    return (cards & -cards).bit_length() - 1


def action_card(card: int) -> int:
    """A physical card as actions write it: every player's own Joker is JOKER."""
    return JOKER if card >= NORMAL_CARDS else card


def apply_reserve_round(state: CardsState, to_reserve: tuple[bool, bool]) -> CardsState:
    hands, reserves = list(state.hands), list(state.reserves)
    for player in (0, 1):
        if to_reserve[player]:
            bit = 1 << card_to_place(state, player)
            hands[player] &= ~bit
            reserves[player] |= bit
    round_ = state.reserve_round + 1
    return evolve(
        state,
        hands=(hands[0], hands[1]),
        reserves=(reserves[0], reserves[1]),
        reserve_round=round_,
        phase=Phase.CHOOSE if round_ == START_CARDS else Phase.RESERVE,
    )


# ------------------------------------------------------------------ choice (C3, C5)
def apply_choose(state: CardsState, stack: int) -> CardsState:
    return evolve(state, stack=stack, phase=Phase.ATTACK, rounds=())


# ------------------------------------------------------------------ attacks (C6-C10)
def attack_source(state: CardsState, player: int) -> int:
    """C6/C8: the first attack uses the hand, tie-breaks the reserve."""
    return state.reserves[player] if state.phase is Phase.TIEBREAK else state.hands[player]


def compare_attacks(first: Attack, second: Attack, tens_equal: bool) -> int:
    """C7: > 0 when ``first`` wins, < 0 when ``second`` wins, 0 for a tie."""
    diff = attack_value(first) - attack_value(second)
    if diff or tens_equal:
        return diff
    if type(first) is Single and type(second) is Single and attack_value(first) == 10:
        return rank_of(first.card) - rank_of(second.card)  # C7.1: 10 < J < Q < K
    return 0


def resolve_attacks(
    state: CardsState, attacks: tuple[Attack, Attack], params: CardsParams
) -> CardsState:
    tiebreak = state.phase is Phase.TIEBREAK
    hands, reserves = list(state.hands), list(state.reserves)
    discards = state.discards
    for player, attack in enumerate(attacks):
        if type(attack) is JokerPlay:
            joker = _JOKER_BITS[player]
            if not tiebreak and reserves[player] & joker:  # C6.1: back in the hand
                reserves[player] ^= joker
                hands[player] |= joker
            continue
        mask = attack_mask(attack)
        if tiebreak:
            reserves[player] &= ~mask
        else:
            hands[player] &= ~mask
        discards |= mask  # C10
    rounds = (*state.rounds, attacks)
    first, second = attacks
    if type(first) is JokerPlay and type(second) is JokerPlay:
        winner = DISCARDED  # C9
    else:
        diff = compare_attacks(first, second, params.tens_equal)
        if diff == 0:  # C8: Jokers into the reserves, fight on from the reserves
            for player in (0, 1):
                joker = _JOKER_BITS[player]
                if hands[player] & joker:
                    hands[player] ^= joker
                    reserves[player] |= joker
            return evolve(
                state,
                phase=Phase.TIEBREAK,
                hands=(hands[0], hands[1]),
                reserves=(reserves[0], reserves[1]),
                discards=discards,
                rounds=rounds,
            )
        winner = 0 if diff > 0 else 1
    if len(rounds) > 1:  # C8.2: after a tie-break both Jokers go back to the hands
        for player in (0, 1):
            joker = _JOKER_BITS[player]
            if reserves[player] & joker:
                reserves[player] ^= joker
                hands[player] |= joker
    return _finish_fight(state, params, hands, reserves, discards, rounds, winner)


def _finish_fight(
    state: CardsState,
    params: CardsParams,
    hands: list[int],
    reserves: list[int],
    discards: int,
    rounds: tuple[tuple[Attack, Attack], ...],
    winner: int,
) -> CardsState:
    stack = state.stack
    cards = state.stacks[stack]
    won = mask_of(cards)
    stacks = list(state.stacks)
    stacks[stack] = ()
    entry = new_fight_log(
        chooser(state, params), stack, rounds, winner, cards[-1] if cards else None, len(cards)
    )
    pending = 0
    buried = state.buried
    if winner == DISCARDED:
        discards |= won
        if not params.reveal_discarded_stacks and cards:
            # C9.1: the text warns against revealing any card of a stack but its top
            buried |= won & ~(1 << cards[-1])
        phase = Phase.OVER if stack == APEX else Phase.CHOOSE
    elif stack == APEX:
        hands[winner] |= won  # C12: the game is won; the apex Joker needs no assignment
        phase = Phase.OVER
    else:
        pending = won
        phase = Phase.ASSIGN
    after = evolve(
        state,
        phase=phase,
        hands=(hands[0], hands[1]),
        reserves=(reserves[0], reserves[1]),
        stacks=tuple(stacks),
        gone=state.gone | 1 << stack,
        discards=discards,
        buried=buried,
        rounds=(),
        stack=-1,
        pending=pending,
        log=(*state.log, entry),
        turn=state.turn + 1 if phase is Phase.CHOOSE else state.turn,
    )
    return after


# ------------------------------------------------------------------ won cards (C11)
def next_won_card(state: CardsState) -> int:
    """C11.1: won cards are assigned one at a time, in increasing id order."""
    pending = state.pending
    return (pending & -pending).bit_length() - 1


def apply_assign(state: CardsState, to_reserve: bool) -> CardsState:
    bit = 1 << next_won_card(state)
    pending = state.pending ^ bit
    to_hand = state.to_hand | (0 if to_reserve else bit)
    to_res = state.to_reserve | (bit if to_reserve else 0)
    if pending:
        return evolve(state, pending=pending, to_hand=to_hand, to_reserve=to_res)
    winner = assignee(state)
    hands, reserves = list(state.hands), list(state.reserves)
    hands[winner] |= to_hand
    reserves[winner] |= to_res
    return evolve(
        state,
        phase=Phase.CHOOSE,
        hands=(hands[0], hands[1]),
        reserves=(reserves[0], reserves[1]),
        pending=0,
        to_hand=0,
        to_reserve=0,
        stack=-1,
        turn=state.turn + 1,
    )


# ------------------------------------------------------------------ checks
def card_zones(state: CardsState) -> list[tuple[str, int]]:
    """Every place a card can be, as (name, set of cards)."""
    zones = [
        ("hand 0", state.hands[0]),
        ("hand 1", state.hands[1]),
        ("reserve 0", state.reserves[0]),
        ("reserve 1", state.reserves[1]),
        ("discards", state.discards),
        ("undealt", state.undealt),
        ("won, unassigned", state.pending | state.to_hand | state.to_reserve),
    ]
    zones.extend((f"stack {s}", mask_of(cards)) for s, cards in enumerate(state.stacks))
    return zones
