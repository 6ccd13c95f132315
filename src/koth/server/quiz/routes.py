"""The JSON API and the WebSocket of quiz hosting (``/api/quiz/...``).

Who may do what: the host token (Bearer) runs the judge console; a team token acts for
its team only; the projector and the results after the end need no token.
"""

from __future__ import annotations

import asyncio
import io
import json
import time
from typing import Annotated, Any, Literal, TypeVar

import segno
from fastapi import APIRouter, Depends, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from koth.core.errors import KothError
from koth.server.quiz import ops, views
from koth.server.quiz.errors import ForbiddenError, InvalidQuizRequestError, QuizConflictError
from koth.server.quiz.export import protocol_document, results_csv
from koth.server.quiz.live import JUDGE, PROJECTOR, LiveEvent, team_key
from koth.server.quiz.service import QuizService
from koth.server.sockets import BAD_HELLO, close_with, close_with_error

router = APIRouter(prefix="/api/quiz", tags=["quiz"])

HELLO_TIMEOUT_S = 10.0

_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="QuizToken",
    description="The host token (judge console) or a team token (team page).",
)


# The dependencies are ``async def``: FastAPI runs a plain ``def`` dependency in a worker
# thread, two thread hops per request that cost more than the whole answer handling.
async def get_quiz(connection: HTTPConnection) -> QuizService:
    service: QuizService = connection.app.state.quiz
    return service


async def get_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    return credentials.credentials if credentials is not None else None


async def base_url(connection: HTTPConnection) -> str:
    settings = connection.app.state.settings
    public: str | None = getattr(settings, "public_url", None)
    return (public or str(connection.base_url)).rstrip("/")


QuizDep = Annotated[QuizService, Depends(get_quiz)]
TokenDep = Annotated[str | None, Depends(get_token)]
BaseDep = Annotated[str, Depends(base_url)]


# ------------------------------------------------------------------ bodies
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class JoinRequest(_Body):
    code: str = Field(min_length=4, max_length=16)
    team: str = Field(min_length=1, max_length=ops.TEAM_NAME_MAX + 10)


class RecoverRequest(JoinRequest):
    recovery_code: str = Field(min_length=12, max_length=20)


class DeclarationRequest(_Body):
    question: int = Field(ge=1)
    declaration: ops.Declaration


class AnswerRequest(_Body):
    question: int = Field(ge=1)
    text: str = Field(min_length=1, max_length=ops.ANSWER_MAX + 50)
    submission_id: str = Field(min_length=8, max_length=64, description="client-made, per answer")


Command = Literal[
    "add_team",
    "start",
    "open_question",
    "lock",
    "open_answering",
    "pause",
    "resume",
    "extend",
    "close_answering",
    "judge",
    "partner",
    "resolve",
    "appeal",
    "break",
    "lightning",
    "answer_for_team",
]


class JudgeRequest(_Body):
    question: int | None = Field(None, ge=1)
    seconds: float | None = Field(None, gt=0, le=3600)
    correct: bool | None = None
    key: str | None = Field(None, max_length=400, description="judge: a group's normalised text")
    teams: list[str] = Field(default_factory=list, max_length=10_000)
    team: str | None = Field(None, max_length=ops.TEAM_NAME_MAX)
    text: str | None = Field(None, max_length=ops.ANSWER_MAX)
    comment: str = Field("", max_length=ops.COMMENT_MAX)
    partner: bool | None = None
    right: list[str] = Field(default_factory=list, max_length=10_000)


# ------------------------------------------------------------------ events
def _links(base: str, event_id: str, code: str) -> dict[str, str]:
    return {
        "judge": f"{base}/quiz/{event_id}/judge",
        "projector": f"{base}/quiz/{event_id}/projector",
        "results": f"{base}/quiz/{event_id}/results",
        "join": f"{base}/quiz/join?code={code}",
        "qr": f"{base}/api/quiz/events/{event_id}/qr.svg",
    }


@router.post(
    "/events", status_code=201, summary="Create a quiz event (returns the host token once)"
)
async def create_event(body: ops.EventSettings, quiz: QuizDep, base: BaseDep) -> dict[str, Any]:
    created = await quiz.create(body)
    links = _links(base, created.event_id, created.join_code)
    links["host"] = f"{links['judge']}#token={created.host_token}"
    return {
        "id": created.event_id,
        "join_code": created.join_code,
        "host_token": created.host_token,
        "links": links,
    }


@router.get("/events/{event_id}/qr.svg", summary="QR code of the join link (SVG)")
async def join_qr(event_id: str, quiz: QuizDep, base: BaseDep) -> Response:
    live = await quiz.live(event_id)
    url = _links(base, event_id, live.stored.join_code)["join"]
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=8, dark="#1d2433", xmldecl=False)
    return Response(buffer.getvalue(), media_type="image/svg+xml")


@router.post("/join", status_code=201, summary="A team joins with the join code")
async def join(body: JoinRequest, quiz: QuizDep) -> dict[str, Any]:
    creds = await quiz.join(body.code, body.team)
    return _credentials(creds.event_id, creds.team, creds.token, creds.recovery_code)


