"""The rule functions: declaration legality (Q3, Q8) and the resolution of one question
(Q2-Q12), pure and O(teams)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from koth.games.quiz.config import QuizConfig
from koth.games.quiz.events import Declaration
from koth.games.quiz.reachability import challenge_window, challenger_exists
from koth.games.quiz.state import (
    EndReason,
    Note,
    NoteKind,
    Params,
    Problem,
    QuestionRecord,
    Standings,
)

_INF = float("inf")


def jump_is_legal(position: int, last_wrong: bool, steps: int) -> bool:
    """Q3: no jump from 0, right after the team's own wrong answer, with 2 or 1 steps left
    to the Peak, or on the Peak."""
    return 1 <= position <= steps - 3 and not last_wrong


def declaration_problem(
    config: QuizConfig, standings: Standings, team: int, declaration: Declaration
) -> tuple[Problem, str, Params] | None:
    """Why ``declaration`` is illegal for ``team`` now, as (problem, rule, its
    parameters); None if legal."""
    steps = config.steps
    position = standings.position[team]
    if declaration == "jump":
        if position == 0:
            return Problem.JUMP_FROM_START, "Q3", ()
        if position == steps:
            return Problem.JUMP_ON_PEAK, "Q3", ()
        if position >= steps - 2:
            return Problem.JUMP_NEAR_PEAK, "Q3", (("left", steps - position),)
        if standings.last_wrong[team]:
            return Problem.JUMP_AFTER_WRONG, "Q3", ()
        return None
    if declaration == "revolution":
        if config.kind == "semifinal":
            return Problem.NO_REVOLUTION_IN_SEMIFINAL, "Q15", ()
        if standings.king is None:
            return Problem.NO_KING, "Q8", ()
        if standings.king == team:
            return Problem.KING_REVOLTS, "Q21", ()
        if position != steps - 1:
            return Problem.NOT_BELOW_PEAK, "Q8", (("below", steps - 1), ("position", position))
        if not standings.revolution_right[team]:
            return Problem.REVOLUTION_USED, "Q8", ()
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
    """Resolve one question for all teams at once, in the rules' order: the declarations
    that stand (Q3, Q8), every team's answer (Q2-Q6), the contest for the Peak (Q7-Q10),
    the end (Q25). Declarations that are not legal in ``before`` (possible after a
    correction) are downgraded to ordinary moves, noted."""
    notes: list[Note] = []
    jumps, revolts = _standing_declarations(config, before, record, notes)
    moved = _answer_moves(config, before, record, jumps, revolts)
    king, king_since, rights = before.king, before.king_since, list(before.revolution_right)
    for i in revolts:
        rights[i] = False  # Q8: one Revolution per team and reign
    if config.kind != "semifinal":
        king = _contest_for_the_peak(config, before, record, revolts, moved, notes)
        if king is not None and king != before.king:
            moved.position[king] = config.steps
            king_since = record.number
            rights = [True] * len(rights)  # Q8: a new reign, new rights
    after = Standings(
        question=record.number,
        position=tuple(moved.position),
        points=tuple(moved.points),
        last_wrong=tuple(moved.last_wrong),
        revolution_right=tuple(rights),
        spurs_left=tuple(moved.spurs_left),
        spurs_used=tuple(moved.spurs_used),
        king=king,
        king_since=king_since,
    )
    end = _end_reason(config, after)
    if end is not None:
        after = replace(after, finished=True, reason=end)
    return after, tuple(notes)


def _standing_declarations(
    config: QuizConfig, before: Standings, record: QuestionRecord, notes: list[Note]
) -> tuple[set[int], set[int]]:
    """The teams whose jump (Q3) and whose Revolution (Q8) stand; late and illegal
    declarations become ordinary moves, each noted."""
    q = record.number
    names = config.teams
    for i, declared in record.late:
        notes.append(
            Note(
                q,
                names[i],
                NoteKind.LATE_DECLARATION,
                (("declaration", declared),),
            )
        )
    jumps: set[int] = set()
    revolts: set[int] = set()
    for i, declared in record.declarations.items():
        problem = declaration_problem(config, before, i, declared)
        if problem is not None:
            reason, rule, params = problem
            notes.append(
                Note(
                    q,
                    names[i],
                    NoteKind.DOWNGRADED,
                    (("declaration", declared), ("reason", reason.value), ("rule", rule), *params),
                )
            )
        elif declared == "jump":
            jumps.add(i)
        elif declared == "revolution":
            revolts.add(i)
    return jumps, revolts


@dataclass(slots=True)
class _Moves:
    """Every team's standing while one question is resolved (lists, changed in place)."""

    position: list[int]
    points: list[int]
    last_wrong: list[bool]
    spurs_left: list[frozenset[int]]
    spurs_used: list[frozenset[int]]
    #: right answers one step below the Peak that may take it (Q7, Q10)
    contenders: list[int]


