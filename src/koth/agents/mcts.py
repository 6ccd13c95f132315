"""``mcts``: UCT for games with chance and simultaneous moves.

The tree is keyed by the moves made since the root. Chance nodes are sampled: each
iteration draws an outcome and follows (or grows) that outcome's child. At a
simultaneous node every acting player picks from its own statistics without seeing the
others' picks (decoupled UCT), and the child is keyed by the joint action.

The root state is drawn from the information set each iteration. For a
perfect-information game that is the state itself; for a game with hidden information
``mcts`` searches determinizations in one tree, which sees no secret but suffers from
strategy fusion: ``ismcts`` is the agent for those games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from koth.agents.base import DecisionContext, InformationSet
from koth.agents.heuristics import action_ranking
from koth.agents.search import (
    Arms,
    Decision,
    ReturnScale,
    RolloutPolicy,
    SearchClock,
    SearchSettings,
    default_max_rollout,
    make_arms,
    rollout,
    rollout_policy,
)
from koth.core.chance import sample_outcome
from koth.core.errors import KothError
from koth.core.game import Game
from koth.core.players import CHANCE, NodeKind, PlayerId


class _Node:
    __slots__ = ("arms", "children", "ranked", "visits")

    def __init__(self) -> None:
        self.arms: dict[PlayerId, Arms] = {}
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        #: the legal actions best first (progressive widening), once computed
        self.ranked: list[Any] | None = None

    def arms_of(self, player: PlayerId, settings: SearchSettings, simultaneous: bool) -> Arms:
        arms = self.arms.get(player)
        if arms is None:
            arms = self.arms[player] = make_arms(simultaneous, settings)
        return arms


class SearchAgent:
    """The part of ``mcts`` and ``ismcts`` that is not the search itself."""

    kind = "search"

    def __init__(self, settings: SearchSettings | None = None) -> None:
        self.settings = settings or SearchSettings()
        self._rng = random.Random(0)
        self._player: PlayerId = 0
        self._policy: RolloutPolicy | None = None
        #: iterations run for the last decision (for tests and benchmarks)
        self.last_iterations = 0
        self.last_root: Arms | None = None

    @property
    def name(self) -> str:
        budget = self.settings.budget
        parts = [self.kind]
        if budget.iterations is not None:
            parts.append(f"iters={budget.iterations}")
        if budget.seconds is not None:
            parts.append(f"seconds={budget.seconds:g}")
        return ":".join(parts)

    def reset(self, game: Game[Any, Any, Any], player: PlayerId, seed: int) -> None:
        self._rng = random.Random(seed)
        self._player = player
        self._policy = rollout_policy(game, self.settings.rollout, self.settings.epsilon)

    def act(
        self,
        observation_view: Mapping[str, Any],
        legal_actions: Sequence[Any],
        context: DecisionContext[Any, Any],
    ) -> Any:
        if len(legal_actions) == 1:
            return legal_actions[0]
        if self._policy is None:
            raise KothError(f"{self.name}: act() called before reset()")
        info = context.info_set
        settings = self.settings
        mixed = settings.mix_simultaneous or settings.simultaneous == "rm"
        early = settings.early_stop and not (context.simultaneous and mixed)
        root = self._search(info, self._policy, Decision(context.simultaneous, early))
        self.last_root = root
        return root.final_choice(
            list(legal_actions),
            self._rng,
            mix=context.simultaneous and self.settings.mix_simultaneous,
        )

    def _search(self, info: InformationSet[Any, Any], policy: RolloutPolicy, at: Decision) -> Arms:
        """The root statistics of the searching player."""
        raise NotImplementedError

    def leaf_values(
        self,
        game: Game[Any, Any, Any],
        data: Any,
        rng: random.Random,
        policy: RolloutPolicy,
        max_rollout: int,
    ) -> tuple[float, ...]:
        """The values of a new leaf for every player: a rollout (the learned agent
        scores the leaf with its network instead)."""
        return rollout(game, data, rng, policy, max_rollout)


class MctsAgent(SearchAgent):
    """UCT with sampled chance and decoupled UCT at simultaneous nodes."""

    kind = "mcts"

    def _search(self, info: InformationSet[Any, Any], policy: RolloutPolicy, at: Decision) -> Arms:
        game, rng, settings = info.game, self._rng, self.settings
        c = settings.exploration
        max_rollout = default_max_rollout(game, settings.max_rollout)
        ranking = action_ranking(game) if settings.widen > 0 else None
        widen = settings.widen
        root = _Node()
        root_arms = root.arms_of(info.player, settings, at.simultaneous)
        scale = ReturnScale()
        clock = SearchClock(settings.budget, at.early)
        count = 0
        while clock.proceed(count, root_arms):
            count += 1
            data = info.sample_data(rng)
            node = root
            path: list[tuple[Arms, PlayerId, Hashable]] = []
            while True:
                to_move = game.to_move(data)
                kind = to_move.kind
                if kind is NodeKind.TERMINAL:
                    values = game.returns(data)
                    break
                key: Hashable
                if kind is NodeKind.CHANCE:
                    outcome = sample_outcome(game.chance_outcomes(data), rng)
                    data = game.apply(data, CHANCE, outcome)
                    key = ("chance", outcome)
                elif kind is NodeKind.PLAYER:
                    player = to_move.players[0]
                    arms = node.arms_of(player, settings, False)
                    legal = game.legal_actions(data, player)
                    if ranking is not None:
                        # progressive widening: the heuristic's best ceil(w*sqrt(n+1))
                        ranked = node.ranked
                        if ranked is None or len(ranked) != len(legal):
                            ranked = node.ranked = ranking(game, data, player)
                        width = max(2, math.ceil(widen * math.sqrt(node.visits + 1)))
                        if width < len(legal):
                            # a determinization may offer other actions: keep legal ones
                            allowed = set(legal)
                            legal = [a for a in ranked if a in allowed][:width]
                    node.visits += 1
                    action = arms.select(legal, rng, c, scale)
                    path.append((arms, player, action))
                    data = game.apply(data, player, action)
                    key = ("move", action)
                else:
                    joint: dict[PlayerId, Any] = {}
                    for player in to_move.players:
                        arms = node.arms_of(player, settings, True)
                        joint[player] = arms.select(game.legal_actions(data, player), rng, c, scale)
                        path.append((arms, player, joint[player]))
                    data = game.apply_joint(data, joint)
                    key = ("joint", tuple(sorted(joint.items())))
                child = node.children.get(key)
                if child is None:
                    node.children[key] = _Node()
                    values = self.leaf_values(game, data, rng, policy, max_rollout)
                    break
                node = child
            scale.observe(values)
            for arms, player, action in path:
                arms.update(action, values[player])
        self.last_iterations = count
        return root_arms
