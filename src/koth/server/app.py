"""The FastAPI application: start-up (migrations, services, computer worker), the
features' routers, and the one place where errors become HTTP responses."""

from __future__ import annotations

import asyncio
import functools
import importlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from koth import __version__
from koth.core.errors import KothError
from koth.i18n import DEFAULT, N_, Translator
from koth.server import deps, operations
from koth.server.broker import make_broker
from koth.server.database import SqliteOwner, make_engine, migrate
from koth.server.errors import ApiError, ErrorCode, api_error_from
from koth.server.games import friends_routes, learn_routes
from koth.server.games import pages as game_pages
from koth.server.games import routes as game_routes
from koth.server.games.analysis import AnalysisService, analysis_agent
from koth.server.games.catalog import action_kinds
from koth.server.games.friends import FriendsService
from koth.server.games.friends_store import FriendsRepository
from koth.server.games.hints import HintService
from koth.server.games.presence import PresenceService
from koth.server.games.service import GameService
from koth.server.games.store import Repository
from koth.server.games.timekeeping import TimeKeeper
from koth.server.games.worker import ComputerWorker
from koth.server.middleware import AccessLog, BodyLimit, SecurityHeaders
from koth.server.quiz import pages as quiz_pages
from koth.server.quiz import routes as quiz_routes
from koth.server.quiz.routes import MEDIA_UPLOAD
from koth.server.quiz.season.service import SeriesService
from koth.server.quiz.service import QuizService
from koth.server.ratelimit import RateLimits
from koth.server.settings import Settings
from koth.server.sockets import SocketBudget
from koth.server.supervision import follow_supervisor

log = logging.getLogger(__name__)

#: codes of the errors the HTTP layer itself raises (no such route, wrong method...)
HTTP_CODES = {
    404: ErrorCode.NOT_FOUND,
    405: ErrorCode.METHOD_NOT_ALLOWED,
    413: ErrorCode.PAYLOAD_TOO_LARGE,
}

PACKAGE_DIR = Path(__file__).resolve().parent
TEMPLATES_DIR = PACKAGE_DIR / "templates"
STATIC_DIR = PACKAGE_DIR / "static"


