"""Legal actions of the card game: what each player may do in each phase (the effects
are in ``rules``)."""

from __future__ import annotations

from typing import Final

from koth.games.cards.actions import (
    CHOOSES,
    JOKER_PLAY,
    PLACES,
    RUN_MASKS,
    SINGLES,
    Attack,
    Choose,
    Place,
    Single,
)
from koth.games.cards.rules import (
    action_card,
    attack_source,
    available_stacks,
    card_to_place,
    next_won_card,
)
from koth.games.cards.state import CardsState
from koth.games.cards.tables import ALL_NORMAL, MAX_RUN_RANK, NORMAL_CARDS, make_card, mask_of

_SUIT_RUN_CARDS: Final = tuple(
    mask_of([make_card(r, s) for r in range(MAX_RUN_RANK + 1)]) for s in range(4)
)
_RUNS_BY_SUIT: Final = tuple(tuple((m, r) for m, r in RUN_MASKS if r.suit == s) for s in range(4))


# ------------------------------------------------------------------ reserve (C4)
def reserve_choices(state: CardsState, player: int) -> list[Place]:
    card = action_card(card_to_place(state, player))
    return [PLACES[0][card], PLACES[1][card]]


# ------------------------------------------------------------------ choice (C3, C5)
#: the choices for each set of gone stacks met so far (at most 2**15 entries)
_CHOICES: Final[dict[int, tuple[Choose, ...]]] = {}


def choose_actions(state: CardsState) -> list[Choose]:
    return list(choices_for(state.gone))


def choices_for(gone: int) -> tuple[Choose, ...]:
    """C3: the stack choices when the stacks ``gone`` are gone, in id order."""
    choices = _CHOICES.get(gone)
    if choices is None:
        choices = _CHOICES[gone] = tuple(CHOOSES[s] for s in available_stacks(gone))
    return choices


# ------------------------------------------------------------------ attacks (C6-C10)
def legal_attacks(state: CardsState, player: int) -> list[Attack]:
    """Every single card, every sequence and the Joker (which is always available: in the
    first attack from hand or reserve (C6.1), in tie-breaks from the reserve (C8))."""
    return attacks_from(attack_source(state, player) & ALL_NORMAL)


def attacks_from(normal: int) -> list[Attack]:
    """The attacks with the normal cards ``normal`` (and the Joker), in id order."""
    attacks: list[Attack] = []
    rest = normal
    for table in _SINGLES_BY_NIBBLE:
        nibble = rest & 15
        if nibble:  # a hand leaves most of them empty: no list extension for those
            attacks += table[nibble]
        rest >>= 4
    for suit_cards in _SUIT_RUN_CARDS:
        small = normal & suit_cards
        if small & (small - 1):  # at least two cards of this suit up to the Eight
            runs = _RUNS_OF.get(small)
            if runs is None:
                suit = (small & -small).bit_length() - 1 & 3
                runs = _RUNS_OF[small] = tuple(
                    run for mask, run in _RUNS_BY_SUIT[suit] if mask & small == mask
                )
            attacks += runs
    attacks.append(JOKER_PLAY)
    return attacks


#: the single-card attacks by nibble of a card set: ``[k][b]`` for cards 4k..4k+3
_SINGLES_BY_NIBBLE: Final[tuple[tuple[tuple[Single, ...], ...], ...]] = tuple(
    tuple(tuple(SINGLES[4 * k + i] for i in range(4) if b >> i & 1) for b in range(16))
    for k in range(NORMAL_CARDS // 4)
)
#: the sequences (in id order) within each set of one suit's cards up to the Eight
_RUNS_OF: Final[dict[int, tuple[Attack, ...]]] = {}


# ------------------------------------------------------------------ won cards (C11)
def assign_choices(state: CardsState) -> list[Place]:
    card = next_won_card(state)
    return [PLACES[0][card], PLACES[1][card]]
