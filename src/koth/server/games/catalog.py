"""The games the server offers, with their parameters described for the lobby form."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from koth.core.errors import InvalidParamsError
from koth.core.game import Game
from koth.core.params import GameParams
from koth.core.registry import game_names, game_type, load_game
from koth.i18n import DEFAULT
from koth.server.errors import UnknownGameError
from koth.server.games.agents import agent_names
from koth.server.games.schemas import CatalogEntry, LevelEntry, TableInfo
from koth.server.games.wording import levels_words

log = logging.getLogger(__name__)


def action_kinds() -> list[str]:
    """The kinds of action of every registered game (``Game.action_kinds``): the
    schema's enum of a legal action's ``type``."""
    return sorted({kind for name in game_names() for kind in game_type(name).action_kinds})


@dataclass(frozen=True, slots=True)
class ParamField:
    """One parameter as a form field."""

    name: str
    kind: str  # "int", "float", "bool", "choice", "text"
    default: Any
    description: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class GameInfo:
    name: str
    title: str
    default_players: int
    fields: tuple[ParamField, ...] = field(default_factory=tuple)
    schema: dict[str, Any] = field(default_factory=dict)


TITLES = {"cards": "Card game (Larry Levy)", "board": "Board game (Florian Jehn)"}


def offered_games() -> list[GameInfo]:
    """Every registered game that imports (a game still being written is left out)."""
    infos = []
    for name in game_names():
        try:
            infos.append(game_info(name))
        except (ImportError, InvalidParamsError, AttributeError, TypeError):
            log.debug("game %s is not available", name, exc_info=True)
    return infos


def game_info(name: str) -> GameInfo:
    """The lobby's description of ``name`` (UnknownGameError if there is no such game)."""
    try:
        kind = game_type(name)
    except InvalidParamsError as exc:
        raise UnknownGameError(str(exc)) from None
    game = kind()
    params_type: type[GameParams] = kind.params_type
    schema = params_type.model_json_schema()
    return GameInfo(
        name=name,
        title=TITLES.get(name, name.replace("_", " ").title()),
        default_players=game.num_players,
        fields=tuple(_fields(schema)),
        schema=schema,
    )


def make_game(name: str, params: dict[str, Any]) -> Game[Any, Any, Any]:
    """The game ``name`` with ``params`` (UnknownGameError, InvalidParamsError)."""
    try:
        game_type(name)
    except InvalidParamsError as exc:
        raise UnknownGameError(str(exc)) from None
    return load_game(name, params)


def _fields(schema: dict[str, Any]) -> list[ParamField]:
    definitions = schema.get("$defs", {})
    fields = []
    for name, spec in schema.get("properties", {}).items():
        spec = _resolve(spec, definitions)
        default = spec.get("default")
        description = str(spec.get("description", ""))
        if "enum" in spec:
            fields.append(
                ParamField(name, "choice", default, description, choices=tuple(spec["enum"]))
            )
        elif spec.get("type") == "boolean":
            fields.append(ParamField(name, "bool", bool(default), description))
        elif spec.get("type") in ("integer", "number"):
            fields.append(
                ParamField(
                    name,
                    "int" if spec["type"] == "integer" else "float",
                    default,
                    description,
                    minimum=spec.get("minimum", spec.get("exclusiveMinimum")),
                    maximum=spec.get("maximum", spec.get("exclusiveMaximum")),
                )
            )
        elif spec.get("type") == "string":
            fields.append(ParamField(name, "text", default, description))
        # lists, objects and unions keep their default: the form offers no field for them
    return fields


def _resolve(spec: dict[str, Any], definitions: dict[str, Any]) -> dict[str, Any]:
    """Inline a ``$ref`` (enums are referenced) but keep the property's own default."""
    ref = spec.get("$ref")
    if ref is None and len(spec.get("allOf", [])) == 1:
        ref = spec["allOf"][0].get("$ref")
    if ref is None:
        return spec
    target = dict(definitions.get(ref.rsplit("/", 1)[-1], {}))
    target.update({k: v for k, v in spec.items() if k not in ("$ref", "allOf")})
    return target


def catalog() -> list[CatalogEntry]:
    """The games that can be hosted, with their parameters and agents."""
    return [
        CatalogEntry(
            name=info.name,
            title=info.title,
            default_players=info.default_players,
            params_schema=info.schema,
            agents=agent_names(info.name),
            levels=[LevelEntry(**words) for words in levels_words(info.name, DEFAULT)],
        )
        for info in offered_games()
    ]


def check_table(name: str, params: dict[str, Any]) -> TableInfo:
    """``params`` checked for game ``name``, with the number of seats they give."""
    game_info(name)  # UnknownGameError before the parameters are looked at
    rules = make_game(name, params)
    return TableInfo(game=name, params=rules.params.to_json(), num_players=rules.num_players)
