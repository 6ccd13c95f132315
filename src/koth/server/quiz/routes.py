"""The JSON API and the WebSocket of quiz hosting (``/api/quiz/...``); every route calls
the quiz service only.

Who may do what: the host token (Bearer) runs the judge console (its commands are in
``judge_routes``); a team token acts for its team only; the projector and the results
after the end need no token.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from fastapi import APIRouter, Request, Response, WebSocket

from koth.server.deps import (
    BaseUrlDep,
    ClientDep,
    HostEventDep,
    IdempotencyKeyDep,
    LanguageDep,
    QuizDep,
    QuizTokenDep,
    RateLimitsDep,
    SocketsDep,
    limited,
)
from koth.server.errors import (
    AlreadyAnsweredError,
    AnsweringClosedError,
    ForbiddenError,
    InvalidRequestError,
    JoinClosedError,
    NameTakenError,
    NotFoundError,
    error_responses,
)
from koth.server.quiz import ops
from koth.server.quiz.judge_routes import COMMAND_ERRORS, REQUEST_ERRORS, WRITE_ERRORS, judge
from koth.server.quiz.schemas import (
    AnswerAck,
    AnswerRequest,
    CreatedEventResponse,
    CredentialsResponse,
    DeclarationRequest,
    JoinRequest,
    JudgeMessage,
    PictureStoredResponse,
    ProjectorMessage,
    ProtocolDocument,
    QuizHello,
    RecoverRequest,
    ResultsDocument,
    TeamMessage,
)
from koth.server.quiz.season import routes as season_routes
from koth.server.ratelimit import Action
from koth.server.responses import attachment, ranged
from koth.server.sockets import serve_socket

# every router carries its whole prefix and the app includes each one itself (no router
# inside another), so a route's own path is the template the access log and metrics name
router = APIRouter(prefix="/api/quiz", tags=["quiz"], responses=REQUEST_ERRORS)
LOOKUP = [limited(Action.LOOKUP)]
ACT = [limited(Action.ACT)]


# ------------------------------------------------------------------ events
@router.post(
    "/events",
    dependencies=[limited(Action.CREATE)],
    status_code=201,
    summary="Create a quiz event (returns the host token once)",
    responses=error_responses(InvalidRequestError),
)
async def create_event(
    body: ops.EventSettings, quiz: QuizDep, base: BaseUrlDep
) -> CreatedEventResponse:
    return await quiz.create(body, base)


@router.get(
    "/events/{event_id}/qr.svg",
    dependencies=LOOKUP,
    summary="QR code of the join link (SVG)",
    response_class=Response,
    responses={
        200: {"content": {"image/svg+xml": {}}, "description": "an SVG image"},
        **error_responses(NotFoundError),
    },
)
async def join_qr(event_id: str, quiz: QuizDep, base: BaseUrlDep) -> Response:
    return Response(await quiz.join_qr(event_id, base), media_type="image/svg+xml")


@router.post(
    "/join",
    dependencies=[limited(Action.JOIN)],
    status_code=201,
    summary="A team joins with the join code",
    responses=error_responses(*WRITE_ERRORS, NameTakenError, JoinClosedError, InvalidRequestError),
)
async def join(body: JoinRequest, quiz: QuizDep) -> CredentialsResponse:
    return await quiz.join(body.code, body.team)


@router.post(
    "/recover",
    dependencies=[limited(Action.RECOVER)],
    summary="Move a team to another phone with its recovery code",
    responses=error_responses(*WRITE_ERRORS, InvalidRequestError),
)
async def recover(body: RecoverRequest, quiz: QuizDep) -> CredentialsResponse:
    return await quiz.recover(body.code, body.team, body.recovery_code)


# ------------------------------------------------------------------- teams
@router.get(
    "/events/{event_id}/team",
    dependencies=LOOKUP,
    summary="The team's own view",
    responses=error_responses(NotFoundError, ForbiddenError),
)
async def team_view(event_id: str, quiz: QuizDep, token: QuizTokenDep) -> TeamMessage:
    return await quiz.team_view(event_id, token)


@router.post(
    "/events/{event_id}/declaration",
    dependencies=ACT,
    summary="Declare a jump or a Revolution",
    responses=error_responses(*WRITE_ERRORS, InvalidRequestError),
)
async def declare(
    event_id: str,
    body: DeclarationRequest,
    quiz: QuizDep,
    token: QuizTokenDep,
    key: IdempotencyKeyDep,
) -> TeamMessage:
    return await quiz.declare(event_id, token, body.question, body.declaration, key)


@router.post(
    "/events/{event_id}/answer",
    dependencies=ACT,
    summary="Send the team's answer (idempotent per submission id)",
    responses=error_responses(
        *WRITE_ERRORS, InvalidRequestError, AnsweringClosedError, AlreadyAnsweredError
    ),
)
async def answer(
    event_id: str, body: AnswerRequest, quiz: QuizDep, token: QuizTokenDep
) -> AnswerAck:
    return await quiz.team_answer(event_id, token, body.question, body.text, body.submission_id)


# --------------------------------------------------------- projector/judge
@router.get(
    "/events/{event_id}/projector",
    dependencies=LOOKUP,
    summary="The public picture (no token)",
    responses=error_responses(NotFoundError),
)
async def projector_view(event_id: str, quiz: QuizDep) -> ProjectorMessage:
    return await quiz.projector_view(event_id)


@router.get(
    "/events/{event_id}/judge",
    dependencies=LOOKUP,
    summary="Everything, for the host",
    responses=error_responses(NotFoundError, ForbiddenError),
)
async def judge_view(event_id: str, quiz: QuizDep, token: QuizTokenDep) -> JudgeMessage:
    return await quiz.judge_view(event_id, token)


#: the upload of a sound or video: its body may be as large as the setting allows
MEDIA_UPLOAD = re.compile(r"/api/quiz/events/[^/]+/media/[^/]+")
FILE_BODY = {
    "requestBody": {
        "required": True,
        "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
    }
}


@router.put(
    "/events/{event_id}/media/{name}",
    dependencies=ACT,
    tags=["quiz judge"],
    responses=COMMAND_ERRORS,
    summary="Store a sound or video of the pack (the request body is the file)",
    openapi_extra=FILE_BODY,
)
async def store_media(
    live: HostEventDep, name: str, request: Request, quiz: QuizDep
) -> PictureStoredResponse:
    return await quiz.store_media(live, name, await request.body())


@router.get(
    "/events/{event_id}/media/{name}",
    dependencies=LOOKUP,
    summary="A sound or video of the pack (public once its question was shown)",
    response_class=Response,
    responses={
        200: {"content": {"audio/*": {}, "video/*": {}}, "description": "the file"},
        206: {"content": {"audio/*": {}, "video/*": {}}, "description": "the bytes asked for"},
        **error_responses(NotFoundError),
    },
)
async def media(
    event_id: str, name: str, request: Request, quiz: QuizDep, token: QuizTokenDep
) -> Response:
    mime, data = await quiz.picture(event_id, name, token)
    return ranged(data, mime, request.headers.get("range"))


@router.put(
    "/events/{event_id}/pictures/{name}",
    dependencies=ACT,
    tags=["quiz judge"],
    responses=COMMAND_ERRORS,
    summary="Store a picture of the pack (the request body is the file)",
    openapi_extra=FILE_BODY,
)
async def store_picture(
    live: HostEventDep, name: str, request: Request, quiz: QuizDep
) -> PictureStoredResponse:
    return await quiz.store_picture(live, name, await request.body())


@router.get(
    "/events/{event_id}/pictures/{name}",
    dependencies=LOOKUP,
    summary="A picture of the pack (public once its question was shown)",
    response_class=Response,
    responses={
        200: {"content": {"image/*": {}}, "description": "the picture"},
        **error_responses(NotFoundError),
    },
)
async def picture(event_id: str, name: str, quiz: QuizDep, token: QuizTokenDep) -> Response:
    mime, data = await quiz.picture(event_id, name, token)
    return Response(data, media_type=mime, headers={"Cache-Control": "private, max-age=3600"})


# ------------------------------------------------------------------ results
RESULT_ERRORS = error_responses(NotFoundError, ForbiddenError)


@router.get(
    "/events/{event_id}/results",
    dependencies=LOOKUP,
    summary="Places and every move (public after the end)",
    responses=RESULT_ERRORS,
)
async def results(
    event_id: str, quiz: QuizDep, token: QuizTokenDep, lang: LanguageDep
) -> ResultsDocument:
    return await quiz.results(event_id, token, lang)


@router.get(
    "/events/{event_id}/export.json",
    dependencies=LOOKUP,
    summary="The results as a JSON download",
    responses=RESULT_ERRORS,
)
async def export_json(
    event_id: str, quiz: QuizDep, token: QuizTokenDep, response: Response, lang: LanguageDep
) -> ResultsDocument:
    results = await quiz.results(event_id, token, lang)  # an unknown id is refused first
    response.headers.update(attachment(f"quiz-{event_id}.json"))
    return results


@router.get(
    "/events/{event_id}/export.csv",
    dependencies=LOOKUP,
    summary="Every team's move on every question (CSV)",
    response_class=Response,
    responses={
        200: {"content": {"text/csv": {}}, "description": "one row per part, question and team"},
        **RESULT_ERRORS,
    },
)
async def export_csv(
    event_id: str, quiz: QuizDep, token: QuizTokenDep, lang: LanguageDep
) -> Response:
    text = await quiz.results_csv(event_id, token, lang)
    return Response(
        text, media_type="text/csv; charset=utf-8", headers=attachment(f"quiz-{event_id}.csv")
    )


@router.get(
    "/events/{event_id}/statistics.csv",
    dependencies=LOOKUP,
    summary="Per question: right answers, by declared move, common wrong answers (CSV)",
    response_class=Response,
    responses={
        200: {"content": {"text/csv": {}}, "description": "one row per part and question"},
        **RESULT_ERRORS,
    },
)
async def export_stats_csv(
    event_id: str, quiz: QuizDep, token: QuizTokenDep, lang: LanguageDep
) -> Response:
    text = await quiz.stats_csv(event_id, token, lang)
    name = f"quiz-{event_id}-statistics.csv"
    return Response(text, media_type="text/csv; charset=utf-8", headers=attachment(name))


@router.get(
    "/events/{event_id}/protocol.json",
    dependencies=LOOKUP,
    summary="The protocol for `koth quiz score`",
    response_model_exclude_unset=True,
    responses=RESULT_ERRORS,
)
async def export_protocol(
    event_id: str, quiz: QuizDep, token: QuizTokenDep, response: Response
) -> ProtocolDocument:
    protocol = await quiz.protocol(event_id, token)  # an unknown id is refused first
    response.headers.update(attachment(f"quiz-{event_id}-protocol.json"))
    return protocol


# ---------------------------------------------------------------- websocket
@router.websocket("/events/{event_id}/ws")
async def quiz_socket(
    websocket: WebSocket,
    event_id: str,
    quiz: QuizDep,
    limits: RateLimitsDep,
    sockets: SocketsDep,
    client: ClientDep,
) -> None:
    """Live updates. First frame from the client: ``{"type": "hello", "role":
    "team"|"projector"|"judge", "token": ...}``; the server then sends the full state of
    that audience, and again after every change (so a reconnect gets everything).
    Refused: a hello of another shape (close 4400), an unknown event (4404), a wrong
    token (4403), too many connections or requests (4429)."""

    async def subscribe(hello: QuizHello) -> tuple[str, Callable[[], None]]:
        live, listener, first = await quiz.subscribe(event_id, hello.role, hello.token, websocket)
        return first.model_dump_json(), lambda: live.unsubscribe(listener)

    await serve_socket(
        websocket,
        limits=limits,
        budget=sockets,
        client=client,
        feature="quiz",
        hello=QuizHello,
        subscribe=subscribe,
        pong=lambda: {"type": "pong", "server_time": time.time()},
        what="a role and a token",
    )


#: the quiz API's routers, each included by the app
ROUTERS = (router, judge, season_routes.router)
