"""What the rules of a game imply but no single call of the contract states.

OpenSpiel and other frameworks want an upper bound on a game's length, the range of its
returns and whether they sum to zero. A game states them as plain data beside its
``Game`` (``Game.facts``), each bound derived from the rules it rests on; the interop
adapters read them from there.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from koth.core.errors import InvalidParamsError


class Utility(enum.Enum):
    """How the players' returns relate (OpenSpiel's ``GameType.Utility``)."""

    ZERO_SUM = "zero_sum"
    CONSTANT_SUM = "constant_sum"
    GENERAL_SUM = "general_sum"


@dataclass(frozen=True, slots=True)
class GameFacts:
    """Facts about one game instance (one set of parameters).

    ``max_decisions`` bounds the decision nodes of one game (a simultaneous node counts
    once); ``max_chance_nodes`` bounds its chance nodes. ``utility_sum`` is required for
    CONSTANT_SUM games. ``simultaneous`` / ``hidden_information`` default (None) to
    what the ``Game`` class overrides (``apply_joint`` / ``resample_hidden``).
    """

    max_decisions: int
    max_chance_nodes: int
    min_utility: float
    max_utility: float
    utility: Utility = Utility.ZERO_SUM
    utility_sum: float | None = None
    simultaneous: bool | None = None
    hidden_information: bool | None = None
    long_name: str | None = None

    def __post_init__(self) -> None:
        if self.max_decisions < 1 or self.max_chance_nodes < 0:
            raise InvalidParamsError("max_decisions must be >= 1 and max_chance_nodes >= 0")
        if self.min_utility > self.max_utility:
            raise InvalidParamsError("min_utility exceeds max_utility")
        if self.utility is Utility.CONSTANT_SUM and self.utility_sum is None:
            raise InvalidParamsError("a CONSTANT_SUM game needs utility_sum")
