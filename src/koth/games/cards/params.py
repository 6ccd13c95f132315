"""The card game's parameters (every interpretation that is an option)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from koth.core.params import GameParams


class CardsParams(GameParams):
    """Options of Larry Levy's King of the Hill; defaults follow docs/rules/cards.md."""

    jokers: Literal[2, 3] = Field(
        3, description="3: the apex holds a Joker; 2: the apex is an empty stack (C1.1)"
    )
    tens_equal: bool = Field(
        False, description="the text's Variant: all ten-valued single cards tie (C7.1)"
    )
    dealer: int = Field(0, ge=0, le=1, description="the player who chooses first (C5)")
    reveal_discarded_stacks: bool = Field(
        False,
        description="a stack discarded after two Jokers is shown to both players "
        "(C9.1; by default its face-down cards stay hidden until the game ends)",
    )
