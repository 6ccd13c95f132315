"""Why an action is refused: a readable reason and the rule it breaks."""

from __future__ import annotations

from koth.games.cards import rules
from koth.games.cards.actions import (
    CardsAction,
    Choose,
    Deal,
    JokerPlay,
    Place,
    Run,
    Single,
    attack_mask,
)
from koth.games.cards.params import CardsParams
from koth.games.cards.state import CardsState, Phase
from koth.games.cards.tables import (
    APEX,
    COVERED_BY,
    STACK_NAMES,
    bits,
    card_str,
)

_PHASE_NEEDS = {
    Phase.DEAL: ("the cards are being dealt: only chance acts", "C2"),
    Phase.RESERVE: (
        "the reserve is being chosen: put your next card in hand or reserve",
        "C4.1",
    ),
    Phase.CHOOSE: ("a stack must be chosen first (stack <A-O>)", "C5"),
    Phase.ATTACK: ("a stack is being fought for: attack with a card, sequence or JK", "C6"),
    Phase.TIEBREAK: ("a tie is being broken: attack from your reserve", "C8"),
    Phase.ASSIGN: ("won cards are being assigned to hand or reserve", "C11"),
    Phase.OVER: ("the game is over", "C12"),
}


def explain_illegal(
    state: CardsState, player: int, action: CardsAction, params: CardsParams
) -> tuple[str, str | None]:
    phase = state.phase
    if isinstance(action, Deal):
        if phase is Phase.DEAL:
            return (f"{card_str(action.card)} was already dealt", "C2.1")
        return _PHASE_NEEDS[phase]
    if isinstance(action, Choose) and phase is Phase.CHOOSE:
        return _explain_stack(state, action.stack)
    if isinstance(action, Place) and phase is Phase.RESERVE:
        card = rules.action_card(rules.card_to_place(state, player))
        return (
            f"the reserve is chosen one card at a time in card order; now decide on "
            f"{card_str(card)} (hand {card_str(card)} or reserve {card_str(card)})",
            "C4.1",
        )
    if isinstance(action, Place) and phase is Phase.ASSIGN:
        if player != rules.assignee(state):
            return ("only the winner of the stack assigns its cards", "C11")
        card = rules.next_won_card(state)
        return (
            f"won cards are assigned one at a time in card order; next is {card_str(card)}",
            "C11.1",
        )
    if isinstance(action, Single | Run | JokerPlay) and phase in (Phase.ATTACK, Phase.TIEBREAK):
        return _explain_attack(state, player, action)
    return _PHASE_NEEDS[phase]


def _explain_stack(state: CardsState, stack: int) -> tuple[str, str]:
    name = STACK_NAMES[stack]
    if state.gone >> stack & 1:
        return (f"stack {name} was already won or discarded", "C3")
    covers = " and ".join(STACK_NAMES[s] for s in COVERED_BY[stack])
    if stack == APEX:
        return (f"the apex may be chosen only when both {covers} are gone", "C3")
    return (f"stack {name} is covered: {covers} are both still there", "C3")


def _explain_attack(
    state: CardsState, player: int, action: Single | Run | JokerPlay
) -> tuple[str, str]:
    tiebreak = state.phase is Phase.TIEBREAK
    where, rule = ("reserve", "C8") if tiebreak else ("hand", "C6")
    source = rules.attack_source(state, player)
    missing = attack_mask(action) & ~source
    cards = ", ".join(card_str(c) for c in bits(missing))
    return (f"{cards} not in your {where}", rule)
