"""Live hosting of the quiz game in the web app: a judge console, team phones, a
projector and results (issue 8).

Every change of a hosted quiz event is one row of an append-only log (``quiz_log``);
the in-memory :class:`~koth.server.quiz.model.EventModel` is a fold of that log, and the
quiz engine's own state is a fold of the engine events the model derives from it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI
    from sqlalchemy import Engine


def include_quiz(app: FastAPI) -> None:
    """Add the quiz API, its WebSocket and its pages to ``app``."""
    from koth.server.quiz import pages, routes

    app.include_router(routes.router)
    app.include_router(pages.router)


@asynccontextmanager
async def quiz_lifespan(app: FastAPI, engine: Engine) -> AsyncIterator[None]:
    """Keep the quiz service on ``app.state.quiz`` while the app runs."""
    from koth.server.quiz.service import QuizService

    service = QuizService(engine)
    app.state.quiz = service
    try:
        yield
    finally:
        await service.close()
