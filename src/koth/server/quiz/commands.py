"""The judge console's commands: each turns its request body into the one op to append.

A command reads the event (under its lock) only to fill in what the host left out (the
open question, the next part's teams, the answers of a group); the fold
(:meth:`EventModel.apply`) decides whether the op is allowed now.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from koth.games.quiz import draw_spurs
from koth.games.quiz.pack import PackError, parse_pack
from koth.i18n import N_, Term
from koth.server.errors import InvalidRequestError, NotFoundError, WrongPhaseError
from koth.server.quiz import ops
from koth.server.quiz.command_schemas import (
    AddTeamCommand,
    AnswerForTeamCommand,
    AppealCommand,
    ExtendCommand,
    GroupAppealCommand,
    JudgeCommand,
    LightningCommand,
    LockJoiningCommand,
    MediaCommand,
    MergeTeamsCommand,
    NoArguments,
    OnQuestion,
    OpenAnsweringCommand,
    OpenQuestionCommand,
    PackUpload,
    PartnerCommand,
    RenameTeamCommand,
    ScreenCommand,
    TeamCommand,
)
from koth.server.quiz.model import EventModel
from koth.server.quiz.names import normal_name

B = TypeVar("B", bound=BaseModel)
#: a command: (the event, the request body, the server time) -> the op to append
Command = Callable[[EventModel, B, float], ops.Op]


def _question(model: EventModel, body: OnQuestion) -> int:
    if body.question is not None:
        return body.question
    _part, q = model.open_question()
    return q.number


def add_team(_model: EventModel, body: AddTeamCommand, _now: float) -> ops.Op:
    return ops.TeamJoined(team=normal_name(body.team))


def start(model: EventModel, _body: NoArguments, _now: float) -> ops.Op:
    return next_part_op(model)


def take_break(_model: EventModel, _body: NoArguments, _now: float) -> ops.Op:
    return ops.BreakTaken()


def lightning(_model: EventModel, body: LightningCommand, _now: float) -> ops.Op:
    return ops.Lightning(teams=body.teams, right=body.right)


def open_question(model: EventModel, body: OpenQuestionCommand, _now: float) -> ops.Op:
    number = body.question or len(model.current_part().questions) + 1
    return ops.QuestionOpened(question=number)


def lock(model: EventModel, body: OnQuestion, now: float) -> ops.Op:
    return ops.Locked(question=_question(model, body), at=now)


def open_answering(model: EventModel, body: OpenAnsweringCommand, now: float) -> ops.Op:
    seconds = body.seconds or float(model.config.answer_seconds)
    return ops.AnsweringOpened(question=_question(model, body), seconds=seconds, at=now)


def pause(model: EventModel, body: OnQuestion, now: float) -> ops.Op:
    return ops.TimerPaused(question=_question(model, body), at=now)


def resume(model: EventModel, body: OnQuestion, now: float) -> ops.Op:
    return ops.TimerResumed(question=_question(model, body), at=now)


def extend(model: EventModel, body: ExtendCommand, now: float) -> ops.Op:
    return ops.TimerExtended(question=_question(model, body), seconds=body.seconds, at=now)


def close_answering(model: EventModel, body: OnQuestion, now: float) -> ops.Op:
    return ops.AnsweringClosed(question=_question(model, body), at=now)


def judge(model: EventModel, body: JudgeCommand, _now: float) -> ops.Op:
    """Judge every answer whose normalised text is ``body.key`` and/or the listed teams."""
    question = _question(model, body)
    q = model.current_part().open_question
    if q is None or q.number != question:
        raise WrongPhaseError(N_("question {question} is not open"), question=question)
    chosen = [t for t, a in q.answers.items() if body.key is not None and a.key == body.key]
    chosen += [t for t in body.teams if t not in chosen]
    if not chosen:
        raise NotFoundError(N_("no answer matches"))
    return ops.Judged(question=question, teams=chosen, correct=body.correct)


def partner(model: EventModel, body: PartnerCommand, _now: float) -> ops.Op:
    return ops.PartnerSet(question=_question(model, body), partner=body.partner)


def resolve(model: EventModel, body: OnQuestion, _now: float) -> ops.Op:
    return ops.Resolved(question=_question(model, body))


def appeal(_model: EventModel, body: AppealCommand, now: float) -> ops.Op:
    return ops.Corrected(
        question=body.question,
        team=body.team,
        correct=body.correct,
        comment=body.comment,
        answer=body.answer,
        at=now,
    )


def answer_for_team(model: EventModel, body: AnswerForTeamCommand, now: float) -> ops.Op:
    """An answer the judge types in for a team (given on paper or aloud)."""
    if body.team not in model.teams:
        raise InvalidRequestError(N_("no team {team!r}"), team=body.team)
    question = _question(model, body)
    return ops.Answered(
        question=question,
        team=body.team,
        text=body.text,
        at=now,
        submission_id=f"judge-{question}-{now:.6f}",
        by="judge",
    )


# ------------------------------------------------------ the host's control
def rename_team(_model: EventModel, body: RenameTeamCommand, _now: float) -> ops.Op:
    return ops.TeamRenamed(team=normal_name(body.team), name=normal_name(body.name))


def remove_team(_model: EventModel, body: TeamCommand, _now: float) -> ops.Op:
    return ops.TeamRemoved(team=normal_name(body.team))


def merge_teams(_model: EventModel, body: MergeTeamsCommand, _now: float) -> ops.Op:
    return ops.TeamsMerged(team=normal_name(body.team), into=normal_name(body.into))


def lock_joining(_model: EventModel, body: LockJoiningCommand, _now: float) -> ops.Op:
    return ops.JoiningLocked(locked=body.locked)


def withdraw_team(_model: EventModel, body: TeamCommand, now: float) -> ops.Op:
    return ops.TeamWithdrawn(team=normal_name(body.team), at=now)


def return_team(_model: EventModel, body: TeamCommand, _now: float) -> ops.Op:
    return ops.TeamReturned(team=normal_name(body.team))


def reopen(model: EventModel, body: OnQuestion, _now: float) -> ops.Op:
    number = body.question or model.reopenable()
    if number is None:
        raise WrongPhaseError(
            N_("only the last resolved question can be re-opened, before the next one is opened")
        )
    return ops.QuestionReopened(question=number)


def mark_rest_wrong(model: EventModel, body: OnQuestion, _now: float) -> ops.Op:
    """Every answer of the open question not judged yet is judged wrong."""
    question = _question(model, body)
    _part, q = model.open_question()
    unjudged = [t for t, a in q.answers.items() if a.judged is None]
    if not unjudged:
        raise InvalidRequestError(
            N_("every answer to question {question} is judged already"), question=question
        )
    return ops.Judged(question=question, teams=unjudged, correct=False)


def appeal_group(model: EventModel, body: GroupAppealCommand, now: float) -> ops.Op:
    """An appeal for every team whose answer to a closed question has the normalised text
    ``body.key``, and/or the listed teams."""
    part = model.current_part()
    if not 1 <= body.question <= len(part.questions):
        raise WrongPhaseError(
            N_("question {question} was not played in {part}"),
            question=body.question,
            part=Term(part.name),
        )
    answers = part.questions[body.question - 1].answers
    chosen = [t for t, a in answers.items() if body.key is not None and a.key == body.key]
    chosen += [t for t in body.teams if t not in chosen]
    if not chosen:
        raise NotFoundError(N_("no answer to question {question} matches"), question=body.question)
    return ops.GroupCorrected(
        question=body.question, teams=chosen, correct=body.correct, comment=body.comment, at=now
    )


def next_part_op(model: EventModel) -> ops.PartStarted:
    """The op that starts the next part: its teams and their spur cells (set by the host,
    or drawn with the event's secret seed, one stream per part)."""
    wanted = model.next_part_teams()
    if wanted is None:
        raise WrongPhaseError(N_("every part of the event has been played"))
    name, teams = wanted
    settings = model.config
    if len(teams) < 2:
        raise WrongPhaseError(
            N_("{part} needs at least 2 teams (it has {count})"), part=Term(name), count=len(teams)
        )
    manual = {
        ops.clean_name(t): list(c) for t, c in settings.spurs.items() if ops.clean_name(t) in teams
    }
    rng = random.Random(f"{model.spur_seed}:{len(model.parts)}")
    missing = [t for t in teams if t not in manual]
    drawn: dict[str, Any] = {}
    if settings.spurs_per_slope and missing:
        try:
            drawn = draw_spurs(missing, settings.steps, rng, settings.spurs_per_slope)
        except Exception as exc:
            raise InvalidRequestError(str(exc)) from None
    spurs = {**manual, **{t: list(c) for t, c in drawn.items()}}
    return ops.PartStarted(name=name, teams=teams, spurs=spurs)


# ---------------------------------------------------------------- the show
def show_screen(model: EventModel, body: ScreenCommand, now: float) -> ops.Op:
    """What the big screen shows for the open question: its text, its answer or the
    mountain."""
    return ops.ScreenShown(question=_question(model, body), show=body.show, at=now)


def play_media(model: EventModel, body: MediaCommand, now: float) -> ops.Op:
    """Play, pause or replay the open question's sound or video (on the phones too if
    the host says so)."""
    return ops.MediaPlayed(
        question=_question(model, body), action=body.action, phones=body.phones, at=now
    )


#: the longest a pack may take to read (in a thread: the event loop never reads one)
PACK_READ_SECONDS = 5.0


def read_pack(body: PackUpload, max_bytes: int) -> ops.Op:
    """The host's question pack, checked (every problem named with its line and field),
    replacing one loaded before; refused when its stored form would pass ``max_bytes``.
    It blocks for as long as the reading takes: callers run it in a thread."""
    try:
        pack = parse_pack(body.text, body.form, max_seconds=PACK_READ_SECONDS)
    except PackError as exc:
        raise InvalidRequestError(
            N_("the question pack has errors: {problems}"), problems="; ".join(exc.problems)
        ) from None
    stored = pack.model_dump(mode="json")
    size = len(json.dumps(stored, ensure_ascii=False).encode())
    if size > max_bytes:
        raise InvalidRequestError(
            N_("the question pack has errors: {problems}"),
            problems=f"stored, it would take {size} bytes, more than the {max_bytes} this "
            "server keeps of a pack",
        )
    return ops.PackLoaded(pack=stored)
