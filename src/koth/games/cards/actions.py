"""The actions of the card game, their notation and their stable integer ids.

Notation (see docs/rules/cards.md, C14):

* ``deal 7h``            chance deals the next card of the deal (C2.1)
* ``hand 7h``/``reserve 7h``  put one card in the hand or the reserve: the reserve
  choice (C4.1) and the assignment of won cards (C11.1); ``JK`` is your own Joker
* ``stack K``            choose the stack named K to fight for (C3.1, C5)
* ``7h``                 attack with one card (C6)
* ``4c5c6c``             attack with a sequence (also read: ``4c-6c``, ``4c 5c 6c``)
* ``JK``                 play your Joker (C6)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from koth.core.errors import InvalidActionError
from koth.core.notation import notation_repr
from koth.games.cards.tables import (
    CARD_VALUES,
    JOKER,
    MAX_RUN_RANK,
    NORMAL_CARDS,
    NUM_STACKS,
    RANKS,
    STACK_NAMES,
    SUITS,
    card_str,
    make_card,
    parse_card,
    rank_of,
    suit_of,
)


@dataclass(frozen=True, slots=True, repr=False)
class Deal:
    """Chance: the next card of the deal."""

    card: int

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return f"deal {card_str(self.card)}"

    def __hash__(self) -> int:  # cheaper than the generated field-tuple hash
        return self.card

    # pickled by its fields: the compiled build's frozen class refuses the slot-by-slot
    # restore that pickle would otherwise use
    def __reduce__(self) -> tuple[type[Deal], tuple[int]]:
        return (Deal, (self.card,))


@dataclass(frozen=True, slots=True, repr=False)
class Place:
    """Put ``card`` (JOKER: one's own Joker) in the hand or in the reserve."""

    card: int
    to_reserve: bool

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return f"{'reserve' if self.to_reserve else 'hand'} {card_str(self.card)}"

    def __hash__(self) -> int:
        return 100 + self.card * 2 + self.to_reserve

    def __reduce__(self) -> tuple[type[Place], tuple[int, bool]]:
        return (Place, (self.card, self.to_reserve))


@dataclass(frozen=True, slots=True, repr=False)
class Choose:
    """Choose the stack to fight for."""

    stack: int

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return f"stack {STACK_NAMES[self.stack]}"

    def __hash__(self) -> int:
        return 300 + self.stack

    def __reduce__(self) -> tuple[type[Choose], tuple[int]]:
        return (Choose, (self.stack,))


@dataclass(frozen=True, slots=True, repr=False)
class Single:
    """Attack with one card."""

    card: int

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return card_str(self.card)

    def __hash__(self) -> int:
        return 400 + self.card

    def __reduce__(self) -> tuple[type[Single], tuple[int]]:
        return (Single, (self.card,))


@dataclass(frozen=True, slots=True, repr=False)
class Run:
    """Attack with a sequence: ranks ``low``..``high`` (indices into RANKS) of ``suit``."""

    suit: int
    low: int
    high: int

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return "".join(card_str(make_card(r, self.suit)) for r in range(self.low, self.high + 1))

    def __hash__(self) -> int:
        return 500 + self.suit * 100 + self.low * 10 + self.high

    def __reduce__(self) -> tuple[type[Run], tuple[int, int, int]]:
        return (Run, (self.suit, self.low, self.high))


@dataclass(frozen=True, slots=True, repr=False)
class JokerPlay:
    """Attack with one's Joker: decline the stack (value 0)."""

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return "JK"

    def __hash__(self) -> int:
        return 1000

    def __reduce__(self) -> tuple[type[JokerPlay], tuple[()]]:
        return (JokerPlay, ())


Attack = Single | Run | JokerPlay
CardsAction = Deal | Place | Choose | Single | Run | JokerPlay

# ------------------------------------------------------------------ id layout
DEAL_BASE: Final = 0
PLACE_HAND_BASE: Final = DEAL_BASE + NORMAL_CARDS
PLACE_RESERVE_BASE: Final = PLACE_HAND_BASE + NORMAL_CARDS + 1
CHOOSE_BASE: Final = PLACE_RESERVE_BASE + NORMAL_CARDS + 1
SINGLE_BASE: Final = CHOOSE_BASE + NUM_STACKS
RUN_BASE: Final = SINGLE_BASE + NORMAL_CARDS

#: every sequence shape, in id order: by suit, then lowest rank, then highest rank
RUNS: Final[tuple[Run, ...]] = tuple(
    Run(suit, low, high)
    for suit in range(4)
    for low in range(MAX_RUN_RANK)
    for high in range(low + 1, MAX_RUN_RANK + 1)
)
RUN_INDEX: Final = {run: i for i, run in enumerate(RUNS)}
JOKER_PLAY_ID: Final = RUN_BASE + len(RUNS)
NUM_ACTIONS: Final = JOKER_PLAY_ID + 1

# Interned instances: the engine hands these out, so hot paths allocate nothing.
DEALS: Final = tuple(Deal(c) for c in range(NORMAL_CARDS))
PLACES: Final = (
    tuple(Place(c, False) for c in range(NORMAL_CARDS + 1)),
    tuple(Place(c, True) for c in range(NORMAL_CARDS + 1)),
)
CHOOSES: Final = tuple(Choose(s) for s in range(NUM_STACKS))
SINGLES: Final = tuple(Single(c) for c in range(NORMAL_CARDS))
JOKER_PLAY: Final = JokerPlay()


def run_mask(run: Run) -> int:
    mask = 0
    for rank in range(run.low, run.high + 1):
        mask |= 1 << make_card(rank, run.suit)
    return mask


def run_value(run: Run) -> int:
    return sum(rank + 2 for rank in range(run.low, run.high + 1))


#: (cards of the sequence as a mask, the sequence), in id order
RUN_MASKS: Final[tuple[tuple[int, Run], ...]] = tuple((run_mask(r), r) for r in RUNS)
_RUN_VALUES: Final = {r: run_value(r) for r in RUNS}
_RUN_MASK_OF: Final = {r: m for m, r in RUN_MASKS}


def attack_mask(attack: Attack) -> int:
    """The normal cards an attack uses (the Joker is handled apart: it is never discarded)."""
    if type(attack) is Single:
        return 1 << attack.card
    if type(attack) is Run:
        return _RUN_MASK_OF[attack]
    return 0


def attack_value(attack: Attack) -> int:
    """C7: the value of an attack."""
    if type(attack) is Single:
        return CARD_VALUES[attack.card]
    if type(attack) is Run:
        return _RUN_VALUES[attack]
    return 0


def action_id(action: object) -> int:
    match action:
        case Deal(card) if 0 <= card < NORMAL_CARDS:
            return DEAL_BASE + card
        case Place(card, to_reserve) if 0 <= card <= JOKER:
            return (PLACE_RESERVE_BASE if to_reserve else PLACE_HAND_BASE) + card
        case Choose(stack) if 0 <= stack < NUM_STACKS:
            return CHOOSE_BASE + stack
        case Single(card) if 0 <= card < NORMAL_CARDS:
            return SINGLE_BASE + card
        case Run() if action in RUN_INDEX:
            return RUN_BASE + RUN_INDEX[action]
        case JokerPlay():
            return JOKER_PLAY_ID
    raise InvalidActionError(f"{action!r} is not an action of the card game")


def action_from_id(action_id: int) -> CardsAction:
    if not 0 <= action_id < NUM_ACTIONS:
        raise InvalidActionError(f"action id {action_id} is outside 0..{NUM_ACTIONS - 1}")
    if action_id < PLACE_HAND_BASE:
        return DEALS[action_id - DEAL_BASE]
    if action_id < PLACE_RESERVE_BASE:
        return PLACES[0][action_id - PLACE_HAND_BASE]
    if action_id < CHOOSE_BASE:
        return PLACES[1][action_id - PLACE_RESERVE_BASE]
    if action_id < SINGLE_BASE:
        return CHOOSES[action_id - CHOOSE_BASE]
    if action_id < RUN_BASE:
        return SINGLES[action_id - SINGLE_BASE]
    if action_id < JOKER_PLAY_ID:
        return RUNS[action_id - RUN_BASE]
    return JOKER_PLAY


# ------------------------------------------------------------------ parsing
_CARD: Final = r"(?:10|[2-9tjqka])[shdc]"
_CARDS_RE: Final = re.compile(rf"(?:{_CARD})+")
_ONE_CARD_RE: Final = re.compile(_CARD)
_RANGE_RE: Final = re.compile(rf"({_CARD})-({_CARD})")

GRAMMAR: Final = (
    "deal <card> | hand <card> | reserve <card> | stack <A-O> | <card> | "
    "<sequence, e.g. 4c5c6c or 4c-6c> | JK"
)


def parse_attack(text: str) -> Attack:
    """A single card, a sequence or the Joker."""
    word = "".join(text.replace(",", " ").split()).lower()
    if word in ("jk", "joker"):
        return JOKER_PLAY
    ranged = _RANGE_RE.fullmatch(word)
    if ranged:
        first, last = parse_card(ranged.group(1)), parse_card(ranged.group(2))
        if suit_of(first) != suit_of(last) or rank_of(first) >= rank_of(last):
            raise InvalidActionError(
                f"{text!r}: a sequence range goes from a low to a higher card of one suit"
            )
        cards = [make_card(r, suit_of(first)) for r in range(rank_of(first), rank_of(last) + 1)]
    elif _CARDS_RE.fullmatch(word):
        cards = [parse_card(c) for c in _ONE_CARD_RE.findall(word)]
    else:
        raise InvalidActionError(f"{text!r} is not a card game action; write {GRAMMAR}")
    if len(cards) == 1:
        return SINGLES[cards[0]]
    return _as_run(text, cards)


def _as_run(text: str, cards: list[int]) -> Run:
    if len(set(cards)) != len(cards):
        raise InvalidActionError(f"{text!r}: a card appears twice")
    suits = {suit_of(c) for c in cards}
    if len(suits) != 1:
        raise InvalidActionError(f"{text!r}: a sequence is of one suit (C6)")
    ranks = sorted(rank_of(c) for c in cards)
    if ranks != list(range(ranks[0], ranks[0] + len(ranks))):
        raise InvalidActionError(f"{text!r}: a sequence has consecutive ranks, no gaps (C6)")
    if ranks[-1] > MAX_RUN_RANK:
        raise InvalidActionError(
            f"{text!r}: {RANKS[ranks[-1]]} is above Eight; sequences use ranks 2-8 (C6)"
        )
    return RUNS[RUN_INDEX[Run(suits.pop(), ranks[0], ranks[-1])]]


def parse_action(text: str) -> CardsAction:
    """The action written as ``text`` (case-insensitive; see the module docstring)."""
    words = text.strip().split()
    if not words:
        raise InvalidActionError(f"an empty text is not an action; write {GRAMMAR}")
    head = words[0].lower()
    if head in ("deal", "hand", "reserve") and len(words) == 2:
        card = parse_card(words[1])
        if head == "deal":
            if card >= NORMAL_CARDS:
                raise InvalidActionError("the Jokers are not dealt (C2)")
            return DEALS[card]
        return PLACES[head == "reserve"][card]
    if (head == "stack" and len(words) == 2) or (len(words) == 1 and len(head) == 1):
        letter = words[-1].upper()
        if len(letter) != 1 or letter not in STACK_NAMES:
            raise InvalidActionError(f"{text!r}: stacks are named A (apex) to O (C3.1)")
        return CHOOSES[STACK_NAMES.index(letter)]
    if head in ("deal", "hand", "reserve", "stack"):
        raise InvalidActionError(f"{text!r}: write {head} followed by one card or stack name")
    return parse_attack(text)


__all__ = [
    "CHOOSES",
    "DEALS",
    "JOKER_PLAY",
    "NUM_ACTIONS",
    "PLACES",
    "RUNS",
    "RUN_MASKS",
    "SINGLES",
    "SUITS",
    "Attack",
    "CardsAction",
    "Choose",
    "Deal",
    "JokerPlay",
    "Place",
    "Run",
    "Single",
    "action_from_id",
    "action_id",
    "attack_mask",
    "attack_value",
    "parse_action",
]
