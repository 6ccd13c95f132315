"""Settings that keep functional tests clear of the abuse limits (each limit has its
own tests, with low values)."""

from __future__ import annotations

from typing import Any

GENEROUS_LIMITS: dict[str, Any] = {
    f"rate_{kind}": "100000/minute" for kind in ("create", "join", "recover", "act", "lookup")
} | {"sockets_per_client": 10_000}
