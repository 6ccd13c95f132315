"""Agents by name, with options: ``random``, ``heuristic``, ``mcts:iters=2000``,
``ismcts:seconds=1:rollout=heuristic``.

A spec is a name followed by ``:key=value`` options (colons, so that a comma-separated
list of specs stays unambiguous on a command line). Search options: ``iters``,
``seconds``, ``c`` (UCB exploration), ``rollout`` (auto, random or heuristic),
``eps`` (random actions in heuristic rollouts), ``max_rollout`` (steps before a
rollout is scored by the game's evaluator), ``widen`` (progressive widening) and
``final`` (max, or mix: a mixed final choice at simultaneous decisions). ``learned``
takes the search options and its own (``search=0`` for the network alone, ``model``;
see ``koth.agents.learned``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from koth.agents.base import Agent, DecisionContext, InformationSet, derive_seed, is_offered
from koth.agents.ismcts import IsmctsAgent
from koth.agents.learned import make_learned
from koth.agents.mcts import MctsAgent
from koth.agents.search import SearchSettings
from koth.agents.simple import HeuristicAgent, RandomAgent
from koth.core.errors import IllegalActionError, InvalidParamsError
from koth.core.game import Game
from koth.core.players import CHANCE, PlayerId
from koth.core.state import GameState

AGENT_NAMES: tuple[str, ...] = ("random", "heuristic", "mcts", "ismcts", "learned")

Policy = Callable[[GameState[Any, Any], PlayerId, random.Random], Any]


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"mcts:iters=200:c=1"`` -> ``("mcts", {"iters": "200", "c": "1"})``."""
    name, *parts = spec.strip().split(":")
    options: dict[str, str] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise InvalidParamsError(f"agent option {part!r} in {spec!r} is not key=value")
        options[key.strip()] = value.strip()
    name = name.strip().lower()
    if name not in AGENT_NAMES:
        raise InvalidParamsError(f"unknown agent {name!r}; known agents: {', '.join(AGENT_NAMES)}")
    return name, options


def make_agent(spec: str) -> Agent[Any]:
    """A fresh agent from its spec (InvalidParamsError on an unknown name or option)."""
    name, options = parse_spec(spec)
    if name in ("random", "heuristic"):
        if options:
            raise InvalidParamsError(f"the {name} agent takes no options (got {spec!r})")
        return RandomAgent() if name == "random" else HeuristicAgent()
    if name == "learned":
        return make_learned(options)
    settings = SearchSettings.from_options(options)
    return MctsAgent(settings) if name == "mcts" else IsmctsAgent(settings)


def check_spec(spec: str, game: Game[Any, Any, Any] | None = None) -> None:
    """Raise InvalidParamsError now if ``spec`` cannot play ``game`` (for CLIs)."""
    agent = make_agent(spec)
    if game is not None:
        agent.reset(game, 0, 0)


def make_policy(
    spec: str, game: Game[Any, Any, Any], player: PlayerId, seed: int | None = None
) -> Policy:
    """The agent ``spec`` as a terminal-play opponent: ``(state, player, rng) -> action``.

    The caller holds the true state; the agent sees only the information set built
    from it. One agent per seat is kept for the whole game (``player`` is the seat
    expected; another seat asking gets its own agent). The agents' seeds derive from
    ``seed`` (default: drawn from the first call's ``rng``), so ``--seed`` reproduces
    a game with an iteration budget.
    """
    make_agent(spec)  # fail fast on a bad spec
    agents: dict[PlayerId, Agent[Any]] = {}
    base_seed: list[int] = [] if seed is None else [seed]

    def agent_for(seat: PlayerId, rng: random.Random) -> Agent[Any]:
        if not base_seed:
            base_seed.append(rng.getrandbits(62))
        agent = agents.get(seat)
        if agent is None:
            agent = agents[seat] = make_agent(spec)
            agent.reset(game, seat, derive_seed(base_seed[0], "seat", seat))
        return agent

    if seed is not None:
        agent_for(player, random.Random(seed))  # the expected seat's agent, checked now

    def policy(state: GameState[Any, Any], seat: PlayerId, rng: random.Random) -> Any:
        agent = agent_for(seat, rng)
        info = InformationSet.of(state, seat)
        movers = state.movers
        decisions = len(movers) - movers.count(CHANCE)
        context = DecisionContext(info, decisions, state.is_simultaneous_node())
        action = agent.act(info.view, info.legal_actions, context)
        if not is_offered(action, info.legal_actions):
            raise IllegalActionError(f"agent {spec} chose {action!s}, which is not legal now")
        return action

    return policy
