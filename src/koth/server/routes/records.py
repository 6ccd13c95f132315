"""Replays (as views) and record downloads."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from koth.server.deps import SeatTokenDep, ServiceDep
from koth.server.schemas import ReplayResponse

router = APIRouter(prefix="/api/games", tags=["records"])


@router.get(
    "/{game_id}/replay",
    summary="Every step as views: the viewer's own while the game runs, all seats' after",
)
async def get_replay(game_id: str, service: ServiceDep, token: SeatTokenDep) -> ReplayResponse:
    return ReplayResponse.model_validate(await service.replay_frames(game_id, token))


@router.get(
    "/{game_id}/record",
    summary="The full game record (koth-record/1 JSON); only once the game is over",
    response_class=JSONResponse,
)
async def get_record(game_id: str, service: ServiceDep) -> JSONResponse:
    record = await service.record(game_id)
    return JSONResponse(
        record.model_dump(mode="json"),
        headers={"Content-Disposition": f'attachment; filename="koth-{game_id}.json"'},
    )
