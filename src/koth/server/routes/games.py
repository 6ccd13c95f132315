"""Playing a game: its current view, actions, and the live WebSocket."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from koth.core.errors import KothError
from koth.server.deps import SeatTokenDep, ServiceDep
from koth.server.schemas import ActionRequest, StateMessage
from koth.server.sockets import BAD_HELLO, close_with, close_with_error

router = APIRouter(prefix="/api/games", tags=["play"])

#: how long a new WebSocket may take to say hello (with its token) before it is closed
HELLO_TIMEOUT_S = 10.0


@router.get(
    "/{game_id}",
    summary="The game as this seat (or a spectator, without a token) may see it now",
)
async def get_game(game_id: str, service: ServiceDep, token: SeatTokenDep) -> StateMessage:
    return StateMessage.model_validate(await service.message(game_id, token))


@router.post(
    "/{game_id}/actions",
    summary="Act for the seat of the token; answered once the action is stored",
)
async def post_action(
    game_id: str, body: ActionRequest, service: ServiceDep, token: SeatTokenDep
) -> StateMessage:
    action: str | int = body.action if body.action is not None else body.action_id  # type: ignore[assignment]
    message = await service.act(game_id, token, action, body.version)
    return StateMessage.model_validate(message)


@router.websocket("/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str, service: ServiceDep) -> None:
    """Live updates. The client's first frame is ``{"type": "hello", "token": ...}``
    (token null for a spectator); every frame after that from the server is a full
    ``state`` message built for the client's seat, or an ``error``. Clients may send
    ``{"type": "ping"}`` to keep the connection alive."""
    await websocket.accept()
    subscriber = None
    try:
        hello = await asyncio.wait_for(websocket.receive_json(), HELLO_TIMEOUT_S)
        token = hello.get("token") if isinstance(hello, dict) else None
        if token is not None and not isinstance(token, str):
            token = ""
        live = await service.live(game_id)
        seat = service.seat_of(live, token)
        # subscribe before the first message so no update can fall in between
        subscriber = service.hub.subscribe(game_id, websocket, seat)
        await websocket.send_json(await service.message(game_id, token))
        while True:
            frame: Any = await websocket.receive_json()
            if isinstance(frame, dict) and frame.get("type") == "ping":
                await websocket.send_json({"type": "pong"})
    except WebSocketDisconnect:
        pass
    except (TimeoutError, json.JSONDecodeError, KeyError):
        await close_with(websocket, BAD_HELLO, "bad_request", "say hello with a token first")
    except KothError as exc:
        await close_with_error(websocket, exc)
    finally:
        if subscriber is not None:
            service.hub.unsubscribe(game_id, subscriber)
