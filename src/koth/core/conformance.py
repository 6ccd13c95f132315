"""The conformance checks every game of the platform must pass.

Each game's test suite calls these with its own game (see tests/core/test_conformance.py
for the pattern). They drive seeded random playouts and check, at every node:

* the node kind is consistent (terminal <-> no one to move, returns sized to the table);
* chance outcomes are distinct, positive and sum to 1;
* legal actions are distinct, sorted by action id, non-empty for every acting player,
  and every one round-trips through its notation and its id;
* an action that is not legal is refused with a typed error and changes nothing, and a
  player who is not to move is refused;
* clone() is independent of its original; full-state JSON round-trips;
* ``view`` leaks nothing: a player's view (and legal actions) are the same in a state
  where everything that player may not know was redrawn (``resample_hidden``), and the
  spectator's likewise;
* the game's own invariants hold (``invariant_violations``);
* the game ends within ``max_moves`` and its record replays to the identical state.

``check_log`` plays a game of its own and checks every reader's log: no entry names
anything its reader had not seen by then.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from koth.core.chance import sample_outcome
from koth.core.errors import IllegalActionError, InvalidActionError, KothError
from koth.core.game import Game
from koth.core.log import LogBook, readers, shown_action, tokens
from koth.core.players import CHANCE, NodeKind
from koth.core.record import GameRecord, replay, state_from_json, state_to_json
from koth.core.state import GameState


class ConformanceError(AssertionError):
    """A game broke the platform contract."""


@dataclass
class PlayoutReport:
    moves: int
    terminal: bool
    returns: tuple[float, ...]


def _fail(state: GameState[Any, Any], seed: int, what: str) -> ConformanceError:
    return ConformanceError(f"{state.game.name} seed {seed}, move {state.num_moves}: {what}")


def check_node(
    state: GameState[Any, Any], rng: random.Random, seed: int, *, deep: bool = True
) -> None:
    """Every per-node check on ``state`` (which is left unchanged)."""
    game = state.game
    to_move = state.to_move()
    returns = state.returns()
    if len(returns) != game.num_players:
        raise _fail(state, seed, f"returns() has {len(returns)} entries")
    violations = game.invariant_violations(state.data)
    if violations:
        raise _fail(state, seed, "invariants broken: " + "; ".join(violations))
    if to_move.kind is NodeKind.TERMINAL:
        if state.outcome() is None:
            raise _fail(state, seed, "terminal state without an outcome")
        return
    if state.outcome() is not None:
        raise _fail(state, seed, "non-terminal state with an outcome")

    if to_move.kind is NodeKind.CHANCE:
        outcomes = state.chance_outcomes()
        actions = [a for a, _ in outcomes]
        total = sum(p for _, p in outcomes)
        if not outcomes or not math.isclose(total, 1.0, abs_tol=1e-9):
            raise _fail(state, seed, f"chance probabilities sum to {total}")
        if any(p <= 0 for _, p in outcomes) or len(set(actions)) != len(actions):
            raise _fail(state, seed, "chance outcomes must be distinct and positive")
        movers = [CHANCE]
    else:
        movers = list(to_move.players)
        if not movers:
            raise _fail(state, seed, "a decision node names no player")

    for player in movers:
        legal = list(state.legal_actions(player))
        if not legal:
            raise _fail(state, seed, f"player {player} must act but has no legal action")
        ids = [game.action_id(a) for a in legal]
        if ids != sorted(ids) or len(set(ids)) != len(ids):
            raise _fail(state, seed, f"legal actions of {player} not sorted/distinct by id")
        for action, action_id in zip(legal, ids, strict=True):
            text = game.action_to_str(action)
            if game.parse_action(text) != action:
                raise _fail(state, seed, f"notation {text!r} does not round-trip")
            if game.action_from_id(action_id) != action:
                raise _fail(state, seed, f"action id {action_id} does not round-trip")
            if not 0 <= action_id < game.num_distinct_actions():
                raise _fail(state, seed, f"action id {action_id} out of range")
        if deep:
            _check_rejections(state, player, set(ids), rng, seed)

    if deep:
        _check_copies(state, seed)
        _check_views(state, rng, seed)


def _check_rejections(
    state: GameState[Any, Any], player: int, legal_ids: set[int], rng: random.Random, seed: int
) -> None:
    game = state.game
    before = (state.data, state.num_moves)
    illegal_ids = [
        i
        for i in rng.sample(range(game.num_distinct_actions()), min(8, game.num_distinct_actions()))
        if i not in legal_ids
    ]
    for action_id in illegal_ids[:3]:
        action = game.action_from_id(action_id)
        try:
            if state.is_simultaneous_node():
                state.check_action(action, player)
            else:
                state.apply_action(action, player)
        except IllegalActionError as exc:
            if not str(exc):
                raise _fail(state, seed, "an IllegalActionError without a message") from exc
        else:
            raise _fail(state, seed, f"illegal action {action} by {player} was accepted")
        if (state.data, state.num_moves) != before:
            raise _fail(state, seed, "a rejected action changed the state")
    try:
        state.check_action("\x00 not an action \x00", player)
    except InvalidActionError:
        pass
    except KothError as exc:
        raise _fail(state, seed, f"malformed notation raised {type(exc).__name__}") from exc
    else:
        raise _fail(state, seed, "malformed notation was accepted")
    if (state.data, state.num_moves) != before:
        raise _fail(state, seed, "a rejected action changed the state")
    stranger = next(
        (p for p in range(state.game.num_players) if p not in state.acting_players()), None
    )
    if stranger is not None and not state.is_chance_node():
        legal = state.legal_actions(player)
        try:
            if state.is_simultaneous_node():
                state.check_action(legal[0], stranger)
            else:
                state.apply_action(legal[0], stranger)
        except IllegalActionError:
            pass
        else:
            raise _fail(state, seed, f"player {stranger} acted out of turn")


def _check_copies(state: GameState[Any, Any], seed: int) -> None:
    game = state.game
    encoded = game.state_to_json(state.data)
    text = json.dumps(encoded)
    if game.state_from_json(json.loads(text)) != state.data:
        raise _fail(state, seed, "state JSON does not round-trip")
    restored = state_from_json(json.loads(json.dumps(state_to_json(state))), game)
    if restored != state or restored.num_moves != state.num_moves:
        raise _fail(state, seed, "GameState.to_json/from_json does not round-trip")
    copy = state.clone()
    if copy != state:
        raise _fail(state, seed, "clone() differs from its original")


def _check_views(state: GameState[Any, Any], rng: random.Random, seed: int) -> None:
    game = state.game
    viewers: list[int | None] = [*range(game.num_players), None]
    for viewer in viewers:
        seen = game.view(state.data, viewer)
        json.dumps(seen)  # must be JSON-compatible
        for _ in range(2):
            other = game.resample_hidden(state.data, viewer, rng)
            if game.view(other, viewer) != seen:
                raise _fail(
                    state,
                    seed,
                    f"the view of {viewer} depends on what it may not know",
                )
            if viewer is not None and viewer in state.acting_players():
                mine = list(game.legal_actions(state.data, viewer))
                if list(game.legal_actions(other, viewer)) != mine:
                    raise _fail(
                        state,
                        seed,
                        f"the legal actions of {viewer} depend on what it may not know",
                    )


def check_playout(
    game: Game[Any, Any, Any],
    seed: int,
    *,
    max_moves: int = 100_000,
    deep_every: int = 1,
    policy: Callable[[GameState[Any, Any], int, random.Random], Any] | None = None,
) -> PlayoutReport:
    """One seeded random game with every check; returns its length and result.

    ``deep_every`` runs the expensive checks (rejections, copies, views) on every n-th
    node only, the cheap ones everywhere.
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        check_node(state, rng, seed, deep=moves % deep_every == 0)
        if moves >= max_moves:
            raise _fail(state, seed, f"no end after {max_moves} moves")
        random_step(state, rng, policy)
        moves += 1
    check_node(state, rng, seed)
    _check_replay(state, seed)
    return PlayoutReport(moves=moves, terminal=True, returns=state.returns())


