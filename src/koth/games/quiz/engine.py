"""The public engine API: ``fold(config, events)``, ``apply_event(state, event)``,
``legal_declarations(state, team)`` and the :class:`QuizGame` convenience wrapper.

``apply_event`` validates the event against the state and returns a new state; a
rejected event raises :class:`QuizRuleError` and changes nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from types import MappingProxyType
from typing import Any

from koth.games.quiz.config import QuizConfig
from koth.games.quiz.errors import QuizGameOverError, QuizRuleError
from koth.games.quiz.events import (
    AnswerAdmitted,
    AnswerJudged,
    AnswerReceived,
    BreakTaken,
    Declaration,
    DeclarationMade,
    DeclarationsLocked,
    JudgementCorrected,
    LightningQuestion,
    PartnerFlagged,
    QuestionClosed,
    QuestionOpened,
    QuizEvent,
)
from koth.games.quiz.pvec import PVec
from koth.games.quiz.ranking import needs_lightning, rank
from koth.games.quiz.rules import (
    declaration_problem,
    initial_standings,
    jump_is_legal,
    resolve,
)
from koth.games.quiz.state import AnswerSlot, Note, OpenQuestion, QuestionRecord, QuizState
from koth.games.quiz.wording import problem_text

__all__ = [
    "QuizGame",
    "apply_event",
    "fold",
    "initial_state",
    "jump_is_legal",
    "legal_declarations",
]


def initial_state(config: QuizConfig) -> QuizState:
    """The state before the first question."""
    index = MappingProxyType({name: i for i, name in enumerate(config.teams)})
    return QuizState(config=config, index=index, snapshots=(initial_standings(config),))


def fold(config: QuizConfig, events: Iterable[QuizEvent]) -> QuizState:
    """The game state: the configuration folded over the events (first error raises)."""
    state = initial_state(config)
    for event in events:
        state = apply_event(state, event)
    return state


def legal_declarations(state: QuizState, team: str) -> frozenset[Declaration]:
    """Declarations ``team`` may make for the next (or the open, unread) question.
    ``"ordinary"`` (no declaration) is always allowed while the game goes on."""
    i = _team(state, team, None)
    if state.finished:
        return frozenset()
    out: set[Declaration] = {"ordinary"}
    candidates: tuple[Declaration, ...] = ("jump", "revolution")
    for decl in candidates:
        if declaration_problem(state.config, state.standings, i, decl) is None:
            out.add(decl)
    return frozenset(out)


def apply_event(state: QuizState, event: QuizEvent) -> QuizState:
    """Validate ``event`` against ``state`` and return the new state."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise QuizRuleError(f"unknown event {event!r}", rule="Q32")
    return handler(state, event)


def _lock(state: QuizState, event: DeclarationsLocked) -> QuizState:
    oq = _open_question(state, event.question)
    if oq.locked:
        raise QuizRuleError("the question was already read", rule="Q3", question=oq.number)
    return _with_open(state, _replace_open(oq, locked=True))


class QuizGame:
    """A mutable handle on an immutable state, for hosts that feed events one at a time."""

    def __init__(self, config: QuizConfig, events: Iterable[QuizEvent] = ()) -> None:
        self.config = config
        self.events: list[QuizEvent] = []
        self.state = initial_state(config)
        for event in events:
            self.apply(event)

    def apply(self, event: QuizEvent) -> QuizState:
        self.state = apply_event(self.state, event)
        self.events.append(event)
        return self.state

    def legal_declarations(self, team: str) -> frozenset[Declaration]:
        return legal_declarations(self.state, team)


# --- helpers -------------------------------------------------------------------------


def _team(state: QuizState, name: str, question: int | None) -> int:
    i = state.index.get(name)
    if i is None:
        raise QuizRuleError(f"unknown team {name!r}", rule="Q1", question=question, team=str(name))
    return i


def _game_over(state: QuizState, question: int, then: str = "") -> QuizGameOverError:
    """The error for an event after the end, citing the rule that ended the game."""
    reason = state.standings.reason
    if reason is None:
        raise ValueError("a finished game without an end reason")  # Standings' invariant
    return QuizGameOverError(
        f"the game ended after question {state.questions_played} ({reason}){then}",
        rule=reason.rule,
        question=question,
    )


