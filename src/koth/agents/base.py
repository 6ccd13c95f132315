"""The agent protocol and the information boundary between a game and its players.

An agent decides from what its player may know: its ``view`` and its legal actions.
Search agents also need a simulator; they get an :class:`InformationSet`, which hands
out *sampled* states (everything the player cannot know redrawn by the game's
``resample_hidden``) and never the true state. Only a driver (``koth.agents.play``, a
CLI, the simulator) holds the true state and builds information sets from it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

from koth.core.game import Game
from koth.core.players import PlayerId

if TYPE_CHECKING:
    from koth.core.state import GameState

S = TypeVar("S")
A = TypeVar("A", bound=Hashable)


def derive_seed(seed: int, *labels: object) -> int:
    """A 63-bit seed derived from ``seed`` and ``labels``, the same in every process
    (unlike ``hash``, which is salted per interpreter)."""
    text = ":".join([str(seed), *map(str, labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def is_offered(action: object, legal_actions: Sequence[object]) -> bool:
    """Whether ``action`` is one of ``legal_actions``.

    Agents hand back one of the very objects they were offered: an identity scan finds
    it without calling ``__eq__`` on every action before it (``in`` would); anything
    else falls back to equality.
    """
    for candidate in legal_actions:
        if candidate is action:
            return True
    return action in legal_actions


class LazyView(Mapping[str, Any]):
    """A player's view, built by ``build`` the first time anything reads it."""

    __slots__ = ("_build", "_view")

    def __init__(self, build: Callable[[], Mapping[str, Any]]) -> None:
        self._build = build
        self._view: Mapping[str, Any] | None = None

    def built(self) -> Mapping[str, Any] | None:
        """The view if something has read it already, else None (nothing is built)."""
        return self._view

    def resolve(self) -> Mapping[str, Any]:
        """The view itself (a plain ``dict`` for the games here), built if need be."""
        view = self._view
        if view is None:
            view = self._view = self._build()
        return view

    def __getitem__(self, key: str) -> Any:
        return self.resolve()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.resolve())

    def __len__(self) -> int:
        return len(self.resolve())

    def __repr__(self) -> str:
        return repr(self.resolve()) if self._view is not None else "<view, not built yet>"


class InformationSet(Generic[S, A]):
    """What one player knows at one decision, plus a sampler of consistent states.

    It exposes the game (its rules), the player, the player's ``view``, its legal
    actions and ``key`` (the information-state string). ``sample_state`` draws a full
    state that the player cannot tell apart from the true one: the true state stays
    inside the sampler and is never handed out. For a perfect-information game the
    sample is the true state itself, which reveals nothing the view does not.

    ``view_of`` builds the view and ``key_of`` the key, from the view when one is
    passed (the view already built, so that reading both builds it once) or on its own.

    This is a boundary for honest agents, not a sandbox: Python code in the same
    process could dig into the sampler's closure. Agents in this package never do.
    """

    __slots__ = ("_key", "_key_of", "_sampler", "game", "legal_actions", "player", "view")

    def __init__(
        self,
        game: Game[S, A, Any],
        player: PlayerId,
        view_of: Callable[[], Mapping[str, Any]],
        legal_actions: Sequence[A],
        key_of: Callable[[Mapping[str, Any] | None], str],
        sampler: Callable[[random.Random], S],
    ) -> None:
        self.game = game
        self.player = player
        # Built on first use: many agents never look (random) or look at only one of the
        # two, and building a board view costs more than a whole decision of the rules.
        self.view: LazyView = LazyView(view_of)
        self.legal_actions: tuple[A, ...] = tuple(legal_actions)
        self._key: str | None = None
        self._key_of = key_of
        self._sampler = sampler

    @property
    def key(self) -> str:
        """The player's information-state string (computed once, on first use)."""
        key = self._key
        if key is None:
            # the view, if an agent read it first, is handed over rather than built again
            key = self._key = self._key_of(self.view.built())
        return key

    @classmethod
    def of(cls, state: GameState[S, A], player: PlayerId) -> InformationSet[S, A]:
        """The information set of ``player`` in ``state`` (for drivers only)."""
        game = state.game
        data = state.data

        def sample(rng: random.Random) -> S:
            return game.resample_hidden(data, player, rng)

        def view_of() -> Mapping[str, Any]:
            return game.view(data, player)

        def key_of(view: Mapping[str, Any] | None) -> str:
            return game.information_state_string(data, player, view)

        return cls(game, player, view_of, state.legal_actions(player), key_of, sample)

    def sample_data(self, rng: random.Random) -> S:
        """A rules state consistent with this information set, drawn with ``rng``."""
        return self._sampler(rng)

    def sample_state(self, rng: random.Random) -> GameState[S, A]:
        """A checked ``GameState`` around a sampled state.

        Its history is empty on purpose: the true history holds chance outcomes (the
        deal) that the player may not know.
        """
        from koth.core.state import GameState

        return GameState(self.game, self.sample_data(rng))

    def __repr__(self) -> str:
        return (
            f"<InformationSet {self.game.name} player {self.player}: "
            f"{len(self.legal_actions)} legal actions>"
        )


@dataclass(frozen=True, slots=True)
class DecisionContext(Generic[S, A]):
    """Everything an agent may use besides its view and legal actions."""

    info_set: InformationSet[S, A]
    #: decisions taken in the game so far (by every player, chance excluded)
    decision_number: int
    #: True when other players choose at the same time (their choices are not known)
    simultaneous: bool


@runtime_checkable
class Agent(Protocol[A]):
    """A player of any koth game.

    ``reset`` starts a new game as ``player`` with its own seed; ``act`` returns one of
    ``legal_actions``. An agent is reproducible: the same seed and the same sequence of
    observations give the same actions (when its budget counts iterations, not time).
    """

    @property
    def name(self) -> str: ...

    def reset(self, game: Game[Any, A, Any], player: PlayerId, seed: int) -> None: ...

    def act(
        self,
        observation_view: Mapping[str, Any],
        legal_actions: Sequence[A],
        context: DecisionContext[Any, A],
    ) -> A: ...
