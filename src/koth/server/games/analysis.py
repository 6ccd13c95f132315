"""Analyses of finished games for their replays (``koth.analysis``): computed once, in
the background, in the computer seats' worker processes, and kept in the database.

A request for a game not analysed yet starts the analysis and answers "analysing" at
once; the page asks again until it is ready. The analysis of each seat's decisions uses
that seat's view at the time only (see ``koth.analysis.engine``), and is shown only
once the game is over, when the replay reveals every seat anyway.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from koth.agents.base import derive_seed
from koth.agents.levels import level_of_spec
from koth.analysis.engine import ANALYSABLE_GAMES, GameAnalysis, analyse_record, analysis_spec
from koth.core.errors import KothError
from koth.core.record import GameRecord
from koth.server.errors import InvalidRequestError, NotFinishedError
from koth.server.games.schemas import (
    AnalysedDecision,
    AnalysedSeat,
    AnalysisStatus,
    GameAnalysisResponse,
)
from koth.server.games.service import GameService
from koth.server.games.worker import ComputerWorker

log = logging.getLogger(__name__)


def analysis_agent(spec: str, max_seconds: float) -> str:
    """The analysing agent's spec, each decision capped at the server's think time.
    Raises InvalidParamsError for a spec that cannot analyse."""
    spec = analysis_spec(spec)
    return spec if ":seconds=" in spec else f"{spec}:seconds={max_seconds:g}"


def response_of(game_id: str, analysis: GameAnalysis) -> GameAnalysisResponse:
    return GameAnalysisResponse(
        game_id=game_id,
        status=AnalysisStatus.READY,
        agent=analysis.agent,
        moves=analysis.moves,
        seats=[
            AnalysedSeat(
                seat=seat.seat,
                result=seat.result,
                decisions=[
                    AnalysedDecision(
                        move=d.move,
                        seat=d.seat,
                        played=d.played,
                        preferred=d.preferred,
                        win_chance=d.win_chance,
                        played_chance=d.played_chance,
                        drop=d.drop,
                        mark=d.mark.value,
                    )
                    for d in seat.decisions
                ],
            )
            for seat in analysis.seats
        ],
    )


def _analyse(record_json: str, agent: str, seed: int) -> GameAnalysis:
    """In a worker process: the whole analysis of one record."""
    return analyse_record(GameRecord.from_json_text(record_json), agent=agent, seed=seed)


class AnalysisService:
    """Finished games' analyses: the only entry point of the analysis route."""

    def __init__(self, games: GameService, worker: ComputerWorker, agent: str) -> None:
        self.games = games
        self.worker = worker
        self.agent = agent
        self._running: dict[str, asyncio.Task[None]] = {}
        self._failed: dict[str, str] = {}

    async def analysis(self, game_id: str) -> GameAnalysisResponse:
        """The game's analysis (see ``_analysis``), its agent named by level where its
        agent and budget are a level's."""
        live = await self.games.live(game_id)  # NotFoundError
        response = await self._analysis(game_id)
        if response.agent is None:
            return response
        # the server's own caps (think time, early stopping) are not part of a level
        found = level_of_spec(live.game.name, response.agent, ignore=("seconds", "early"))
        return response.model_copy(update={"level": found.key if found else None})

    async def _analysis(self, game_id: str) -> GameAnalysisResponse:
        """The game's analysis, or its state ("analysing", "failed") while there is none;
        NotFinishedError while the game runs, InvalidRequestError for a game no search
        agent plays."""
        live = await self.games.live(game_id)  # NotFoundError
        if not live.state.is_terminal():
            raise NotFinishedError("a game is analysed once it is over")
        if live.game.name not in ANALYSABLE_GAMES:
            raise InvalidRequestError(
                f"{live.game.name} games have no search agent to analyse them"
            )
        stored = await asyncio.to_thread(self.games.repository.analysis, game_id)
        if stored is not None:
            return GameAnalysisResponse.model_validate(stored)
        if game_id in self._failed:
            return GameAnalysisResponse(
                game_id=game_id, status=AnalysisStatus.FAILED, error=self._failed[game_id]
            )
        if game_id not in self._running:
            seed = derive_seed(live.stored.chance_seed, "analysis")
            task = asyncio.get_running_loop().create_task(self._run(game_id, seed))
            self._running[game_id] = task
        return GameAnalysisResponse(
            game_id=game_id, status=AnalysisStatus.ANALYSING, agent=self.agent
        )

    async def _run(self, game_id: str, seed: int) -> None:
        try:
            record = (await self.games.record(game_id)).model_copy(update={"meta": {}})
            analysis = await self.worker.in_search_pool(
                _analyse, record.to_json_text(), self.agent, seed
            )
            result: dict[str, Any] = response_of(game_id, analysis).model_dump(mode="json")
            await asyncio.to_thread(
                self.games.repository.save_analysis, game_id, analysis.agent, result
            )
        except asyncio.CancelledError:
            raise
        except (KothError, OSError, RuntimeError) as exc:
            log.exception("analysis of game %s failed", game_id)
            self._failed[game_id] = f"the analysis failed: {exc}"
        finally:
            self._running.pop(game_id, None)

    async def stop(self) -> None:
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