@router.post("/recover", summary="Move a team to another phone with its recovery code")
async def recover(body: RecoverRequest, quiz: QuizDep) -> dict[str, Any]:
    creds = await quiz.recover(body.code, body.team, body.recovery_code)
    return _credentials(creds.event_id, creds.team, creds.token, creds.recovery_code)


def _credentials(event_id: str, team: str, token: str, recovery: str) -> dict[str, Any]:
    return {
        "event_id": event_id,
        "team": team,
        "token": token,
        "recovery_code": recovery,
        "team_page": f"/quiz/{event_id}/team",
    }


# ------------------------------------------------------------------- teams
@router.get("/events/{event_id}/team", summary="The team's own view")
async def team_view(event_id: str, quiz: QuizDep, token: TokenDep) -> dict[str, Any]:
    live = await quiz.live(event_id)
    team = quiz.team_of(live, token)
    out: dict[str, Any] = await live.read(lambda m, now: views.team_message(m, team, now))
    return out


@router.post("/events/{event_id}/declaration", summary="Declare a jump or a Revolution")
async def declare(
    event_id: str, body: DeclarationRequest, quiz: QuizDep, token: TokenDep
) -> dict[str, Any]:
    live = await quiz.live(event_id)
    team = quiz.team_of(live, token)
    await quiz.declare(live, team, body.question, body.declaration)
    out: dict[str, Any] = await live.read(lambda m, now: views.team_message(m, team, now))
    return out


@router.post("/events/{event_id}/answer", summary="Send the team's answer (idempotent per id)")
async def answer(
    event_id: str, body: AnswerRequest, quiz: QuizDep, token: TokenDep
) -> dict[str, Any]:
    received_at = time.time()
    live = await quiz.live(event_id)
    team = quiz.team_of(live, token)
    ack = await quiz.answer(
        live, team, body.question, body.text, body.submission_id, received_at=received_at
    )
    return {
        "accepted": True,
        "question": ack.question,
        "text": ack.text,
        "received_at": ack.received_at,
        "seq": ack.seq,
        "duplicate": ack.duplicate,
    }


# --------------------------------------------------------- projector/judge
@router.get("/events/{event_id}/projector", summary="The public picture (no token)")
async def projector_view(event_id: str, quiz: QuizDep) -> dict[str, Any]:
    live = await quiz.live(event_id)
    out: dict[str, Any] = await live.read(views.projector_message)
    return out


@router.get("/events/{event_id}/judge", summary="Everything, for the host")
async def judge_view(event_id: str, quiz: QuizDep, token: TokenDep) -> dict[str, Any]:
    live = await quiz.live(event_id)
    quiz.check_host(live, token)
    out: dict[str, Any] = await live.read(views.judge_message)
    out["join_code"] = live.stored.join_code
    return out


@router.post("/events/{event_id}/judge/{command}", summary="A judge console command")
async def judge_command(
    event_id: str, command: Command, body: JudgeRequest, quiz: QuizDep, token: TokenDep
) -> dict[str, Any]:
    live = await quiz.live(event_id)
    quiz.check_host(live, token)
    seq = await run_command(quiz, live, command, body)
    out: dict[str, Any] = await live.read(views.judge_message)
    out["join_code"] = live.stored.join_code
    out["applied_seq"] = seq
    return out


async def run_command(quiz: QuizService, live: LiveEvent, command: str, body: JudgeRequest) -> int:
    now = time.time()
    model = live.model
    if command == "add_team":
        return await quiz.host(live, ops.TeamJoined(team=ops.clean_name(_need(body.team, "team"))))
    if command == "start":
        return await quiz.start_next_part(live)
    if command == "break":
        return await quiz.host(live, ops.BreakTaken())
    if command == "lightning":
        return await quiz.host(live, ops.Lightning(teams=body.teams, right=body.right))
    if command == "open_question":
        part = model.current_part()
        number = body.question or len(part.questions) + 1
        return await quiz.host(live, ops.QuestionOpened(question=number))
    if command == "appeal":
        return await quiz.host(
            live,
            ops.Corrected(
                question=_need(body.question, "question"),
                team=_need(body.team, "team"),
                correct=_need(body.correct, "correct"),
                comment=body.comment,
                at=now,
            ),
        )
    question = body.question
    if question is None:
        _part, q = model.open_question()
        question = q.number
    if command == "lock":
        return await quiz.host(live, ops.Locked(question=question, at=now))
    if command == "open_answering":
        seconds = body.seconds or float(model.config.answer_seconds)
        return await quiz.host(
            live, ops.AnsweringOpened(question=question, seconds=seconds, at=now)
        )
    if command == "pause":
        return await quiz.host(live, ops.TimerPaused(question=question, at=now))
    if command == "resume":
        return await quiz.host(live, ops.TimerResumed(question=question, at=now))
    if command == "extend":
        seconds = _need(body.seconds, "seconds")
        return await quiz.host(live, ops.TimerExtended(question=question, seconds=seconds, at=now))
    if command == "close_answering":
        return await quiz.host(live, ops.AnsweringClosed(question=question, at=now))
    if command == "judge":
        return await quiz.judge_group(
            live, question, _need(body.correct, "correct"), key=body.key, teams=body.teams
        )
    if command == "partner":
        partner = True if body.partner is None else body.partner
        return await quiz.host(live, ops.PartnerSet(question=question, partner=partner))
    if command == "resolve":
        return await quiz.host(live, ops.Resolved(question=question))
    if command == "answer_for_team":
        team = _need(body.team, "team")
        if team not in model.teams:
            raise InvalidQuizRequestError(f"no team {team!r}")
        ack = await quiz.answer(
            live,
            team,
            question,
            _need(body.text, "text"),
            f"judge-{question}-{now:.6f}",
            by="judge",
        )
        return ack.seq
    raise QuizConflictError(f"unknown command {command!r}")  # pragma: no cover (Literal)


