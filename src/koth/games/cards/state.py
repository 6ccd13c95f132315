"""The immutable state of a card game and how it ended."""

from __future__ import annotations

import enum
from typing import Final

from koth.core.fastdata import fast_constructors
from koth.core.frozen import FrozenFields, refuse_deletion, set_field_once
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
DISCARDED: Final = -1


#: FightLog's fields in declaration order (the order ``__init__`` takes them)
FIGHT_FIELDS: Final = ("chooser", "stack", "rounds", "winner", "top", "size")


class FightLog(FrozenFields):
    """The public record of one finished fight for a stack.

    Immutable and compared by value like a frozen dataclass; a plain class for the same
    reason as ``CardsState`` (below): compiled, a frozen dataclass's ``__init__`` sets
    each field through ``object.__setattr__``, and one is built at every fight.
    """

    __slots__ = FIGHT_FIELDS
    FIELD_NAMES = FIGHT_FIELDS

    chooser: int
    stack: int
    #: every attack round: (player 0's attack, player 1's attack)
    rounds: tuple[tuple[Attack, Attack], ...]
    #: the player who won the stack, or DISCARDED
    winner: int
    #: the stack's face-up card (None for the empty apex of the 2-Joker game)
    top: int | None
    size: int

    def __init__(
        self,
        chooser: int,
        stack: int,
        rounds: tuple[tuple[Attack, Attack], ...],
        winner: int,
        top: int | None,
        size: int,
    ) -> None:
        self.chooser = chooser
        self.stack = stack
        self.rounds = rounds
        self.winner = winner
        self.top = top
        self.size = size

    # After __init__ on purpose: mypyc compiles the stores written before a class's
    # __setattr__ as direct stores (koth.core.frozen.FrozenFields).
    def __setattr__(self, name: str, value: object) -> None:
        set_field_once(self, name, value)

    def __delattr__(self, name: str) -> None:
        refuse_deletion(self, name)

    def fields(self) -> tuple[object, ...]:
        """Every field's value, in declaration order."""
        return (self.chooser, self.stack, self.rounds, self.winner, self.top, self.size)

    def __repr__(self) -> str:
        values = ", ".join(
            f"{name}={value!r}" for name, value in zip(FIGHT_FIELDS, self.fields(), strict=True)
        )
        return f"FightLog({values})"


def new_fight_log(
    chooser: int,
    stack: int,
    rounds: tuple[tuple[Attack, Attack], ...],
    winner: int,
    top: int | None,
    size: int,
) -> FightLog:
    """``FightLog(...)``; interpreted, the module rebinds the name to a faster
    equivalent (below)."""
    return FightLog(chooser, stack, rounds, winner, top, size)


class _Keep:
    """The type of ``KEEP``: "this field as it was" in ``evolve``."""


KEEP: Final = _Keep()

#: CardsState's fields in declaration order (the order ``__init__`` takes them)
FIELD_NAMES: Final = (
    "phase",
    "hands",
    "reserves",
    "stacks",
    "gone",
    "discards",
    "undealt",
    "dealt",
    "reserve_round",
    "turn",
    "stack",
    "rounds",
    "pending",
    "to_hand",
    "to_reserve",
    "log",
    "buried",
)


class CardsState(FrozenFields):
    """Everything about one game, secrets included. Card sets are bitmasks.

    Immutable, compared and hashed by value like a frozen dataclass. It is a plain class
    because the compiled build compiles it (docs/performance.md), as ``BoardState``:
    mypyc makes it a native class whose ``__init__`` stores straight into the instance,
    while any later assignment still goes through ``__setattr__`` and is refused.
    """

    __slots__ = FIELD_NAMES
    FIELD_NAMES = FIELD_NAMES

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
    dealt: int
    #: how many cards each player has put in hand or reserve in the reserve phase
    reserve_round: int
    #: fights started so far (the chooser of fight t is the dealer when t is even)
    turn: int
    #: the stack fought for now, or -1
    stack: int
    #: the revealed attack rounds of the fight in progress
    rounds: tuple[tuple[Attack, Attack], ...]
    #: won cards still to be assigned, in increasing order
    pending: int
    #: won cards already assigned but not yet placed (the placements stay secret until all
    #: won cards are assigned, C11.1)
    to_hand: int
    to_reserve: int
    log: tuple[FightLog, ...]
    #: the face-down cards of discarded stacks (C9.1): part of ``discards``, but seen by
    #: nobody until the game is over
    buried: int

    def __init__(
        self,
        phase: Phase,
        hands: tuple[int, int],
        reserves: tuple[int, int],
        stacks: tuple[tuple[int, ...], ...],
        gone: int,
        discards: int,
        undealt: int,
        dealt: int = 0,
        reserve_round: int = 0,
        turn: int = 0,
        stack: int = -1,
        rounds: tuple[tuple[Attack, Attack], ...] = (),
        pending: int = 0,
        to_hand: int = 0,
        to_reserve: int = 0,
        log: tuple[FightLog, ...] = (),
        buried: int = 0,
    ) -> None:
        self.phase = phase
        self.hands = hands
        self.reserves = reserves
        self.stacks = stacks
        self.gone = gone
        self.discards = discards
        self.undealt = undealt
        self.dealt = dealt
        self.reserve_round = reserve_round
        self.turn = turn
        self.stack = stack
        self.rounds = rounds
        self.pending = pending
        self.to_hand = to_hand
        self.to_reserve = to_reserve
        self.log = log
        self.buried = buried

    # After __init__ on purpose: mypyc compiles the stores written before a class's
    # __setattr__ as direct stores (koth.core.frozen.FrozenFields).
    def __setattr__(self, name: str, value: object) -> None:
        set_field_once(self, name, value)

    def __delattr__(self, name: str) -> None:
        refuse_deletion(self, name)

    def fields(self) -> tuple[object, ...]:
        """Every field's value, in declaration order."""
        return (
            self.phase,
            self.hands,
            self.reserves,
            self.stacks,
            self.gone,
            self.discards,
            self.undealt,
            self.dealt,
            self.reserve_round,
            self.turn,
            self.stack,
            self.rounds,
            self.pending,
            self.to_hand,
            self.to_reserve,
            self.log,
            self.buried,
        )

    def __repr__(self) -> str:
        # a frozen dataclass's repr: every field as name=value
        values = ", ".join(
            f"{name}={value!r}" for name, value in zip(FIELD_NAMES, self.fields(), strict=True)
        )
        return f"CardsState({values})"


