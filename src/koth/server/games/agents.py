"""Computer players: the agent of a computer seat, built by ``koth.agents``.

A seat stores an agent name and an optional budget; the budget is the number of search
iterations per move, so it applies to the search agents only. The agent may also be a
named level of the game (``koth.agents.levels``: ``beginner``, ``strong``...), which
stands for its agent and budget (a level takes no budget of its own). Both are checked when
the game is created, so a game never starts with a seat that cannot play. The server
caps both what a budget may ask (``max_agent_iterations``) and how long any search may
think per move (``max_agent_seconds``: the search stops at whichever ends first), so no
game can hold an agent thread for long.
"""

from __future__ import annotations

from typing import Any

from koth.agents.levels import LEVEL_KEYS, level
from koth.agents.registry import AGENT_NAMES, Policy, check_spec
from koth.agents.registry import make_policy as make_agent_policy
from koth.core.errors import InvalidParamsError
from koth.core.game import Game
from koth.core.registry import load_game

__all__ = [
    "RANDOM_AGENT",
    "SEARCH_AGENTS",
    "Policy",
    "agent_names",
    "agent_spec",
    "check_seat_agent",
    "make_policy",
    "resolve_seat",
]

RANDOM_AGENT = "random"
#: the agents whose strength a budget (iterations per move) sets
SEARCH_AGENTS = ("mcts", "ismcts", "learned")
#: iterations per move of a search seat given no budget (the search agents' default)
DEFAULT_BUDGET = 1000


def agent_names(game_name: str | None = None) -> list[str]:
    """The agents a computer seat may use (at ``game_name``, with default parameters:
    the heuristic agent knows only some games)."""
    if game_name is None:
        return list(AGENT_NAMES)
    game = load_game(game_name)
    playable = []
    for name in AGENT_NAMES:
        try:
            check_spec(name, game)
        except InvalidParamsError:
            continue
        playable.append(name)
    return playable


def resolve_seat(agent: str, budget: int | None, game_name: str) -> tuple[str, int | None]:
    """A seat's agent and budget with a level replaced by what it stands for:
    ``("strong", None)`` at the card game is ``("ismcts", 300)``; an agent name is kept."""
    if agent not in LEVEL_KEYS:
        return agent, budget
    if budget is not None:
        raise InvalidParamsError(
            f"the {agent} level sets its own budget; give a budget only with an agent "
            f"({' or '.join(SEARCH_AGENTS)})"
        )
    found = level(game_name, agent)
    return found.agent, found.iterations


def agent_spec(agent: str, budget: int | None, max_seconds: float | None = None) -> str:
    """The ``koth.agents`` spec of a seat: ``ismcts:iters=500:seconds=5`` for a budget of
    500 on a server that lets a search think 5 s at most."""
    if agent not in SEARCH_AGENTS:
        if budget is not None:
            raise InvalidParamsError(
                f"the {agent} agent takes no budget; a budget (iterations per move) is for "
                f"{' and '.join(SEARCH_AGENTS)}"
            )
        return agent
    spec = f"{agent}:iters={budget or DEFAULT_BUDGET}"
    return spec if max_seconds is None else f"{spec}:seconds={max_seconds:g}"


def check_seat_agent(
    agent: str, budget: int | None, game: Game[Any, Any, Any], max_iterations: int
) -> None:
    """Raise InvalidParamsError if this agent and budget cannot play ``game`` here."""
    if budget is not None and budget > max_iterations:
        raise InvalidParamsError(
            f"a budget of {budget} iterations per move is over this server's limit of "
            f"{max_iterations}"
        )
    agent, budget = resolve_seat(agent, budget, game.name)
    check_spec(agent_spec(agent, budget), game)


def make_policy(
    agent: str,
    budget: int | None,
    game: Game[Any, Any, Any],
    player: int,
    seed: int,
    max_seconds: float,
) -> Policy:
    """The policy ``(state, player, rng) -> action`` of a computer seat."""
    agent, budget = resolve_seat(agent, budget, game.name)
    return make_agent_policy(agent_spec(agent, budget, max_seconds), game, player, seed)
