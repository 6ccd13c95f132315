"""How a game ended."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from koth.core.players import PlayerId


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: why it ended and who won.

    ``termination`` is a game-specific ``enum.Enum`` member (for example
    ``CardTermination.APEX_WON``); ``winners`` is empty for a draw with no winner and
    holds several ids for a shared result: a team that wins together, or (``draw``)
    leaders who draw.
    """

    termination: enum.Enum
    winners: frozenset[PlayerId]
    #: the several ``winners`` drew (leaders tied at a limit) rather than won together
    draw: bool = False

    @property
    def winner(self) -> PlayerId | None:
        """The single winner, or None for a draw or a shared win."""
        if len(self.winners) == 1:
            return next(iter(self.winners))
        return None

    @property
    def is_draw(self) -> bool:
        """Nobody won, or the winners drew; a team's win is no draw."""
        return not self.winners or self.draw

    def to_json(self) -> dict[str, object]:
        return {"termination": self.termination.value, "winners": sorted(self.winners)}

    def __str__(self) -> str:
        who = ", ".join(f"player {p}" for p in sorted(self.winners)) or "nobody"
        return (
            f"{self.termination.value}: {who} won"
            if self.winners
            else f"{self.termination.value}: draw"
        )
