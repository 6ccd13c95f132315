"""Pieces shared by the tree-search agents: budgets, bandit statistics, rollouts.

Search runs on raw rules states (``Game.apply`` and friends, no framework checks): the
states come from an information set's sampler and the actions from ``legal_actions``,
so the checks could only cost time.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from koth.agents.heuristics import (
    HeuristicPolicy,
    Playout,
    evaluator,
    heuristic_policy,
    state_evaluator,
    state_playout,
    state_rollout,
)
from koth.core.chance import sample_outcome
from koth.core.errors import InvalidParamsError
from koth.core.game import Game
from koth.core.players import CHANCE, NodeKind, PlayerId

RolloutPolicy = Callable[[Game[Any, Any, Any], Any, PlayerId, random.Random], Any]
"""``(game, state_data, player, rng) -> action`` for a sampled (never the true) state."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How long one decision may search: a number of iterations, seconds, or both
    (whichever ends first). Only an iteration budget is reproducible."""

    iterations: int | None = 1000
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise InvalidParamsError("a search budget needs iterations or seconds")
        if self.iterations is not None and self.iterations < 1:
            raise InvalidParamsError(f"iterations must be at least 1, not {self.iterations}")
        if self.seconds is not None and self.seconds <= 0:
            raise InvalidParamsError(f"seconds must be positive, not {self.seconds}")


#: how often (in iterations) a search asks whether its decision can still change
DECIDED_CHECK_EVERY: Final = 32
#: the remaining iterations a time budget is assumed to allow, over the rate so far
#: (iterations slow down as the tree deepens, so the average rate already overestimates)
_REMAINING_MARGIN: Final = 1.25


@dataclass(frozen=True, slots=True)
class Decision:
    """What a search needs to know of the decision it is for."""

    #: the root is a simultaneous node
    simultaneous: bool
    #: the search may stop once its most visited root action cannot change
    early: bool


class SearchClock:
    """One decision's budget, started when made: ``done(count)`` ends the search, and
    ``decided(count, root)`` ends it early once the most visited root action can no
    longer be overtaken within the budget left, so the final (most visited) choice is
    the one the whole budget would give: time saved without changing the decision."""

    __slots__ = ("deadline", "early", "limit", "started")

    def __init__(self, budget: Budget, early: bool = False) -> None:
        self.started = time.perf_counter()
        self.deadline = None if budget.seconds is None else self.started + budget.seconds
        self.limit = budget.iterations
        self.early = early

    def proceed(self, count: int, root: Arms) -> bool:
        """Whether to run another iteration: the budget is not spent and (with
        ``early``) the decision can still change."""
        if self.done(count):
            return False
        return not (
            self.early and count and count % DECIDED_CHECK_EVERY == 0 and self.decided(count, root)
        )

    def done(self, count: int) -> bool:
        if self.limit is not None and count >= self.limit:
            return True
        return self.deadline is not None and count > 0 and time.perf_counter() >= self.deadline

    def remaining(self, count: int) -> float:
        """An upper estimate of the iterations the budget still allows."""
        left = math.inf if self.limit is None else float(self.limit - count)
        if self.deadline is not None:
            now = time.perf_counter()
            elapsed = now - self.started
            if elapsed <= 0:
                return left
            rate = count / elapsed
            left = min(left, max(0.0, self.deadline - now) * rate * _REMAINING_MARGIN)
        return left

    def decided(self, count: int, root: Arms) -> bool:
        return root.lead() > self.remaining(count)


class ReturnScale:
    """The range of returns seen so far, to map values into [0, 1] for UCB (games
    differ in scale: a stake of 2, a +-1 win, points)."""

    __slots__ = ("high", "low")

    def __init__(self) -> None:
        self.low = math.inf
        self.high = -math.inf

    def observe(self, values: Sequence[float]) -> None:
        for v in values:
            if v < self.low:
                self.low = v
            if v > self.high:
                self.high = v

    def normalise(self, value: float) -> float:
        if self.high <= self.low:
            return 0.5
        return (value - self.low) / (self.high - self.low)


class Arms:
    """Bandit statistics of one player at one node, for any subset of its actions.

    Availability counts (how often an action was legal when the node was visited) make
    UCB sound when determinizations offer different actions at the same node.
    """

    __slots__ = ("available", "totals", "visits")

    def __init__(self) -> None:
        self.visits: dict[Hashable, int] = {}
        self.totals: dict[Hashable, float] = {}
        self.available: dict[Hashable, int] = {}

    def select(
        self, legal: Sequence[Hashable], rng: random.Random, c: float, scale: ReturnScale
    ) -> Hashable:
        """UCB1 over the legal actions; untried ones first, in random order."""
        untried = []
        for action in legal:
            self.available[action] = self.available.get(action, 0) + 1
            if action not in self.visits:
                untried.append(action)
        if untried:
            return untried[rng.randrange(len(untried))]
        best: Hashable = legal[0]
        best_score = -math.inf
        for action in legal:
            n = self.visits[action]
            mean = scale.normalise(self.totals[action] / n)
            score = mean + c * math.sqrt(math.log(self.available[action]) / n)
            if score > best_score:
                best, best_score = action, score
        return best

    def update(self, action: Hashable, value: float) -> None:
        self.visits[action] = self.visits.get(action, 0) + 1
        self.totals[action] = self.totals.get(action, 0.0) + value

    def lead(self) -> int:
        """How many visits the most visited action has over every other one."""
        first = second = 0
        for n in self.visits.values():
            if n > first:
                first, second = n, first
            elif n > second:
                second = n
        return first - second

    def final_choice(self, legal: Sequence[Hashable], rng: random.Random, mix: bool) -> Hashable:
        """The most visited legal action (ties: the better mean), or with ``mix`` one
        drawn in proportion to visits (a mixed strategy, for simultaneous moves)."""
        counted = [a for a in legal if self.visits.get(a, 0) > 0]
        if not counted:
            return legal[rng.randrange(len(legal))]
        if mix:
            weights = [self.visits[a] for a in counted]
            return rng.choices(counted, weights=weights)[0]
        best = counted[0]
        best_key = (self.visits[best], self.totals[best] / self.visits[best])
        for action in counted[1:]:
            key = (self.visits[action], self.totals[action] / self.visits[action])
            if key > best_key:  # the first of equals wins, as max() picks it
                best, best_key = action, key
        return best

    def summary(self) -> dict[str, tuple[int, float]]:
        """Visits and mean value per action (for debugging and tests)."""
        return {str(a): (n, self.totals[a] / n) for a, n in self.visits.items()}


class RegretArms(Arms):
    """Regret matching with exploration at a simultaneous node (``sim=rm``): a sound
    alternative to decoupled UCT that converges to a mixed strategy (Lisy, Kovarik,
    Lanctot and Bosansky, "Convergence of Monte Carlo Tree Search in Simultaneous Move
    Games", 2013).

    Each visit plays ``(1 - gamma) x regret matching + gamma x uniform``; the value of
    the action played, normalised to [0, 1], updates every legal action's regret with
    the importance-weighted estimate (value / probability for the action played, 0 for
    the others) minus the value. The final choice is drawn from the average of the
    regret-matching strategies, the part that converges to an equilibrium.
    """

    __slots__ = ("_pending", "_scale", "gamma", "regrets", "strategy_sums")

    def __init__(self, gamma: float = 0.1) -> None:
        super().__init__()
        self.gamma = gamma
        self.regrets: dict[Hashable, float] = {}
        self.strategy_sums: dict[Hashable, float] = {}
        #: the last selection awaiting its value: (legal actions, action, probability)
        self._pending: tuple[Sequence[Hashable], Hashable, float] | None = None
        self._scale: ReturnScale | None = None

    def strategy(self, legal: Sequence[Hashable]) -> list[float]:
        """The regret-matching strategy over ``legal`` (uniform without positive regret)."""
        positive = [max(0.0, self.regrets.get(a, 0.0)) for a in legal]
        total = sum(positive)
        if total <= 0:
            return [1.0 / len(legal)] * len(legal)
        return [r / total for r in positive]

    def select(
        self, legal: Sequence[Hashable], rng: random.Random, c: float, scale: ReturnScale
    ) -> Hashable:
        for action in legal:
            self.available[action] = self.available.get(action, 0) + 1
        matched = self.strategy(legal)
        uniform = self.gamma / len(legal)
        played = [(1.0 - self.gamma) * p + uniform for p in matched]
        sums = self.strategy_sums
        for action, p in zip(legal, matched, strict=True):
            sums[action] = sums.get(action, 0.0) + p
        index = rng.choices(range(len(legal)), weights=played)[0]
        action = legal[index]
        self._pending = (tuple(legal), action, played[index])
        self._scale = scale
        return action

    def update(self, action: Hashable, value: float) -> None:
        super().update(action, value)
        pending, self._pending = self._pending, None
        if pending is None or pending[1] != action or self._scale is None:
            return
        legal, _, probability = pending
        normalised = self._scale.normalise(value)
        regrets = self.regrets
        for other in legal:
            estimate = normalised / probability if other == action else 0.0
            regrets[other] = regrets.get(other, 0.0) + estimate - normalised

    def lead(self) -> int:
        return 0  # the final choice is drawn, not the most visited: never decided early

    def final_choice(self, legal: Sequence[Hashable], rng: random.Random, mix: bool) -> Hashable:
        weights = [self.strategy_sums.get(a, 0.0) for a in legal]
        if sum(weights) <= 0:
            return legal[rng.randrange(len(legal))]
        return rng.choices(list(legal), weights=weights)[0]

    def average_strategy(self) -> dict[str, float]:
        """The average regret-matching strategy by action text (for tests and debugging)."""
        total = sum(self.strategy_sums.values())
        return {str(a): w / total for a, w in self.strategy_sums.items()} if total else {}


def make_arms(simultaneous: bool, settings: SearchSettings) -> Arms:
    """The statistics of one player at a node: regret matching at simultaneous nodes
    when ``settings.simultaneous == "rm"``, else UCB."""
    if simultaneous and settings.simultaneous == "rm":
        return RegretArms(settings.gamma)
    return Arms()


def random_rollout_policy(
    game: Game[Any, Any, Any], data: Any, player: PlayerId, rng: random.Random
) -> Any:
    legal = game.legal_actions(data, player)
    return legal[rng.randrange(len(legal))]


class _ViewRollout:
    """A rule-based policy fed with the player's view: the rollout of a game that
    registered no state-reading one."""

    __slots__ = ("policy",)

    def __init__(self, policy: HeuristicPolicy) -> None:
        self.policy = policy

    def __call__(
        self, game: Game[Any, Any, Any], data: Any, player: PlayerId, rng: random.Random
    ) -> Any:
        legal = game.legal_actions(data, player)
        return self.policy(game, player, game.view(data, player), legal, rng)


class _NoisyRollout:
    """``chosen``, except that a uniformly random legal action is played with
    probability ``epsilon``."""

    __slots__ = ("chosen", "epsilon")

    def __init__(self, chosen: RolloutPolicy, epsilon: float) -> None:
        self.chosen = chosen
        self.epsilon = epsilon

    def __call__(
        self, game: Game[Any, Any, Any], data: Any, player: PlayerId, rng: random.Random
    ) -> Any:
        if rng.random() < self.epsilon:
            legal = game.legal_actions(data, player)
            return legal[rng.randrange(len(legal))]
        return self.chosen(game, data, player, rng)


class PlayoutRollout:
    """``chosen`` (with ``epsilon`` as in ``_NoisyRollout``) where the game also
    registered the whole playout of that policy in one call: ``rollout`` hands it the
    rollout, which then builds no state per step."""

    __slots__ = ("chosen", "epsilon", "playout")

    def __init__(self, chosen: RolloutPolicy, epsilon: float, playout: Playout) -> None:
        self.chosen = chosen
        self.epsilon = epsilon
        self.playout = playout

    def __call__(
        self, game: Game[Any, Any, Any], data: Any, player: PlayerId, rng: random.Random
    ) -> Any:
        if self.epsilon > 0 and rng.random() < self.epsilon:
            legal = game.legal_actions(data, player)
            return legal[rng.randrange(len(legal))]
        return self.chosen(game, data, player, rng)


def heuristic_rollout_policy(game: Game[Any, Any, Any], epsilon: float = 0.0) -> RolloutPolicy:
    """The game's heuristic on the sampled state: its fast state-reading version when
    the game registered one, else the rule-based policy fed with the player's view.
    With ``epsilon`` a uniformly random legal action is played instead that often."""
    fast = state_rollout(game)
    playout = state_playout(game)
    if fast is not None and playout is not None:
        return PlayoutRollout(fast, epsilon, playout)
    chosen: RolloutPolicy = _ViewRollout(heuristic_policy(game)) if fast is None else fast
    return _NoisyRollout(chosen, epsilon) if epsilon > 0 else chosen


def rollout_policy(game: Game[Any, Any, Any], name: str, epsilon: float = 0.0) -> RolloutPolicy:
    if name == "auto":
        # only a built-in fast rollout counts: which view-based heuristics are
        # registered can differ between processes (tests, plug-ins)
        name = "heuristic" if state_rollout(game) is not None else "random"
    if name == "random":
        return random_rollout_policy
    if name == "heuristic":
        return heuristic_rollout_policy(game, epsilon)
    raise InvalidParamsError(f"unknown rollout policy {name!r} (auto, random, heuristic)")


def default_max_rollout(game: Game[Any, Any, Any], max_rollout: int | None) -> int:
    if max_rollout is not None:
        return max_rollout
    return 30 if state_evaluator(game) is not None else 400


def play_step(
    game: Game[Any, Any, Any], data: Any, rng: random.Random, policy: RolloutPolicy
) -> Any | None:
    """``data`` one step on (a sampled draw, or ``policy``'s move for each player to
    act), or None at the end of the game."""
    to_move = game.to_move(data)
    kind = to_move.kind
    if kind is NodeKind.TERMINAL:
        return None
    if kind is NodeKind.CHANCE:
        return game.apply(data, CHANCE, sample_outcome(game.chance_outcomes(data), rng))
    if kind is NodeKind.PLAYER:
        player = to_move.players[0]
        return game.apply(data, player, policy(game, data, player, rng))
    joint = {p: policy(game, data, p, rng) for p in to_move.players}
    return game.apply_joint(data, joint)


def play_steps(
    game: Game[Any, Any, Any], data: Any, rng: random.Random, policy: RolloutPolicy, steps: int
) -> Any:
    """``data`` after at most ``steps`` steps of ``play_step`` (fewer where the game ends)."""
    for _ in range(steps):
        after = play_step(game, data, rng, policy)
        if after is None:
            break
        data = after
    return data


def rollout(
    game: Game[Any, Any, Any],
    data: Any,
    rng: random.Random,
    policy: RolloutPolicy,
    max_steps: int,
) -> tuple[float, ...]:
    """Play ``data`` on with ``policy`` and sampled chance for at most ``max_steps``;
    the returns at the end, or the game's evaluation (else zeros) if cut short."""
    whole = policy if isinstance(policy, PlayoutRollout) else None
    for step in range(max_steps):
        if whole is not None:
            done = whole.playout(game, data, rng, whole.epsilon, max_steps - step)
            if done is not None:
                return done
        after = play_step(game, data, rng, policy)
        if after is None:
            return game.returns(data)
        data = after
    if game.to_move(data).kind is NodeKind.TERMINAL:
        return game.returns(data)
    fast = state_evaluator(game)
    if fast is not None:
        return fast(game, data)
    evaluate = evaluator(game)
    if evaluate is not None:
        return tuple(evaluate(game, game.view(data, None)))
    return tuple(0.0 for _ in range(game.num_players))


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """Options shared by ``mcts`` and ``ismcts`` (see ``koth.agents.registry``)."""

    budget: Budget = Budget()
    exploration: float = 1.4
    #: random, heuristic, or auto (heuristic when the game registered a fast rollout)
    rollout: str = "auto"
    #: how often a heuristic rollout plays a random legal action instead
    epsilon: float = 0.1
    #: rollout steps before the game's evaluator scores the position; None: 30 for a
    #: game with a state evaluator (the board game), else 400
    max_rollout: int | None = None
    #: progressive widening (mcts, games with an action ranking): a node offers its
    #: ceil(widen * sqrt(visits + 1)) best-ranked actions; 0 offers every legal action
    widen: float = 2.0
    #: pick the final move in proportion to visits at simultaneous decisions
    mix_simultaneous: bool = False
    #: stop a search once its most visited root action cannot be overtaken in the
    #: budget left (never with ``mix_simultaneous`` at a simultaneous decision)
    early_stop: bool = True
    #: the bandit at simultaneous nodes: decoupled UCT ("duct") or regret matching ("rm")
    simultaneous: str = "duct"
    #: regret matching's exploration: how much of each visit's strategy is uniform
    gamma: float = 0.1

    @staticmethod
    def from_options(options: Mapping[str, str]) -> SearchSettings:
        """Settings from ``name:key=value`` options: iters, seconds, c, rollout, eps,
        max_rollout, widen, final (max or mix), early (1 or 0), sim (duct or rm), gamma."""
        known = {"iters", "seconds", "c", "rollout", "eps", "max_rollout", "final", "widen"}
        known |= {"early", "sim", "gamma"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise InvalidParamsError(
                f"unknown search option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        try:
            seconds = float(options["seconds"]) if "seconds" in options else None
            iterations = int(options["iters"]) if "iters" in options else None
            if iterations is None and seconds is None:
                iterations = 1000
            final = options.get("final", "max")
            if final not in ("max", "mix"):
                raise InvalidParamsError(f"final must be max or mix, not {final!r}")
            early = options.get("early", "1")
            if early not in ("0", "1"):
                raise InvalidParamsError(f"early must be 1 or 0, not {early!r}")
            simultaneous = options.get("sim", "duct")
            if simultaneous not in ("duct", "rm"):
                raise InvalidParamsError(f"sim must be duct or rm, not {simultaneous!r}")
            gamma = float(options.get("gamma", 0.1))
            if not 0 < gamma <= 1:
                raise InvalidParamsError(f"gamma must be in (0, 1], not {gamma}")
            return SearchSettings(
                budget=Budget(iterations, seconds),
                exploration=float(options.get("c", 1.4)),
                rollout=options.get("rollout", "auto"),
                epsilon=float(options.get("eps", 0.1)),
                widen=float(options.get("widen", 2.0)),
                max_rollout=int(options["max_rollout"]) if "max_rollout" in options else None,
                mix_simultaneous=final == "mix",
                early_stop=early == "1",
                simultaneous=simultaneous,
                gamma=gamma,
            )
        except ValueError as exc:
            if isinstance(exc, InvalidParamsError):
                raise
            raise InvalidParamsError(f"bad search option: {exc}") from None
