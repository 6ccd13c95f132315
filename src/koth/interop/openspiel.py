"""Any koth ``Game`` as an OpenSpiel Python game.

``register_openspiel_game(GameClass, spec)`` registers the game with OpenSpiel as
``koth_<name>`` and, when the game class has simultaneous nodes, also as
``koth_<name>_turn_based``. Importing this module registers the built-in games
(``koth_cards``, ``koth_cards_turn_based``, ``koth_board``, ``koth_board_turn_based``);
then ``pyspiel.load_game("koth_cards")`` works like any OpenSpiel game.

Two forms, because OpenSpiel's sequential algorithms cannot take a simultaneous game:

* ``koth_<name>``: the faithful form. A koth simultaneous node is an OpenSpiel
  SIMULTANEOUS node; OpenSpiel makes every player submit there, so a player that koth
  does not ask to act has exactly one legal action, the no-op ``pass`` whose id is the
  koth game's ``num_distinct_actions()`` (the first id after the koth ones).
* ``koth_<name>_turn_based``: SEQUENTIAL dynamics for MCTSBot / ISMCTSBot. The acting
  players of a simultaneous node submit in turn (by player id); the joint action applies
  when the last one has submitted. A submission is hidden from the others: it shows in
  the submitter's own information state only, and ``resample_from_infostate`` redraws
  the others' submissions. (``pyspiel.convert_to_turn_based`` works on ``koth_<name>``
  too, but its C++ states cannot be resampled from Python, so ISMCTS needs this form.)

Action ids are the koth ids (chance outcomes included); observation strings and tensors
come from ``Game.view`` only (`koth.interop.openspiel_state.KothObserver`).
"""

from __future__ import annotations

from typing import Any

import pyspiel  # type: ignore[import-not-found]  # no type information shipped

from koth.core.errors import InvalidParamsError
from koth.core.game import Game
from koth.core.registry import BUILTIN_GAMES, game_type
from koth.interop.openspiel_state import (
    NOOP_NAME,
    KothObserver,
    KothOpenSpielGame,
    KothOpenSpielState,
    make_game_type,
)
from koth.interop.spec import (
    AnyGame,
    SpecSource,
    facts_spec,
    find_spec,
    has_hidden_information,
    has_simultaneous_nodes,
    register_spec,
    resolve_spec,
)

__all__ = [
    "NOOP_NAME",
    "KothObserver",
    "KothOpenSpielGame",
    "KothOpenSpielState",
    "openspiel_game",
    "openspiel_name",
    "register_builtin_games",
    "register_openspiel_game",
]

_OPENSPIEL_PARAM_TYPES = (bool, int, float, str)


def openspiel_name(koth_name: str, *, turn_based: bool = False) -> str:
    """The OpenSpiel short name of a koth game: ``koth_<name>[_turn_based]``."""
    return f"koth_{koth_name}" + ("_turn_based" if turn_based else "")


def _openspiel_params(params: dict[str, Any]) -> dict[str, Any]:
    """The parameters OpenSpiel can carry (bool, int, float, str)."""
    return {k: v for k, v in params.items() if isinstance(v, _OPENSPIEL_PARAM_TYPES)}


