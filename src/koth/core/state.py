"""The mutable handle on a game in progress, with the framework checks.

``GameState`` wraps an immutable rules state and its history. Every action goes
through the same checks, in this order, before any rules code runs: the game is not
over, the player is one of those to move, the action is well formed, the action is
legal. A rejected action raises a typed error and leaves the state as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Generic, TypeGuard, TypeVar, cast

from koth.core.chance import UniformOutcomes, sample_outcome
from koth.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from koth.core.history import HistoryEntry, joint_move, single_move
from koth.core.offered import ActionList
from koth.core.outcome import Outcome
from koth.core.players import CHANCE, SIMULTANEOUS, NodeKind, PlayerId, ToMove

if TYPE_CHECKING:
    from koth.core.game import Game

S = TypeVar("S")
A = TypeVar("A", bound=Hashable)

_PLAYER: Final = NodeKind.PLAYER
_CHANCE_NODE: Final = NodeKind.CHANCE
_SIMULTANEOUS: Final = NodeKind.SIMULTANEOUS
_TERMINAL: Final = NodeKind.TERMINAL

__all__ = ["GameState", "HistoryEntry", "describe_to_move", "view"]


def _covers(actions: Mapping[PlayerId, Any], players: tuple[PlayerId, ...]) -> bool:
    """Whether ``actions`` holds an action of every one of ``players``."""
    for player in players:  # noqa: SIM110  (all() over a generator costs twice as much)
        if player not in actions:
            return False
    return True


def _offered(action: object, offered: Sequence[A]) -> TypeGuard[A]:
    """Whether ``action`` is one of the very objects ``offered`` (agents and playouts
    hand those back): an identity scan, or the ``ActionList``'s own test, which builds
    none of its items."""
    if isinstance(offered, ActionList):
        # named as an ActionList: narrowed from Sequence (which it only registers with),
        # the type is an intersection, and compiled, the call would be a generic one
        listed: ActionList[Any] = offered
        return listed.holds(action)
    for candidate in offered:  # noqa: SIM110  (as in _covers)
        if candidate is action:
            return True
    return False


def _increasing(players: tuple[PlayerId, ...]) -> bool:
    """Whether ``players`` are listed in strictly increasing order."""
    for k in range(1, len(players)):  # noqa: SIM110  (as in _covers)
        if players[k - 1] >= players[k]:
            return False
    return True


def describe_to_move(to_move: ToMove) -> str:
    if to_move.kind is NodeKind.PLAYER:
        return f"player {to_move.players[0]} to move"
    if to_move.kind is NodeKind.SIMULTANEOUS:
        return "players " + ", ".join(map(str, to_move.players)) + " to move simultaneously"
    if to_move.kind is NodeKind.CHANCE:
        return "a chance event is next"
    return "the game is over"


class GameState(Generic[S, A]):
    """A game in progress: the rules state, its history, and the checked API."""

    __slots__ = (
        "_actions",
        "_apply",
        "_apply_joint",
        "_chance",
        "_chance_outcomes",
        "_data",
        "_game_legal",
        "_game_to_move",
        "_legal_cache",
        "_legal_sets",
        "_mover_legal",
        "_movers",
        "_to_move",
        "game",
    )

    def __init__(
        self, game: Game[S, A, Any], data: S, history: Sequence[HistoryEntry[A]] = ()
    ) -> None:
        self.game = game
        # the game's per-step methods, looked up once: each step calls two or three
        # of them, and a method lookup on the game costs more than the call itself
        # in the compiled build
        self._game_to_move: Callable[[S], ToMove] = game.to_move
        self._game_legal: Callable[[S, PlayerId], Sequence[A]] = game.legal_actions
        self._chance_outcomes: Callable[[S], Sequence[tuple[A, float]]] = game.chance_outcomes
        self._apply: Callable[[S, PlayerId, A], S] = game.apply
        self._apply_joint: Callable[[S, Mapping[PlayerId, A]], S] = game.apply_joint
        self._data = data
        # The history as two parallel lists, one entry per move: the player and the
        # action of a single move, or SIMULTANEOUS and the (player, action) pairs of a
        # joint one (its HistoryEntry for an entry of any other shape). A step of a
        # playout then appends an int and an object that exists already (or one tuple),
        # and allocates nothing that the garbage collector would have to visit; the
        # entries are built when ``history`` is read.
        self._movers: list[PlayerId] = []
        self._actions: list[Any] = []
        for move in history:
            if not move.simultaneous and len(move.actions) == 1:
                self._movers.append(move.actions[0][0])
                self._actions.append(move.actions[0][1])
            else:
                self._movers.append(SIMULTANEOUS)
                self._actions.append(move.actions if move.simultaneous else move)
        self._to_move: ToMove | None = None
        # The legal actions of the single player to move, apart from the per-player
        # cache (simultaneous nodes, other players): a random playout's every decision
        # reads them twice (listing, then the legality check), through one slot.
        self._mover_legal: Sequence[A] | None = None
        # the legal actions of every other player asked for (made when first needed:
        # a playout asks only the mover's)
        self._legal_cache: dict[PlayerId, Sequence[A]] | None = None
        self._legal_sets: dict[PlayerId, frozenset[A]] | None = None  # made when needed
        self._chance: Sequence[tuple[A, float]] | None = None

    # ------------------------------------------------------------ inspection
    @property
    def data(self) -> S:
        """The immutable rules state (secrets included: never show it to a player)."""
        return self._data

    @property
    def history(self) -> tuple[HistoryEntry[A], ...]:
        """Every move so far, in order (built afresh at each read: ``num_moves`` is
        the cheap way to count them)."""
        return self.history_since(0)

    def history_since(self, start: int) -> tuple[HistoryEntry[A], ...]:
        """The moves from index ``start`` on (what ``history[start:]`` holds, without
        building the entries before it)."""
        return tuple(
            single_move(player, action)
            if player != SIMULTANEOUS
            else joint_move(action)
            if type(action) is tuple
            else action
            for player, action in zip(self._movers[start:], self._actions[start:], strict=True)
        )

    @property
    def movers(self) -> tuple[PlayerId, ...]:
        """Who made each move so far: a player, CHANCE, or SIMULTANEOUS for a joint
        move (cheaper than ``history`` when only that is wanted)."""
        return tuple(self._movers)

    @property
    def num_moves(self) -> int:
        """How many moves (chance outcomes, single and joint actions) were applied."""
        return len(self._movers)

    def to_move(self) -> ToMove:
        to_move = self._to_move
        if to_move is None:
            to_move = self._to_move = self._game_to_move(self._data)
        return to_move

    def current_player(self) -> PlayerId:
        """A player id, or CHANCE, SIMULTANEOUS or TERMINAL (OpenSpiel's convention)."""
        return self.to_move().current_player

    def acting_players(self) -> tuple[PlayerId, ...]:
        """The players who must act now (several at a simultaneous node)."""
        to_move = self._to_move
        if to_move is None:
            to_move = self._to_move = self._game_to_move(self._data)
        return to_move.players

    # The node-kind tests below run several times per step of every playout: each reads
    # the cached ToMove itself rather than going through to_move().
    def is_chance_node(self) -> bool:
        to_move = self._to_move
        if to_move is None:
            to_move = self._to_move = self._game_to_move(self._data)
        return to_move.kind is _CHANCE_NODE

    def is_simultaneous_node(self) -> bool:
        to_move = self._to_move
        if to_move is None:
            to_move = self._to_move = self._game_to_move(self._data)
        return to_move.kind is _SIMULTANEOUS

    def is_terminal(self) -> bool:
        to_move = self._to_move
        if to_move is None:
            to_move = self._to_move = self._game_to_move(self._data)
        return to_move.kind is _TERMINAL

    def chance_outcomes(self) -> Sequence[tuple[A, float]]:
        chance = self._chance
        if chance is not None:
            return chance
        to_move = self._to_move
        if to_move is None:
            to_move = self._to_move = self._game_to_move(self._data)
        if to_move.kind is not _CHANCE_NODE:
            return ()
        self._chance = chance = self._chance_outcomes(self._data)
        return chance

    def legal_actions(self, player: PlayerId | None = None) -> Sequence[A]:
        """Sorted legal actions of ``player`` (default: the single player to move)."""
        if player is None:
            legal = self._mover_legal
            if legal is not None:
                return legal
            to_move = self._to_move
            if to_move is None:
                to_move = self._to_move = self._game_to_move(self._data)
            if to_move.kind is _PLAYER:
                mover = to_move.players[0]
                legal = self._game_legal(self._data, mover)
                self._mover_legal = legal
                return legal
            player = self._default_player(None)
        return self._legal(player)

    def legal_action_ids(self, player: PlayerId | None = None) -> list[int]:
        return [self.game.action_id(a) for a in self.legal_actions(player)]

    def returns(self) -> tuple[float, ...]:
        return self.game.returns(self._data)

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self._data)

    def view(self, player: PlayerId | None) -> dict[str, Any]:
        return self.game.view(self._data, player)

    def information_state_string(self, player: PlayerId | None) -> str:
        return self.game.information_state_string(self._data, player)

    def render(self, player: PlayerId | None) -> str:
        return self.game.render(self._data, player)

    # ------------------------------------------------------------ transitions
    def apply_action(self, action: A | str, player: PlayerId | None = None) -> A:
        """Apply one action of the single player to move, or of chance.

        ``action`` may be an action value or its notation. Returns the parsed action.
        """
        to_move = self._to_move
        if to_move is None:
            to_move = self._to_move = self._game_to_move(self._data)
        kind = to_move.kind
        # Fast path: one of the very objects this node offers (what agents and playouts
        # hand back) is well formed and legal, so parsing and the full check are skipped.
        if kind is _PLAYER:
            mover = to_move.players[0]
            if player is not None and player != mover:
                raise NotYourTurnError(
                    f"player {player} tried {action!s} but {describe_to_move(to_move)}"
                )
            offered = self._mover_legal
            if offered is None:
                offered = self._legal(mover)
            if _offered(action, offered):
                parsed: A = action
            else:
                parsed = self._parse(action)
                self._check_legal(mover, parsed)
        elif kind is _CHANCE_NODE:
            mover = CHANCE
            if player is not None and player != mover:
                raise NotYourTurnError(
                    f"player {player} tried {action!s} but {describe_to_move(to_move)}"
                )
            outcomes = self._chance
            if outcomes is None:
                outcomes = self.chance_outcomes()
            # the outcome handed back is one of this node's very objects (what samplers
            # hand back): asked of UniformOutcomes, else found by identity (inline: a
            # helper's call costs an interpreted chance step some 2%)
            if isinstance(outcomes, UniformOutcomes):
                uniform: UniformOutcomes[Any] = outcomes  # as in _offered
                offered_outcome = uniform.offers(action)
            else:
                offered_outcome = False
                # each pair's action alone: compiled, iterating the pairs as typed
                # (action, float) would convert each one, its probability unboxed and
                # boxed again
                pairs: Sequence[tuple[object, object]] = outcomes
                for pair in pairs:
                    if pair[0] is action:
                        offered_outcome = True
                        break
            if offered_outcome:
                parsed = cast(A, action)  # one of the outcomes' actions, so not a text
            else:
                parsed = self._parse(action)
                self._check_legal(mover, parsed)
        elif kind is _TERMINAL:
            raise GameOverError(f"the game is over; no action is accepted ({action!s})")
        else:
            acting = ", ".join(map(str, to_move.players))
            rule = self.game.simultaneous_rule(self._data)
            raise NotYourTurnError(
                f"{action!s} by player {player} alone: players {acting} decide at the same "
                f"time here (rule {rule or 'of simultaneous moves'}), so their actions are "
                "submitted together as one joint move (apply_actions)",
                rule=rule,
            )
        self._advance(self._apply(self._data, mover, parsed), mover, parsed)
        return parsed

    def apply_actions(self, actions: Mapping[PlayerId, A | str]) -> dict[PlayerId, A]:
        """Apply the joint action of a simultaneous node: one action per acting player."""
        to_move = self._to_move
        if to_move is None:
            to_move = self._to_move = self._game_to_move(self._data)
        if to_move.kind is _TERMINAL:
            raise GameOverError("the game is over; no action is accepted")
        if to_move.kind is not _SIMULTANEOUS:
            if len(actions) == 1:
                ((player, action),) = actions.items()
                return {player: self.apply_action(action, player)}
            raise NotYourTurnError(
                f"not a simultaneous node ({describe_to_move(to_move)}); "
                f"got actions of players {sorted(actions)}"
            )
        acting = to_move.players
        # the usual case, every acting player and no one else, costs no set arithmetic
        covered = len(actions) == len(acting) and _covers(actions, acting)
        if not covered:
            strangers = sorted(set(actions) - set(acting))
            if strangers:
                raise NotYourTurnError(
                    f"players {strangers} are not to move ({describe_to_move(to_move)})"
                )
            missing = sorted(set(acting) - set(actions))
            if missing:
                raise IllegalActionError(
                    f"simultaneous node: players {missing} have not submitted an action",
                )
        parsed: dict[PlayerId, A] = {}
        unchecked: list[PlayerId] = []
        # by player: then the acting players, when they are listed in increasing order
        # (the usual case), are the submitters in order without a sort
        for p in acting if covered and _increasing(acting) else sorted(actions):
            given = actions[p]
            # legal as given when it is one of the very objects offered (see apply_action)
            if _offered(given, self._legal(p)):
                parsed[p] = given
            else:
                parsed[p] = self._parse(given)
                unchecked.append(p)
        for p in unchecked:
            self._check_legal(p, parsed[p])
        # the history keeps the pairs; ``history`` makes them a HistoryEntry
        self._advance(self._apply_joint(self._data, parsed), SIMULTANEOUS, tuple(parsed.items()))
        return parsed

    def apply_move(self, move: HistoryEntry[A]) -> None:
        """Apply a history entry (checked like any other action)."""
        if move.simultaneous:
            self.apply_actions(dict(move.actions))
        else:
            ((player, action),) = move.actions
            self.apply_action(action, player)

    def check_action(self, action: A | str, player: PlayerId) -> A:
        """Parse and check one player's action without applying it (for collecting
        simultaneous submissions one at a time)."""
        to_move = self.to_move()
        if to_move.kind is NodeKind.TERMINAL:
            raise GameOverError(f"the game is over; no action is accepted ({action!s})")
        movers = (CHANCE,) if to_move.kind is NodeKind.CHANCE else to_move.players
        if player not in movers:
            raise NotYourTurnError(
                f"player {player} tried {action!s} but {describe_to_move(to_move)}"
            )
        parsed = self._parse(action)
        self._check_legal(player, parsed)
        return parsed

    # ------------------------------------------------------------ copying
    def clone(self) -> GameState[S, A]:
        """An independent copy (cheap: the rules state is immutable)."""
        copy = GameState(self.game, self._data)
        copy._movers = self._movers.copy()
        copy._actions = self._actions.copy()
        copy._to_move = self._to_move
        copy._mover_legal = self._mover_legal
        copy._legal_cache = self._legal_cache
        copy._legal_sets = self._legal_sets
        copy._chance = self._chance
        return copy

    def child(self, action: A, player: PlayerId | None = None) -> GameState[S, A]:
        copy = self.clone()
        copy.apply_action(action, player)
        return copy

    def sample_chance(self, rng: random.Random) -> A:
        """Draw one outcome of this chance node with ``rng`` (not applied)."""
        return sample_outcome(self.chance_outcomes(), rng)

    # ------------------------------------------------------------ internals
    def _default_player(self, player: PlayerId | None) -> PlayerId:
        if player is not None:
            return player
        to_move = self.to_move()
        if to_move.kind is NodeKind.PLAYER:
            return to_move.players[0]
        if to_move.kind is NodeKind.CHANCE:
            return CHANCE
        if to_move.kind is NodeKind.TERMINAL:
            return CHANCE  # no legal actions for anyone
        raise ValueError("a simultaneous node: name the player whose legal actions you want")

    def _legal(self, player: PlayerId) -> Sequence[A]:
        mover_legal = self._mover_legal
        if mover_legal is not None:
            to_move = self._to_move  # set, as it was when the mover's list was made
            if to_move is not None and to_move.players[0] == player:
                return mover_legal
        legal_cache = self._legal_cache
        if legal_cache is None:
            legal_cache = self._legal_cache = {}
        cached = legal_cache.get(player)
        if cached is None:
            to_move = self.to_move()
            kind = to_move.kind
            actions: Sequence[A]
            if kind is _CHANCE_NODE:
                actions = [a for a, _ in self.chance_outcomes()] if player == CHANCE else []
            elif player in to_move.players:
                actions = self._game_legal(self._data, player)
                if kind is _PLAYER:
                    self._mover_legal = actions
            else:
                actions = []
            legal_cache[player] = cached = actions
        return cached

    def _is_legal(self, player: PlayerId, action: A) -> bool:
        legal = self._legal(player)
        # Agents usually hand back one of the very objects legal_actions() returned; an
        # identity test finds those without hashing the whole list.
        if _offered(action, legal):
            return True
        legal_sets = self._legal_sets
        if legal_sets is None:
            legal_sets = self._legal_sets = {}
        legal_set = legal_sets.get(player)
        if legal_set is None:
            legal_sets[player] = legal_set = frozenset(legal)
        return action in legal_set

    def _parse(self, action: A | str) -> A:
        if isinstance(action, str):
            return self.game.parse_action(action)
        try:
            self.game.action_id(action)
        except (InvalidActionError, TypeError, AttributeError, KeyError, ValueError):
            raise InvalidActionError(f"{action!r} is not an action of {self.game.name}") from None
        return action

    def _check_legal(self, player: PlayerId, action: A) -> None:
        if self._is_legal(player, action):
            return
        reason, rule = self.game.explain_illegal(self._data, player, action)
        who = "chance" if player == CHANCE else f"player {player}"
        rule_text = f" (rule {rule})" if rule else ""
        position = self.game.describe_position(self._data)
        where = f"; position {position}" if position else ""
        raise IllegalActionError(
            f"illegal action '{self.game.action_to_str(action)}' by {who}: {reason}{rule_text}; "
            f"at move {len(self._movers)}, {describe_to_move(self.to_move())}{where}",
            rule=rule,
            reason=f"{reason}{rule_text}",
        )

    def _advance(self, data: S, player: PlayerId, action: object) -> None:
        """Enter ``data``, reached by ``player``'s ``action`` (SIMULTANEOUS: the pairs of a
        joint action)."""
        self._data = data
        self._movers.append(player)
        self._actions.append(action)
        self._to_move = None
        self._mover_legal = None
        self._legal_cache = None
        self._legal_sets = None
        self._chance = None

    # ------------------------------------------------------------ comparison
    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, GameState) and other.game == self.game and other._data == self._data
        )

    __hash__ = None  # type: ignore[assignment]  # mutable: not hashable

    def __repr__(self) -> str:
        where = describe_to_move(self.to_move())
        return f"<GameState {self.game.name} move {len(self._movers)}: {where}>"


def view(state: GameState[Any, Any], player: PlayerId | None) -> dict[str, Any]:
    """The observation of ``player`` (None: a spectator): nothing it may not know."""
    return state.view(player)
