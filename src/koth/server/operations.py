"""What an operator's tools ask a process: alive, ready, and the metrics."""

from __future__ import annotations

import asyncio

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from fastapi import APIRouter, Response
from pydantic import BaseModel
from sqlalchemy import Engine, text
from starlette.requests import HTTPConnection

from koth.server.database import alembic_config
from koth.server.metrics import exposition

router = APIRouter(tags=["operations"])


class Health(BaseModel):
    status: str
    detail: str = ""


@router.get("/healthz", summary="The process is alive")
async def healthz() -> Health:
    return Health(status="ok")


@router.get(
    "/readyz",
    summary="The database answers and its schema is the newest (503 otherwise)",
    responses={503: {"model": Health, "description": "not ready, with the reason"}},
)
async def readyz(connection: HTTPConnection, response: Response) -> Health:
    engine: Engine = connection.app.state.engine
    problem = await asyncio.to_thread(_readiness_problem, engine)
    if problem:
        response.status_code = 503
        return Health(status="unavailable", detail=problem)
    return Health(status="ok")


@router.get(
    "/metrics",
    summary="Prometheus metrics",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}, "description": "the exposition format"}},
)
async def metrics() -> Response:
    body, content_type = exposition()
    return Response(body, media_type=content_type)


def _readiness_problem(engine: Engine) -> str:
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
            current = MigrationContext.configure(connection).get_current_revision()
    except Exception as exc:
        return f"the database does not answer: {type(exc).__name__}"
    head = ScriptDirectory.from_config(alembic_config(engine)).get_current_head()
    if current != head:
        return f"the schema is at {current}, the code needs {head}: run the migrations"
    return ""