def register_openspiel_game(
    game_class: type[AnyGame],
    spec: SpecSource,
    *,
    min_num_players: int | None = None,
    max_num_players: int | None = None,
) -> list[str]:
    """Register ``game_class`` with OpenSpiel; returns its OpenSpiel short names.

    ``spec`` is an ``InteropSpec`` or a function of the game instance (it also becomes
    the game's spec for PettingZoo). The player range defaults to the default
    instance's number of players. Registering again is harmless.
    """
    default_game = game_class()
    default_spec = resolve_spec(spec, default_game)
    register_spec(game_class.name, spec)
    class_simultaneous = (
        default_spec.simultaneous or type(default_game).apply_joint is not Game.apply_joint
    )
    forms = [False, True] if class_simultaneous else [False]
    names: list[str] = []
    for turn_based in forms:
        short_name = openspiel_name(game_class.name, turn_based=turn_based)
        names.append(short_name)
        if short_name in pyspiel.registered_names():
            continue
        long_name = default_spec.long_name or f"King of the Hill: {game_class.name}"
        template = pyspiel.GameType(
            short_name=short_name,
            long_name=long_name + (" (turn-based)" if turn_based else ""),
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.GENERAL_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=max_num_players or default_game.num_players,
            min_num_players=min_num_players or default_game.num_players,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            provides_factored_observation_string=False,
            parameter_specification=_openspiel_params(game_class.params_type.parse().to_json()),
        )
        # the registered type describes the default parameters; each instance states
        # its own (see make_game_type)
        game_type = make_game_type(
            template,
            simultaneous=has_simultaneous_nodes(default_game, default_spec) and not turn_based,
            hidden=has_hidden_information(default_game, default_spec),
            utility=default_spec.utility,
        )
        pyspiel.register_game(game_type, _factory(game_class, spec, game_type, turn_based))
    return names


def _factory(
    game_class: type[AnyGame],
    spec: SpecSource,
    game_type: pyspiel.GameType,
    turn_based: bool,
) -> type[KothOpenSpielGame]:
    """A subclass of KothOpenSpielGame bound to one koth game and form.

    OpenSpiel keeps the factory in a C++ registry that is destroyed after the Python
    interpreter; a class (unlike a closure) is still referenced by its own MRO then, so
    that late release never runs Python code without the interpreter (which aborts).
    """
    defaults = dict(game_type.parameter_specification)

    def __init__(self: KothOpenSpielGame, params: dict[str, Any] | None = None) -> None:
        merged = {**defaults, **(params or {})}
        koth_game = game_class(merged)
        KothOpenSpielGame.__init__(
            self, koth_game, resolve_spec(spec, koth_game), game_type, turn_based, merged
        )

    class_name = "".join(part.title() for part in game_type.short_name.split("_")) + "Game"
    return type(class_name, (KothOpenSpielGame,), {"__init__": __init__})


def openspiel_game(game: AnyGame, *, turn_based: bool = False) -> pyspiel.Game:
    """The OpenSpiel game of a koth game instance, with its parameters.

    Registers the game's class first if it has a spec (built-in games always do).
    """
    spec = find_spec(game)
    if spec is None:
        raise InvalidParamsError(
            f"{game.name} has no interop spec: call register_openspiel_game first"
        )
    register_openspiel_game(type(game), spec)
    name = openspiel_name(game.name, turn_based=turn_based)
    if name not in pyspiel.registered_names():
        raise InvalidParamsError(f"{game.name} has no simultaneous nodes: no {name} form")
    params = game.params.to_json()
    carried = _openspiel_params(params)
    defaults = type(game).params_type.parse().to_json()
    lost = sorted(k for k in params if k not in carried and params[k] != defaults[k])
    if lost:
        raise InvalidParamsError(f"OpenSpiel cannot carry the parameters {lost} of {game!r}")
    return pyspiel.load_game(name, carried)


def _player_range(game_class: type[AnyGame]) -> tuple[int | None, int | None]:
    """The bounds of the ``num_players`` parameter (None, None when it has none)."""
    schema = game_class.params_type.model_json_schema()["properties"].get("num_players", {})
    return schema.get("minimum"), schema.get("maximum")


def register_builtin_games() -> list[str]:
    """Register every built-in koth game that states its facts (``Game.facts``) with
    OpenSpiel; returns the short names."""
    names: list[str] = []
    for name in BUILTIN_GAMES:
        game_class = game_type(name)
        if game_class().facts() is None:
            continue
        low, high = _player_range(game_class)
        names += register_openspiel_game(
            game_class, facts_spec, min_num_players=low, max_num_players=high
        )
    return names


register_builtin_games()
