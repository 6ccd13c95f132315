"""The JSON API of seasons (``/api/quiz/series``); every route calls the season
service. Creating a season returns its host token once; adding an event needs both the
season's and the event's host tokens; the table and its CSV are public."""

from __future__ import annotations

from fastapi import APIRouter, Response

from koth.server.deps import QuizTokenDep, SeriesDep, limited
from koth.server.errors import (
    ForbiddenError,
    InvalidRequestError,
    MalformedRequestError,
    NotFoundError,
    PayloadTooLargeError,
    RateLimitedError,
    error_responses,
)
from koth.server.quiz.season.schemas import (
    AddEvent,
    CreatedSeries,
    CreateSeries,
    MergeTeams,
    SeriesSettings,
    SeriesTable,
)
from koth.server.ratelimit import Action
from koth.server.responses import attachment

router = APIRouter(
    prefix="/api/quiz/series",
    tags=["quiz seasons"],
    responses=error_responses(MalformedRequestError, RateLimitedError, PayloadTooLargeError),
)
LOOKUP = [limited(Action.LOOKUP)]
HOST_ERRORS = error_responses(NotFoundError, ForbiddenError, InvalidRequestError)


@router.post(
    "",
    dependencies=[limited(Action.CREATE)],
    status_code=201,
    summary="Create a season (returns its host token once)",
)
async def create_series(body: CreateSeries, series: SeriesDep) -> CreatedSeries:
    return await series.create(body)


@router.get(
    "/{series_id}",
    dependencies=LOOKUP,
    summary="The season table (public)",
    responses=error_responses(NotFoundError),
)
async def series_table(series_id: str, series: SeriesDep) -> SeriesTable:
    return await series.table(series_id)


@router.get(
    "/{series_id}/export.csv",
    dependencies=LOOKUP,
    summary="The season table as CSV",
    response_class=Response,
    responses={
        200: {"content": {"text/csv": {}}, "description": "one row per team"},
        **error_responses(NotFoundError),
    },
)
async def series_csv(series_id: str, series: SeriesDep) -> Response:
    text = await series.table_csv(series_id)
    return Response(
        text, media_type="text/csv; charset=utf-8", headers=attachment(f"season-{series_id}.csv")
    )


@router.post(
    "/{series_id}/settings",
    dependencies=[limited(Action.ACT)],
    summary="Choose the season formula",
    responses=HOST_ERRORS,
)
async def series_settings(
    series_id: str, body: SeriesSettings, series: SeriesDep, token: QuizTokenDep
) -> SeriesTable:
    return await series.settings(series_id, token, body)


@router.post(
    "/{series_id}/events",
    dependencies=[limited(Action.ACT)],
    summary="Add one of the host's events to the season",
    responses=HOST_ERRORS,
)
async def add_event(
    series_id: str, body: AddEvent, series: SeriesDep, token: QuizTokenDep
) -> SeriesTable:
    return await series.add_event(series_id, token, body)


@router.post(
    "/{series_id}/merge",
    dependencies=[limited(Action.ACT)],
    summary="Count two spellings of a team name as one team",
    responses=HOST_ERRORS,
)
async def merge(
    series_id: str, body: MergeTeams, series: SeriesDep, token: QuizTokenDep
) -> SeriesTable:
    return await series.merge(series_id, token, body)
