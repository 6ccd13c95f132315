"""ASGI middleware of the web app: a cap on request bodies and the security headers.

Both are plain ASGI (no per-request objects), so they cost next to nothing on the
thousand answers of a quiz question.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Iterable

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from koth.server.errors import ErrorCode
from koth.server.metrics import LATENCY, REQUESTS

access_log = logging.getLogger("koth.access")

#: the pages' policy: scripts and styles from this site only (no inline script), images
#: from this site or data: URLs, WebSockets to this site, never in a frame
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
)
#: FastAPI's own API explorer loads its scripts from a CDN: it keeps its own rules
EXPLORER_PATHS = ("/docs", "/redoc")


class BodyTooLarge(HTTPException):
    """The request body is over the limit (413); raised while it is read, so FastAPI
    passes it on instead of calling it a parse error."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than {limit} bytes")


class BodyLimit:
    """Refuse a request body over ``max_bytes``: at once when Content-Length says so,
    else as soon as the bytes received pass it (nothing more is read or kept).
    ``larger``: (path pattern, limit) pairs for the few PUT routes that take larger files
    (a quiz pack's sounds and videos)."""

    def __init__(
        self, app: ASGIApp, max_bytes: int, larger: Iterable[tuple[re.Pattern[str], int]] = ()
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.larger = tuple(larger)

    def limit(self, scope: Scope) -> int:
        if scope.get("method") == "PUT":
            path = str(scope.get("path", ""))
            for pattern, limit in self.larger:
                if pattern.fullmatch(path):
                    return max(limit, self.max_bytes)
        return self.max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        max_bytes = self.limit(scope)
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > max_bytes):
            await _send_error(send, BodyTooLarge(max_bytes))
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > max_bytes:
                    raise BodyTooLarge(max_bytes)
            return message

        await self.app(scope, limited, send)


class SecurityHeaders:
    """Add the security headers to every HTTP response (and the page policy to all but
    the API explorer)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = list(SECURITY_HEADERS)
        if not str(scope.get("path", "")).startswith(EXPLORER_PATHS):
            extra.append((b"content-security-policy", CONTENT_SECURITY_POLICY.encode()))

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [
                    *message.get("headers", []),
                    *((k, v) for k, v in extra if k not in present),
                ]
            await send(message)

        await self.app(scope, receive, with_headers)


class AccessLog:
    """One JSON line per request on the ``koth.access`` logger, and the request metrics.

    It names the route's template (``/api/games/{game_id}``), never the query string or
    a header: tokens travel in headers and fragments, so no secret reaches the log.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def seen(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, seen)
        finally:
            seconds = time.perf_counter() - started
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            method = str(scope.get("method", ""))
            REQUESTS.labels(method, route, str(status)).inc()
            LATENCY.labels(method, route).observe(seconds)
            client = scope.get("client")
            access_log.info(
                json.dumps(
                    {
                        "method": method,
                        "route": route,
                        "status": status,
                        "ms": round(seconds * 1000, 1),
                        "client": client[0] if client else None,
                    }
                )
            )


def _header(scope: Scope, name: bytes) -> str | None:
    headers: Iterable[tuple[bytes, bytes]] = scope.get("headers", [])
    for key, value in headers:
        if key.lower() == name:
            return value.decode("latin-1")
    return None


async def _send_error(send: Send, error: BodyTooLarge) -> None:
    body = json.dumps(
        {"error": {"code": ErrorCode.PAYLOAD_TOO_LARGE.value, "message": error.detail}}
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
