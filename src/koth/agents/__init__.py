"""Agents that play any koth game from their own observation only.

``make_agent("mcts:iters=500")`` builds one; ``koth.agents.play.play_match`` plays a
game between agents (the driver is the only holder of the true state);
``make_policy`` adapts an agent to the terminal-play opponent interface.
"""

from koth.agents.base import Agent, DecisionContext, InformationSet, derive_seed
from koth.agents.registry import AGENT_NAMES, make_agent, make_policy, parse_spec

__all__ = [
    "AGENT_NAMES",
    "Agent",
    "DecisionContext",
    "InformationSet",
    "derive_seed",
    "make_agent",
    "make_policy",
    "parse_spec",
]
