"""Invariants every reachable card-game state keeps, checked by the tests and the
conformance playouts."""

from __future__ import annotations

from koth.games.cards.params import CardsParams
from koth.games.cards.rules import card_zones
from koth.games.cards.state import CardsState, Phase
from koth.games.cards.tables import (
    ALL_NORMAL,
    APEX,
    APEX_JOKER,
    JOKER_BITS,
    NORMAL_CARDS,
    PLAYER_JOKERS,
    STACK_NAMES,
    bits,
    card_str,
)


def violations(state: CardsState, params: CardsParams) -> list[str]:
    """The invariants ``state`` breaks, in words: every card in exactly one place (C1,
    C2), each Joker with its owner (C10), the apex untouched until the end; [] if none."""
    problems: list[str] = []
    seen = 0
    for name, cards in card_zones(state):
        if seen & cards:
            twice = ", ".join(card_str(c) for c in bits(seen & cards))
            problems.append(f"{twice} in {name} and elsewhere")
        seen |= cards
    expected = ALL_NORMAL | JOKER_BITS
    if params.jokers == 2:
        expected &= ~(1 << APEX_JOKER)
    if seen != expected:
        missing = ", ".join(card_str(c) for c in bits(expected & ~seen))
        extra = ", ".join(str(c) for c in bits(seen & ~expected))
        problems.append(f"cards not accounted for: missing [{missing}] unknown [{extra}]")
    for player in (0, 1):
        joker = 1 << PLAYER_JOKERS[player]
        if not (state.hands[player] | state.reserves[player]) & joker:
            problems.append(f"player {player}'s Joker left its owner (C10)")
    apex_expected = (APEX_JOKER,) if params.jokers == 3 else ()
    if state.phase is not Phase.OVER and state.stacks[APEX] != apex_expected:
        problems.append("the apex stack changed before the end")
    if state.phase is Phase.DEAL:
        if state.undealt.bit_count() != NORMAL_CARDS - state.dealt:
            problems.append("undealt count does not match the deal position")
    elif state.undealt:
        problems.append("undealt cards after the deal")
    if state.buried & ~state.discards:
        problems.append("face-down discarded cards outside the discards (C9.1)")
    if params.reveal_discarded_stacks and state.buried:
        problems.append("face-down discarded cards though discarded stacks are shown (C9.1)")
    for stack, stack_cards in enumerate(state.stacks):
        if state.gone >> stack & 1 and stack_cards:
            problems.append(f"stack {STACK_NAMES[stack]} is gone but holds cards")
    return problems
