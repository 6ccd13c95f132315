"""Tournaments on Ray (``--backend ray``): the same games as the process pool."""

from __future__ import annotations

import re
from typing import Any

import pytest
from typer.testing import CliRunner

from koth.cli import app
from koth.core.errors import InvalidParamsError
from koth.sim.ray_backend import RayUnavailableError
from koth.sim.runner import GameSummary, TournamentConfig, prepare, run_tournament

ray = pytest.importorskip("ray", reason="the Ray backend needs the ray extra")


def cards_config(games: int, **more: Any) -> TournamentConfig:
    return prepare(
        TournamentConfig(
            game="cards", agents=("heuristic", "random"), games=games, seed=5, workers=2, **more
        )
    )


def _comparable(games: list[GameSummary]) -> list[dict[str, Any]]:
    return [{k: v for k, v in g.items() if k not in ("duration_s", "think_seconds")} for g in games]


def test_ray_plays_the_same_games_and_keeps_them_when_interrupted() -> None:
    # one test, so that no two local Ray instances run side by side under pytest-xdist
    on_ray = run_tournament(cards_config(12, backend="ray"))
    assert not ray.is_initialized()  # the instance it started is shut down again
    in_processes = run_tournament(cards_config(12))
    assert len(on_ray.games) == 12 and not on_ray.interrupted
    assert _comparable(on_ray.games) == _comparable(in_processes.games)

    seen: list[GameSummary] = []

    def stop_after_three(summary: GameSummary) -> None:
        seen.append(summary)
        if len(seen) == 3:
            raise KeyboardInterrupt

    stopped = run_tournament(cards_config(400, backend="ray"), stop_after_three)
    assert stopped.interrupted and len(stopped.games) == 3
    assert not ray.is_initialized()


def test_an_unreachable_cluster_is_refused_before_any_game() -> None:
    with pytest.raises(RayUnavailableError, match=re.escape("cannot reach Ray at '127.0.0.1:1'")):
        cards_config(2, backend="ray", ray_address="127.0.0.1:1")
    command = ["simulate", "cards", "--agents", "heuristic,random", "--games", "2"]
    result = CliRunner().invoke(
        app, [*command, "--backend", "ray", "--ray-address", "ray://127.0.0.1:1"]
    )
    assert result.exit_code == 2 and "cannot reach Ray" in result.output


def test_backend_options_are_checked() -> None:
    with pytest.raises(InvalidParamsError, match="unknown backend 'dask'"):
        cards_config(2, backend="dask")
    with pytest.raises(InvalidParamsError, match="needs --backend ray"):
        cards_config(2, ray_address="auto")
