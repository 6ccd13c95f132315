"""What the WebSocket endpoints (games, quiz events) share: the hello, closing with an
error."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import WebSocket

from koth.core.errors import KothError
from koth.server.errors import ErrorCode, api_error_from

log = logging.getLogger(__name__)

#: close code of a socket whose first frame was not the expected hello
BAD_HELLO = 4400
#: how long a new WebSocket may take to say hello (with its token) before it is closed
HELLO_TIMEOUT_S = 10.0


async def receive_hello(websocket: WebSocket) -> dict[str, Any]:
    """The client's first frame, which must be a JSON object (TimeoutError after
    :data:`HELLO_TIMEOUT_S`; ValueError for anything else)."""
    hello = await asyncio.wait_for(websocket.receive_json(), HELLO_TIMEOUT_S)
    if not isinstance(hello, dict):
        raise ValueError("the hello must be a JSON object")
    return hello


async def close_with(websocket: WebSocket, code: int, error: str, message: str) -> None:
    """Send an error frame, then close with ``code``; a client already gone is fine."""
    try:
        await websocket.send_json({"type": "error", "error": {"code": error, "message": message}})
        await websocket.close(code)
    except Exception:  # already gone
        log.debug("socket closed before the error could be sent", exc_info=True)


async def close_bad_hello(websocket: WebSocket, what: str) -> None:
    await close_with(websocket, BAD_HELLO, ErrorCode.BAD_REQUEST, f"say hello with {what} first")


async def close_with_error(websocket: WebSocket, exc: KothError) -> None:
    """Close with the API error ``exc`` maps to: code 4000 + its HTTP status."""
    error = api_error_from(exc)
    await close_with(websocket, 4000 + error.status, error.code, error.message)
