"""What the interop adapters need to know about a game beyond the koth contract.

OpenSpiel wants facts that the contract's calls do not state: an upper bound on a
game's length, the range of its utilities, whether it is zero-sum. A game states them
beside its rules (``Game.facts``, ``koth.core.facts``); an ``InteropSpec`` adds what
only the adapters need (the observation encoder), and a game without facts can be given
one with ``register_spec``. Everything else (simultaneous nodes, hidden information,
players, actions, parameters) is read from the ``Game`` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from koth.core.errors import InvalidParamsError
from koth.core.facts import GameFacts, Utility
from koth.core.game import Game
from koth.interop.encoding import HashedViewEncoder, ViewEncoder

__all__ = [
    "AnyGame",
    "GameFacts",
    "InteropSpec",
    "SpecSource",
    "Utility",
    "facts_spec",
    "find_spec",
    "has_hidden_information",
    "has_simultaneous_nodes",
    "register_spec",
    "resolve_spec",
    "spec_for",
]

AnyGame = Game[Any, Any, Any]


def _hashed_encoder(_game: AnyGame) -> ViewEncoder:
    return HashedViewEncoder()


@dataclass(frozen=True)
class InteropSpec(GameFacts):
    """A game's facts (``GameFacts``: length bounds, returns) for OpenSpiel and
    PettingZoo, with ``encoder``, which builds the fixed-size observation encoding."""

    encoder: Callable[[AnyGame], ViewEncoder] = field(default=_hashed_encoder)

    @classmethod
    def from_facts(
        cls, facts: GameFacts, encoder: Callable[[AnyGame], ViewEncoder] = _hashed_encoder
    ) -> InteropSpec:
        """The spec of a game that states its facts, with ``encoder``."""
        stated = {f.name: getattr(facts, f.name) for f in fields(GameFacts)}
        return cls(**stated, encoder=encoder)


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


#: hashed-encoding sizes of the games whose views have more leaves than the default
#: encoder's buckets (the board view has a few hundred: terrain, units, dice)
ENCODER_SIZES: dict[str, int] = {"board": 1024}


def find_spec(game: AnyGame) -> InteropSpec | None:
    """The interop spec of ``game``: the one registered for its name, else one made from
    the facts the game states; None if neither exists."""
    source = _SPECS.get(game.name)
    if source is not None:
        return resolve_spec(source, game)
    return None if game.facts() is None else facts_spec(game)


def facts_spec(game: AnyGame) -> InteropSpec:
    """The spec made from the facts ``game`` states (InvalidParamsError if none)."""
    facts = game.facts()
    if facts is None:
        raise InvalidParamsError(f"game {game.name!r} states no facts (Game.facts)")
    size = ENCODER_SIZES.get(game.name)
    if size is None:
        return InteropSpec.from_facts(facts)
    return InteropSpec.from_facts(facts, lambda _game: HashedViewEncoder(size=size))


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