def _answer_moves(
    config: QuizConfig,
    before: Standings,
    record: QuestionRecord,
    jumps: set[int],
    revolts: set[int],
) -> _Moves:
    """Each team's move and points for its answer: a spur on its step (Q4), the partner
    bonus (Q5), the two adding up (Q6), a jump's two steps up or one down (Q3), one step
    up for an ordinary right answer (Q2); the Peak itself only in a semifinal or through
    the contest (Q7)."""
    steps = config.steps
    semifinal = config.kind == "semifinal"
    partner = 1 if record.partner else 0
    below = steps - 1
    king = before.king
    judged = record.judged
    moved = _Moves(
        position=list(before.position),
        points=list(before.points),
        last_wrong=list(before.last_wrong),
        spurs_left=list(before.spurs_left),
        spurs_used=list(before.spurs_used),
        contenders=[],
    )
    position, points = moved.position, moved.points
    for i in range(len(position)):
        p = position[i]
        spur = 0
        left = moved.spurs_left[i]
        if left and p in left:
            moved.spurs_left[i] = left - {p}
            moved.spurs_used[i] = moved.spurs_used[i] | {p}
            spur = 1
        if judged[i] is True:
            moved.last_wrong[i] = False
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
                    moved.contenders.append(i)
        else:
            moved.last_wrong[i] = True
            if i in jumps:
                position[i] = p - 1
    return moved


def _contest_for_the_peak(
    config: QuizConfig,
    before: Standings,
    record: QuestionRecord,
    revolts: set[int],
    moved: _Moves,
    notes: list[Note],
) -> int | None:
    """The King after this question: an empty Peak goes to the best contender (Q7); a
    King who answers right, or whom nobody contests, keeps it (Q10); otherwise the best
    revolutionary overthrows the King, who steps down one step (Q10). The best: most
    points, then the fastest answer, then the order of the teams."""
    q = record.number
    names = config.teams
    times = record.times
    points = moved.points
    contenders = moved.contenders
    king = before.king

    def best(candidates: list[int]) -> int:
        def key(i: int) -> tuple[int, float, int]:
            t = times[i]
            return (-points[i], _INF if t is None else t, i)

        return min(candidates, key=key)

    if king is None:
        if contenders:
            king = best(contenders)
            notes.append(Note(q, names[king], NoteKind.CROWNED))
    elif record.judged[king] is True or not contenders:
        for i in sorted(revolts):
            if record.judged[i] is True:
                notes.append(
                    Note(
                        q,
                        names[i],
                        NoteKind.REVOLUTION_FAILED,
                    )
                )
        if revolts:
            notes.append(Note(q, names[king], NoteKind.KEPT_PEAK))
        return king
    else:
        old = king
        king = best(contenders)
        moved.position[old] = config.steps - 1
        notes.append(
            Note(
                q,
                names[old],
                NoteKind.OVERTHROWN,
                (("king", names[king]),),
            )
        )
        notes.append(Note(q, names[king], NoteKind.CROWNED, (("by", "revolution"),)))
    if king is not None and king != before.king:
        for i in contenders:
            if i != king:
                notes.append(
                    Note(
                        q,
                        names[i],
                        NoteKind.STAYED_BELOW,
                        (("king", names[king]),),
                    )
                )
    return king


def _end_reason(config: QuizConfig, after: Standings) -> EndReason | None:
    """Q25: king_held, then questions_exhausted, then no_challenger."""
    total = config.total_questions
    if config.kind == "semifinal":
        return EndReason.QUESTIONS_EXHAUSTED if after.question >= total else None
    if after.king is not None and after.king_hold >= config.hold_moves:
        return EndReason.KING_HELD
    if after.question >= total:
        return EndReason.QUESTIONS_EXHAUSTED
    if after.king is not None:
        window = challenge_window(after, config.hold_moves, total)
        if not challenger_exists(after, config.steps, window):
            return EndReason.NO_CHALLENGER
    return None
