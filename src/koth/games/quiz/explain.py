"""``--explain``: per question, what happened to each team and why.

Derived from the snapshots before and after each question and its record, so the fold
itself keeps no per-team report (it stays fast for 10,000 teams).
"""

from __future__ import annotations

from koth.games.quiz.config import QuizConfig
from koth.games.quiz.state import QuizState
from koth.games.quiz.wording import end_text, note_text


def _count(value: int, word: str) -> str:
    unit = word if abs(value) == 1 else word + "s"
    return f"{value:+d} {unit}" if value else f"0 {word}s"


def _why(
    config: QuizConfig, position: int, kind: str, jumped: bool, judged: bool | None, steps: int
) -> str:
    """Why a team without a note of the fold moved as it did: its answer and its place,
    each said once (the line already shows the answer and the steps and points); the
    plain cases are the rule alone, in brackets."""
    if kind == "King":
        if judged:
            return "the King keeps the Peak (Q9)"
        return "the King is never moved down (Q9)"
    if kind == "revolution" and not judged:
        return "a Revolution that fails moves nobody down (Q22)"
    if jumped:
        if judged:
            return "a right jump counts twice (Q3)"
        return "a failed jump" + (", but never below 0" if steps == 0 else "") + " (Q3)"
    if not judged:
        return "(Q2)"
    if position >= config.steps:
        return "on the Peak: points, no step (Q15)"
    if position == config.steps - 1 and steps == 0:
        return "one step below the King's Peak without a Revolution: points, no step (Q8)"
    return "(Q2)"


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
        spur = before.position[i] in before.spurs_left[i]
        if spur:
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
        if judged is None:
            # the fold's notes say "answered wrong" for both; a missing answer is told apart
            team_notes = [t.replace("answered wrong", "gave no answer") for t in team_notes]
        if not team_notes:
            jumped = declared == "jump" and name not in downgraded
            team_notes = [_why(config, before.position[i], kind, jumped, judged, steps)]
        if spur:
            team_notes.append(
                "spur used up" + (": +1 point (Q4)" if judged else " without a point (Q4, Q19)")
            )
        if record.partner and judged:
            team_notes.append("partner question: +1 point (Q5)")
        # the line has said the answer already: a note does not say it again
        team_notes = [t.removeprefix(f"{answer}, ") for t in team_notes]
        said = "; ".join(team_notes)
        text += f" {said}" if said.startswith("(") else f" — {said}"
        lines.append(text)
    if after.finished and after.reason is not None:
        lines.append(f"  Game over: {end_text(after.reason)} ({after.reason.rule}).")
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
