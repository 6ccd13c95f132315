"""The log of a game as one reader saw it: every public event so far, in order.

A game derives its events (``Game.log_events``) from two consecutive views of one
reader and the action that led from one to the other as that reader may know it
(``Game.shown_action``: a player's own action, every action of a perfect-information
move, nothing of a secret one). Nothing else reaches the log, so it can say no more than
the reader's own views said: the one place that strips secrets (``view``) strips them
from the log too. The events a game names per transition (``Game.transition_notes``, public
by contract) are logged with them.

Each event has a code (stable across versions: clients word it), the rule that made it,
the seat it is about (None: nobody in particular) and plain parameters. Adapters word
them: the web table in the reader's language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from koth.core.history import HistoryEntry
from koth.core.players import CHANCE, SIMULTANEOUS, PlayerId
from koth.core.state import GameState

#: a parameter value: a count, a seat, a name, or several names (cards of a sequence)
LogValue = int | str | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LogEvent:
    """One public event: ``code`` names its kind (``fight``), ``rule`` the rule that
    made it, ``seat`` the seat it is about, ``params`` its plain values."""

    code: str
    rule: str | None = None
    seat: int | None = None
    # a mapping is not hashable: the event compares by it but hashes without it
    params: Mapping[str, LogValue] = field(default_factory=dict, hash=False)


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    """An event, the move (its index in the game) that made it, and the decision that
    move belongs to: the index of the last move a player made up to it (a chance outcome
    folds into the decision it followed; -1: the set-up before any decision)."""

    move: int
    event: LogEvent
    decision: int = -1


def readers(state: GameState[Any, Any]) -> tuple[PlayerId | None, ...]:
    """Everybody who reads a log: every seat, then the spectator (None)."""
    return (*range(state.game.num_players), None)


class LogBook:
    """Every reader's log of one game, kept up to date move by move.

    ``note(before, after, move)`` adds what ``move`` (applied to ``before``, giving
    ``after``) did, as every reader saw it. The last view of each reader is kept, so a
    move costs one new view per reader.
    """

    __slots__ = ("_decision", "_entries", "_views")

    def __init__(self, state: GameState[Any, Any]) -> None:
        self._views: dict[PlayerId | None, Any] = {r: state.view(r) for r in readers(state)}
        self._entries: dict[PlayerId | None, list[LoggedEvent]] = {r: [] for r in self._views}
        self._decision = -1

    def copy(self) -> LogBook:
        """An independent copy (the entries' lists copied, the events shared)."""
        other = LogBook.__new__(LogBook)
        other._views = dict(self._views)
        other._entries = {r: list(e) for r, e in self._entries.items()}
        other._decision = self._decision
        return other

    def entries(self, reader: PlayerId | None) -> list[LoggedEvent]:
        """``reader``'s log so far, oldest first."""
        return list(self._entries[reader])

    def note(self, before: Any, after: GameState[Any, Any], move: HistoryEntry[Any]) -> None:
        """Add the events of ``move``, which took the rules state ``before`` to
        ``after`` (its last move)."""
        game = after.game
        index = after.num_moves - 1
        if move.simultaneous:
            player: PlayerId = SIMULTANEOUS
            notes = game.transition_notes(before, after.data, SIMULTANEOUS, None)
        else:
            ((player, action),) = move.actions
            notes = game.transition_notes(before, after.data, player, action)
        if player != CHANCE:
            self._decision = index
        public = [
            LogEvent(n.code, n.rule, _seat_of(n.params), {k: v for k, v in n.params.items()})
            for n in notes
        ]
        for reader, old in self._views.items():
            new = after.view(reader)
            shown = shown_action(game, move, reader)
            events = [*game.log_events(old, new, player, shown, reader), *public]
            self._entries[reader].extend(LoggedEvent(index, e, self._decision) for e in events)
            self._views[reader] = new


def _seat_of(params: Mapping[str, Any]) -> int | None:
    seat = params.get("seat")
    return seat if isinstance(seat, int) else None


def shown_action(game: Any, move: HistoryEntry[Any], reader: PlayerId | None) -> Any:
    """What ``reader`` may know of ``move``'s action: of a joint move its own part, of
    a single one (a chance outcome too) what the game shows (``Game.shown_action``)."""
    if move.simultaneous:
        return next((a for p, a in move.actions if p == reader), None)
    ((player, action),) = move.actions
    return game.shown_action(player, action, reader)


def game_log(
    state: GameState[Any, Any], reader: PlayerId | None, moves: Iterable[HistoryEntry[Any]]
) -> list[LoggedEvent]:
    """``reader``'s log of ``moves`` played from ``state`` (left as it was)."""
    book = LogBook(state)
    current = state.clone()
    for move in moves:
        before = current.data
        current.apply_move(move)
        book.note(before, current, move)
    return book.entries(reader)


_TOKEN = re.compile(r"[^\s,;:>+()\[\]{}\"']+")


def tokens(value: Any) -> set[str]:
    """Every word-like piece of the strings (keys and values) inside ``value``."""
    found: set[str] = set()
    if isinstance(value, str):
        found.update(_TOKEN.findall(value))
    elif isinstance(value, Mapping):
        for k, v in value.items():
            found |= tokens(k) | tokens(v)
    elif isinstance(value, list | tuple):
        for v in value:
            found |= tokens(v)
    return found
