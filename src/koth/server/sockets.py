"""What the WebSocket endpoints (games, quiz events) share: admission per client
address, the hello, reading frames safely, closing with an error."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ValidationError

from koth.core.errors import KothError
from koth.i18n import COOKIE, pick_language
from koth.server.errors import ErrorCode, TooManyConnectionsError, api_error_from
from koth.server.metrics import SOCKETS
from koth.server.ratelimit import Action, RateLimits, client_key

log = logging.getLogger(__name__)

#: close code of a socket whose first frame was not the expected hello
BAD_HELLO = 4400
#: how long a new WebSocket may take to say hello (with its token) before it is closed
HELLO_TIMEOUT_S = 10.0
#: the largest frame a client may send (a hello or a ping is far smaller)
MAX_FRAME_CHARS = 4096
#: the largest WebSocket message the server reads at all (the server's frame limit: a
#: frame of :data:`MAX_FRAME_CHARS` characters in UTF-8, at most 4 bytes each); a larger
#: one is refused from its header (close code 1009) before its bytes are read
MAX_MESSAGE_BYTES = 4 * MAX_FRAME_CHARS

H = TypeVar("H", bound=BaseModel)


class BadFrame(ValueError):
    """A client frame that is not of the documented shape."""


class Ping(BaseModel):
    type: str


class SocketBudget:
    """Live WebSockets per client address (a phone, or a venue's shared address)."""

    def __init__(self, per_client: int, ipv6_prefix: int = 64) -> None:
        self.per_client = per_client
        self.ipv6_prefix = ipv6_prefix
        self._open: Counter[str] = Counter()

    @asynccontextmanager
    async def admit(self, client: str, feature: str) -> AsyncIterator[None]:
        client = client_key(client, self.ipv6_prefix)  # an IPv6 client by its network
        if self._open[client] >= self.per_client:
            raise TooManyConnectionsError(
                f"this address already holds {self.per_client} live connections"
            )
        self._open[client] += 1
        SOCKETS.labels(feature).inc()
        try:
            yield
        finally:
            SOCKETS.labels(feature).dec()
            self._open[client] -= 1
            if not self._open[client]:
                del self._open[client]

    def __len__(self) -> int:
        return sum(self._open.values())


async def receive_frame(websocket: WebSocket) -> str:
    """The client's next text frame (BadFrame for a binary one or one too long)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if not isinstance(text, str):
        raise BadFrame("frames are JSON text, not binary")
    if len(text) > MAX_FRAME_CHARS:
        raise BadFrame(f"a frame has at most {MAX_FRAME_CHARS} characters")
    return text


async def receive_hello(websocket: WebSocket, shape: type[H]) -> H:
    """The client's first frame, of the documented ``shape`` (TimeoutError after
    :data:`HELLO_TIMEOUT_S`; BadFrame for anything else)."""
    text = await asyncio.wait_for(receive_frame(websocket), HELLO_TIMEOUT_S)
    try:
        return shape.model_validate_json(text)
    except ValidationError as exc:
        raise BadFrame(str(exc.errors()[0].get("msg", "bad hello"))) from None


def is_ping(text: str) -> bool:
    """Whether a later frame is ``{"type": "ping"}`` (anything else is ignored)."""
    try:
        return Ping.model_validate_json(text).type == "ping"
    except ValidationError:
        return False


#: what an endpoint does with a valid hello: subscribe its client, and return the first
#: message (JSON text) and how to unsubscribe
Subscribe = Callable[[H], Awaitable[tuple[str, Callable[[], None]]]]


async def serve_socket(
    websocket: WebSocket,
    *,
    limits: RateLimits,
    budget: SocketBudget,
    client: str,
    feature: str,
    hello: type[H],
    subscribe: Subscribe[H],
    pong: Callable[[], dict[str, Any]],
    what: str,
) -> None:
    """The life of a live connection, the same for games and quiz events: count it
    against the client's limits, admit it, read the hello, send the first picture, answer
    pings until the client leaves; close with the matching code when refused (4400 a
    hello of another shape, 4000 + the HTTP status of a refusal)."""
    await websocket.accept()
    unsubscribe: Callable[[], None] | None = None
    try:
        await limits.hit(Action.LOOKUP, client)
        async with budget.admit(client, feature):
            first, unsubscribe = await subscribe(await receive_hello(websocket, hello))
            await websocket.send_text(first)
            while True:
                if is_ping(await receive_frame(websocket)):
                    await websocket.send_json(pong())
    except WebSocketDisconnect:
        pass
    except KothError as exc:
        await close_with_error(websocket, exc)
    except TimeoutError:
        await close_bad_hello(websocket, what)
    except BadFrame as exc:
        await close_with(
            websocket, BAD_HELLO, ErrorCode.BAD_REQUEST, f"{exc}; say hello with {what} first"
        )
    finally:
        if unsubscribe is not None:
            unsubscribe()


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
    lang = pick_language(websocket.cookies.get(COOKIE), websocket.headers.get("accept-language"))
    error = api_error_from(exc, lang)
    await close_with(websocket, 4000 + error.status, error.code, error.message)