_T = TypeVar("_T")


def _need(value: _T | None, name: str) -> _T:
    if value is None:
        raise InvalidQuizRequestError(f"this command needs {name!r}")
    return value


# ------------------------------------------------------------------ results
async def _results_access(quiz: QuizService, live: LiveEvent, token: str | None) -> None:
    if live.model.finished:
        return
    try:
        quiz.check_host(live, token)
    except ForbiddenError:
        raise ForbiddenError(
            "the results are public once the game is over; before that only the host sees them"
        ) from None


ExportToken = Annotated[str | None, Query(description="the host token (before the end)")]


@router.get("/events/{event_id}/results", summary="Places and every move (public after the end)")
async def results(
    event_id: str, quiz: QuizDep, token: TokenDep, host: ExportToken = None
) -> dict[str, Any]:
    live = await quiz.live(event_id)
    await _results_access(quiz, live, token or host)
    out: dict[str, Any] = await live.read(lambda m, _now: views.results_document(m))
    return out


@router.get("/events/{event_id}/export.json", summary="The results as a JSON download")
async def export_json(
    event_id: str, quiz: QuizDep, token: TokenDep, host: ExportToken = None
) -> JSONResponse:
    live = await quiz.live(event_id)
    await _results_access(quiz, live, token or host)
    doc = await live.read(lambda m, _now: views.results_document(m))
    return JSONResponse(doc, headers=_download(f"quiz-{event_id}.json"))


@router.get("/events/{event_id}/export.csv", summary="Every team's move on every question (CSV)")
async def export_csv(
    event_id: str, quiz: QuizDep, token: TokenDep, host: ExportToken = None
) -> PlainTextResponse:
    live = await quiz.live(event_id)
    await _results_access(quiz, live, token or host)
    text = await live.read(lambda m, _now: results_csv(m))
    return PlainTextResponse(
        text, media_type="text/csv; charset=utf-8", headers=_download(f"quiz-{event_id}.csv")
    )


@router.get("/events/{event_id}/protocol.json", summary="The protocol for `koth quiz score`")
async def export_protocol(
    event_id: str, quiz: QuizDep, token: TokenDep, host: ExportToken = None
) -> JSONResponse:
    live = await quiz.live(event_id)
    await _results_access(quiz, live, token or host)
    doc = await live.read(lambda m, _now: protocol_document(m))
    return JSONResponse(doc, headers=_download(f"quiz-{event_id}-protocol.json"))


def _download(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"'}


# ---------------------------------------------------------------- websocket
@router.websocket("/events/{event_id}/ws")
async def quiz_socket(websocket: WebSocket, event_id: str) -> None:
    """Live updates. First frame from the client: ``{"type": "hello", "role":
    "team"|"projector"|"judge", "token": ...}``; the server then sends the full state of
    that audience, and again after every change (so a reconnect gets everything)."""
    quiz: QuizService = websocket.app.state.quiz
    await websocket.accept()
    listener = None
    live: LiveEvent | None = None
    try:
        hello = await asyncio.wait_for(websocket.receive_json(), HELLO_TIMEOUT_S)
        if not isinstance(hello, dict):
            raise KeyError("hello")
        role = hello.get("role")
        token = hello.get("token")
        token = token if isinstance(token, str) else None
        live = await quiz.live(event_id)
        if role == "judge":
            quiz.check_host(live, token)
            key = JUDGE
        elif role == "team":
            key = team_key(quiz.team_of(live, token))
        elif role == "projector":
            key = PROJECTOR
        else:
            raise KeyError("role")
        # subscribe first, so no change can fall between the first message and the next
        listener = live.subscribe(key, websocket)
        first = await live.read(lambda _m, now: live.message_for(key, now))
        await websocket.send_json(first)
        while True:
            frame: Any = await websocket.receive_json()
            if isinstance(frame, dict) and frame.get("type") == "ping":
                await websocket.send_json({"type": "pong", "server_time": time.time()})
    except WebSocketDisconnect:
        pass
    except (TimeoutError, json.JSONDecodeError, KeyError):
        await close_with(websocket, BAD_HELLO, "bad_request", "say hello with a role and a token")
    except KothError as exc:
        await close_with_error(websocket, exc)
    finally:
        if listener is not None and live is not None:
            live.unsubscribe(listener)
