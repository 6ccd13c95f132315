"""The card game's static facts (``koth.core.facts``): length bounds and returns, each
derived from the rule it rests on (docs/rules/cards.md)."""

from __future__ import annotations

from typing import Final

from koth.core.facts import GameFacts, Utility

#: C2: the deal is one chance node per normal card
DEAL_CHANCE_NODES: Final = 52
#: C3: one simultaneous hand-or-reserve round per starting card
RESERVE_ROUNDS: Final = 12
STACKS: Final = 15
#: every attack round with a normal card discards it for good (C10), so at most 52 such
#: rounds; a round of two Jokers ends its fight (C9), at most once per stack
ATTACK_ROUNDS: Final = 52 + STACKS
#: won stack cards are assigned one at a time (C11); the stacks hold 30 dealt cards
ASSIGNMENTS: Final = 30

CARDS_FACTS: Final = GameFacts(
    max_decisions=RESERVE_ROUNDS + STACKS + ATTACK_ROUNDS + ASSIGNMENTS,
    max_chance_nodes=DEAL_CHANCE_NODES,
    min_utility=-1.0,
    max_utility=1.0,
    utility=Utility.ZERO_SUM,
    long_name="King of the Hill (Larry Levy's card game)",
)