def new_state(
    phase: Phase,
    hands: tuple[int, int],
    reserves: tuple[int, int],
    stacks: tuple[tuple[int, ...], ...],
    gone: int,
    discards: int,
    undealt: int,
    dealt: int,
    reserve_round: int,
    turn: int,
    stack: int,
    rounds: tuple[tuple[Attack, Attack], ...],
    pending: int,
    to_hand: int,
    to_reserve: int,
    log: tuple[FightLog, ...],
    buried: int,
) -> CardsState:
    """``CardsState(...)`` from every field (call it with keywords where it is not hot:
    seventeen positional values cannot be read or checked). Interpreted, the module
    rebinds the name to a faster equivalent (below)."""
    return CardsState(
        phase,
        hands,
        reserves,
        stacks,
        gone,
        discards,
        undealt,
        dealt,
        reserve_round,
        turn,
        stack,
        rounds,
        pending,
        to_hand,
        to_reserve,
        log,
        buried,
    )


def evolve(
    s: CardsState,
    *,
    phase: Phase | _Keep = KEEP,
    hands: tuple[int, int] | _Keep = KEEP,
    reserves: tuple[int, int] | _Keep = KEEP,
    stacks: tuple[tuple[int, ...], ...] | _Keep = KEEP,
    gone: int | _Keep = KEEP,
    discards: int | _Keep = KEEP,
    undealt: int | _Keep = KEEP,
    dealt: int | _Keep = KEEP,
    reserve_round: int | _Keep = KEEP,
    turn: int | _Keep = KEEP,
    stack: int | _Keep = KEEP,
    rounds: tuple[tuple[Attack, Attack], ...] | _Keep = KEEP,
    pending: int | _Keep = KEEP,
    to_hand: int | _Keep = KEEP,
    to_reserve: int | _Keep = KEEP,
    log: tuple[FightLog, ...] | _Keep = KEEP,
    buried: int | _Keep = KEEP,
) -> CardsState:
    """``s`` with the given fields changed (``dataclasses.replace`` for ``CardsState``).

    Compiled, this builds the native instance in C, and the other compiled modules call
    it directly, their keyword arguments matched when they are compiled. Interpreted,
    the module rebinds the name to a faster equivalent (below).
    """
    return CardsState(
        phase=s.phase if isinstance(phase, _Keep) else phase,
        hands=s.hands if isinstance(hands, _Keep) else hands,
        reserves=s.reserves if isinstance(reserves, _Keep) else reserves,
        stacks=s.stacks if isinstance(stacks, _Keep) else stacks,
        gone=s.gone if isinstance(gone, _Keep) else gone,
        discards=s.discards if isinstance(discards, _Keep) else discards,
        undealt=s.undealt if isinstance(undealt, _Keep) else undealt,
        dealt=s.dealt if isinstance(dealt, _Keep) else dealt,
        reserve_round=s.reserve_round if isinstance(reserve_round, _Keep) else reserve_round,
        turn=s.turn if isinstance(turn, _Keep) else turn,
        stack=s.stack if isinstance(stack, _Keep) else stack,
        rounds=s.rounds if isinstance(rounds, _Keep) else rounds,
        pending=s.pending if isinstance(pending, _Keep) else pending,
        to_hand=s.to_hand if isinstance(to_hand, _Keep) else to_hand,
        to_reserve=s.to_reserve if isinstance(to_reserve, _Keep) else to_reserve,
        log=s.log if isinstance(log, _Keep) else log,
        buried=s.buried if isinstance(buried, _Keep) else buried,
    )


#: the ``new_state``, ``evolve`` and ``new_fight_log`` above in either build (the tests
#: check that they agree with the interpreted ones)
new_state_compiled: Final = new_state
evolve_compiled: Final = evolve
new_fight_log_compiled: Final = new_fight_log

if __file__.endswith(".py"):
    # Interpreted, the functions above would run ``__setattr__`` per field; the
    # generated ones that store through the slot descriptors are several times faster.
    # Modules that import them do so after this module ran, and get these.
    globals()["new_state"], globals()["evolve"] = fast_constructors(CardsState, FIELD_NAMES)
    globals()["new_fight_log"] = fast_constructors(FightLog, FIGHT_FIELDS)[0]
