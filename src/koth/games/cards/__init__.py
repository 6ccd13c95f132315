"""Larry Levy's King of the Hill card game (docs/rules/cards.md, rules C1-C15).

Importing this package registers the game as "cards".
"""

from koth.games.cards.actions import (
    Attack,
    CardsAction,
    Choose,
    Deal,
    JokerPlay,
    Place,
    Run,
    Single,
)
from koth.games.cards.game import CardsGame
from koth.games.cards.params import CardsParams
from koth.games.cards.state import CardsState, CardTermination, FightLog, Phase

__all__ = [
    "Attack",
    "CardTermination",
    "CardsAction",
    "CardsGame",
    "CardsParams",
    "CardsState",
    "Choose",
    "Deal",
    "FightLog",
    "JokerPlay",
    "Phase",
    "Place",
    "Run",
    "Single",
]
