"""The judge console's JSON API (``/api/quiz/events/<id>/judge/...``): one route per
command, each with its own body, run with the host token; each answers with the judge's
picture and the log row the command made (``applied_seq``). Every route calls the quiz
service only. The error answers a write to an event may get are defined here too.
"""

from __future__ import annotations

from fastapi import APIRouter

from koth.server.deps import HostEventDep, IdempotencyKeyDep, QuizDep, limited
from koth.server.errors import (
    AlreadyAnsweredError,
    AnsweringClosedError,
    ForbiddenError,
    InvalidRequestError,
    MalformedRequestError,
    NameTakenError,
    NotFoundError,
    PayloadTooLargeError,
    RateLimitedError,
    StorageUnavailableError,
    WrongPhaseError,
    error_responses,
)
from koth.server.quiz import commands
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
from koth.server.quiz.schemas import JudgeMessage
from koth.server.ratelimit import Action

#: what any write to an event may be refused with
WRITE_ERRORS = (NotFoundError, ForbiddenError, WrongPhaseError, StorageUnavailableError)
COMMAND_ERRORS = error_responses(
    *WRITE_ERRORS,
    InvalidRequestError,
    NameTakenError,
    AnsweringClosedError,
    AlreadyAnsweredError,
)
#: what any request to the quiz API may be refused with
REQUEST_ERRORS = error_responses(MalformedRequestError, RateLimitedError, PayloadTooLargeError)

# its whole prefix, like every router (see ``routes``)
judge = APIRouter(
    prefix="/api/quiz/events/{event_id}/judge",
    tags=["quiz judge"],
    responses={**REQUEST_ERRORS, **COMMAND_ERRORS},
    dependencies=[limited(Action.ACT)],
)


