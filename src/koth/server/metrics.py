"""Prometheus metrics of the web app (``/metrics``), with ``prometheus-client``.

With several worker processes (``koth serve --workers N``) every process writes its
figures to ``PROMETHEUS_MULTIPROC_DIR`` and ``/metrics``, whichever process answers it,
reports them all added up (the client's multiprocess mode).
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

REQUESTS = Counter("koth_requests_total", "HTTP requests answered", ["method", "route", "status"])
LATENCY = Histogram(
    "koth_request_seconds",
    "time to answer an HTTP request",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
MOVES = Counter("koth_moves_committed_total", "game moves committed (chance outcomes included)")
SOCKETS = Gauge(
    "koth_websockets", "live WebSocket connections", ["feature"], multiprocess_mode="livesum"
)
COMPUTER_QUEUE = Gauge(
    "koth_computer_decisions_waiting",
    "computer decisions asked for and not yet made",
    multiprocess_mode="livesum",
)
QUIZ_OPS = Counter("koth_quiz_ops_total", "quiz log entries committed", ["kind"])


def exposition() -> tuple[bytes, str]:
    """The metrics text and its content type (every process's, in multiprocess mode)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(), CONTENT_TYPE_LATEST
