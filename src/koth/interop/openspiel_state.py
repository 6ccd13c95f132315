"""The OpenSpiel game, state and observer classes behind `koth.interop.openspiel`.

See that module for the two forms (faithful and turn-based) and how to register a game.
States hold the immutable koth rules state (shared between clones: it is never
mutated), so ``clone()`` is cheap; they serialize through ``Game.state_to_json``.
"""

from __future__ import annotations

import json
import random
from bisect import bisect_left
from collections.abc import Callable, Sequence
from itertools import repeat
from operator import itemgetter
from typing import Any, Final

import numpy as np
import pyspiel  # type: ignore[import-not-found]  # no type information shipped

from koth.core.chance import UniformOutcomes
from koth.core.errors import GameOverError, IllegalActionError, InvalidParamsError
from koth.core.facts import Utility
from koth.core.players import CHANCE, SIMULTANEOUS, TERMINAL, NodeKind, PlayerId
from koth.core.registry import load_game
from koth.interop.encoding import FloatArray
from koth.interop.ids import ActionIds
from koth.interop.spec import (
    AnyGame,
    InteropSpec,
    has_hidden_information,
    has_simultaneous_nodes,
    spec_for,
)

#: name of the no-op a non-acting player submits at a simultaneous node
NOOP_NAME = "pass"

_PLAYER: Final = NodeKind.PLAYER
_CHANCE: Final = NodeKind.CHANCE
_SIMULTANEOUS: Final = NodeKind.SIMULTANEOUS
_TERMINAL: Final = NodeKind.TERMINAL
#: legal lists shorter than this are scanned, longer ones bisected
_SCAN_LIMIT: Final = 16

_UTILITY = {
    Utility.ZERO_SUM: pyspiel.GameType.Utility.ZERO_SUM,
    Utility.CONSTANT_SUM: pyspiel.GameType.Utility.CONSTANT_SUM,
    Utility.GENERAL_SUM: pyspiel.GameType.Utility.GENERAL_SUM,
}


