"""Building card-game positions from readable text, for rule scenarios."""

from __future__ import annotations

import random
from typing import Any

from koth.core.chance import sample_outcome
from koth.core.state import GameState
from koth.games.cards import CardsGame, CardsState, FightLog, Phase
from koth.games.cards.rules import card_to_place
from koth.games.cards.tables import (
    ALL_NORMAL,
    APEX,
    APEX_JOKER,
    NUM_STACKS,
    PLAYER_JOKERS,
    STACK_NAMES,
    STACK_SIZES,
    bits,
    mask_of,
    parse_card,
)


def cards(text: str, owner: int | None = None) -> list[int]:
    """``"7h 8h JK"`` -> card ids; ``JK`` is ``owner``'s Joker."""
    out = []
    for word in text.split():
        card = parse_card(word)
        if card >= 52:
            assert owner is not None, "say whose Joker"
            card = PLAYER_JOKERS[owner]
        out.append(card)
    return out


def position(
    *,
    hands: tuple[str, str] = ("JK", "JK"),
    reserves: tuple[str, str] = ("", ""),
    stacks: dict[str, str] | None = None,
    gone: str = "",
    phase: Phase = Phase.CHOOSE,
    stack: str | None = None,
    turn: int = 0,
    log: tuple[FightLog, ...] = (),
    jokers: int = 3,
) -> CardsState:
    """A legal-looking position: given cards where asked; stacks not given are filled
    (bottom first) from the remaining cards, and everything else is in the discards."""
    hand_masks = [mask_of(cards(h, p)) for p, h in enumerate(hands)]
    reserve_masks = [mask_of(cards(r, p)) for p, r in enumerate(reserves)]
    used = hand_masks[0] | hand_masks[1] | reserve_masks[0] | reserve_masks[1]
    given = {STACK_NAMES.index(k): cards(v) for k, v in (stacks or {}).items()}
    for stack_cards in given.values():
        used |= mask_of(stack_cards)
    gone_mask = mask_of([STACK_NAMES.index(s) for s in gone.split()])
    free = list(bits(ALL_NORMAL & ~used))
    built: list[tuple[int, ...]] = []
    for s in range(NUM_STACKS):
        if s == APEX:
            built.append(() if gone_mask & 1 or jokers == 2 else (APEX_JOKER,))
        elif gone_mask >> s & 1:
            built.append(())
        elif s in given:
            built.append(tuple(given[s]))
        else:
            built.append(tuple(free.pop() for _ in range(STACK_SIZES[s])))
    discards = mask_of(free)
    if jokers == 3 and gone_mask & 1:
        discards |= 1 << APEX_JOKER
    return CardsState(
        phase=phase,
        hands=(hand_masks[0], hand_masks[1]),
        reserves=(reserve_masks[0], reserve_masks[1]),
        stacks=tuple(built),
        gone=gone_mask,
        discards=discards,
        undealt=0,
        dealt=52,
        reserve_round=12,
        turn=turn,
        stack=STACK_NAMES.index(stack) if stack else -1,
        log=log,
    )


def handle(state: CardsState, **params: Any) -> GameState[CardsState, Any]:
    """A checked GameState on ``state``."""
    return GameState(CardsGame(params), state)


def names(mask: int) -> str:
    from koth.games.cards.tables import card_str

    return " ".join(card_str(c) for c in bits(mask))


def dealt_state(seed: int = 1, **params: Any) -> GameState[CardsState, Any]:
    """A game right after the deal (seeded)."""
    state: GameState[CardsState, Any] = CardsGame(params).new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(sample_outcome(state.chance_outcomes(), rng))
    return state


def finish_reserve(state: GameState[CardsState, Any], keep_in_reserve: tuple[str, str]) -> None:
    """Play the 12 reserve rounds putting exactly the named cards in reserve."""
    wanted = [set(cards(r, p)) for p, r in enumerate(keep_in_reserve)]
    while state.data.phase is Phase.RESERVE:
        joint = {}
        for p in (0, 1):
            options = state.legal_actions(p)
            hand_option, reserve_option = options
            joint[p] = reserve_option if card_to_place(state.data, p) in wanted[p] else hand_option
        state.apply_actions(joint)