@judge.post("/add_team", summary="Add a team that plays without a phone")
async def add_team(
    live: HostEventDep, key: IdempotencyKeyDep, body: AddTeamCommand, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.run_command(live, commands.add_team, body, key)


@judge.post("/start", summary="Start the next part (the game, a semifinal or the final)")
async def start(
    live: HostEventDep, key: IdempotencyKeyDep, quiz: QuizDep, body: NoArguments | None = None
) -> JudgeMessage:
    return await quiz.run_command(live, commands.start, body or NoArguments(), key)


@judge.post("/break", summary="Take a break after the last question")
async def take_break(
    live: HostEventDep, key: IdempotencyKeyDep, quiz: QuizDep, body: NoArguments | None = None
) -> JudgeMessage:
    return await quiz.run_command(live, commands.take_break, body or NoArguments(), key)


@judge.post("/lightning", summary="Record a lightning question that settles a tie")
async def lightning(
    live: HostEventDep, key: IdempotencyKeyDep, body: LightningCommand, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.run_command(live, commands.lightning, body, key)


@judge.post("/open_question", summary="Open the next question: declarations may be made")
async def open_question(
    live: HostEventDep,
    key: IdempotencyKeyDep,
    quiz: QuizDep,
    body: OpenQuestionCommand | None = None,
) -> JudgeMessage:
    command_body = body or OpenQuestionCommand()
    return await quiz.run_command(live, commands.open_question, command_body, key)


@judge.post("/lock", summary="Lock declarations: the question is being read")
async def lock(
    live: HostEventDep, key: IdempotencyKeyDep, quiz: QuizDep, body: OnQuestion | None = None
) -> JudgeMessage:
    return await quiz.run_command(live, commands.lock, body or OnQuestion(), key)


@judge.post("/open_answering", summary="Start the answering time")
async def open_answering(
    live: HostEventDep,
    key: IdempotencyKeyDep,
    quiz: QuizDep,
    body: OpenAnsweringCommand | None = None,
) -> JudgeMessage:
    command_body = body or OpenAnsweringCommand()
    return await quiz.run_command(live, commands.open_answering, command_body, key)


@judge.post("/pause", summary="Pause the answering time")
async def pause(
    live: HostEventDep, key: IdempotencyKeyDep, quiz: QuizDep, body: OnQuestion | None = None
) -> JudgeMessage:
    return await quiz.run_command(live, commands.pause, body or OnQuestion(), key)


@judge.post("/resume", summary="Resume the answering time")
async def resume(
    live: HostEventDep, key: IdempotencyKeyDep, quiz: QuizDep, body: OnQuestion | None = None
) -> JudgeMessage:
    return await quiz.run_command(live, commands.resume, body or OnQuestion(), key)


@judge.post("/extend", summary="Give more answering time")
async def extend(
    live: HostEventDep, key: IdempotencyKeyDep, body: ExtendCommand, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.run_command(live, commands.extend, body, key)


@judge.post("/close_answering", summary="Close answering now")
async def close_answering(
    live: HostEventDep, key: IdempotencyKeyDep, quiz: QuizDep, body: OnQuestion | None = None
) -> JudgeMessage:
    return await quiz.run_command(live, commands.close_answering, body or OnQuestion(), key)


@judge.post("/judge", summary="Judge a group of answers (by normalised text and/or teams)")
async def judge_answers(
    live: HostEventDep, key: IdempotencyKeyDep, body: JudgeCommand, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.run_command(live, commands.judge, body, key)


@judge.post("/partner", summary="Mark (or unmark) the open question as a partner question")
async def partner(
    live: HostEventDep, key: IdempotencyKeyDep, quiz: QuizDep, body: PartnerCommand | None = None
) -> JudgeMessage:
    return await quiz.run_command(live, commands.partner, body or PartnerCommand(), key)


@judge.post("/resolve", summary="Close the question: the moves are computed")
async def resolve(
    live: HostEventDep, key: IdempotencyKeyDep, quiz: QuizDep, body: OnQuestion | None = None
) -> JudgeMessage:
    return await quiz.run_command(live, commands.resolve, body or OnQuestion(), key)


@judge.post("/appeal", summary="Correct the judgement of a closed question")
async def appeal(
    live: HostEventDep, key: IdempotencyKeyDep, body: AppealCommand, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.run_command(live, commands.appeal, body, key)


@judge.post("/answer_for_team", summary="Type in a team's answer (given on paper or aloud)")
async def answer_for_team(
    live: HostEventDep, key: IdempotencyKeyDep, body: AnswerForTeamCommand, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.run_command(live, commands.answer_for_team, body, key)


# The host's control: the team list, re-opening, the safety nets of judging.
@judge.post("/rename_team", summary="Rename a team (before or after the start)")
async def rename_team(
    live: HostEventDep, key: IdempotencyKeyDep, body: RenameTeamCommand, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.run_command(live, commands.rename_team, body, key)


@judge.post("/remove_team", summary="Before the start: remove a team")
async def remove_team(
    live: HostEventDep, key: IdempotencyKeyDep, body: TeamCommand, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.run_command(live, commands.remove_team, body, key)


@judge.post("/merge_teams", summary="Before the start: one team absorbs another's phones")
async def merge_teams(
    live: HostEventDep, key: IdempotencyKeyDep, body: MergeTeamsCommand, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.run_command(live, commands.merge_teams, body, key)


@judge.post("/lock_joining", summary="Before the start: lock (or unlock) joining by phone")
async def lock_joining(
    live: HostEventDep, key: IdempotencyKeyDep, body: LockJoiningCommand, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.run_command(live, commands.lock_joining, body, key)


@judge.post("/withdraw_team", summary="After the start: a team withdraws (rules Q36)")
async def withdraw_team(
    live: HostEventDep, key: IdempotencyKeyDep, body: TeamCommand, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.run_command(live, commands.withdraw_team, body, key)


@judge.post("/return_team", summary="Undo a withdrawal: the team plays again (rules Q36)")
async def return_team(
    live: HostEventDep, key: IdempotencyKeyDep, body: TeamCommand, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.run_command(live, commands.return_team, body, key)


@judge.post("/reopen", summary="Re-open the last resolved question (until the next is opened)")
async def reopen(
    live: HostEventDep, key: IdempotencyKeyDep, quiz: QuizDep, body: OnQuestion | None = None
) -> JudgeMessage:
    return await quiz.run_command(live, commands.reopen, body or OnQuestion(), key)


@judge.post("/mark_rest_wrong", summary="Judge every answer not judged yet wrong")
async def mark_rest_wrong(
    live: HostEventDep, key: IdempotencyKeyDep, quiz: QuizDep, body: OnQuestion | None = None
) -> JudgeMessage:
    return await quiz.run_command(live, commands.mark_rest_wrong, body or OnQuestion(), key)


@judge.post("/appeal_group", summary="One appeal for a whole answer group of a closed question")
async def appeal_group(
    live: HostEventDep, key: IdempotencyKeyDep, body: GroupAppealCommand, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.run_command(live, commands.appeal_group, body, key)


# -------------------------------------------------------------- the show
@judge.post("/pack", summary="Load a question pack (CSV, JSON or YAML text)")
async def load_pack(
    live: HostEventDep, key: IdempotencyKeyDep, body: PackUpload, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.load_pack(live, body, key)


@judge.post("/screen", summary="Show the open question, its answer, or the mountain")
async def show_screen(
    live: HostEventDep, key: IdempotencyKeyDep, body: ScreenCommand, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.run_command(live, commands.show_screen, body, key)


@judge.post("/media", summary="Play, pause or replay the open question's sound or video")
async def play_media(
    live: HostEventDep, key: IdempotencyKeyDep, body: MediaCommand, quiz: QuizDep
) -> JudgeMessage:
    return await quiz.run_command(live, commands.play_media, body, key)
