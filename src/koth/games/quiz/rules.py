"""The rule functions: declaration legality (Q3, Q8) and the resolution of one question
(Q2-Q12), pure and O(teams)."""

from __future__ import annotations

from koth.games.quiz.config import QuizConfig
from koth.games.quiz.events import Declaration
from koth.games.quiz.reachability import challenge_window, challenger_exists
from koth.games.quiz.state import Note, QuestionRecord, Standings

_INF = float("inf")


def jump_is_legal(position: int, last_wrong: bool, steps: int) -> bool:
    """Q3: no jump from 0, right after the team's own wrong answer, with 2 or 1 steps left
    to the Peak, or on the Peak."""
    return 1 <= position <= steps - 3 and not last_wrong


def declaration_problem(
    config: QuizConfig, standings: Standings, team: int, declaration: Declaration
) -> tuple[str, str] | None:
    """Why ``declaration`` is illegal for ``team`` now, as (reason, rule); None if legal."""
    steps = config.steps
    position = standings.position[team]
    if declaration == "jump":
        if position == 0:
            return "a jump is not allowed from the start (position 0)", "Q3"
        if position == steps:
            return "a jump is not allowed on the Peak", "Q3"
        if position >= steps - 2:
            left = steps - position
            word = "step" if left == 1 else "steps"
            return f"a jump is not allowed with {left} {word} left to the Peak", "Q3"
        if standings.last_wrong[team]:
            return "a jump is not allowed right after the team's own wrong answer", "Q3"
        return None
    if declaration == "revolution":
        if config.kind == "semifinal":
            return "there is no King and no Revolution in a semifinal", "Q15"
        if standings.king is None:
            return "there is no King to overthrow", "Q8"
        if standings.king == team:
            return "the King cannot declare a Revolution", "Q21"
        if position != steps - 1:
            return (
                f"only a team one step below the Peak (position {steps - 1}) may declare a "
                f"Revolution; the team stands on {position}",
                "Q8",
            )
        if not standings.revolution_right[team]:
            return "the team already used its right to revolt against this King", "Q8"
    return None


def initial_standings(config: QuizConfig) -> Standings:
    n = len(config.teams)
    spurs = config.spurs
    return Standings(
        question=0,
        position=(0,) * n,
        points=(0,) * n,
        last_wrong=(False,) * n,
        revolution_right=(True,) * n,
        spurs_left=tuple(frozenset(spurs.get(name, ())) for name in config.teams),
        spurs_used=(frozenset(),) * n,
    )


def resolve(
    config: QuizConfig, before: Standings, record: QuestionRecord
) -> tuple[Standings, tuple[Note, ...]]:
    """Resolve one question for all teams at once. Declarations that are not legal in
    ``before`` (possible after a correction) are downgraded to ordinary moves, noted."""
    steps = config.steps
    q = record.number
    names = config.teams
    semifinal = config.kind == "semifinal"
    notes: list[Note] = []
    for i, declared in record.late:
        notes.append(
            Note(
                q,
                names[i],
                "late_declaration",
                f"{declared} declared after the question was read: ordinary move (Q3)",
            )
        )
    jumps: set[int] = set()
    revolts: set[int] = set()
    for i, declared in record.declarations.items():
        problem = declaration_problem(config, before, i, declared)
        if problem is not None:
            reason, rule = problem
            notes.append(
                Note(
                    q,
                    names[i],
                    "downgraded",
                    f"{declared} downgraded to an ordinary move: {reason} ({rule})",
                )
            )
        elif declared == "jump":
            jumps.add(i)
        elif declared == "revolution":
            revolts.add(i)

    position = list(before.position)
    points = list(before.points)
    last_wrong = list(before.last_wrong)
    spurs_left = list(before.spurs_left)
    spurs_used = list(before.spurs_used)
    king = before.king
    partner = 1 if record.partner else 0
    below = steps - 1
    contenders: list[int] = []
    judged = record.judged
    for i in range(len(position)):
        p = position[i]
        spur = 0
        left = spurs_left[i]
        if left and p in left:
            spurs_left[i] = left - {p}
            spurs_used[i] = spurs_used[i] | {p}
            spur = 1
        if judged[i] is True:
            last_wrong[i] = False
            if i in jumps:
                position[i] = p + 2
                points[i] += 2 + spur + partner
                continue
            points[i] += 1 + spur + partner
            if p < below:
                position[i] = p + 1
            elif p == below:
                if semifinal:
                    position[i] = steps
                elif king is None or i in revolts:
                    contenders.append(i)
        else:
            last_wrong[i] = True
            if i in jumps:
                position[i] = p - 1

    rights = list(before.revolution_right)
    for i in revolts:
        rights[i] = False
    king_since = before.king_since
    if not semifinal:
        times = record.times

        def best(candidates: list[int]) -> int:
            def key(i: int) -> tuple[int, float, int]:
                t = times[i]
                return (-points[i], _INF if t is None else t, i)

            return min(candidates, key=key)

        if king is None:
            if contenders:
                king = best(contenders)
                notes.append(Note(q, names[king], "crowned", "reached the Peak: King (Q7)"))
        elif judged[king] is True or not contenders:
            for i in sorted(revolts):
                if judged[i] is True:
                    notes.append(
                        Note(
                            q,
                            names[i],
                            "revolution_failed",
                            "right, but the King answered right and keeps the Peak (Q10)",
                        )
                    )
            if revolts:
                notes.append(Note(q, names[king], "kept_peak", "kept the Peak (Q10)"))
        else:
            old = king
            king = best(contenders)
            position[old] = below
            notes.append(
                Note(
                    q,
                    names[old],
                    "overthrown",
                    f"answered wrong and was overthrown by {names[king]} (Q10)",
                )
            )
            notes.append(Note(q, names[king], "crowned", "won the Revolution: King (Q10)"))
        if king is not None and king != before.king:
            position[king] = steps
            king_since = q
            rights = [True] * len(position)
            for i in contenders:
                if i != king:
                    notes.append(
                        Note(
                            q,
                            names[i],
                            "stayed_below",
                            f"right, but {names[king]} took the Peak: stays one step below "
                            "(Q7, Q10)",
                        )
                    )

    after = Standings(
        question=q,
        position=tuple(position),
        points=tuple(points),
        last_wrong=tuple(last_wrong),
        revolution_right=tuple(rights),
        spurs_left=tuple(spurs_left),
        spurs_used=tuple(spurs_used),
        king=king,
        king_since=king_since,
    )
    end = _end_reason(config, after)
    if end is not None:
        after = Standings(
            question=q,
            position=after.position,
            points=after.points,
            last_wrong=after.last_wrong,
            revolution_right=after.revolution_right,
            spurs_left=after.spurs_left,
            spurs_used=after.spurs_used,
            king=king,
            king_since=king_since,
            finished=True,
            reason=end,
        )
    return after, tuple(notes)


def _end_reason(config: QuizConfig, after: Standings) -> str | None:
    """Q25: king_held, then questions_exhausted, then no_challenger."""
    total = config.total_questions
    if config.kind == "semifinal":
        return "questions_exhausted" if after.question >= total else None
    if after.king is not None and after.king_hold >= config.hold_moves:
        return "king_held"
    if after.question >= total:
        return "questions_exhausted"
    if after.king is not None:
        window = challenge_window(after, config.hold_moves, total)
        if not challenger_exists(after, config.steps, window):
            return "no_challenger"
    return None