def _open_question(state: QuizState, question: int) -> OpenQuestion:
    oq = state.open
    if oq is None:
        if state.finished:
            raise _game_over(state, question)
        raise QuizRuleError("no question is open", rule="Q2", question=question)
    if oq.number != question:
        raise QuizRuleError(
            f"the open question is question {oq.number}", rule="Q2", question=question
        )
    return oq


def _replace_open(
    oq: OpenQuestion,
    *,
    locked: bool | None = None,
    partner_flag: bool | None = None,
    declarations: PVec[Declaration | None] | None = None,
    answers: PVec[AnswerSlot] | None = None,
    late: tuple[tuple[int, Declaration], ...] | None = None,
    unjudged: int | None = None,
) -> OpenQuestion:
    return OpenQuestion(
        oq.number,
        oq.locked if locked is None else locked,
        oq.partner_flag if partner_flag is None else partner_flag,
        oq.declarations if declarations is None else declarations,
        oq.answers if answers is None else answers,
        oq.late if late is None else late,
        oq.unjudged if unjudged is None else unjudged,
    )


def _with_open(state: QuizState, oq: OpenQuestion | None) -> QuizState:
    return QuizState(
        state.config,
        state.index,
        state.snapshots,
        state.records,
        state.notes,
        oq,
        state.lightning,
        state.breaks,
    )


def _open(state: QuizState, event: QuestionOpened) -> QuizState:
    q = event.question
    if state.finished:
        raise _game_over(state, q, "; no more questions may be played")
    if state.open is not None:
        raise QuizRuleError(f"question {state.open.number} is still open", rule="Q2", question=q)
    expected = state.questions_played + 1
    if q != expected:
        raise QuizRuleError(
            f"questions are played in order; the next one is question {expected}",
            rule="Q35",
            question=q,
        )
    n = len(state.config.teams)
    oq = OpenQuestion(q, False, False, PVec.filled(n, None), PVec.filled(n, None))
    return _with_open(state, oq)


def _declare(state: QuizState, event: DeclarationMade) -> QuizState:
    oq = _open_question(state, event.question)
    i = _team(state, event.team, oq.number)
    declared = event.declaration
    if declared not in ("jump", "revolution", "ordinary"):
        raise QuizRuleError(
            f"unknown declaration {declared!r}", rule="Q17", question=oq.number, team=event.team
        )
    if oq.locked:
        if declared == "ordinary":
            return state
        return _with_open(state, _replace_open(oq, late=(*oq.late, (i, declared))))
    if declared == "ordinary":
        return _with_open(state, _replace_open(oq, declarations=oq.declarations.set(i, None)))
    problem = declaration_problem(state.config, state.standings, i, declared)
    if problem is not None:
        reason, rule, params = problem
        # the engine's refusals are for programs and logs, in English; the web app
        # words a refused declaration itself
        raise QuizRuleError(
            f"{declared} rejected: {problem_text(reason, dict(params))}",
            rule=rule,
            question=oq.number,
            team=event.team,
            problem=reason,
            params=params,
        )
    return _with_open(state, _replace_open(oq, declarations=oq.declarations.set(i, declared)))


def _answer(state: QuizState, event: AnswerReceived) -> QuizState:
    oq = _open_question(state, event.question)
    i = _team(state, event.team, oq.number)
    if not oq.locked:
        raise QuizRuleError(
            "answer received before the question was read (declarations not locked)",
            rule="Q27",
            question=oq.number,
            team=event.team,
        )
    t = event.time
    if t is not None and not (isinstance(t, int | float) and math.isfinite(t) and t >= 0):
        raise QuizRuleError(
            f"answer time {t!r} is not a number of seconds >= 0",
            rule="Q16",
            question=oq.number,
            team=event.team,
        )
    if oq.answers.get(i) is not None:
        raise QuizRuleError(
            "the team already answered this question",
            rule="Q27",
            question=oq.number,
            team=event.team,
        )
    slot: AnswerSlot = (None if t is None else float(t), event.correct)
    unjudged = oq.unjudged + (1 if event.correct is None else 0)
    return _with_open(state, _replace_open(oq, answers=oq.answers.set(i, slot), unjudged=unjudged))


