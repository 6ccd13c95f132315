"""What the interop adapters need to know about a game beyond the koth contract.

OpenSpiel wants facts that the rules do not state: an upper bound on a game's length,
the range of its utilities, whether it is zero-sum. A game supplies them as an
``InteropSpec`` (or a function of the game instance, when they depend on parameters
such as the number of players). Everything else (simultaneous nodes, hidden
information, players, actions, parameters) is read from the ``Game`` itself.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from koth.core.errors import InvalidParamsError
from koth.core.game import Game
from koth.interop.encoding import HashedViewEncoder, ViewEncoder

AnyGame = Game[Any, Any, Any]


class Utility(enum.Enum):
    """How the players' returns relate (OpenSpiel's ``GameType.Utility``)."""

    ZERO_SUM = "zero_sum"
    CONSTANT_SUM = "constant_sum"
    GENERAL_SUM = "general_sum"


def _hashed_encoder(_game: AnyGame) -> ViewEncoder:
    return HashedViewEncoder()


@dataclass(frozen=True)
class InteropSpec:
    """Facts about one game instance for OpenSpiel and PettingZoo.

    ``max_decisions`` bounds the decision nodes of one game (a simultaneous node counts
    once); ``max_chance_nodes`` bounds its chance nodes. ``utility_sum`` is required for
    CONSTANT_SUM games. ``encoder`` builds the fixed-size observation encoding.
    ``simultaneous`` / ``hidden_information`` default to what the ``Game`` class
    overrides (``apply_joint`` / ``resample_hidden``); set them to be explicit.
    """

    max_decisions: int
    max_chance_nodes: int
    min_utility: float
    max_utility: float
    utility: Utility = Utility.ZERO_SUM
    utility_sum: float | None = None
    encoder: Callable[[AnyGame], ViewEncoder] = field(default=_hashed_encoder)
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


SpecSource = InteropSpec | Callable[[AnyGame], InteropSpec]


def has_simultaneous_nodes(game: AnyGame, spec: InteropSpec) -> bool:
    """Whether the game has simultaneous nodes: the spec says so, or the game class
    implements ``apply_joint`` (the base class refuses it)."""
    if spec.simultaneous is not None:
        return spec.simultaneous
    return type(game).apply_joint is not Game.apply_joint


def has_hidden_information(game: AnyGame, spec: InteropSpec) -> bool:
    """Whether players may lack information: the spec says so, or the game class
    implements ``resample_hidden`` (the base class returns the state unchanged, which
    is right only for perfect information), or it has simultaneous nodes (a player
    does not see the others' choice before making its own)."""
    if spec.hidden_information is not None:
        return spec.hidden_information
    overridden = type(game).resample_hidden is not Game.resample_hidden
    return overridden or has_simultaneous_nodes(game, spec)


def resolve_spec(source: SpecSource, game: AnyGame) -> InteropSpec:
    return source if isinstance(source, InteropSpec) else source(game)


_SPECS: dict[str, SpecSource] = {}


def register_spec(game_name: str, spec: SpecSource) -> None:
    """Make ``spec`` the interop spec of the koth game registered as ``game_name``."""
    _SPECS[game_name] = spec


def find_spec(game: AnyGame) -> InteropSpec | None:
    """The interop spec of ``game``, or None if none is registered."""
    from koth.interop import builtin_specs

    builtin_specs.ensure_registered()
    source = _SPECS.get(game.name)
    return None if source is None else resolve_spec(source, game)


def spec_for(game: AnyGame) -> InteropSpec:
    """The interop spec of ``game`` (InvalidParamsError if none is registered)."""
    spec = find_spec(game)
    if spec is None:
        known = ", ".join(sorted(_SPECS)) or "none"
        raise InvalidParamsError(
            f"no interop spec for game {game.name!r} (known: {known}); "
            "pass one or call koth.interop.spec.register_spec"
        )
    return spec
