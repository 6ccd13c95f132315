"""Rule Q12: can any team still overthrow the King before its hold completes?

A challenger must stand one step below the Peak with an unused right to revolt at the
start of a question. The fewest questions a team needs to get there depend only on
its position and on whether its last answer was wrong (no jump right after a wrong
answer, none from position 0), so the check is one O(teams) pass with early exit.
"""

from __future__ import annotations

from koth.games.quiz.state import Standings


def questions_to_reach(position: int, last_wrong: bool, steps: int) -> int:
    """Fewest questions to stand on ``steps - 1`` from ``position`` (jumps where Q3 allows).

    From p in 1..N-3 with a jump allowed, every jump climbs 2 and only the last step may
    need an ordinary move: ceil((N-1-p)/2). From 0, or right after a wrong answer, the
    first move is ordinary."""
    target = steps - 1
    if position >= target:
        return 0
    if position == 0 or last_wrong:
        return 1 + (target - position) // 2
    return (target - position + 1) // 2


def challenger_exists(standings: Standings, steps: int, window: int) -> bool:
    """True when some team other than the King could stand one step below with an unused
    right and revolt on one of the next ``window`` questions."""
    king = standings.king
    position = standings.position
    last_wrong = standings.last_wrong
    for i, right in enumerate(standings.revolution_right):
        if not right or i == king:
            continue
        if questions_to_reach(position[i], last_wrong[i], steps) + 1 <= window:
            return True
    return False


def challenge_window(standings: Standings, hold_moves: int, total_questions: int) -> int:
    """Questions on which a revolution can still be played: the King's remaining hold,
    capped by the questions left (Q25)."""
    needed = hold_moves - standings.king_hold
    left = total_questions - standings.question
    return min(needed, left)
