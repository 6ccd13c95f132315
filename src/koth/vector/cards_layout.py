"""The batched card game's state row and observation layout, shared by the compiled
loops (``cards_kernels``, ``cards_view``, ``cards_loops``) and the reference encoder
(``cards_obs``).

A game is one row of int64 fields (``F_*`` columns); card sets are bitmasks as in
``koth.games.cards.tables`` (bit ``c`` for card ``c``; 52 and 53 the players' Jokers,
54 the apex Joker). The observation of a player is ``OBS_SIZE`` small integers
(uint8), from that player's seat: "me" is the observer, "opponent" the other player.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from koth.games.cards import actions as act
from koth.games.cards.rules import DEAL_SLOTS
from koth.games.cards.tables import (
    MAX_RUN_RANK,
    NORMAL_CARDS,
    make_card,
    mask_of,
)
from koth.games.cards.tables import STACK_SIZES as _STACK_SIZES

# ------------------------------------------------------------------ state row
F_PHASE: Final = 0
F_HAND: Final = 1  # +player
F_RESERVE: Final = 3  # +player
F_GONE: Final = 5
F_DISCARDS: Final = 6
F_UNDEALT: Final = 7
F_DEALT: Final = 8
F_RROUND: Final = 9
F_TURN: Final = 10
F_STACK: Final = 11
F_NROUNDS: Final = 12
F_LAST: Final = 13  # +player: the attack ids of the current fight's last round, or -1
F_PENDING: Final = 15
F_TO_HAND: Final = 16
F_TO_RESERVE: Final = 17
F_BURIED: Final = 18
F_WINNER: Final = 19  # the last fight's winner, -1 discarded, -2 no fight yet
F_LAST_TOP: Final = 20  # the last fight's face-up card, or -1
F_WON_TOPS: Final = 21  # +player: face-up cards of the stacks it won and assigned
F_JOKER_PUBLIC: Final = 23  # +player: 1 once its Joker's place is public (C6.1, C8.1)
F_PLAYED: Final = 25  # +player: the cards it attacked with
F_SLEN: Final = 27  # +stack: cards in the stack
F_OWNER: Final = 42  # +stack: -1 in play, 0/1 won by that player, 2 discarded
NUM_FIELDS: Final = 57
STACK_DEPTH: Final = 4

# ------------------------------------------------------------------ parameters
P_JOKERS: Final = 0
P_TENS_EQUAL: Final = 1
P_DEALER: Final = 2
P_REVEAL: Final = 3

# ------------------------------------------------------------------ to move
#: ``to_move`` codes: a chance node, one player, both at once, the game is over
TM_CHANCE: Final = 0
TM_PLAYER0: Final = 1
TM_PLAYER1: Final = 2
TM_BOTH: Final = 3
TM_OVER: Final = 4

# ------------------------------------------------------------------ observation
#: card slots: 0..51 normal cards, 52 my Joker, 53 the opponent's Joker, 54 the apex's
O_CARDS: Final = 0
#: what the observer knows of each card (``O_CARDS + slot``)
C_UNSEEN: Final = 0
C_MY_HAND: Final = 1
C_MY_RESERVE: Final = 2
C_OPP_HAND: Final = 3  # with the opponent, in its hand (a public Joker)
C_OPP_RESERVE: Final = 4  # with the opponent, in its reserve (a public Joker)
C_OPP_HOLDS: Final = 5  # with the opponent, hand or reserve unknown
C_FACE_UP: Final = 6  # the face-up card of a stack in the pyramid
C_PLAYED_ME: Final = 7  # discarded: I attacked with it
C_PLAYED_OPP: Final = 8  # discarded: the opponent attacked with it
C_DISCARDED: Final = 9  # discarded with a stack, seen
C_MY_PENDING: Final = 10  # I won it and have not assigned it yet
C_MY_TO_HAND: Final = 11  # I won it and put it in my hand (not yet placed)
C_MY_TO_RESERVE: Final = 12  # I won it and put it in my reserve (not yet placed)
C_OPP_WON: Final = 13  # the face-up card of the stack the opponent is assigning
#: per stack: cards in it
O_SIZE: Final = 55
#: per stack: S_* below
O_STATUS: Final = 70
S_IN_PLAY: Final = 0
S_AVAILABLE: Final = 1
S_WON_ME: Final = 2
S_WON_OPP: Final = 3
S_DISCARDED: Final = 4
#: per stack: the slot of its face-up card + 1, 0 when none shows
O_TOP: Final = 85
O_PHASE: Final = 100
O_DEALER: Final = 101  # 1 when I am the dealer
O_DEALT: Final = 102
O_RROUND: Final = 103
O_TURN: Final = 104
O_CHOOSER: Final = 105  # 0 nobody (game over), 1 me, 2 the opponent
O_STACK: Final = 106  # the stack fought for + 1, 0 none
O_NROUNDS: Final = 107  # revealed rounds of the fight in progress
O_MY_LAST: Final = 108  # my attack in that fight's last round: attack index + 1, 0 none
O_OPP_LAST: Final = 109
O_MY_CARDS: Final = 110
O_MY_HAND: Final = 111
O_MY_RESERVE: Final = 112
O_OPP_CARDS: Final = 113
O_OPP_HAND: Final = 114  # 0 while the split is secret (C4.2)
O_OPP_RESERVE: Final = 115
O_OPP_SPLIT_SECRET: Final = 116
O_MY_JOKER_PUBLIC: Final = 117
O_OPP_JOKER_PUBLIC: Final = 118
O_ASSIGNING: Final = 119  # 0 nobody, 1 me, 2 the opponent
O_REMAINING: Final = 120
O_ASSIGNED: Final = 121
O_FACE_DOWN_DISCARDS: Final = 122
OBS_SIZE: Final = 123
#: the largest value of each observation entry (the Gymnasium space's ``high``)
OBS_HIGH: Final = np.full(OBS_SIZE, 55, dtype=np.uint8)
OBS_HIGH[O_CARDS : O_CARDS + 55] = C_OPP_WON
OBS_HIGH[O_STATUS : O_STATUS + 15] = S_DISCARDED
OBS_HIGH[O_PHASE] = 6
OBS_HIGH[[O_MY_LAST, O_OPP_LAST]] = act.NUM_ACTIONS - act.SINGLE_BASE
OBS_HIGH[[O_DEALER, O_OPP_SPLIT_SECRET, O_MY_JOKER_PUBLIC, O_OPP_JOKER_PUBLIC]] = 1
OBS_HIGH[[O_CHOOSER, O_ASSIGNING]] = 2

# ------------------------------------------------------------------ rule tables
NUM_ACTIONS: Final = act.NUM_ACTIONS
DEAL_BASE: Final = act.DEAL_BASE
PLACE_HAND_BASE: Final = act.PLACE_HAND_BASE
PLACE_RESERVE_BASE: Final = act.PLACE_RESERVE_BASE
CHOOSE_BASE: Final = act.CHOOSE_BASE
SINGLE_BASE: Final = act.SINGLE_BASE
JOKER_PLAY_ID: Final = act.JOKER_PLAY_ID
#: the most actions a player can have at once: every single card, sequence and Joker
MAX_LEGAL: Final = NUM_ACTIONS - SINGLE_BASE

#: per action id: the normal cards an attack uses, its value (C7), 1 for a single card
ATTACK_MASK: Final = np.zeros(NUM_ACTIONS, dtype=np.int64)
ATTACK_VALUE: Final = np.zeros(NUM_ACTIONS, dtype=np.int64)
IS_SINGLE: Final = np.zeros(NUM_ACTIONS, dtype=np.int64)
for _id in range(SINGLE_BASE, NUM_ACTIONS):
    _attack = act.action_from_id(_id)
    assert isinstance(_attack, act.Single | act.Run | act.JokerPlay)
    ATTACK_MASK[_id] = act.attack_mask(_attack)
    ATTACK_VALUE[_id] = act.attack_value(_attack)
    IS_SINGLE[_id] = isinstance(_attack, act.Single)
#: the id of the sequence of ``suit`` from rank ``low`` to ``high``
RUN_ID: Final = np.full((4, MAX_RUN_RANK + 1, MAX_RUN_RANK + 1), -1, dtype=np.int64)
for _index, _run in enumerate(act.RUNS):
    RUN_ID[_run.suit, _run.low, _run.high] = act.RUN_BASE + _index
#: each suit's cards up to the Eight (the cards sequences use)
SUIT_RUN_CARDS: Final = np.array(
    [mask_of([make_card(r, s) for r in range(MAX_RUN_RANK + 1)]) for s in range(4)],
    dtype=np.int64,
)
#: where the k-th card of the deal goes (C2.1): the player (0/1) or 2 + the stack
DEAL_TARGET: Final = np.array(
    [player if player >= 0 else 2 + stack for player, stack in DEAL_SLOTS], dtype=np.int64
)
ALL_NORMAL: Final = (1 << NORMAL_CARDS) - 1
#: cards dealt to each stack
STACK_SIZES: Final = np.array(_STACK_SIZES, dtype=np.int64)
MAX_RUN: Final = MAX_RUN_RANK
