"""What the end of a turn did that the board alone does not show: dice forfeited (B7.1)
and second turns skipped for want of dice (B7.2).

Pure functions of the states before and after one transition; the rules modules stay
as they are (they only move on to the next turn), and every adapter words the notes in
its own way: the terminal prints them, the web table lists the recent ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from koth.core.notes import TransitionNote
from koth.games.board.actions import PAY_PAIR, Action, Attack, End, Move
from koth.games.board.params import BoardParams
from koth.games.board.state import BoardState, BoardTermination, Phase
from koth.games.board.tables import CENTER


@dataclass(frozen=True, slots=True)
class DiceForfeited:
    """``seat`` ended its turn with ``count`` dice it may no longer use (B7.1): the
    unused slots of a first turn, or whatever is left at the end of a second one."""

    code: ClassVar[str] = "dice_forfeited"
    rule: ClassVar[str] = "B7.1"

    seat: int
    count: int

    def note(self) -> TransitionNote:
        return TransitionNote(self.code, self.rule, {"seat": self.seat, "count": self.count})


@dataclass(frozen=True, slots=True)
class TurnSkipped:
    """``seat``'s second turn was skipped: it had no dice left (B7.2)."""

    code: ClassVar[str] = "turn_skipped"
    rule: ClassVar[str] = "B7.2"

    seat: int

    def note(self) -> TransitionNote:
        return TransitionNote(self.code, self.rule, {"seat": self.seat})


BoardNote = DiceForfeited | TurnSkipped

#: the phases whose transitions may end a turn: a turn action, or the die that decides
#: an alliance's fight (the turn ends after it when both slots are used)
_TURN_ENDING_PHASES = (Phase.TURN, Phase.ALLY_DIE)


def turn_end_notes(
    params: BoardParams, before: BoardState, after: BoardState, action: Action | None
) -> list[BoardNote]:
    """The dice the active player forfeited and the turns skipped after its own, when
    the transition ``before`` -> ``after`` made by ``action`` ended a turn; [] otherwise.
    """
    if before.phase not in _TURN_ENDING_PHASES:
        return []
    over = after.phase is Phase.OVER
    new_round = after.round != before.round
    if not (over or new_round or after.turn != before.turn):
        return []  # the same turn goes on (or waits for an ally's answer)
    n = len(before.order)
    active = before.active()
    notes: list[BoardNote] = []
    # a new round deals fresh dice: every die the active player still held is gone
    left = 0 if new_round else len(after.dice[active])
    # the alliance's payment was made when the helper accepted, before its die
    paid = dice_paid(action) if before.phase is Phase.TURN else 0
    lost = len(before.dice[active]) - paid - left
    if lost > 0:
        notes.append(DiceForfeited(active, lost))
    if over:
        last = _last_turn_end(params, before, after)
    elif new_round:
        last = 2 * n - 1
    else:
        last = after.turn - 1
    # every turn end between the active player's and the next turn played was a second
    # turn without dice (B7.2: only second turns are ever skipped)
    notes.extend(TurnSkipped(before.order[turn % n]) for turn in range(before.turn + 1, last + 1))
    return notes


def dice_paid(action: Action | None) -> int:
    """How many dice ``action`` spends (B7, B7.3): two for a pair of turning dice, an
    assault its two payments, ending a turn none."""
    if action is None or isinstance(action, End):
        return 0
    if isinstance(action, Move):
        return 2 if action.pay == PAY_PAIR else 1
    if isinstance(action, Attack):
        return sum(2 if pay == PAY_PAIR else 1 for pay in action.pays)
    return 1  # a recruit, a ring turn, an area move or a swap


def _last_turn_end(params: BoardParams, before: BoardState, after: BoardState) -> int:
    """The turn whose end finished the game, in a transition that ended it.

    The final state keeps the turn that was played, not the skipped ones the game may
    have ended on (B15.2: a skipped turn still scores), so the turn ends are counted
    again: the scoring of each one (B15, B16.1) is repeated until the points and the
    countdown are those of the final state. Both only grow (or shrink) towards the end,
    so the first match is the turn end that reached it.
    """
    n = len(before.order)
    if after.termination is BoardTermination.ROUND_LIMIT_DRAW:
        return 2 * n - 1
    occupied = after.occupied  # turn ends move no unit
    on_center = [
        q
        for q in range(n)
        if (occupied[q * 3] | occupied[q * 3 + 1] | occupied[q * 3 + 2]) >> CENTER & 1
    ]
    points = list(before.points)
    countdown = before.countdown
    for turn in range(before.turn, 2 * n):
        active = before.order[turn % n]
        for q in on_center:
            if not params.score_own_turns_only or q == active:
                points[q] += 1
        if params.countdown and on_center:
            countdown -= 1
        if tuple(points) == after.points and countdown == after.countdown:
            return turn
    return 2 * n - 1
