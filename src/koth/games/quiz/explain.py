"""``--explain``: per question, what happened to each team and why.

Derived from the snapshots before and after each question and its record, so the fold
itself keeps no per-team report (it stays fast for 10,000 teams).
"""

from __future__ import annotations

from koth.games.quiz.state import QuizState
from koth.games.quiz.wording import note_text


def _count(value: int, word: str) -> str:
    unit = word if abs(value) == 1 else word + "s"
    return f"{value:+d} {unit}" if value else f"0 {word}s"


def explain_question(state: QuizState, number: int) -> list[str]:
    """Lines for question ``number`` (1-based): a header, then one line per team."""
    config = state.config
    if number > state.questions_played:
        return [f"Question {number}: void (the game had already ended; Q26)"]
    record = state.records[number - 1]
    before = state.snapshots[number - 1]
    after = state.snapshots[number]
    notes = state.notes[number - 1]
    downgraded = {n.team for n in notes if n.kind == "downgraded"}
    header = f"Question {number}" + (" (partner question)" if record.partner else "")
    lines = [header + ":"]
    for i, name in enumerate(config.teams):
        declared = record.declarations.get(i)
        if before.king == i:
            kind = "King"
        elif declared is None:
            kind = "ordinary"
        elif name in downgraded:
            kind = f"ordinary ({declared} downgraded)"
        else:
            kind = declared
        judged = record.judged[i]
        answer = "no answer" if judged is None else ("right" if judged else "wrong")
        extras = []
        if before.position[i] in before.spurs_left[i]:
            extras.append("spur")
        if record.partner and judged:
            extras.append("partner")
        tags = "".join(f", {e}" for e in extras)
        steps = after.position[i] - before.position[i]
        points = after.points[i] - before.points[i]
        text = (
            f"  {name}: {kind}, {answer}{tags}: {_count(steps, 'step')}, {_count(points, 'point')}"
        )
        team_notes = [note_text(n) for n in notes if n.team == name]
        if team_notes:
            text += " — " + "; ".join(team_notes)
        lines.append(text)
    if after.finished:
        lines.append(f"  Game over: {after.reason}.")
    return lines


def explain(state: QuizState, upto: int | None = None) -> list[str]:
    """Explanation lines of every question (voided ones included), up to ``upto``."""
    last = len(state.records) if upto is None else min(upto, len(state.records))
    out: list[str] = []
    for number in range(1, last + 1):
        out.extend(explain_question(state, number))
        if number in state.breaks:
            out.append(f"Break after question {number}.")
    return out
