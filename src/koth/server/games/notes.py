"""The recent events of a live game (dice forfeited, turns skipped...): what a player
coming back to the table could not tell from the position alone.

A game names them per transition (``Game.transition_notes``); here they are collected as
moves are applied, so a message only reads the last few, and worded in the reader's
language. Only public events are notes: every seat and every spectator sees them all.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from koth.core.log import LogBook
from koth.core.notes import TransitionNote
from koth.core.players import SIMULTANEOUS
from koth.core.state import GameState, HistoryEntry
from koth.i18n import N_, N_plural, Translator
from koth.server.games.schemas import NoteEntry

#: how many notes a game keeps: a board round of four players has eight turn ends,
#: which is as far back as a returning player needs to look
KEEP: Final = 8


@dataclass(frozen=True, slots=True)
class MoveNote:
    """A note and the move (its index in the game) whose transition made it."""

    move: int
    note: TransitionNote


Notes = tuple[MoveNote, ...]


def apply_noting(
    state: GameState[Any, Any],
    moves: Iterable[HistoryEntry[Any]],
    notes: Notes,
    book: LogBook | None = None,
) -> Notes:
    """Apply ``moves`` to ``state`` (checked like any move) and return ``notes`` with
    theirs added: the last :data:`KEEP`, newest last. ``book``, when given, logs every
    move too (it is changed in place)."""
    game = state.game
    found = list(notes)
    for move in moves:
        before, index = state.data, state.num_moves
        state.apply_move(move)
        if book is not None:
            book.note(before, state, move)
        if move.simultaneous:
            player, action = SIMULTANEOUS, None
        else:
            ((player, action),) = move.actions
        found += (
            MoveNote(index, note)
            for note in game.transition_notes(before, state.data, player, action)
        )
    return tuple(found[-KEEP:])


def notes_after(
    before: GameState[Any, Any],
    after: GameState[Any, Any],
    notes: Notes,
    book: LogBook | None = None,
) -> Notes:
    """``notes`` with those of the moves ``after`` has beyond ``before`` (its past): the
    new moves, usually one action and a few chance outcomes, are applied once more to a
    copy of ``before``, which is left as it was (``book`` logs them)."""
    return apply_noting(before.clone(), after.history_since(before.num_moves), notes, book)


#: how the web words each note's code: a text, or a text with a count (the param named
#: second); a ``{seat}`` is shown as people count seats, from 1
TEXTS: Final[dict[str, str | tuple[tuple[str, str], str]]] = {
    # the board game (Florian Jehn's rules)
    "dice_forfeited": (
        N_plural("Seat {seat} forfeits {n} unused die", "Seat {seat} forfeits {n} unused dice"),
        "count",
    ),
    "turn_skipped": N_("Seat {seat} has no dice left: its second turn is skipped"),
}


def note_text(note: TransitionNote, lang: str) -> str:
    """``note`` worded in ``lang``; a code without a text shows as the code and its
    parameters (a game whose notes the web does not word yet)."""
    _ = Translator(lang)
    params: dict[str, object] = dict(note.params)
    seat = params.get("seat")
    if isinstance(seat, int):
        params["seat"] = seat + 1
    text = TEXTS.get(note.code)
    if text is None:
        shown = ", ".join(f"{k}={v}" for k, v in note.params.items())
        return f"{note.code} ({shown})" if shown else note.code
    if isinstance(text, str):
        return _(text, **params)
    (singular, plural), count = text
    n = params.pop(count)
    return _.plural(singular, plural, n if isinstance(n, int) else 0, **params)


def note_entries(notes: Notes, lang: str) -> list[NoteEntry]:
    """The notes as a message carries them, oldest first."""
    return [
        NoteEntry(
            move=m.move,
            code=m.note.code,
            rule=m.note.rule,
            params=dict(m.note.params),
            text=note_text(m.note, lang),
        )
        for m in notes
    ]
