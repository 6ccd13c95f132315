"""The immutable state of a card game and how it ended."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from koth.core.fastdata import fast_constructors
from koth.games.cards.actions import Attack


class Phase(enum.IntEnum):
    DEAL = 0
    RESERVE = 1
    CHOOSE = 2
    ATTACK = 3
    TIEBREAK = 4
    ASSIGN = 5
    OVER = 6


class CardTermination(enum.Enum):
    APEX_WON = "apex_won"
    APEX_DISCARDED = "apex_discarded"


#: ``FightLog.winner`` when both Jokers were played and the stack was discarded
DISCARDED = -1


@dataclass(frozen=True, slots=True)
class FightLog:
    """The public record of one finished fight for a stack."""

    chooser: int
    stack: int
    #: every attack round: (player 0's attack, player 1's attack)
    rounds: tuple[tuple[Attack, Attack], ...]
    #: the player who won the stack, or DISCARDED
    winner: int
    #: the stack's face-up card (None for the empty apex of the 2-Joker game)
    top: int | None
    size: int


@dataclass(frozen=True, slots=True)
class CardsState:
    """Everything about one game, secrets included. Card sets are bitmasks."""

    phase: Phase
    hands: tuple[int, int]
    reserves: tuple[int, int]
    #: the 15 stacks, each bottom card first (the last card is the face-up one)
    stacks: tuple[tuple[int, ...], ...]
    #: stacks that were won or discarded (bit per stack)
    gone: int
    discards: int
    #: cards not dealt yet (during the deal)
    undealt: int
    dealt: int = 0
    #: how many cards each player has put in hand or reserve in the reserve phase
    reserve_round: int = 0
    #: fights started so far (the chooser of fight t is the dealer when t is even)
    turn: int = 0
    #: the stack fought for now, or -1
    stack: int = -1
    #: the revealed attack rounds of the fight in progress
    rounds: tuple[tuple[Attack, Attack], ...] = ()
    #: won cards still to be assigned, in increasing order
    pending: int = 0
    #: won cards already assigned but not yet placed (the placements stay secret until all
    #: won cards are assigned, C11.1)
    to_hand: int = 0
    to_reserve: int = 0
    log: tuple[FightLog, ...] = ()
    #: the face-down cards of discarded stacks (C9.1): part of ``discards``, but seen by
    #: nobody until the game is over
    buried: int = 0


#: ``new_state(**every field)`` and ``evolve(state, **changes)``, the hot paths' fast
#: equivalents of ``CardsState(...)`` and ``dataclasses.replace`` (call both with
#: keywords: sixteen positional values cannot be read or checked)
new_state, evolve = fast_constructors(CardsState)
