"""Where self-play games run: here, a local process pool, or Ray actors.

Every backend hands the games back in the order of their seeds, so a round learns from
the same rows whichever backend and however many workers played them.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from koth.agents.learned import NumpyValueNet
from koth.core.errors import KothError
from koth.train.selfplay import GameSamples, SelfPlaySettings, play_self
from koth.train.trainer import GamePlayer, play_here

BACKENDS = ("processes", "ray")


def _play(job: tuple[SelfPlaySettings, NumpyValueNet, int]) -> GameSamples:
    return play_self(*job)


class PoolPlayer:
    """A process pool of ``workers`` (``spawn``: no state shared by accident)."""

    def __init__(self, workers: int) -> None:
        self.pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))

    def __call__(
        self, settings: SelfPlaySettings, net: NumpyValueNet, seeds: list[int]
    ) -> Iterator[GameSamples]:
        yield from self.pool.map(_play, [(settings, net, s) for s in seeds])

    def close(self) -> None:
        self.pool.shutdown(cancel_futures=True)


class RayPlayer:
    """Ray tasks on a local instance with ``workers`` CPUs."""

    def __init__(self, workers: int) -> None:
        try:
            import ray  # the optional extra koth-games[ray]
        except ImportError:
            raise KothError("--backend ray needs Ray: pip install 'koth-games[ray]'") from None
        self.ray: Any = ray
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        self.task = ray.remote(_play)

    def __call__(
        self, settings: SelfPlaySettings, net: NumpyValueNet, seeds: list[int]
    ) -> Iterator[GameSamples]:
        refs = [self.task.remote((settings, net, s)) for s in seeds]
        for ref in refs:
            yield self.ray.get(ref)

    def close(self) -> None:
        self.ray.shutdown()


def make_player(backend: str, workers: int) -> tuple[GamePlayer, Any]:
    """The game player for ``backend`` and what to close when done (None: nothing)."""
    if backend not in BACKENDS:
        raise KothError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    if backend == "ray":
        player = RayPlayer(workers)
        return player, player
    if workers == 1:
        return play_here, None
    pool = PoolPlayer(workers)
    return pool, pool
