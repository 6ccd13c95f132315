"""The judging of a quiz event, as handlers of the event fold: a team's answer (in time,
once, from a team that plays), the judge's verdicts, the partner flag, resolving a
question, and the appeals on a closed one (a verdict corrected, for one team or a group,
or an answer that never arrived typed in by the judge, Q26). Mixed into
:class:`~koth.server.quiz.model.EventModel`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from koth.games.quiz import (
    AnswerAdmitted,
    AnswerJudged,
    AnswerReceived,
    JudgementCorrected,
    PartnerFlagged,
    QuestionClosed,
    QuizEvent,
    situation,
)
from koth.i18n import N_, Term
from koth.server.errors import (
    AlreadyAnsweredError,
    AnsweringClosedError,
    InvalidRequestError,
    NotFoundError,
    WrongPhaseError,
)
from koth.server.quiz import ops
from koth.server.quiz.parts import Answer, Appeal, Part, Question, Team, advanced


class Judging:
    """Handlers of the answer, judging and appeal ops; mixed into :class:`EventModel`."""

    if TYPE_CHECKING:
        teams: dict[str, Team]
        submissions: dict[str, Answer]
        _new: bool

        def current_part(self) -> Part: ...

        def _question(self, number: int) -> tuple[Part, Question]: ...

        def _plays(self, part: Part, team: str) -> None: ...

    def _on_answered(self, op: ops.Answered, seq: int) -> None:
        part = self.current_part()
        if 1 <= op.question <= len(part.questions) and part.questions[op.question - 1].resolved:
            raise AnsweringClosedError(
                N_("question {question} is over: the answer was not accepted"),
                question=op.question,
            )
        part, q = self._question(op.question)
        self._plays(part, op.team)
        text = self._answer_text(op.text)
        if op.submission_id in self.submissions:
            raise AlreadyAnsweredError(N_("this submission was already stored"))
        if op.team in q.answers:
            raise AlreadyAnsweredError(
                N_(
                    "team {team} already answered question {question}; only the first answer counts"
                ),
                team=op.team,
                question=op.question,
            )
        if op.by == "team":
            if q.timer is None:
                raise AnsweringClosedError(
                    N_("answering for question {question} has not opened yet"),
                    question=op.question,
                )
            if not q.timer.accepts(op.at):
                raise AnsweringClosedError(
                    N_(
                        "answering for question {question} is closed: your answer arrived "
                        "after the time was up and was not accepted"
                    ),
                    question=op.question,
                )
        elif q.locked_at is None:
            raise WrongPhaseError(N_("the question has not been read yet"))
        assert q.locked_at is not None
        time = round(max(0.0, op.at - q.locked_at), 3)
        part.state = advanced(part.state, [AnswerReceived(op.question, op.team, time)])
        answer = Answer(
            op.question,
            op.team,
            text,
            ops.normalise_answer(text),
            op.at,
            time,
            op.submission_id,
            op.by,
            seq,
        )
        q.answers[op.team] = answer
        self.submissions[op.submission_id] = answer

    def _answer_text(self, given: str) -> str:
        """An answer as it is kept: trimmed, of a length that fits and (for a new op)
        with a letter or digit in it."""
        text = given.strip()
        if not text or len(text) > ops.ANSWER_MAX:
            raise InvalidRequestError(
                N_("an answer has 1 to {most} characters (got {got})"),
                most=ops.ANSWER_MAX,
                got=len(text),
            )
        if self._new and not ops.normalise_answer(text):
            raise InvalidRequestError(
                N_(
                    "an answer needs a letter or digit: one of only spaces, punctuation or "
                    "invisible characters is no answer"
                )
            )
        return text

    def _on_judged(self, op: ops.Judged, _seq: int) -> None:
        part, q = self._question(op.question)
        if not op.teams:
            raise InvalidRequestError(N_("no answer to judge"))
        events: list[QuizEvent] = []
        for team in op.teams:
            answer = q.answers.get(team)
            if answer is None:
                raise NotFoundError(
                    N_("team {team} has no answer to question {question}"),
                    team=team,
                    question=op.question,
                )
            if answer.judged is None:
                events.append(AnswerJudged(op.question, team, op.correct))
            elif answer.judged != op.correct:
                events.append(JudgementCorrected(op.question, team, op.correct))
        part.state = advanced(part.state, events)
        for team in op.teams:
            q.answers[team].judged = op.correct

    def _on_partner_set(self, op: ops.PartnerSet, _seq: int) -> None:
        part, q = self._question(op.question)
        part.state = advanced(part.state, [PartnerFlagged(op.question, op.partner)])
        q.partner_flag = op.partner

    def _on_resolved(self, op: ops.Resolved, _seq: int) -> None:
        part, q = self._question(op.question)
        unjudged = sorted(t for t, a in q.answers.items() if a.judged is None)
        if unjudged:
            raise WrongPhaseError(
                N_(
                    "answers not judged yet: {count} (e.g. team {team}); "
                    "judge every answer before resolving the question"
                ),
                count=len(unjudged),
                team=unjudged[0],
            )
        part.state = advanced(part.state, [QuestionClosed(op.question)])
        q.resolved = True
        q.judged_at_close = {t: bool(a.judged) for t, a in q.answers.items()}

    def _on_corrected(self, op: ops.Corrected, seq: int) -> None:
        if op.answer is not None:
            self._admit(op, seq)
        else:
            self._correct(op.question, [op.team], op.correct, op.comment, op.at)

    def _admit(self, op: ops.Corrected, seq: int) -> None:
        """An appeal for a team whose answer never arrived: the judge types it in and it
        joins the closed question with the verdict; the rest is recomputed (Q26)."""
        assert op.answer is not None
        part = self.current_part()
        self._closed(part, op.question, op.comment)
        if op.team not in self.teams:
            raise NotFoundError(N_("no team {team!r}"), team=op.team)
        self._plays(part, op.team)
        q = part.questions[op.question - 1]
        if op.team in q.answers:
            raise WrongPhaseError(
                N_("team {team} answered question {question}: appeal its judgement instead"),
                team=op.team,
                question=op.question,
            )
        text = self._answer_text(op.answer)
        before = situation(part.state).downgraded
        state = advanced(part.state, [AnswerAdmitted(op.question, op.team, op.correct)])
        after = situation(state).downgraded
        part.state = state
        answer = Answer(
            op.question, op.team, text, ops.normalise_answer(text), op.at, 0.0, "", "judge", seq
        )
        answer.judged = op.correct
        q.answers[op.team] = answer
        part.appeals.append(
            Appeal(
                op.question,
                op.team,
                op.correct,
                op.comment,
                op.at,
                after_question=len(part.questions),
                downgraded=[d for d in after if d not in before],
                admitted=True,
            )
        )

    def _on_group_corrected(self, op: ops.GroupCorrected, _seq: int) -> None:
        if not op.teams or len(set(op.teams)) != len(op.teams):
            raise InvalidRequestError(N_("an appeal for a group names each of its teams once"))
        self._correct(op.question, op.teams, op.correct, op.comment, op.at)

    def _correct(
        self, question: int, teams: list[str], correct: bool, comment: str, at: float
    ) -> None:
        """An appeal for ``teams`` on a closed question: all of it, or (refused) none."""
        part = self.current_part()
        self._closed(part, question, comment)
        q = part.questions[question - 1]
        missing = [t for t in teams if t not in q.answers]
        if missing:
            raise NotFoundError(
                N_("team {team} gave no answer to question {question}"),
                team=missing[0],
                question=question,
            )
        state = part.state
        appeals: list[Appeal] = []
        for team in teams:
            before = situation(state).downgraded
            state = advanced(state, [JudgementCorrected(question, team, correct)])
            after = situation(state).downgraded
            appeals.append(
                Appeal(
                    question,
                    team,
                    correct,
                    comment,
                    at,
                    after_question=len(part.questions),
                    downgraded=[d for d in after if d not in before],
                )
            )
        part.state = state
        for team in teams:
            q.answers[team].judged = correct
        part.appeals.extend(appeals)

    def _closed(self, part: Part, question: int, comment: str) -> None:
        """An appeal's question is a closed question of ``part`` and its comment fits."""
        if len(comment) > ops.COMMENT_MAX:
            raise InvalidRequestError(
                N_("a comment has at most {most} characters"), most=ops.COMMENT_MAX
            )
        if not 1 <= question <= len(part.questions) or not part.questions[question - 1].resolved:
            raise WrongPhaseError(
                N_(
                    "question {question} is not a closed question of {part}; "
                    "while a question is open, judge it again instead"
                ),
                question=question,
                part=Term(part.name),
            )