def _judge(state: QuizState, event: AnswerJudged) -> QuizState:
    oq = _open_question(state, event.question)
    i = _team(state, event.team, oq.number)
    slot = oq.answers.get(i)
    if slot is None:
        raise QuizRuleError(
            "no answer was received from the team",
            rule="Q27",
            question=oq.number,
            team=event.team,
        )
    if slot[1] is not None:
        raise QuizRuleError(
            "the answer is already judged; send a judgement correction",
            rule="Q26",
            question=oq.number,
            team=event.team,
        )
    answers = oq.answers.set(i, (slot[0], bool(event.correct)))
    return _with_open(state, _replace_open(oq, answers=answers, unjudged=oq.unjudged - 1))


def _partner(state: QuizState, event: PartnerFlagged) -> QuizState:
    oq = state.open
    if oq is None or oq.number != event.question:
        raise QuizRuleError(
            "a partner flag can only be set on the open question, until it is closed",
            rule="Q5",
            question=event.question,
        )
    return _with_open(state, _replace_open(oq, partner_flag=bool(event.partner)))


def _close(state: QuizState, event: QuestionClosed) -> QuizState:
    oq = _open_question(state, event.question)
    config = state.config
    answers = oq.answers.to_list()
    if oq.unjudged:
        first = next(i for i, s in enumerate(answers) if s is not None and s[1] is None)
        raise QuizRuleError(
            "every received answer must be judged before the question is closed",
            rule="Q27",
            question=oq.number,
            team=config.teams[first],
        )
    declared = oq.declarations.to_list()
    record = QuestionRecord(
        number=oq.number,
        declarations=MappingProxyType({i: d for i, d in enumerate(declared) if d is not None}),
        late=oq.late,
        judged=tuple(None if s is None else s[1] for s in answers),
        times=tuple(None if s is None else s[0] for s in answers),
        partner=oq.partner_flag or oq.number in config.partner_questions,
    )
    after, notes = resolve(config, state.standings, record)
    return QuizState(
        config,
        state.index,
        (*state.snapshots, after),
        (*state.records, record),
        (*state.notes, notes),
        None,
        state.lightning,
        state.breaks,
    )


def _correct(state: QuizState, event: JudgementCorrected) -> QuizState:
    q = event.question
    oq = state.open
    if oq is not None and oq.number == q:
        i = _team(state, event.team, q)
        slot = oq.answers.get(i)
        if slot is None or slot[1] is None:
            raise QuizRuleError(
                "there is no judged answer of the team to correct",
                rule="Q26",
                question=q,
                team=event.team,
            )
        answers = oq.answers.set(i, (slot[0], bool(event.correct)))
        return _with_open(state, _replace_open(oq, answers=answers))
    _check_closed(state, q, event.team)
    i = _team(state, event.team, q)
    record = state.records[q - 1]
    if record.judged[i] is None:
        raise QuizRuleError(
            "the team gave no answer to this question",
            rule="Q26",
            question=q,
            team=event.team,
        )
    if record.judged[i] == event.correct:
        return state
    return _rejudged(state, q, i, event.correct)


def _rejudged(state: QuizState, q: int, i: int, correct: bool) -> QuizState:
    """Closed question ``q`` with team ``i``'s judgement set, recomputed from there (Q26)."""
    record = state.records[q - 1]
    judged = list(record.judged)
    judged[i] = bool(correct)
    new_record = QuestionRecord(
        record.number,
        record.declarations,
        record.late,
        tuple(judged),
        record.times,
        record.partner,
    )
    records = (*state.records[: q - 1], new_record, *state.records[q:])
    return _recompute(state, records, min(q, state.questions_played + 1))


def _check_closed(state: QuizState, q: int, team: str) -> None:
    """Question ``q`` is closed and may still be corrected (Q26)."""
    oq = state.open
    if not 1 <= q <= len(state.records):
        raise QuizRuleError("no such question was played", rule="Q26", question=q, team=team)
    if oq is not None:
        raise QuizRuleError(
            f"close question {oq.number} before correcting an earlier question",
            rule="Q26",
            question=q,
            team=team,
        )
    if state.lightning:
        raise QuizRuleError(
            "the lightning round has started; judgements of the game are final",
            rule="Q26",
            question=q,
            team=team,
        )


