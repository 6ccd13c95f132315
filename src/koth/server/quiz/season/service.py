"""Seasons: create a series, add the host's events, merge team spellings, and build the
season table (:mod:`koth.server.quiz.season.standing`) from the events' results."""

from __future__ import annotations

import asyncio
import csv
import io

from koth.i18n import N_
from koth.server import security
from koth.server.errors import ForbiddenError, InvalidRequestError, NotFoundError
from koth.server.quiz import views
from koth.server.quiz.export import BOM, FORMULA_STARTS
from koth.server.quiz.model import EventModel
from koth.server.quiz.names import name_key
from koth.server.quiz.season.schemas import (
    AddEvent,
    CreatedSeries,
    CreateSeries,
    MergeTeams,
    SeasonLineOut,
    SeasonResult,
    SeriesEventInfo,
    SeriesSettings,
    SeriesTable,
)
from koth.server.quiz.season.standing import (
    Formula,
    SeasonEvent,
    event_results,
    merge_problem,
    season_table,
)
from koth.server.quiz.season.store import SeriesRepository, StoredSeries
from koth.server.quiz.service import QuizService

MAX_EVENTS = 200
FORMULAS: dict[str, Formula] = {"places": "places", "points": "points", "best": "best"}


class SeriesService:
    def __init__(self, quiz: QuizService) -> None:
        self.quiz = quiz
        self.repo = SeriesRepository(quiz.repo.engine)

    async def create(self, body: CreateSeries) -> CreatedSeries:
        token = security.new_token()
        series = StoredSeries(
            security.new_id(12), body.title, security.hash_token(token), body.formula, body.best
        )
        await asyncio.to_thread(self.repo.create, series)
        return CreatedSeries(id=series.id, host_token=token, page=f"/quiz/series/{series.id}")

    async def _get(self, series_id: str) -> StoredSeries:
        series = None
        if security.could_be_id(series_id):
            series = await asyncio.to_thread(self.repo.get, series_id)
        if series is None:
            raise NotFoundError(N_("no season {season!r}"), season=series_id)
        return series

    async def _hosted(self, series_id: str, token: str | None) -> StoredSeries:
        series = await self._get(series_id)
        if not security.matches(token, series.host_token_hash):
            raise ForbiddenError(N_("this needs the host link of the season (its secret token)"))
        return series

    async def settings(
        self, series_id: str, token: str | None, body: SeriesSettings
    ) -> SeriesTable:
        series = await self._hosted(series_id, token)
        series.formula, series.best = body.formula, body.best
        await asyncio.to_thread(self.repo.save, series)
        return await self.table(series_id)

    async def add_event(self, series_id: str, token: str | None, body: AddEvent) -> SeriesTable:
        series = await self._hosted(series_id, token)
        live = await self.quiz.host_event(body.event_id, body.event_token)
        if live.event_id in series.events:
            raise InvalidRequestError(
                N_("event {event} is already in this season"), event=body.event_id
            )
        if len(series.events) >= MAX_EVENTS:
            raise InvalidRequestError(N_("a season holds at most {most} events"), most=MAX_EVENTS)
        series.events.append(live.event_id)
        await asyncio.to_thread(self.repo.save, series)
        return await self.table(series_id)

    async def merge(self, series_id: str, token: str | None, body: MergeTeams) -> SeriesTable:
        series = await self._hosted(series_id, token)
        problem = merge_problem(body.spelling, body.into, series.merges)
        if problem is not None:
            raise InvalidRequestError(problem)
        series.merges[name_key(body.spelling)] = name_key(body.into)
        await asyncio.to_thread(self.repo.save, series)
        return await self.table(series_id)

    async def _event(self, event_id: str) -> SeasonEvent:
        live = await self.quiz.live(event_id)

        def build(model: EventModel, _now: float) -> SeasonEvent:
            doc = views.results_document(model)
            parts = [
                (
                    [(t.name, t.place, t.points) for t in p.standings.teams],
                    p.standings.qualified,
                )
                for p in doc.parts
            ]
            results = tuple(event_results(parts)) if doc.finished else ()
            return SeasonEvent(event_id, doc.event.title, doc.finished, results)

        event: SeasonEvent = await live.read(build)
        return event

    async def table(self, series_id: str) -> SeriesTable:
        series = await self._get(series_id)
        events = [await self._event(e) for e in series.events]
        formula = FORMULAS.get(series.formula, "places")
        lines = season_table(events, formula, series.best, series.merges)
        return SeriesTable(
            id=series.id,
            title=series.title,
            formula=formula,
            best=series.best,
            events=[
                SeriesEventInfo(event_id=e.event_id, title=e.title, finished=e.finished)
                for e in events
            ],
            merges=series.merges,
            lines=[
                SeasonLineOut(
                    rank=line.rank,
                    team=line.team,
                    score=line.score,
                    played=line.played,
                    results={
                        e.event_id: SeasonResult(place=r.place, points=r.points)
                        if (r := line.results.get(e.event_id)) is not None
                        else None
                        for e in events
                    },
                )
                for line in lines
            ],
        )

    async def table_csv(self, series_id: str) -> str:
        """The season table as CSV: rank, team, score, events played, then per event
        the place and points (with a byte-order mark, for spreadsheets)."""
        table = await self.table(series_id)
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        head = ["rank", "team", "score", "played"]
        for e in table.events:
            head += [f"{e.title} ({e.event_id}) place", f"{e.title} ({e.event_id}) points"]
        writer.writerow(head)
        for line in table.lines:
            row: list[object] = [line.rank, _cell(line.team), line.score, line.played]
            for e in table.events:
                r = line.results.get(e.event_id)
                row += [r.place, r.points] if r is not None else ["", ""]
            writer.writerow(row)
        return BOM + buffer.getvalue()


def _cell(text: str) -> str:
    """A team name that a spreadsheet would run as a formula, made plain text."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text
