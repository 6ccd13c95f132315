"""The lobby API: which games exist, create a game, list games."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, status

from koth.server.deps import BaseUrlDep, ServiceDep
from koth.server.schemas import (
    CatalogEntry,
    CreatedGameResponse,
    CreateGameRequest,
    GameSummary,
    ParamsCheckRequest,
    SeatLink,
    SeatSummary,
    TableInfo,
)
from koth.server.services.agents import agent_names
from koth.server.services.catalog import game_info, make_game, offered_games
from koth.server.services.games import CreatedGame, SeatRequest
from koth.server.store.repository import StoredGame

router = APIRouter(prefix="/api", tags=["lobby"])


@router.get("/catalog", summary="The games that can be hosted, with their parameters")
async def catalog() -> list[CatalogEntry]:
    return [
        CatalogEntry(
            name=info.name,
            title=info.title,
            default_players=info.default_players,
            params_schema=info.schema,
            agents=agent_names(info.name),
        )
        for info in offered_games()
    ]


@router.post("/catalog/{game}/table", summary="Check parameters and count the seats they give")
async def table(game: str, body: ParamsCheckRequest) -> TableInfo:
    game_info(game)  # 404 for an unknown game, before the parameters are looked at
    rules = make_game(game, body.params)
    return TableInfo(game=game, params=rules.params.to_json(), num_players=rules.num_players)


@router.get("/games", summary="Games in the lobby (open and running by default)")
async def list_games(
    service: ServiceDep,
    base: BaseUrlDep,
    status_filter: Annotated[
        list[str] | None,
        Query(alias="status", description="open, running and/or finished"),
    ] = None,
) -> list[GameSummary]:
    statuses = status_filter or ["open", "running"]
    return [summary(g, base) for g in await service.list_games(statuses)]


@router.post(
    "/games",
    status_code=status.HTTP_201_CREATED,
    summary="Create a game; the response holds each human seat's secret join link",
)
async def create_game(
    body: CreateGameRequest, service: ServiceDep, base: BaseUrlDep
) -> CreatedGameResponse:
    seats = (
        [SeatRequest(s.kind, s.agent, s.budget) for s in body.seats]
        if body.seats is not None
        else None
    )
    created = await service.create(body.game, body.params, seats)
    return created_response(created, base)


def spectate_url(base: str, game_id: str) -> str:
    return f"{base}/games/{game_id}"


def join_url(base: str, game_id: str, seat: int, token: str) -> str:
    # the token travels in the fragment: browsers never send it in a request line, so
    # it stays out of access logs and Referer headers
    return f"{base}/games/{game_id}#seat={seat}&token={token}"


def summary(game: StoredGame, base: str) -> GameSummary:
    return GameSummary(
        id=game.id,
        game=game.game_name,
        params=game.params,
        status=game.status,  # type: ignore[arg-type]
        version=game.version,
        created=game.created,
        seats=[
            SeatSummary(seat=s.seat, kind=s.kind, agent=s.agent, budget=s.budget, claimed=s.claimed)
            for s in game.seats
        ],
        spectate_url=spectate_url(base, game.id),
    )


def created_response(created: CreatedGame, base: str) -> CreatedGameResponse:
    game = created.stored
    seats = []
    for s in game.seats:
        token = created.tokens.get(s.seat)
        seats.append(
            SeatLink(
                seat=s.seat,
                kind=s.kind,
                agent=s.agent,
                budget=s.budget,
                claimed=s.claimed,
                token=token,
                join_url=join_url(base, game.id, s.seat, token) if token else None,
            )
        )
    return CreatedGameResponse(
        id=game.id,
        game=game.game_name,
        params=game.params,
        status=game.status,
        seats=seats,
        spectate_url=spectate_url(base, game.id),
    )
