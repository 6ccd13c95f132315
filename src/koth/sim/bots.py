"""koth's agents playing inside other frameworks: as an OpenSpiel bot and as a
PettingZoo policy (the reverse of ``koth.interop.openspiel_agents``).

Either wrapper reads the koth rules state behind the framework's state only to build the
player's information set (``InformationSet.of``), as every koth driver does: the agent
decides from its view and legal actions, and its action goes back as the framework's
integer id.
"""

from __future__ import annotations

from typing import Any

import pyspiel  # type: ignore[import-not-found]

from koth.agents.base import Agent, DecisionContext, InformationSet, derive_seed, is_offered
from koth.agents.registry import make_agent
from koth.core.errors import IllegalActionError
from koth.core.game import Game
from koth.core.players import PlayerId
from koth.core.state import GameState
from koth.interop.pettingzoo import KothAECEnv


def decide(agent: Agent[Any], state: GameState[Any, Any], player: PlayerId) -> Any:
    """``agent``'s action as ``player`` in ``state``, from that player's information set."""
    info = InformationSet.of(state, player)
    context = DecisionContext(info, state.num_moves, state.is_simultaneous_node())
    action = agent.act(info.view, info.legal_actions, context)
    if not is_offered(action, info.legal_actions):
        raise IllegalActionError(f"agent {agent.name} chose {action!s}, which is not legal now")
    return action


class KothAgentBot(pyspiel.Bot):  # type: ignore[misc]
    """A koth agent spec (``learned``, ``ismcts:iters=300``...) as an OpenSpiel bot for
    one seat of a koth game's OpenSpiel form (``koth.interop.openspiel.openspiel_game``)."""

    def __init__(self, spec: str, game: Game[Any, Any, Any], player: PlayerId, seed: int) -> None:
        pyspiel.Bot.__init__(self)
        self.spec = spec
        self.game = game
        self.player = player
        self.seed = seed
        self.agent: Agent[Any] = make_agent(spec)
        self.restart()

    def restart(self) -> None:
        self.agent = make_agent(self.spec)
        self.agent.reset(self.game, self.player, derive_seed(self.seed, "bot", self.player))

    def restart_at(self, state: Any) -> None:
        self.restart()

    def step(self, state: Any) -> int:
        koth_state = GameState(self.game, state.koth_data)
        return self.game.action_id(decide(self.agent, koth_state, self.player))


class KothAgentPolicy:
    """A koth agent spec as a policy of a PettingZoo environment (``koth.interop.pettingzoo``):
    ``policy(env)`` is the action id of the agent selected now. One koth agent per seat,
    reset with the game."""

    def __init__(self, spec: str, seed: int = 0) -> None:
        make_agent(spec)  # a bad spec fails now
        self.spec = spec
        self.seed = seed
        self.agents: dict[PlayerId, Agent[Any]] = {}

    def reset(self) -> None:
        self.agents.clear()

    def __call__(self, env: KothAECEnv) -> int:
        base = env.unwrapped if hasattr(env, "unwrapped") else env
        player = base.possible_agents.index(base.agent_selection)
        state = base.koth_state
        agent = self.agents.get(player)
        if agent is None:
            agent = self.agents[player] = make_agent(self.spec)
            agent.reset(base.game, player, derive_seed(self.seed, "seat", player))
        return int(base.game.action_id(decide(agent, state, player)))
