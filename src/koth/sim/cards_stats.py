"""Card-game statistics for tournament reports: what each seat played, grouped by kind,
and the facts of each game a designer asks about (who took the apex and whether they
chose it, tie-breaks, discarded stacks, cards won).

They run on the driver's side, after the game, from its record and final state.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from koth.core.game import Game
from koth.core.players import CHANCE
from koth.core.state import GameState
from koth.games.cards import CardsState, JokerPlay, Phase, Place, Run, Single
from koth.games.cards.state import DISCARDED
from koth.sim.collect import in_order, register_collector, replay

#: the apex is stack 0 (``A``)
APEX = 0


#: the order kinds are listed in: the deal's placements, choosing,
#: first attacks, tie-break attacks, won cards' placements
KIND_ORDER: tuple[str, ...] = (
    "dealt card: to hand",
    "dealt card: to reserve",
    "choose stack",
    "single card",
    *(f"run of {length}" for length in range(2, 8)),
    "Joker",
    "tie-break: single card",
    "tie-break: run",
    "tie-break: Joker",
    "won card: to hand",
    "won card: to reserve",
)


def attack_kind(action: Any) -> str:
    """``single card``, ``run of 3``, ``Joker`` (``?`` for anything else)."""
    if isinstance(action, Single):
        return "single card"
    if isinstance(action, Run):
        return f"run of {action.high - action.low + 1}"
    if isinstance(action, JokerPlay):
        return "Joker"
    return "?"


def action_group(before: CardsState, action: Any) -> str:
    """The kind of one decision, read with the phase it was taken in: placements in the
    reserve phase and of won cards are told apart, and so are tie-break attacks."""
    if isinstance(action, Place):
        where = "reserve" if action.to_reserve else "hand"
        if before.phase == Phase.RESERVE:
            return f"dealt card: to {where}"
        return f"won card: to {where}"
    if before.phase == Phase.CHOOSE:
        return "choose stack"
    kind = attack_kind(action)
    if before.phase == Phase.TIEBREAK:
        return "tie-break: " + ("run" if kind.startswith("run") else kind)
    return kind


def cards_stats(game: Game[Any, Any, Any], state: GameState[Any, Any]) -> dict[str, Any]:
    """``action_kinds`` grouped (see ``action_group``), ``turn_order`` (the dealer
    chooses first), and the fights' facts from the final state's log."""
    kinds: list[Counter[str]] = [Counter() for _ in range(game.num_players)]
    for before, actions, _ in replay(game, state):
        for player, action in actions:
            if player != CHANCE:
                kinds[player][action_group(before, action)] += 1
    final: CardsState = state.data
    dealer = int(game.params.dealer)
    cards_won = [0, 0]
    stacks_won = [0, 0]
    apex_winner: int | None = None
    apex_chooser: int | None = None
    for fight in final.log:
        if fight.winner != DISCARDED:
            cards_won[fight.winner] += fight.size
            stacks_won[fight.winner] += 1
        if fight.stack == APEX:
            apex_chooser = fight.chooser
            apex_winner = None if fight.winner == DISCARDED else fight.winner
    return {
        "action_kinds": [in_order(c, KIND_ORDER) for c in kinds],
        "turn_order": [dealer, 1 - dealer],
        "fights": len(final.log),
        "tie_breaks": sum(len(fight.rounds) - 1 for fight in final.log),
        "fights_tied": sum(1 for fight in final.log if len(fight.rounds) > 1),
        "discarded_stacks": sum(1 for fight in final.log if fight.winner == DISCARDED),
        "apex_chooser": apex_chooser,
        "apex_winner": apex_winner,
        "cards_won": cards_won,
        "stacks_won": stacks_won,
    }


register_collector("cards", cards_stats, {"action_kinds": KIND_ORDER})
