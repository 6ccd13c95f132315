"""The rules of one game: pure functions over immutable state data.

A ``Game`` is a set of parameters plus pure functions over a game-specific immutable
state value ``S``; actions are small frozen values ``A``. Nothing here mutates ``S`` and
nothing draws random numbers: chance is a node with explicit outcomes. The mutable,
OpenSpiel-like handle that callers use is ``koth.core.state.GameState``, which runs the
framework checks (game over, not your turn, unknown action, illegal action) before it
calls the rules.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from koth.core.errors import InvalidActionError
from koth.core.facts import GameFacts
from koth.core.notes import TransitionNote
from koth.core.outcome import Outcome
from koth.core.params import GameParams
from koth.core.players import PlayerId, ToMove

if TYPE_CHECKING:
    from koth.core.log import LogEvent
    from koth.core.state import GameState

S = TypeVar("S")
A = TypeVar("A", bound=Hashable)
P = TypeVar("P", bound=GameParams)

JSON = Any
"""A value made of dict/list/str/int/float/bool/None only."""


class Game(ABC, Generic[S, A, P]):
    """One game with fixed parameters."""

    #: registry name, e.g. "cards"
    name: ClassVar[str]
    #: the parameters class
    params_type: ClassVar[type[GameParams]]
    #: the codes of the game's kinds of action (``action_kind``): stable words a program
    #: or a table matches on (the web app's schema lists every registered game's)
    action_kinds: ClassVar[tuple[str, ...]] = ()

    def __init__(self, params: Mapping[str, Any] | P | None = None, **overrides: Any) -> None:
        self.params: P = self.params_type.parse(params, **overrides)  # type: ignore[assignment]

    # ----------------------------------------------------------------- table
    @property
    @abstractmethod
    def num_players(self) -> int:
        """Seats at the table."""

    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Size of the action-id space (player and chance actions share it)."""

    # ----------------------------------------------------------------- rules
    @abstractmethod
    def initial(self) -> S:
        """The state before the first decision (usually a chance node: the deal)."""

    @abstractmethod
    def to_move(self, state: S) -> ToMove:
        """Which decision the state waits for."""

    @abstractmethod
    def chance_outcomes(self, state: S) -> Sequence[tuple[A, float]]:
        """At a chance node: every outcome with its probability (summing to 1)."""

    @abstractmethod
    def legal_actions(self, state: S, player: PlayerId) -> Sequence[A]:
        """The actions ``player`` may take now, sorted by action id; empty if none."""

    @abstractmethod
    def apply(self, state: S, player: PlayerId, action: A) -> S:
        """The state after one player's (or chance's) legal action."""

    def apply_joint(self, state: S, actions: Mapping[PlayerId, A]) -> S:
        """The state after a simultaneous node: every acting player's legal action."""
        raise NotImplementedError(f"{self.name} has no simultaneous nodes")

    @abstractmethod
    def returns(self, state: S) -> tuple[float, ...]:
        """Each player's return: final utility at a terminal state, 0 before."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    def transition_notes(
        self, before: S, after: S, player: PlayerId, action: A | None
    ) -> list[TransitionNote]:
        """What the transition from ``before`` to ``after`` did that ``after`` alone does
        not show a player (dice forfeited, turns skipped): public events only, in the
        order they happened. ``player`` and ``action`` made it (``player`` is CHANCE for a
        chance outcome; SIMULTANEOUS, with ``action`` None, for a joint move). Default:
        the game has no such events."""
        return []

    def shown_action(self, player: PlayerId, action: A, reader: PlayerId | None) -> A | None:
        """What ``reader`` (None: a spectator) may know of ``player``'s single action:
        the action itself where it is public, None where it is secret. Default: only the
        player who made it knows it (everything public shows through the views)."""
        return action if reader == player else None

    def log_events(
        self,
        before: Mapping[str, Any],
        after: Mapping[str, Any],
        player: PlayerId,
        action: A | None,
        reader: PlayerId | None,
    ) -> list[LogEvent]:
        """The public events of one move as ``reader`` saw them: derived from its two
        views around the move and ``action`` as ``shown_action`` showed it to ``reader``
        (None: not shown), never from the full state (``koth.core.log``). ``player``
        made the move (CHANCE, SIMULTANEOUS for a joint move). Default: none."""
        return []

    # ----------------------------------------------------------- information
    @abstractmethod
    def view(self, state: S, player: PlayerId | None) -> dict[str, JSON]:
        """What ``player`` (None: a spectator) may know, as JSON-compatible data.

        This is the single place where secrets are stripped: every adapter (API,
        websocket, agents, logs, replays) shows a player only this.
        """

    def resample_hidden(self, state: S, player: PlayerId | None, rng: random.Random) -> S:
        """A state that ``player`` cannot tell apart from ``state``, drawn at random.

        Everything ``player`` does not know is redrawn consistently with what it has
        seen. Perfect-information games return the state itself. Used by
        information-set search and by the conformance tests that prove ``view`` leaks
        nothing.
        """
        return state

    def information_state_string(
        self, state: S, player: PlayerId | None, view: Mapping[str, Any] | None = None
    ) -> str:
        """A canonical string of ``view``: equal exactly when the views are equal.

        ``view``, when given, is ``self.view(state, player)`` already built by the caller
        (an agent that read its view before its key), so it is not built twice.
        """
        if view is None:
            view = self.view(state, player)
        return json.dumps(view, sort_keys=True, separators=(",", ":"))

    # -------------------------------------------------------------- notation
    def action_to_str(self, action: A) -> str:
        return str(action)

    def action_kind(self, action: A) -> str:
        """The kind of ``action``, one of ``action_kinds``. Default: its class's name
        in snake case (``TurnRing``: ``turn_ring``)."""
        name = type(action).__name__
        return "".join(
            f"_{c.lower()}" if c.isupper() and i else c.lower() for i, c in enumerate(name)
        )

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """The action written as ``text``; raises InvalidActionError if malformed."""

    @abstractmethod
    def action_id(self, action: A) -> int:
        """A stable integer in ``range(num_distinct_actions())``."""

    @abstractmethod
    def action_from_id(self, action_id: int) -> A:
        """The inverse of ``action_id``; raises InvalidActionError when out of range."""

    def _check_action_id(self, action_id: int) -> None:
        if not 0 <= action_id < self.num_distinct_actions():
            raise InvalidActionError(
                f"action id {action_id} is outside 0..{self.num_distinct_actions() - 1} "
                f"of {self.name}"
            )

    def explain_illegal(self, state: S, player: PlayerId, action: A) -> tuple[str, str | None]:
        """Why ``action`` is not legal for ``player`` now: (reason, rule number)."""
        return ("it is not among the legal actions now", None)

    # --------------------------------------------------------- serialization
    @abstractmethod
    def state_to_json(self, state: S) -> JSON:
        """The full state (secrets included) as JSON-compatible data."""

    @abstractmethod
    def state_from_json(self, data: JSON) -> S:
        """The inverse of ``state_to_json``; raises ValueError on malformed data."""

    def describe_position(self, state: S) -> str | None:
        """The position in one line of the game's notation, for messages a player may
        read (illegal actions): nothing secret. None: the game has no such text."""
        return None

    # ----------------------------------------------------------------- facts
    def facts(self) -> GameFacts | None:
        """Length bounds and the range of returns of this instance, derived from the
        rules (``koth.core.facts``); None when the game does not state them."""
        return None

    # -------------------------------------------------------------- checking
    def invariant_violations(self, state: S) -> list[str]:
        """Broken invariants of ``state`` (cards or units not conserved...); [] if none."""
        return []

    # ------------------------------------------------------------- rendering
    def render(self, state: S, player: PlayerId | None) -> str:
        """Text of what ``player`` sees, for terminals and logs."""
        return json.dumps(self.view(state, player), indent=2, sort_keys=True)

    # ----------------------------------------------------------------- entry
    def new_initial_state(self) -> GameState[S, A]:
        """A fresh game, ready for its first decision."""
        from koth.core.state import GameState

        return GameState(self, self.initial())

    def simultaneous_rule(self, state: S) -> str | None:
        """The rule that makes the players of ``state``'s simultaneous node decide at
        the same time (named when one of them acts alone); None when the game has none."""
        return None

    def describe_params(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.params.to_json().items())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.describe_params()})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.name == self.name and other.params == self.params

    def __hash__(self) -> int:
        return hash((self.name, self.params))

    def bind_steps(self, steps: object, owner: type[Game[Any, Any, Any]], *names: str) -> None:
        """Answer the per-step calls ``names`` with ``steps``' own bound methods (a rules
        object, compiled in the compiled build), unless a subclass of ``owner`` overrides
        one. Every step of a playout or search calls them; bound on the instance they skip
        the interpreted forwarding frame of ``owner``'s methods, which stay as the
        documented, typed interface."""
        for name in names:
            if getattr(type(self), name) is getattr(owner, name):
                setattr(self, name, getattr(steps, name))

    def __reduce__(self) -> tuple[type[Game[S, A, P]], tuple[P]]:
        # A game is its class and parameters: pickling (worker processes, Ray) and
        # copying rebuild what a game derives from them (rules tables, compiled rules
        # objects, caches) instead of copying it.
        return (type(self), (self.params,))
