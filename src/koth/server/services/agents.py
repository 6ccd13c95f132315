"""Computer players: the policy of a computer seat, pluggable.

``koth.agents.registry.make_policy(spec, game, player, seed)`` is used when that module
is importable; otherwise (or for the agent "random") a uniformly random legal action is
played. A policy is a callable ``(state, player, rng) -> action``.
"""

from __future__ import annotations

import importlib
import logging
import random
from collections.abc import Callable
from typing import Any

from koth.core.chance import random_policy
from koth.core.game import Game
from koth.core.state import GameState

log = logging.getLogger(__name__)

Policy = Callable[[GameState[Any, Any], int, random.Random], Any]

RANDOM_AGENT = "random"


def _registry() -> Any | None:
    try:
        return importlib.import_module("koth.agents.registry")
    except ImportError:
        return None


def agent_names() -> list[str]:
    """The agents a computer seat may use ("random" always works)."""
    registry = _registry()
    names: list[str] = []
    if registry is not None:
        for attribute in ("agent_names", "available_agents", "names"):
            lister = getattr(registry, attribute, None)
            if callable(lister):
                try:
                    names = [str(n) for n in lister()]
                except Exception:  # a broken plug-in must not take the lobby down
                    log.exception("koth.agents.registry.%s failed", attribute)
                break
        else:
            table = getattr(registry, "AGENTS", None)
            if isinstance(table, dict):
                names = [str(n) for n in table]
    return [RANDOM_AGENT, *sorted(n for n in names if n != RANDOM_AGENT)]


def agent_spec(agent: str, budget: int | None) -> str:
    """The spec string handed to ``make_policy``: ``name`` or ``name:budget``."""
    return agent if budget is None else f"{agent}:{budget}"


def make_policy(
    agent: str, budget: int | None, game: Game[Any, Any, Any], player: int, seed: int
) -> Policy:
    """The policy of a computer seat; falls back to random play (logged) if the agents
    package cannot build it."""
    if agent == RANDOM_AGENT:
        return random_policy
    registry = _registry()
    factory = getattr(registry, "make_policy", None) if registry is not None else None
    if factory is None:
        log.warning("koth.agents.registry.make_policy is not available; %s plays randomly", agent)
        return random_policy
    try:
        policy: Policy = factory(agent_spec(agent, budget), game, player, seed)
    except Exception:
        log.exception("cannot build agent %r for %s; playing randomly", agent, game.name)
        return random_policy
    return policy
