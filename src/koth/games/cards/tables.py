"""Cards, the pyramid's shape, and card sets as bitmasks.

A card is an int: 0..51 are the normal cards (``rank * 4 + suit``, so sorting by id
sorts by rank), 52 and 53 are the Jokers of players 0 and 1, 54 the Joker on the apex.
Sets of cards are int bitmasks (bit ``c`` set when card ``c`` is in the set): they are
immutable, hashable and make the hot paths (legal attacks, moving cards) cheap.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from koth.core.errors import InvalidActionError

RANKS: Final = "23456789TJQKA"
SUITS: Final = "shdc"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")

NORMAL_CARDS: Final = 52
#: the Joker of each player; in actions ``JOKER`` (52) means "the acting player's Joker"
PLAYER_JOKERS: Final = (52, 53)
JOKER: Final = 52
APEX_JOKER: Final = 54

ALL_NORMAL: Final = (1 << NORMAL_CARDS) - 1
JOKER_BITS: Final = (1 << 52) | (1 << 53) | (1 << 54)

#: highest rank index allowed in a sequence (the Eight)
MAX_RUN_RANK: Final = RANKS.index("8")

# Pyramid: 15 stacks named A (apex) .. O. Row r holds r + 1 stacks; the stack at
# (row, i) rests on (row + 1, i) and (row + 1, i + 1), which cover it.
STACK_NAMES: Final = "ABCDEFGHIJKLMNO"
APEX: Final = 0
ROWS: Final = ((0,), (1, 2), (3, 4, 5), (6, 7, 8, 9), (10, 11, 12, 13, 14))
#: cards dealt to each stack (the apex holds the third Joker, or nothing)
STACK_SIZES: Final = (1, 4, 4, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1)
NUM_STACKS: Final = 15


def _covering() -> tuple[tuple[int, ...], ...]:
    covers: list[tuple[int, ...]] = []
    for row_index, row in enumerate(ROWS):
        for i, _ in enumerate(row):
            if row_index + 1 < len(ROWS):
                below = ROWS[row_index + 1]
                covers.append((below[i], below[i + 1]))
            else:
                covers.append(())
    return tuple(covers)


#: the two stacks that cover each stack (none for the bottom row)
COVERED_BY: Final = _covering()


def rank_of(card: int) -> int:
    return card >> 2


def suit_of(card: int) -> int:
    return card & 3


def make_card(rank: int, suit: int) -> int:
    return rank * 4 + suit


def is_joker(card: int) -> bool:
    return card >= NORMAL_CARDS


def card_value(card: int) -> int:
    """Attack value of one card (C7): 2-10 face value, J/Q/K 10, A 15, Joker 0."""
    if card >= NORMAL_CARDS:
        return 0
    rank = card >> 2
    if rank == 12:
        return 15
    return min(rank + 2, 10)


CARD_VALUES: Final = tuple(card_value(c) for c in range(55))


def card_str(card: int) -> str:
    """Notation of one card: rank then suit letter (``7h``, ``Td``, ``Ac``), or ``JK``."""
    if card >= NORMAL_CARDS:
        return "JK"
    return RANKS[card >> 2] + SUITS[card & 3]


def card_symbol(card: int) -> str:
    """The card with its suit as a symbol (``7♥``), for the terminal."""
    if card >= NORMAL_CARDS:
        return "JK"
    return RANKS[card >> 2] + SUIT_SYMBOLS[card & 3]


def parse_card(text: str) -> int:
    """The card written ``7h``/``10h``/``Th``/``JK`` (case-insensitive); JK gives JOKER."""
    word = text.strip().lower()
    if word in ("jk", "joker"):
        return JOKER
    if word.startswith("10"):
        word = "t" + word[2:]
    if len(word) != 2:
        raise InvalidActionError(f"{text!r} is not a card (write e.g. 7h, Td, Qs, Ac, JK)")
    rank = RANKS.lower().find(word[0])
    suit = SUITS.find(word[1])
    if rank < 0 or suit < 0:
        raise InvalidActionError(
            f"{text!r} is not a card: ranks are {RANKS}, suits are s h d c (e.g. 7h, Td, JK)"
        )
    return make_card(rank, suit)


def bits(mask: int) -> Iterator[int]:
    """The cards of a set, in increasing id order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def dense_bits(mask: int) -> list[int]:
    """Like ``bits``, faster when many bits are set (the undealt deck)."""
    return [i for i, digit in enumerate(bin(mask)[:1:-1]) if digit == "1"]


def mask_of(cards: tuple[int, ...] | list[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_str(mask: int) -> list[str]:
    return [card_str(c) for c in bits(mask)]