def _admit(state: QuizState, event: AnswerAdmitted) -> QuizState:
    q = event.question
    if state.open is not None and state.open.number == q:
        raise QuizRuleError(
            "the question is still open: the judge enters the team's answer instead (Q2)",
            rule="Q26",
            question=q,
            team=event.team,
        )
    _check_closed(state, q, event.team)
    i = _team(state, event.team, q)
    record = state.records[q - 1]
    if record.judged[i] is not None:
        raise QuizRuleError(
            "the team's answer was received: correct its judgement instead",
            rule="Q26",
            question=q,
            team=event.team,
        )
    return _rejudged(state, q, i, event.correct)


def _recompute(state: QuizState, records: tuple[QuestionRecord, ...], start: int) -> QuizState:
    """Re-resolve questions ``start``.. from the snapshot before ``start`` (Q26)."""
    snapshots = list(state.snapshots[:start])
    notes: list[tuple[Note, ...]] = list(state.notes[: start - 1])
    for record in records[start - 1 :]:
        if snapshots[-1].finished:
            break
        after, question_notes = resolve(state.config, snapshots[-1], record)
        snapshots.append(after)
        notes.append(question_notes)
    return QuizState(
        state.config,
        state.index,
        tuple(snapshots),
        records,
        tuple(notes),
        None,
        state.lightning,
        state.breaks,
    )


def _break(state: QuizState, event: BreakTaken) -> QuizState:
    if state.open is not None or event.after_question != state.questions_played:
        raise QuizRuleError(
            f"a break comes between questions, after question {state.questions_played}",
            rule="Q31",
            question=event.after_question,
        )
    return QuizState(
        state.config,
        state.index,
        state.snapshots,
        state.records,
        state.notes,
        None,
        state.lightning,
        (*state.breaks, event.after_question),
    )


def _lightning(state: QuizState, event: LightningQuestion) -> QuizState:
    config = state.config
    if not state.finished:
        raise QuizRuleError("a lightning round is played only after the game ended", rule="Q29")
    members = [_team(state, name, None) for name in event.teams]
    for name in event.answers:
        if name not in event.teams:
            _team(state, name, None)
            raise QuizRuleError(
                "a team outside the lightning question answered", rule="Q14", team=name
            )
    cut = config.qualifiers if config.kind == "semifinal" else None
    ranking = rank(
        state.standings,
        state.lightning,
        dict(state.index),
        prize_places=config.prize_places,
        cut=cut,
    )
    wanted = set(members)
    for place, group in ranking.groups:
        if (
            set(group) == wanted
            and len(group) == len(members)
            and needs_lightning(place, len(group), prize_places=config.prize_places, cut=cut)
        ):
            return QuizState(
                config,
                state.index,
                state.snapshots,
                state.records,
                state.notes,
                None,
                (*state.lightning, event),
                state.breaks,
            )
    open_ties = [
        "{" + ", ".join(config.teams[i] for i in g) + f"}} for place {p}"
        for p, g in ranking.groups
        if needs_lightning(p, len(g), prize_places=config.prize_places, cut=cut)
    ]
    raise QuizRuleError(
        "a lightning question is for exactly the teams of one unsettled tie "
        f"(open ties: {'; '.join(open_ties) or 'none'})",
        rule="Q14",
        team=", ".join(event.teams),
    )


#: the handler of each event type (defined above; an unknown type is refused, Q32)
_HANDLERS: dict[type[Any], Callable[[QuizState, Any], QuizState]] = {
    AnswerReceived: _answer,
    AnswerJudged: _judge,
    DeclarationMade: _declare,
    QuestionOpened: _open,
    DeclarationsLocked: _lock,
    QuestionClosed: _close,
    JudgementCorrected: _correct,
    AnswerAdmitted: _admit,
    PartnerFlagged: _partner,
    BreakTaken: _break,
    LightningQuestion: _lightning,
}
