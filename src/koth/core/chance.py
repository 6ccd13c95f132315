"""Seeded sampling of chance outcomes, so whole games replay from one seed.

The rules never draw random numbers; whoever drives a game (CLI, server, simulator)
samples each chance node's explicit outcomes here, with a ``random.Random`` it owns.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeAlias, TypeVar

from mypy_extensions import mypyc_attr

from koth.core.offered import ActionList

if TYPE_CHECKING:
    # for annotations only: the state samples its chance nodes with this module
    from koth.core.state import GameState

A = TypeVar("A", bound=Hashable)

#: per number of outcomes n: the running sums of n probabilities 1 / n, each added as
#: ``sample_outcome`` adds them (so a search of them finds the outcome its walk finds)
_RUNNING_SUMS: Final[dict[int, list[float]]] = {}


def running_sums(size: int) -> list[float]:
    """The cumulative probabilities of ``size`` equally likely outcomes, summed one by
    one in floating point as ``sample_outcome``'s walk sums them."""
    sums = _RUNNING_SUMS.get(size)
    if sums is None:
        probability = 1.0 / size
        cumulative = 0.0
        sums = []
        for _ in range(size):
            cumulative += probability
            sums.append(cumulative)
        _RUNNING_SUMS[size] = sums
    return sums


# a game package that is not compiled may subclass it in the compiled build too
@mypyc_attr(allow_interpreted_subclasses=True)
class UniformOutcomes(ActionList[tuple[A, float]]):
    """A chance node's equally likely outcomes, as (action, 1 / n) pairs built when read.

    A game whose chance nodes offer many equally likely outcomes (the card deal: one of
    the undealt cards) may return one from ``chance_outcomes``. ``sample_outcome`` then
    finds the drawn outcome by a binary search of the running sums, the same one its
    walk over the pairs would find, and builds only that outcome; ``GameState`` checks
    the outcome handed back with ``offers``, without building the others. Subclasses
    give ``outcome`` and may give a faster ``offers`` and ``build``.
    """

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self.probability = 1.0 / size if size else 0.0

    def outcome(self, index: int) -> A:
        """The action of the outcome at ``index`` (0 <= index < len(self))."""
        raise NotImplementedError

    def offers(self, action: object) -> bool:
        """Whether ``action`` is the very object of one of these outcomes (identity)."""
        return any(pair[0] is action for pair in self.listed())

    def index_at(self, threshold: float) -> int:
        """The index of the outcome drawn by ``threshold`` in [0, 1)."""
        index = bisect_right(running_sums(self.size), threshold)
        return index if index < self.size else self.size - 1

    def __len__(self) -> int:
        return self.size

    def item(self, index: int) -> tuple[A, float]:
        return (self.outcome(index), self.probability)


def sample_outcome(outcomes: Sequence[tuple[A, float]], rng: random.Random) -> A:
    """One outcome drawn with its probability."""
    if not outcomes:
        raise ValueError("no chance outcomes to sample from")
    if isinstance(outcomes, UniformOutcomes):
        # named as UniformOutcomes: narrowed from Sequence, the type is an intersection
        uniform: UniformOutcomes[Any] = outcomes
        drawn: A = uniform.outcome(uniform.index_at(rng.random()))
        return drawn
    threshold = rng.random()
    cumulative = 0.0
    for action, probability in outcomes:
        cumulative += probability
        if threshold < cumulative:
            return action
    return outcomes[-1][0]  # rounding left a sliver above the last cumulative sum


def resolve_chance(state: GameState[Any, A], rng: random.Random) -> None:
    """Apply sampled chance outcomes until a player (or nobody) must act."""
    while state.is_chance_node():
        state.apply_action(sample_outcome(state.chance_outcomes(), rng))


Policy: TypeAlias = Callable[["GameState[Any, Any]", int, random.Random], Any]


def random_policy(state: GameState[Any, Any], player: int, rng: random.Random) -> Any:
    """A uniformly random legal action of ``player``."""
    return rng.choice(state.legal_actions(player))


def play_game(
    state: GameState[Any, Any],
    rng: random.Random,
    policy: Policy = random_policy,
    max_moves: int | None = None,
) -> GameState[Any, Any]:
    """Play ``state`` on to the end (or ``max_moves`` more moves) with ``policy`` for
    every player and seeded chance; returns the same, advanced state."""
    moves = 0
    while not state.is_terminal() and (max_moves is None or moves < max_moves):
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        elif state.is_simultaneous_node():
            state.apply_actions({p: policy(state, p, rng) for p in state.acting_players()})
        else:
            state.apply_action(policy(state, state.current_player(), rng))
        moves += 1
    return state


def random_game(game: Any, seed: int, max_moves: int | None = None) -> GameState[Any, Any]:
    """A whole game of uniformly random play, reproducible from ``seed``."""
    return play_game(game.new_initial_state(), random.Random(seed), max_moves=max_moves)