def random_step(
    state: GameState[Any, Any],
    rng: random.Random,
    policy: Callable[[GameState[Any, Any], int, random.Random], Any] | None = None,
) -> None:
    """One move of a random game: a sampled chance outcome, or each acting player's
    ``policy`` action (default: a legal action drawn uniformly)."""
    if state.is_chance_node():
        state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        return
    players = state.acting_players()
    chosen = {
        p: (policy(state, p, rng) if policy else rng.choice(state.legal_actions(p)))
        for p in players
    }
    if state.is_simultaneous_node():
        state.apply_actions(chosen)
    else:
        (p,) = players
        state.apply_action(chosen[p], p)


def _check_replay(state: GameState[Any, Any], seed: int) -> None:
    record = GameRecord.from_state(state, seed=seed)
    reread = GameRecord.from_json_text(record.to_json_text())
    replayed = replay(reread, state.game)
    if replayed != state or replayed.history != state.history:
        raise _fail(state, seed, "replaying the record gives a different state")
    try:
        replayed.apply_action(state.game.action_from_id(0))
    except IllegalActionError:
        pass
    else:
        raise _fail(state, seed, "an action was accepted after the game ended")


def check_log(
    game: Game[Any, Any, Any],
    seed: int,
    *,
    public: frozenset[str] = frozenset(),
    max_moves: int = 100_000,
) -> int:
    """One seeded random game whose log (``koth.core.log``) is checked for every reader
    (each seat and the spectator): no entry names anything the reader had not seen by
    then. Every word of an entry's parameters must be a word of one of the reader's
    views up to that entry's move, or of an action shown to it (its own, or a public
    one), or one of the game's ``public`` words (the names of its unit types...);
    counts and seats aside. Returns the number of entries checked."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    book = LogBook(state)
    seen: dict[int | None, list[set[str]]] = {r: [tokens(state.view(r))] for r in readers(state)}
    while not state.is_terminal():
        if state.num_moves >= max_moves:
            raise _fail(state, seed, f"no end after {max_moves} moves")
        before = state.data
        random_step(state, rng)
        (move,) = state.history_since(state.num_moves - 1)
        book.note(before, state, move)
        for reader, words in seen.items():
            now = words[-1] | tokens(state.view(reader))
            shown = shown_action(game, move, reader)
            extra = tokens(game.action_to_str(shown)) if shown is not None else set()
            ((maker, _),) = move.actions if not move.simultaneous else ((reader, None),)
            # another's action shown to the reader tells no more than its view shows
            unseen = {w for w in extra - now - public if not w.isdigit()}
            if maker != reader and unseen:
                raise _fail(
                    state,
                    seed,
                    f"the action of player {maker} shown to {_reader(reader)} tells it "
                    f"{sorted(unseen)}, which it had not seen",
                )
            words.append(now | extra)
    checked = 0
    for reader, words in seen.items():
        for entry in book.entries(reader):
            named = {
                word
                for value in entry.event.params.values()
                if not isinstance(value, int)
                for word in tokens(value)
            }
            unseen = named - words[entry.move + 1] - public
            if unseen:
                raise _fail(
                    state,
                    seed,
                    f"the log entry {entry.event.code} of move {entry.move} tells "
                    f"{_reader(reader)} "
                    f"{sorted(unseen)}, which it had not seen",
                )
            checked += 1
    return checked


def _reader(reader: int | None) -> str:
    return "the spectator" if reader is None else f"player {reader}"
