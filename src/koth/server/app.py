"""The FastAPI application: start-up (migrations, store, worker) and error handling."""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from koth import __version__
from koth.core.errors import KothError
from koth.server.errors import api_error_from
from koth.server.quiz import include_quiz, quiz_lifespan
from koth.server.routes import games, lobby, pages, records
from koth.server.schemas import ErrorResponse
from koth.server.services.games import GameService
from koth.server.services.worker import ComputerWorker
from koth.server.settings import Settings
from koth.server.store.database import make_engine, migrate
from koth.server.store.repository import Repository

log = logging.getLogger(__name__)

PACKAGE_DIR = Path(__file__).resolve().parent
TEMPLATES_DIR = PACKAGE_DIR / "templates"
STATIC_DIR = PACKAGE_DIR / "static"

ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    status: {"model": ErrorResponse, "description": text}
    for status, text in {
        400: "malformed or illegal action",
        403: "missing or wrong seat token",
        404: "no such game",
        409: "stale version, not your turn, already submitted or game over",
        422: "malformed request or invalid parameters",
    }.items()
}


def create_app(settings: Settings | None = None) -> FastAPI:
    """The app; the database is opened and migrated when it starts."""
    settings = settings or Settings()
    for module in settings.extra_games:
        importlib.import_module(module)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url())
        await asyncio.to_thread(migrate, engine)
        service = GameService(Repository(engine))
        worker = ComputerWorker(
            service, threads=settings.agent_workers, delay_s=settings.computer_delay
        )
        app.state.service = service
        app.state.worker = worker
        await worker.resume_all()
        try:
            async with quiz_lifespan(app, engine):
                yield
        finally:
            await worker.stop()
            engine.dispose()

    app = FastAPI(
        title="koth",
        version=__version__,
        summary="Lobby, online play and replays of the King of the Hill games.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.templates = Jinja2Templates(directory=TEMPLATES_DIR)
    _install_error_handlers(app)
    app.include_router(lobby.router, responses=ERROR_RESPONSES)
    app.include_router(games.router, responses=ERROR_RESPONSES)
    app.include_router(records.router, responses=ERROR_RESPONSES)
    app.include_router(pages.router)
    include_quiz(app)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(KothError)
    async def koth_error(_request: Request, exc: KothError) -> JSONResponse:
        error = api_error_from(exc)
        return JSONResponse(error.to_json(), status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err.get('loc', ())) or 'body'}: {err.get('msg')}"
            for err in exc.errors()[:5]
        )
        body = {"error": {"code": "malformed_request", "message": problems}}
        return JSONResponse(body, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        body = {"error": {"code": code, "message": str(exc.detail)}}
        return JSONResponse(body, status_code=exc.status_code)