def create_app(settings: Settings | None = None) -> FastAPI:
    """The app; the database is opened and migrated when it starts."""
    settings = settings or Settings()
    for module in settings.extra_games:
        importlib.import_module(module)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        follow_supervisor()  # a worker of --workers N stops when its supervisor dies
        owner = SqliteOwner.of(settings.database_url())  # one process per SQLite file
        engine = make_engine(settings.database_url())
        await asyncio.to_thread(migrate, engine)
        app.state.engine = engine
        games = GameService(
            Repository(engine),
            max_listeners=settings.sockets_per_game,
            max_iterations=settings.max_agent_iterations,
            max_live=settings.max_live_games,
            idle_seconds=settings.idle_seconds,
        )
        worker = ComputerWorker(
            games,
            threads=settings.agent_workers,
            delay_s=settings.computer_delay,
            max_seconds=settings.max_agent_seconds,
            extra_games=tuple(settings.extra_games),
        )
        analyses = AnalysisService(
            games, worker, analysis_agent(settings.analysis_agent, settings.max_agent_seconds)
        )
        quiz = QuizService(
            engine,
            max_listeners=settings.sockets_per_event,
            max_live=settings.max_live_events,
            idle_seconds=settings.idle_seconds,
            file_limits=settings.quiz_file_limits(),
            max_pack_bytes=settings.quiz_pack_bytes,
        )
        app.state.games = games
        app.state.friends = FriendsService(games, FriendsRepository(engine))
        presence = app.state.presence = PresenceService(games)
        app.state.worker = worker
        app.state.timekeeper = timekeeper = TimeKeeper(games, settings.clock_check_seconds)
        app.state.analyses = analyses
        app.state.hints = HintService(games, worker, settings.max_agent_seconds)
        app.state.quiz = quiz
        app.state.series = SeriesService(quiz)
        broker = make_broker(settings.database_url(), settings.broker)
        games.broker = quiz.broker = broker
        await broker.start(functools.partial(_on_notice, games, quiz, presence))
        await _expire_once(games, settings.abandon_days)  # before any game is served
        await worker.resume_all()
        sweeper = asyncio.create_task(_sweep(games, quiz, settings.idle_seconds))
        expiry = asyncio.create_task(_expire(games, settings.abandon_days))
        # looking twice per takeover time: a claim freed just after one look is seen
        # well within it, however long the look itself takes on a busy machine
        watcher = asyncio.create_task(worker.watch(settings.takeover_seconds / 2))
        clock_watch = asyncio.create_task(timekeeper.watch())
        beats = asyncio.create_task(presence.run())
        try:
            yield
        finally:
            sweeper.cancel()
            expiry.cancel()
            watcher.cancel()
            clock_watch.cancel()
            beats.cancel()
            await broker.close()
            await quiz.close()
            await analyses.stop()
            await worker.stop()
            engine.dispose()
            if owner is not None:
                owner.release()

    app = FastAPI(
        title="koth",
        version=__version__,
        summary="Lobby, online play, replays and quiz hosting of the King of the Hill games.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.templates = Jinja2Templates(
        directory=TEMPLATES_DIR, context_processors=[deps.page_context]
    )
    deps.install_translations(app.state.templates)
    app.state.rate_limits = RateLimits(settings)
    app.state.sockets = SocketBudget(settings.sockets_per_client, settings.rate_ipv6_prefix)
    app.add_middleware(
        BodyLimit,
        max_bytes=settings.max_body_bytes,
        larger=((MEDIA_UPLOAD, max(settings.quiz_audio_bytes, settings.quiz_video_bytes)),),
    )
    app.add_middleware(SecurityHeaders)
    app.add_middleware(AccessLog)
    _install_error_handlers(app)
    app.include_router(game_routes.router)
    app.include_router(friends_routes.router)
    app.include_router(game_pages.router)
    app.include_router(learn_routes.api)
    app.include_router(learn_routes.pages)
    for quiz_router in quiz_routes.ROUTERS:
        app.include_router(quiz_router)
    app.include_router(quiz_pages.router)
    app.include_router(operations.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    kinds = action_kinds()  # of every game registered now, the extra ones included
    app.openapi = lambda: _openapi(app, kinds)  # type: ignore[method-assign]
    return app


MALFORMED = N_("the request does not have the documented shape (fields: {fields})")
#: the words of the HTTP errors the framework raises, for readers of other languages
HTTP_TEXTS = {
    404: N_("no such page or resource"),
    405: N_("this method is not allowed here"),
}
HTTP_FALLBACK = N_("the request was refused (HTTP {status})")

#: the methods a 405 answer may list
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


async def _on_notice(
    games: GameService, quiz: QuizService, presence: PresenceService, notice: str
) -> None:
    """A change committed by some process (this one too): ``<kind> <id> <n> <origin>``
    (a presence notice's ``n``: the seats connected there, as a bit mask), a game's
    followed by the change itself where it carries one (``koth.server.games.notice``)."""
    kind, key, number, origin, *carried = notice.split(" ", 4)
    if kind == "presence":
        await presence.on_notice(key, int(number), origin)
    elif kind == "game":
        await games.on_notice(key, int(number), origin, carried[0] if carried else None)
    elif kind == "quiz":
        await quiz.on_notice(key, int(number), origin)


def _allowed(app: FastAPI, request: Request) -> list[str]:
    """The methods some route of the app takes at the request's path."""
    return [
        method
        for method in METHODS
        if any(
            route.matches({**request.scope, "method": method})[0] is Match.FULL
            for route in app.router.routes
        )
    ]


async def _sweep(games: GameService, quiz: QuizService, idle_seconds: float) -> None:
    """Now and then, let go of the games and events nobody used for ``idle_seconds``."""
    while True:
        await asyncio.sleep(min(60.0, idle_seconds / 4))
        games.sweep()
        quiz.sweep()


#: how often abandoned games are looked for (and once at start-up)
EXPIRY_EVERY_S = 3600.0


async def _expire_once(games: GameService, days: float) -> None:
    """Delete the games abandoned for ``days``."""
    try:
        gone = await games.expire_abandoned(days)
        if gone:
            log.info("deleted %d games nobody moved in for %s days", gone, days)
    except Exception:  # the database is away for a moment: next time
        log.warning("could not expire abandoned games", exc_info=True)


async def _expire(games: GameService, days: float) -> None:
    """Every hour after start-up: delete the games abandoned for ``days``."""
    while True:
        await asyncio.sleep(EXPIRY_EVERY_S)
        await _expire_once(games, days)


def _openapi(app: FastAPI, kinds: list[str]) -> dict[str, Any]:
    """FastAPI's document, with the bearer tokens marked optional where they are (a
    spectator, the projector and public results need none): an empty requirement
    object means "no credentials" in OpenAPI; and a legal action's ``type`` the enum of
    ``kinds``, the registered games' kinds of action."""
    if app.openapi_schema is None:
        document = get_openapi(
            title=app.title, version=app.version, summary=app.summary, routes=app.routes
        )
        for methods in document.get("paths", {}).values():
            for operation in methods.values():
                if "security" in operation and {} not in operation["security"]:
                    operation["security"].append({})
        legal = document.get("components", {}).get("schemas", {}).get("LegalAction")
        if legal is not None:
            legal["properties"]["type"]["enum"] = kinds
        app.openapi_schema = document
    return app.openapi_schema


def _response(error: ApiError) -> JSONResponse:
    return JSONResponse(error.to_json(), status_code=error.status, headers=dict(error.headers))


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(KothError)
    async def koth_error(request: Request, exc: KothError) -> JSONResponse:
        return _response(api_error_from(exc, await deps.get_language(request)))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        _ = Translator(await deps.get_language(request))
        errors = exc.errors()[:5]
        fields = [".".join(str(p) for p in err.get("loc", ())) or "body" for err in errors]
        if _.lang == DEFAULT:
            problems = "; ".join(
                f"{field}: {err.get('msg')}" for field, err in zip(fields, errors, strict=True)
            )
        else:
            # pydantic words its findings in English only: the fields are named instead
            problems = _(MALFORMED, fields=", ".join(fields))
        return _response(ApiError(422, ErrorCode.MALFORMED_REQUEST, problems))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = tuple((exc.headers or {}).items())
        if exc.status_code == 405:
            # every route of the path counts, not only the first that matched it
            headers = (("Allow", ", ".join(_allowed(app, request))),)
        if exc.status_code == 400:
            # a body FastAPI could not parse (not UTF-8, nested too deep): malformed
            message = f"the request body could not be read: {exc.detail}"
            return _response(ApiError(422, ErrorCode.MALFORMED_REQUEST, message))
        code = HTTP_CODES.get(exc.status_code, ErrorCode.HTTP_ERROR)
        _ = Translator(await deps.get_language(request))
        detail = str(exc.detail)
        if _.lang != DEFAULT:
            detail = _(HTTP_TEXTS.get(exc.status_code, HTTP_FALLBACK), status=exc.status_code)
        return _response(ApiError(exc.status_code, code, detail, headers=headers))
