"""``ismcts``: information-set Monte Carlo tree search by determinization.

Each iteration draws a state consistent with what the searching player (the observer)
knows (``InformationSet.sample_data``, i.e. the game's ``resample_hidden``) and
descends one shared tree whose nodes are the observer's information states: a node is
keyed by (acting player, the observer's information-state string, decisions since the
root). So

* the observer's own choices depend only on what it knows: every determinization of
  the same information state shares one node;
* an opponent's hidden choice (a card put face down) leads every alternative to the
  same observer node, so the tree does not pretend the observer saw it;
* actions legal in some determinizations only are handled by availability counts
  (subset-armed UCB, as in Cowling, Powley and Whitehouse's SO-ISMCTS);
* at a simultaneous node each acting player picks from its own statistics before any
  choice is applied (decoupled UCT, or regret matching with ``sim=rm``): no side sees
  the other's choice.

The known weakness of single-observer ISMCTS remains: the modelled opponents choose
from statistics gathered over the observer's information states, so they neither
condition on their own sampled secrets nor are fooled by the observer's.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from koth.agents.base import InformationSet
from koth.agents.heuristics import observer_key
from koth.agents.mcts import SearchAgent
from koth.agents.search import (
    Arms,
    Decision,
    ReturnScale,
    RolloutPolicy,
    SearchClock,
    default_max_rollout,
    make_arms,
)
from koth.core.chance import sample_outcome
from koth.core.players import CHANCE, NodeKind, PlayerId

NodeKey = tuple[PlayerId, Hashable, int]


class IsmctsAgent(SearchAgent):
    """Single-observer ISMCTS over the observer's information states."""

    kind = "ismcts"

    def _search(self, info: InformationSet[Any, Any], policy: RolloutPolicy, at: Decision) -> Arms:
        game, rng, settings = info.game, self._rng, self.settings
        c = settings.exploration
        max_rollout = default_max_rollout(game, settings.max_rollout)
        observer = info.player
        fast_key = observer_key(game)
        root_key: Hashable = info.key if fast_key is None else "root"
        root = make_arms(at.simultaneous, settings)
        table: dict[NodeKey, Arms] = {(observer, root_key, 0): root}
        scale = ReturnScale()
        clock = SearchClock(settings.budget, at.early)
        count = 0
        while clock.proceed(count, root):
            count += 1
            data = info.sample_data(rng)
            path: list[tuple[Arms, PlayerId, Any]] = []
            depth = 0
            expanded = False
            while True:
                to_move = game.to_move(data)
                kind = to_move.kind
                if kind is NodeKind.TERMINAL:
                    values = game.returns(data)
                    break
                if kind is NodeKind.CHANCE:
                    data = game.apply(data, CHANCE, sample_outcome(game.chance_outcomes(data), rng))
                    continue
                seen: Hashable
                if depth == 0:
                    seen = root_key
                elif fast_key is not None:
                    seen = fast_key(game, data, observer)
                else:
                    seen = game.information_state_string(data, observer)
                nodes: list[tuple[PlayerId, Arms]] = []
                created = False
                for player in to_move.players:
                    key = (player, seen, depth)
                    arms = table.get(key)
                    if arms is None:
                        if expanded:
                            break  # one new node per iteration: the rest is rollout
                        arms = table[key] = make_arms(kind is NodeKind.SIMULTANEOUS, settings)
                        created = True
                    nodes.append((player, arms))
                if len(nodes) < len(to_move.players):
                    values = self.leaf_values(game, data, rng, policy, max_rollout)
                    break
                expanded = expanded or created
                joint: dict[PlayerId, Any] = {}
                for player, arms in nodes:
                    joint[player] = arms.select(game.legal_actions(data, player), rng, c, scale)
                    path.append((arms, player, joint[player]))
                if kind is NodeKind.PLAYER:
                    ((player, action),) = joint.items()
                    data = game.apply(data, player, action)
                else:
                    data = game.apply_joint(data, joint)
                depth += 1
            scale.observe(values)
            for arms, player, action in path:
                arms.update(action, values[player])
        self.last_iterations = count
        return root