def make_game_type(
    template: pyspiel.GameType, *, simultaneous: bool, hidden: bool, utility: Utility
) -> pyspiel.GameType:
    """``template`` with the facts that can depend on the game's parameters: a variant
    may add simultaneous nodes or hidden information (the board game's secret
    exclusions), so each game instance states its own dynamics and information."""
    return pyspiel.GameType(
        short_name=template.short_name,
        long_name=template.long_name,
        dynamics=(
            pyspiel.GameType.Dynamics.SIMULTANEOUS
            if simultaneous
            else pyspiel.GameType.Dynamics.SEQUENTIAL
        ),
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=_UTILITY[utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=template.max_num_players,
        min_num_players=template.min_num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=dict(template.parameter_specification),
    )


class _Adapter:
    """Everything shared by the states of one OpenSpiel game: the koth game, its spec,
    the form (faithful or turn-based) and the observation encoder."""

    def __init__(self, game: AnyGame, spec: InteropSpec, turn_based: bool) -> None:
        self.game = game
        self.spec = spec
        self.turn_based = turn_based
        self.num_players = game.num_players
        self.koth_actions = game.num_distinct_actions()
        #: OpenSpiel SIMULTANEOUS dynamics (the faithful form of a simultaneous game)
        self.simultaneous = has_simultaneous_nodes(game, spec) and not turn_based
        self.noop = self.koth_actions if self.simultaneous else -1
        self.num_distinct_actions = self.koth_actions + (1 if self.simultaneous else 0)
        self.hidden_information = has_hidden_information(game, spec)
        self.encoder = spec.encoder(game)
        self.key = (game.name, json.dumps(game.params.to_json(), sort_keys=True), turn_based)
        self._initial: _Node | None = None
        self.ids = ActionIds(game)
        self.ids_of = self.ids.ids_of
        self.outcome_ids = self.ids.outcome_ids
        self.action_of = self.ids.action_of
        #: id -> action value, as far as ``action_of`` has converted them
        self.actions = self.ids.actions
        # the rules' calls of every step, looked up once
        self.to_move = game.to_move
        self.legal_actions = game.legal_actions
        self.apply = game.apply
        #: the last chance outcomes met that are a tuple (the board's dice: the same
        #: tuple at every roll), with what ``_Node.chance_ids`` made of them: (outcomes,
        #: ids, probabilities). Holding the tuple keeps its identity its own.
        self.last_chance: tuple[Any, list[int], list[float] | float] = ((), [], 0.0)

    def initial_node(self) -> _Node:
        if self._initial is None:
            self._initial = _Node(self, self.game.initial())
        return self._initial

    def max_game_length(self) -> int:
        decisions = self.spec.max_decisions
        if self.turn_based and has_simultaneous_nodes(self.game, self.spec):
            return decisions * self.num_players  # each joint action becomes n turns
        return decisions


_ADAPTERS: dict[tuple[str, str, bool], _Adapter] = {}
_NODE_ID = {
    NodeKind.SIMULTANEOUS: SIMULTANEOUS,
    NodeKind.CHANCE: CHANCE,
    NodeKind.TERMINAL: TERMINAL,
}


def _restore_node(key: tuple[str, str, bool], state_json: Any) -> _Node:
    """Unpickle a node: the koth game from the registry, the state from its JSON."""
    adapter = _ADAPTERS.get(key)
    if adapter is None:
        name, params_text, turn_based = key
        game = load_game(name, json.loads(params_text))
        adapter = _Adapter(game, spec_for(game), turn_based)
        _ADAPTERS[key] = adapter
    return _Node(adapter, adapter.game.state_from_json(state_json))


class _Node:
    """One immutable koth rules state with lazily computed, cached facts.

    Shared by every OpenSpiel state that reaches it through clone(): ``deepcopy``
    returns the node itself (OpenSpiel clones Python states by deep-copying their
    attributes) and pickling goes through the game's ``state_to_json``.

    A playout asks a node for one list (the mover's legal ids, or the chance outcomes)
    and applies one of its actions; the node keeps that list, and the other players'
    lists at a simultaneous node only when asked for.
    """

    __slots__ = (
        "acting",
        "adapter",
        "current",
        "data",
        "ids",
        "kind",
        "offered",
        "others",
        "probabilities",
    )

    def __init__(self, adapter: _Adapter, data: Any) -> None:
        self.adapter = adapter
        self.data = data
        to_move = adapter.to_move(data)
        self.kind = kind = to_move.kind
        self.acting = players = to_move.players
        # the turn-based form asks the acting players of a simultaneous node in turn
        if kind is _PLAYER or (kind is _SIMULTANEOUS and adapter.turn_based):
            self.current = players[0]
        elif kind is _CHANCE:
            self.current = CHANCE
        else:
            self.current = _NODE_ID[kind]
        #: the legal ids of ``current`` (a player, or chance: the outcomes' ids)
        self.ids: list[int] | None = None
        # set when first needed (fewer stores a step): ``probabilities`` and ``offered``
        # by ``chance_ids``, ``others`` by ``legal``

    #: chance node: the outcomes' probabilities (one float when all are equal), and the
    #: game's outcomes when they tell an offered action in one call
    probabilities: list[float] | float
    offered: UniformOutcomes[Any] | None
    #: any other player's legal ids (simultaneous nodes)
    others: dict[PlayerId, list[int]]

    def mover_ids(self) -> list[int]:
        """The legal ids of ``current``, listed at the first call: the player to move
        (the first acting player at a simultaneous node), or the chance outcomes' ids
        (in the game's order, as OpenSpiel lists a Python game's chance outcomes)."""
        ids = self.ids
        if ids is None:
            if self.kind is _CHANCE:
                return self.chance_ids()
            adapter = self.adapter
            # the contract sorts legal actions by id; the conformance suite checks it
            ids = self.ids = adapter.ids_of(adapter.legal_actions(self.data, self.current))
        return ids

    def legal(self, player: PlayerId) -> list[int]:
        """The legal action ids of ``player`` (chance included)."""
        kind = self.kind
        if player == self.current and kind is not _TERMINAL:
            return self.mover_ids()
        if kind is _CHANCE or player not in self.acting:
            return []
        others: dict[PlayerId, list[int]] | None = getattr(self, "others", None)
        if others is None:
            others = self.others = {}
        ids = others.get(player)
        if ids is None:
            adapter = self.adapter
            ids = others[player] = adapter.ids_of(adapter.legal_actions(self.data, player))
        return ids

    def chance_pairs(self) -> list[tuple[int, float]]:
        """A new list of the chance outcomes as (id, probability) pairs ([] at another
        node)."""
        if self.kind is not _CHANCE:
            return []
        ids = self.chance_ids()
        probabilities = self.probabilities
        if isinstance(probabilities, float):
            return list(zip(ids, repeat(probabilities, len(ids)), strict=True))
        return list(zip(ids, probabilities, strict=True))

    def chance_ids(self) -> list[int]:
        """The chance outcomes' ids, in the game's order (at a chance node only)."""
        ids = self.ids
        if ids is None:
            adapter = self.adapter
            raw = adapter.game.chance_outcomes(self.data)
            if isinstance(raw, UniformOutcomes):  # (action, 1 / n) pairs built when read
                self.offered = raw
                ids = adapter.outcome_ids(raw)  # the game's ids when it knows them
                self.probabilities = raw.probability
            else:
                self.offered = None
                last = adapter.last_chance
                if raw is last[0]:  # the same tuple as before: the same lists (shared,
                    # never changed: every answer that hands one out copies it)
                    ids = last[1]
                    self.probabilities = last[2]
                else:
                    listed = list(raw)
                    ids = adapter.outcome_ids(listed)
                    self.probabilities = probabilities = list(map(itemgetter(1), listed))
                    if isinstance(raw, tuple):
                        adapter.last_chance = (raw, ids, probabilities)
            self.ids = ids
        return ids

    def holds(self, action: int, value: Any) -> bool:
        """Whether ``action`` (whose value is ``value``) is legal for ``current``. A
        False may be wrong (a long list the game failed to sort, an equal value that is
        not the very one offered): check ``legal`` before refusing."""
        if self.kind is _CHANCE:
            self.chance_ids()
            offered = self.offered
            if offered is not None:
                return offered.offers(value)
        ids = self.mover_ids()
        if len(ids) < _SCAN_LIMIT:
            return action in ids
        at = bisect_left(ids, action)
        return at < len(ids) and ids[at] == action

    def child(self, data: Any) -> _Node:
        return _Node(self.adapter, data)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self

    def __reduce__(self) -> tuple[Callable[..., _Node], tuple[Any, ...]]:
        return (_restore_node, (self.adapter.key, self.adapter.game.state_to_json(self.data)))


class KothOpenSpielGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game backed by a koth ``Game``."""

    def __init__(
        self,
        koth_game: AnyGame,
        spec: InteropSpec,
        game_type: pyspiel.GameType,
        turn_based: bool,
        params: dict[str, Any],
    ) -> None:
        adapter = _Adapter(koth_game, spec, turn_based)
        info = pyspiel.GameInfo(
            num_distinct_actions=adapter.num_distinct_actions,
            max_chance_outcomes=adapter.koth_actions,  # chance ids share the action space
            num_players=adapter.num_players,
            min_utility=spec.min_utility,
            max_utility=spec.max_utility,
            utility_sum=_utility_sum(spec),
            max_game_length=adapter.max_game_length(),
        )
        instance_type = make_game_type(
            game_type,
            simultaneous=adapter.simultaneous,
            hidden=adapter.hidden_information,
            utility=spec.utility,
        )
        super().__init__(instance_type, info, params)
        self.adapter = adapter
        _ADAPTERS.setdefault(adapter.key, adapter)

    def __reduce__(self) -> tuple[Callable[[str], pyspiel.Game], tuple[str]]:
        # the generated subclass is not importable by name; the game string is what
        # OpenSpiel itself uses to serialize a game
        return (pyspiel.load_game, (str(self),))

    @property
    def koth_game(self) -> AnyGame:
        return self.adapter.game

    def new_initial_state(self) -> KothOpenSpielState:
        return KothOpenSpielState(self, self.adapter.initial_node())

    def state_from_koth(
        self, data: Any, pending: Sequence[tuple[PlayerId, int]] = ()
    ) -> KothOpenSpielState:
        """A state around the koth rules state ``data`` (with no action history), and in
        the turn-based form the submissions already made at its simultaneous node."""
        state = KothOpenSpielState(self, _Node(self.adapter, data))
        if pending:
            node = state._node
            if not self.adapter.turn_based or node.kind is not NodeKind.SIMULTANEOUS:
                raise IllegalActionError("pending submissions need a turn-based simultaneous node")
            if len(pending) >= len(node.acting):
                raise IllegalActionError("a complete joint action is applied, not pending")
            for (player, action), expected in zip(pending, node.acting, strict=False):
                if player != expected:
                    raise IllegalActionError(f"player {player} does not submit next")
                state._check_legal(player, action)
            state._pending = tuple(pending)
        return state

    def max_chance_nodes_in_history(self) -> int:
        return self.adapter.spec.max_chance_nodes

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: dict[str, Any] | None = None,
    ) -> KothObserver:
        return KothObserver(self.adapter, iig_obs_type, params)


def _utility_sum(spec: InteropSpec) -> float | None:
    if spec.utility is Utility.ZERO_SUM:
        return 0.0
    if spec.utility is Utility.CONSTANT_SUM:
        return spec.utility_sum
    return None


class KothOpenSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state: a shared immutable koth node plus, in the turn-based form,
    the submissions collected so far at a simultaneous node."""

    #: turn-based form: (player, action id) submitted at this simultaneous node (an
    #: instance attribute only once set: OpenSpiel's clone deep-copies each one)
    _pending: tuple[tuple[PlayerId, int], ...] = ()

    def __init__(self, game: KothOpenSpielGame, node: _Node) -> None:
        super().__init__(game)
        self._node = node

    # ------------------------------------------------------------ who moves
    def current_player(self) -> int:
        pending = self._pending
        if pending:
            return self._node.acting[len(pending)]
        return self._node.current

    def is_terminal(self) -> bool:
        return self._node.kind is _TERMINAL

    # Python callers (a playout loop, OpenSpiel's Python algorithms) get these answers
    # here; pyspiel's own versions answer in C++ by calling back into current_player
    # and _legal_actions, several crossings of the binding a call, and copy each list
    # to C++ and back. Whatever these do not cover takes pyspiel's path, and C++
    # callers always do (tests/interop check both give the same answers).
    def is_chance_node(self) -> bool:
        return self._node.kind is _CHANCE

    def is_simultaneous_node(self) -> bool:
        return self._node.current == SIMULTANEOUS

    def is_player_node(self) -> bool:
        return self.current_player() >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        node = self._node
        kind = node.kind
        if player is None:
            if (kind is _PLAYER or kind is _CHANCE) and not self._pending:  # the hot path
                return node.mover_ids()[:]  # a copy: the node's list is shared
        elif kind is _SIMULTANEOUS and player >= 0 and node.adapter.simultaneous:
            # the faithful form's simultaneous node: every player submits
            if player in node.acting:
                return node.legal(player)[:]
            return [node.adapter.noop]
        current = self.current_player()
        if player is None:
            if current >= 0:
                return self._legal_actions(current)[:]
            joint: list[int] = super().legal_actions()  # none, or the flat joint actions
            return joint
        if player == current or (current == SIMULTANEOUS and player >= 0):
            return self._legal_actions(player)[:]
        others: list[int] = super().legal_actions(player)
        return others

    def _legal_actions(self, player: int) -> list[int]:
        node = self._node
        if node.kind is _SIMULTANEOUS and node.adapter.simultaneous and player not in node.acting:
            return [node.adapter.noop]
        return node.legal(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._node.chance_pairs()

    # ------------------------------------------------------------ transitions
    def _apply_action(self, action: int) -> None:
        node = self._node
        kind = node.kind
        if kind is _PLAYER or kind is _CHANCE:  # the hot path, inline
            player = node.current  # CHANCE at a chance node
            adapter = node.adapter
            # every id a node lists has been converted: an id without a value is illegal
            value = adapter.actions.get(action)
            ids = node.ids
            if (
                value is None
                or ids is None
                or not (action in ids if len(ids) < _SCAN_LIMIT else node.holds(action, value))
            ):
                self._check_legal(player, action)  # which names what is legal
                value = adapter.action_of(action)
            self._node = _Node(adapter, adapter.apply(node.data, player, value))
            return
        if kind is _TERMINAL:
            raise GameOverError(f"the game is over; no action is accepted ({action})")
        if not node.adapter.turn_based:  # a simultaneous node
            raise IllegalActionError("a simultaneous node: submit with apply_actions")
        self._submit(action)

    def _submit(self, action: int) -> None:
        """Turn-based form: one acting player's part of a joint action."""
        node = self._node
        player = node.acting[len(self._pending)]
        self._check_legal(player, action)
        pending = (*self._pending, (player, action))
        if len(pending) < len(node.acting):
            self._pending = pending
            return
        self._pending = ()
        self._apply_joint(dict(pending))

    def _apply_actions(self, actions: Sequence[int]) -> None:
        """Faithful form: every player's action; non-acting players submit the no-op."""
        node = self._node
        if node.kind is not _SIMULTANEOUS:
            raise IllegalActionError(f"apply_actions at a {node.kind.value} node")
        if len(actions) != node.adapter.num_players:
            raise IllegalActionError(f"expected {node.adapter.num_players} actions")
        joint: dict[PlayerId, int] = {}
        acting = node.acting
        for player, action in enumerate(actions):
            if player in acting:
                if action not in node.legal(player):  # short lists: a scan
                    self._check_legal(player, action)
                joint[player] = action
            elif action != node.adapter.noop:
                raise IllegalActionError(
                    f"player {player} does not act at this node: its only action is "
                    f"{NOOP_NAME} ({node.adapter.noop}), not {action}"
                )
        self._apply_joint(joint)

    def _apply_joint(self, joint: dict[PlayerId, int]) -> None:
        node = self._node
        adapter = node.adapter
        known = adapter.actions
        actions = {p: known.get(a) or adapter.action_of(a) for p, a in joint.items()}
        self._node = _Node(adapter, adapter.game.apply_joint(node.data, actions))

    def _check_legal(self, player: PlayerId, action: int) -> None:
        legal = self._node.legal(player)  # short lists: a scan beats building a set
        if action not in legal:
            who = "chance" if player == CHANCE else f"player {player}"
            raise IllegalActionError(f"action {action} is not legal for {who} now (legal: {legal})")

    # ------------------------------------------------------------ results
    def returns(self) -> list[float]:
        return list(self._node.adapter.game.returns(self._node.data))

    def rewards(self) -> list[float]:
        # terminal reward model: koth returns are 0 until the end, so the rewards of
        # every step sum to the returns
        return self.returns()

    def _action_to_string(self, player: int, action: int) -> str:
        adapter = self._node.adapter
        if adapter.simultaneous and action == adapter.noop:
            return NOOP_NAME
        game = adapter.game
        return game.action_to_str(game.action_from_id(action))

    def __str__(self) -> str:
        game = self._node.adapter.game
        text = json.dumps(game.state_to_json(self._node.data), sort_keys=True)
        if self._pending:
            text += " submitted:" + ",".join(f"{p}={a}" for p, a in self._pending)
        return text

    # ------------------------------------------------------------ koth access
    @property
    def koth_data(self) -> Any:
        """The koth rules state (secrets included: never show it to a player)."""
        return self._node.data

    def submitted(self, player: PlayerId) -> int | None:
        """Turn-based form: the action id ``player`` submitted at this simultaneous node."""
        return dict(self._pending).get(player)

    # ------------------------------------------------------------ resampling
    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> KothOpenSpielState:
        """A state that ``player_id`` cannot tell apart from this one, drawn at random.

        Everything hidden from the player is redrawn by the koth game's
        ``resample_hidden`` (hidden cards, and the order of whatever is still to be
        dealt); in the turn-based form the other players' submissions at the current
        simultaneous node are redrawn uniformly among their legal actions in the
        resampled state. The result carries no action history: the true one would
        reveal the hidden chance outcomes and moves.
        """
        node = self._node
        adapter = node.adapter
        rng = random.Random(int(probability_sampler() * 2.0**53))
        resampled = node.child(adapter.game.resample_hidden(node.data, player_id, rng))
        state = KothOpenSpielState(self.get_game(), resampled)
        pending: list[tuple[PlayerId, int]] = []
        for player, action in self._pending:
            if player == player_id:
                pending.append((player, action))
            else:
                pending.append((player, rng.choice(resampled.legal(player))))
        state._pending = tuple(pending)
        return state


class KothObserver:
    """OpenSpiel's PyObserver interface over ``Game.view``.

    The string is the koth information-state string of the view: the player's view for
    a private observation type, the spectator's (``view(state, None)``) for a public
    one. The tensor is the view encoded by the game's encoder; in the turn-based form a
    second piece one-hot encodes the player's own pending submission.
    """

    def __init__(
        self,
        adapter: _Adapter,
        iig_obs_type: pyspiel.IIGObservationType | None,
        params: dict[str, Any] | None,
    ) -> None:
        if params:
            raise InvalidParamsError(f"koth observers take no parameters, got {params}")
        self._adapter = adapter
        self._public_only = False
        if iig_obs_type is not None:
            private = iig_obs_type.private_info
            if private == pyspiel.PrivateInfoType.ALL_PLAYERS and adapter.hidden_information:
                raise InvalidParamsError(
                    "koth games observe through view(): no observation shows every "
                    "player's private information of a hidden-information game"
                )
            if not iig_obs_type.public_info and private != pyspiel.PrivateInfoType.NONE:
                raise InvalidParamsError("koth views cannot leave out public information")
            self._public_only = private == pyspiel.PrivateInfoType.NONE
        pieces = [("view", adapter.encoder.size)]
        if adapter.turn_based and has_simultaneous_nodes(adapter.game, adapter.spec):
            pieces.append(("submitted", adapter.num_distinct_actions))
        self.tensor: FloatArray = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, FloatArray] = {}
        start = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[start : start + size]
            start += size

    def _viewer(self, player: int) -> PlayerId | None:
        return None if self._public_only else player

    def set_from(self, state: KothOpenSpielState, player: int) -> None:
        game = self._adapter.game
        view = game.view(state.koth_data, self._viewer(player))
        self._adapter.encoder.encode(view, self.dict["view"])
        if "submitted" in self.dict:
            submitted = self.dict["submitted"]
            submitted.fill(0.0)
            mine = None if self._public_only else state.submitted(player)
            if mine is not None:
                submitted[mine] = 1.0

    def string_from(self, state: KothOpenSpielState, player: int) -> str:
        game = self._adapter.game
        text: str = game.information_state_string(state.koth_data, self._viewer(player))
        mine = None if self._public_only else state.submitted(player)
        if mine is not None:
            text += f" submitted:{game.action_to_str(game.action_from_id(mine))}"
        return text
