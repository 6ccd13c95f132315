"""What the WebSocket endpoints (games, quiz events) share: closing with an error."""

from __future__ import annotations

import logging

from fastapi import WebSocket

from koth.core.errors import KothError
from koth.server.errors import api_error_from

log = logging.getLogger(__name__)

#: close code of a socket whose first frame was not the expected hello
BAD_HELLO = 4400


async def close_with(websocket: WebSocket, code: int, error: str, message: str) -> None:
    """Send an error frame, then close with ``code``; a client already gone is fine."""
    try:
        await websocket.send_json({"type": "error", "error": {"code": error, "message": message}})
        await websocket.close(code)
    except Exception:  # already gone
        log.debug("socket closed before the error could be sent", exc_info=True)


async def close_with_error(websocket: WebSocket, exc: KothError) -> None:
    """Close with the API error ``exc`` maps to: code 4000 + its HTTP status."""
    error = api_error_from(exc)
    await close_with(websocket, 4000 + int(error.status), error.code, error.message)
