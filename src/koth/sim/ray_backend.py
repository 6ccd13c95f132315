"""Tournaments on Ray: the same games as the process pool, scheduled by a Ray cluster.

With no address a local Ray instance is started with ``workers`` CPUs (and shut down at
the end); with an address (``auto``, ``ray://host:10001``, ``host:6379``) the games run
on that cluster, one CPU each, and its nodes need the same ``koth-games`` installed.
Results arrive as they finish; an interruption cancels the games still running and
keeps the finished ones, as the process pool does.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from koth.core.errors import KothError

#: ray.wait returns at most this many finished games at once (progress stays lively)
_BATCH = 16


class RayUnavailableError(KothError):
    """Ray is not installed, or the cluster at the given address cannot be reached."""


def check_reachable(address: str, timeout: float = 3.0) -> None:
    """Fail fast on a ``host:port`` (or ``ray://host:port``) nobody answers at: Ray
    itself retries such an address for minutes. ``auto`` and other forms are Ray's."""
    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host or "127.0.0.1", int(port)), timeout=timeout).close()
    except OSError as exc:
        raise RayUnavailableError(
            f"cannot reach Ray at {address!r}: {exc.strerror or exc}"
        ) from None


def _import_ray() -> ModuleType:
    try:
        import ray  # the optional extra koth-games[ray]
    except ImportError:
        raise RayUnavailableError(
            "the Ray backend needs Ray: pip install 'koth-games[ray]'"
        ) from None
    return ray


def check_backend(address: str | None) -> None:
    """Raise RayUnavailableError now, before any game, when Ray is missing or the
    cluster address does not answer."""
    _import_ray()
    if address is not None:
        check_reachable(address)


def run_on_ray(
    tasks: Sequence[Any],
    play: Callable[[Any], dict[str, Any]],
    keep: Callable[[dict[str, Any]], None],
    *,
    workers: int,
    address: str | None,
) -> None:
    """Run ``play(task)`` for every task on Ray and ``keep`` each result as it comes."""
    ray = _import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        if address is not None:
            check_reachable(address)
        try:
            if address is None:
                ray.init(
                    num_cpus=workers,
                    include_dashboard=False,
                    log_to_driver=False,
                    configure_logging=False,
                )
            else:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = "a local Ray instance" if address is None else f"Ray at {address!r}"
            raise RayUnavailableError(f"cannot start {where}: {exc}") from None
    remote_play = ray.remote(num_cpus=1, max_retries=0)(play)
    pending = [remote_play.remote(task) for task in tasks]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=min(_BATCH, len(pending)), timeout=0.5)
            results = ray.get(done)
            for summary in sorted(results, key=lambda r: int(r["index"])):
                keep(summary)
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started_here:
            ray.shutdown()
